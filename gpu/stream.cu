/* gst-cuda-imgproc
 * Copyright (C) 2026 The gst-cuda-imgproc authors
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2 of the License, or (at your option) any later version.
 */

/* Devices, streams, memory and copies. */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cip-cuda.cuh"

/* Process-wide counters for tests and leak checks; updated atomically. */
static uint64_t allocations_made;
static uint64_t allocations_freed;

static void
count_allocation (CipStream * stream)
{
  __atomic_fetch_add (&allocations_made, 1, __ATOMIC_RELAXED);
  if (stream && stream->stats)
    stream->stats->allocations++;
}

static void
count_free (CipStream * stream)
{
  __atomic_fetch_add (&allocations_freed, 1, __ATOMIC_RELAXED);
  if (stream && stream->stats)
    stream->stats->frees++;
}

static CipStatus
status_from_cuda (cudaError_t err)
{
  switch (err) {
    case cudaSuccess:
      return CIP_OK;
    case cudaErrorMemoryAllocation:
      return CIP_ERROR_OUT_OF_MEMORY;
    case cudaErrorNoDevice:
    case cudaErrorInsufficientDriver:
    case cudaErrorInvalidDevice:
    case cudaErrorDevicesUnavailable:
      return CIP_ERROR_NO_DEVICE;
    case cudaErrorInvalidValue:
      return CIP_ERROR_INVALID_ARGUMENT;
    default:
      return CIP_ERROR_CUDA;
  }
}

/* Test-only fault injection (see CIP_FAULT in cip-cuda.cuh), compiled in
 * only in builds configured with -Dtest-switches=true (CIP_TEST_SWITCHES):
 * without it CIP_FAULT is never read and no fault is ever armed.  Each
 * countdown fires when it reaches zero; unset, it starts at zero and only
 * goes further down. */
bool cip_fault_armed;

#if CIP_TEST_SWITCHES
static int64_t fault_countdown[CIP_N_FAULTS];
static const char *const fault_names[CIP_N_FAULTS] = { "alloc", "launch" };

__attribute__ ((constructor))
static void
fault_read_environment (void)
{
  const char *spec = getenv ("CIP_FAULT");

  while (spec && *spec) {
    const char *end = strchr (spec, ',');
    size_t len = end ? (size_t) (end - spec) : strlen (spec);
    bool known = false;

    for (int i = 0; i < CIP_N_FAULTS; i++) {
      size_t name_len = strlen (fault_names[i]);
      char *rest;
      long long n;

      if (len <= name_len + 1 || strncmp (spec, fault_names[i], name_len) != 0
          || spec[name_len] != ':')
        continue;
      n = strtoll (spec + name_len + 1, &rest, 10);
      if (n < 1 || rest != spec + len)
        continue;
      fault_countdown[i] = n;
      cip_fault_armed = known = true;
    }
    if (!known)
      fprintf (stderr, "CIP_FAULT: ignoring \"%.*s\" (expected alloc:N or "
          "launch:N, N >= 1)\n", (int) len, spec);
    spec = end ? end + 1 : NULL;
  }
}

bool
cip_fault_fire (CipFault fault)
{
  if (__atomic_sub_fetch (&fault_countdown[fault], 1, __ATOMIC_RELAXED) != 0)
    return false;
  fprintf (stderr, "CIP_FAULT: injecting a %s failure\n", fault_names[fault]);
  return true;
}
#else
bool
cip_fault_fire (CipFault fault)
{
  (void) fault;
  return false;
}
#endif

/* Before each allocation: the injected failure, reported as a real one. */
#define CIP_FAULT_TRY_ALLOC(stream, call)                           \
  do {                                                              \
    if (CIP_FAULT_HIT (CIP_FAULT_ALLOC))                            \
      return cip_cuda_fail ((stream), call " (injected)",           \
          cudaErrorMemoryAllocation);                               \
  } while (0)

CipStatus
cip_cuda_fail (CipStream * stream, const char *call, cudaError_t err)
{
  if (stream)
    snprintf (stream->error, sizeof (stream->error), "%s failed: %s (%s)",
        call, cudaGetErrorName (err), cudaGetErrorString (err));
  return status_from_cuda (err);
}

CipStatus
cip_device_count (int *count)
{
  cudaError_t err = cudaGetDeviceCount (count);

  if (err != cudaSuccess) {
    *count = 0;
    (void) cudaGetLastError ();
    return CIP_ERROR_NO_DEVICE;
  }
  return *count > 0 ? CIP_OK : CIP_ERROR_NO_DEVICE;
}

static CipStatus
stream_init (CipStream * s, void *cuda_stream)
{
  int device, integrated;

  CIP_CUDA_TRY (s, cudaGetDevice (&device));
  CIP_CUDA_TRY (s, cudaDeviceGetAttribute (&s->sm_count,
          cudaDevAttrMultiProcessorCount, device));
  CIP_CUDA_TRY (s, cudaDeviceGetAttribute (&s->shared_optin,
          cudaDevAttrMaxSharedMemoryPerBlockOptin, device));
#if CIP_TEST_SWITCHES
  /* CIP_SHARED_LIMIT=BYTES: a smaller device's shared memory, for the
   * tests of the paths that depend on it */
  {
    const char *limit = getenv ("CIP_SHARED_LIMIT");

    if (limit && atoi (limit) > 0 && atoi (limit) < s->shared_optin)
      s->shared_optin = atoi (limit);
  }
#endif
  CIP_CUDA_TRY (s, cudaDeviceGetAttribute (&integrated,
          cudaDevAttrIntegrated, device));
  s->integrated = integrated != 0;
  if (cuda_stream) {
    s->stream = (cudaStream_t) cuda_stream;
  } else {
    CIP_CUDA_TRY (s, cudaStreamCreateWithFlags (&s->stream,
            cudaStreamNonBlocking));
    s->owns_stream = true;
  }
  CIP_FAULT_TRY_ALLOC (s, "cudaMalloc");
  CIP_CUDA_TRY (s, cudaMalloc ((void **) &s->hist,
          (2 * CIP_HIST_BINS + 1) * sizeof (uint32_t)));
  count_allocation (s);
  /* Zero once; each histogram operation zeroes the buffer the next one
   * will use, and its last block the block counter. */
  CIP_CUDA_TRY (s, cudaMemset (s->hist, 0,
          (2 * CIP_HIST_BINS + 1) * sizeof (uint32_t)));
  CIP_FAULT_TRY_ALLOC (s, "cudaMalloc");
  CIP_CUDA_TRY (s, cudaMalloc ((void **) &s->table, CIP_HIST_BINS));
  count_allocation (s);
  return CIP_OK;
}

static CipStatus
stream_new (CipStream ** stream, void *cuda_stream, CipMemoryStats * stats,
    char *error, size_t error_size)
{
  CipStream *s = (CipStream *) calloc (1, sizeof (CipStream));
  CipStatus status;

  if (s == NULL)
    return CIP_ERROR_OUT_OF_MEMORY;
  s->stats = stats;
  status = stream_init (s, cuda_stream);
  if (status != CIP_OK) {
    if (error && error_size)
      snprintf (error, error_size, "%s", s->error);
    cip_stream_free (s);
    return status;
  }
  *stream = s;
  return CIP_OK;
}

CipStatus
cip_stream_new (CipStream ** stream, CipMemoryStats * stats, char *error,
    size_t error_size)
{
  return stream_new (stream, NULL, stats, error, error_size);
}

CipStatus
cip_stream_new_on (CipStream ** stream, void *cuda_stream,
    CipMemoryStats * stats, char *error, size_t error_size)
{
  if (cuda_stream == NULL)
    return CIP_ERROR_INVALID_ARGUMENT;
  return stream_new (stream, cuda_stream, stats, error, error_size);
}

void
cip_stream_free (CipStream * stream)
{
  if (stream == NULL)
    return;
  if (stream->stream) {
    cudaStreamSynchronize (stream->stream);
    if (stream->owns_stream)
      cudaStreamDestroy (stream->stream);
  }
  if (stream->side) {
    cudaStreamSynchronize (stream->side);
    cudaEventDestroy (stream->side_fork);
    cudaEventDestroy (stream->side_join);
    cudaStreamDestroy (stream->side);
  }
  if (stream->hist) {
    cudaFree (stream->hist);
    count_free (stream);
  }
  if (stream->table) {
    cudaFree (stream->table);
    count_free (stream);
  }
  for (int i = 0; i < CIP_N_SCRATCH; i++) {
    if (stream->scratch[i].data) {
      cudaFree (stream->scratch[i].data);
      count_free (stream);
    }
  }
  free (stream);
}

CipStatus
cip_cuda_scratch (CipStream * stream, CipScratchSlot slot, size_t size,
    void **data)
{
  CipScratch *scratch = &stream->scratch[slot];

  if (size > scratch->size) {
    if (scratch->data) {
      /* Work still queued may be using the old buffer. */
      CIP_CUDA_TRY (stream, cudaStreamSynchronize (stream->stream));
      cudaFree (scratch->data);
      count_free (stream);
      scratch->data = NULL;
      scratch->size = 0;
    }
    CIP_FAULT_TRY_ALLOC (stream, "cudaMalloc");
    CIP_CUDA_TRY (stream, cudaMalloc (&scratch->data, size));
    count_allocation (stream);
    scratch->size = size;
  }
  *data = scratch->data;
  return CIP_OK;
}

CipStatus
cip_cuda_fork (CipStream * stream, cudaStream_t * side)
{
  if (stream->side == NULL) {
    cudaStream_t made = NULL;
    cudaEvent_t fork = NULL, join = NULL;
    cudaError_t err = cudaStreamCreateWithFlags (&made,
        cudaStreamNonBlocking);

    if (err == cudaSuccess)
      err = cudaEventCreateWithFlags (&fork, cudaEventDisableTiming);
    if (err == cudaSuccess)
      err = cudaEventCreateWithFlags (&join, cudaEventDisableTiming);
    if (err != cudaSuccess) {
      if (join)
        cudaEventDestroy (join);
      if (fork)
        cudaEventDestroy (fork);
      if (made)
        cudaStreamDestroy (made);
      return cip_cuda_fail (stream, "side stream", err);
    }
    stream->side = made;
    stream->side_fork = fork;
    stream->side_join = join;
  }
  CIP_CUDA_TRY (stream, cudaEventRecord (stream->side_fork, stream->stream));
  CIP_CUDA_TRY (stream, cudaStreamWaitEvent (stream->side, stream->side_fork,
          0));
  *side = stream->side;
  return CIP_OK;
}

CipStatus
cip_cuda_join (CipStream * stream)
{
  CIP_CUDA_TRY (stream, cudaEventRecord (stream->side_join, stream->side));
  CIP_CUDA_TRY (stream, cudaStreamWaitEvent (stream->stream,
          stream->side_join, 0));
  return CIP_OK;
}

CipStatus
cip_stream_synchronize (CipStream * stream)
{
  if (stream == NULL)
    return CIP_ERROR_INVALID_ARGUMENT;
  CIP_CUDA_TRY (stream, cudaStreamSynchronize (stream->stream));
  return CIP_OK;
}

void *
cip_stream_handle (CipStream * stream)
{
  return stream ? (void *) stream->stream : NULL;
}

const char *
cip_stream_error (const CipStream * stream)
{
  return stream ? stream->error : "no stream";
}

CipStatus
cip_image_alloc (CipImage * image, int width, int height, CipFormat format,
    CipStream * stream)
{
  size_t pitch;
  void *data;
  int bpp = cip_format_bytes_per_pixel (format);

  if (image == NULL || bpp == 0 || width < 1 || width > CIP_MAX_DIMENSION ||
      height < 1 || height > CIP_MAX_DIMENSION)
    return CIP_ERROR_INVALID_ARGUMENT;

  CIP_FAULT_TRY_ALLOC (stream, "cudaMallocPitch");
  /* packed 4:2:2: an odd width's last macropixel whole */
  CIP_CUDA_TRY (stream, cudaMallocPitch (&data, &pitch,
          format == CIP_FORMAT_YUYV || format == CIP_FORMAT_UYVY ?
          (size_t) cip_packed_row_bytes (width) : (size_t) width * bpp,
          height));
  count_allocation (stream);
  image->data = data;
  image->width = width;
  image->height = height;
  image->stride = pitch;
  image->format = format;
  return CIP_OK;
}

void
cip_image_free (CipImage * image, CipStream * stream)
{
  if (image == NULL || image->data == NULL)
    return;
  cudaFree (image->data);
  count_free (stream);
  memset (image, 0, sizeof (*image));
}

CipStatus
cip_host_alloc (void **ptr, size_t size, CipStream * stream)
{
  /* Portable: pinned for every context, whichever is current later. */
  CIP_FAULT_TRY_ALLOC (stream, "cudaHostAlloc");
  CIP_CUDA_TRY (stream, cudaHostAlloc (ptr, size, cudaHostAllocPortable));
  count_allocation (stream);
  return CIP_OK;
}

void
cip_host_free (void *ptr, CipStream * stream)
{
  if (ptr == NULL)
    return;
  cudaFreeHost (ptr);
  count_free (stream);
}

bool
cip_stream_integrated (CipStream * stream)
{
  return stream->integrated;
}

/* Page-locked host memory is addressable by kernels in every 64-bit
 * process (unified addressing); its device address may differ from the
 * host's where the memory was registered without it. */
bool
cip_host_device_address (const void *host, void **device)
{
  cudaPointerAttributes attributes;

  if (cudaPointerGetAttributes (&attributes, host) != cudaSuccess) {
    cudaGetLastError ();
    return false;
  }
  if (attributes.type != cudaMemoryTypeHost || !attributes.devicePointer)
    return false;
  *device = attributes.devicePointer;
  return true;
}

CipStatus
cip_host_register (void *host, size_t size, CipStream * stream)
{
  /* Portable: for every context; mapped: addressable by kernels. */
  cudaError_t err = cudaHostRegister (host, size,
      cudaHostRegisterPortable | cudaHostRegisterMapped);

  if (err == cudaSuccess)
    return CIP_OK;
  /* a refusal is not sticky: left as the last error, the next launch's
   * check would take it for its own */
  (void) cudaGetLastError ();
  return cip_cuda_fail (stream, "cudaHostRegister", err);
}

void
cip_host_unregister (void *host)
{
  if (cudaHostUnregister (host) != cudaSuccess)
    cudaGetLastError ();
}

CipStatus
cip_buffer_alloc (void **ptr, size_t size, CipStream * stream)
{
  CIP_FAULT_TRY_ALLOC (stream, "cudaMalloc");
  CIP_CUDA_TRY (stream, cudaMalloc (ptr, size ? size : 1));
  count_allocation (stream);
  return CIP_OK;
}

void
cip_buffer_free (void *ptr, CipStream * stream)
{
  if (ptr == NULL)
    return;
  cudaFree (ptr);
  count_free (stream);
}

void
cip_memory_stats (CipMemoryStats * stats)
{
  stats->allocations = __atomic_load_n (&allocations_made, __ATOMIC_RELAXED);
  stats->frees = __atomic_load_n (&allocations_freed, __ATOMIC_RELAXED);
}

CipStatus
cip_copy (const CipImage * src, CipImage * dst, CipStream * stream)
{
  if (stream == NULL || cip_image_validate (src) != CIP_OK
      || cip_image_validate (dst) != CIP_OK
      || src->width != dst->width || src->height != dst->height
      || src->format != dst->format)
    return CIP_ERROR_INVALID_ARGUMENT;

  size_t row_bytes = (size_t) src->width *
      cip_format_bytes_per_pixel (src->format);
  size_t packed_bytes = (size_t) cip_packed_row_bytes (src->width);

  /* Packed 4:2:2 of an odd width: its last macropixel whole, where both
   * rows hold it (GStreamer's and cip_image_alloc's do). */
  if ((src->format == CIP_FORMAT_YUYV || src->format == CIP_FORMAT_UYVY) &&
      src->stride >= packed_bytes && dst->stride >= packed_bytes)
    row_bytes = packed_bytes;

  /* cudaMemcpyDefault: unified addressing tells host from device.  Rows
   * without padding on both sides go as one block, the copy that
   * bench-kernels' frame floors time (their 2-D rows, the other way,
   * came out the same on the H100). */
  if (src->stride == row_bytes && dst->stride == row_bytes)
    CIP_CUDA_TRY (stream, cudaMemcpyAsync (dst->data, src->data,
            row_bytes * src->height, cudaMemcpyDefault, stream->stream));
  else
    CIP_CUDA_TRY (stream, cudaMemcpy2DAsync (dst->data, dst->stride,
            src->data, src->stride, row_bytes, src->height,
            cudaMemcpyDefault, stream->stream));
  return CIP_OK;
}

CipStatus
cip_fill (CipImage * image, uint8_t value, CipStream * stream)
{
  if (stream == NULL || cip_image_validate (image) != CIP_OK)
    return CIP_ERROR_INVALID_ARGUMENT;
  CIP_CUDA_TRY (stream, cudaMemset2DAsync (image->data, image->stride, value,
          (size_t) image->width * cip_format_bytes_per_pixel (image->format),
          image->height, stream->stream));
  return CIP_OK;
}

struct _CipEvent
{
  cudaEvent_t event;
};

static CipStatus
event_new (CipEvent ** event, unsigned int flags, CipStream * stream)
{
  CipEvent *e = (CipEvent *) calloc (1, sizeof (CipEvent));

  if (e == NULL)
    return CIP_ERROR_OUT_OF_MEMORY;
  /* No timing: recording and waiting stay cheap. */
  cudaError_t err = cudaEventCreateWithFlags (&e->event,
      cudaEventDisableTiming | flags);
  if (err != cudaSuccess) {
    free (e);
    return cip_cuda_fail (stream, "cudaEventCreateWithFlags", err);
  }
  *event = e;
  return CIP_OK;
}

CipStatus
cip_event_new (CipEvent ** event, CipStream * stream)
{
  return event_new (event, 0, stream);
}

CipStatus
cip_event_new_blocking (CipEvent ** event, CipStream * stream)
{
  return event_new (event, cudaEventBlockingSync, stream);
}

void
cip_event_free (CipEvent * event)
{
  if (event == NULL)
    return;
  cudaEventDestroy (event->event);
  free (event);
}

CipStatus
cip_event_record (CipEvent * event, CipStream * stream)
{
  if (event == NULL || stream == NULL)
    return CIP_ERROR_INVALID_ARGUMENT;
  CIP_CUDA_TRY (stream, cudaEventRecord (event->event, stream->stream));
  return CIP_OK;
}

CipStatus
cip_stream_wait_stream (CipStream * stream, void *other, CipEvent * event)
{
  if (event == NULL || stream == NULL || other == NULL)
    return CIP_ERROR_INVALID_ARGUMENT;
  CIP_CUDA_TRY (stream, cudaEventRecord (event->event, (cudaStream_t) other));
  CIP_CUDA_TRY (stream, cudaStreamWaitEvent (stream->stream, event->event,
          0));
  return CIP_OK;
}

CipStatus
cip_stream_wait_event (CipStream * stream, CipEvent * event)
{
  if (event == NULL || stream == NULL)
    return CIP_ERROR_INVALID_ARGUMENT;
  CIP_CUDA_TRY (stream, cudaStreamWaitEvent (stream->stream, event->event,
          0));
  return CIP_OK;
}

bool
cip_event_done (CipEvent * event)
{
  cudaError_t err = cudaEventQuery (event->event);

  /* "Not ready" is an answer, not a failure for the next check to see;
   * any other error is left for the wait that reports it. */
  if (err == cudaErrorNotReady)
    (void) cudaGetLastError ();
  return err == cudaSuccess;
}

CipStatus
cip_event_synchronize (CipEvent * event, CipStream * stream)
{
  if (event == NULL)
    return CIP_ERROR_INVALID_ARGUMENT;
  CIP_CUDA_TRY (stream, cudaEventSynchronize (event->event));
  return CIP_OK;
}
