/* gst-cuda-imgproc
 * Copyright (C) 2026 The gst-cuda-imgproc authors
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2 of the License, or (at your option) any later version.
 */

/* cip: the image operations of gst-cuda-imgproc, on the GPU.
 *
 * Every operation takes its images by CipImage (pointer, size, stride,
 * format) and runs asynchronously on a CipStream.  Images passed to cip_*
 * operations live in device memory; cip_copy() moves them between host and
 * device.  Each operation has a CPU twin with the same signature in
 * ref/cip-ref.h that defines its result: the GPU output equals it byte for
 * byte.
 *
 * The caller makes a CUDA context current (for example a GstCudaContext)
 * before any call; every call uses whatever context is current.  Nothing
 * here allocates memory per call: device scratch space lives in the stream,
 * images are allocated once with cip_image_alloc().
 */

#ifndef __CIP_H__
#define __CIP_H__

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef enum
{
  CIP_OK = 0,
  CIP_ERROR_INVALID_ARGUMENT,   /* bad size, stride, format or pointer */
  CIP_ERROR_NO_DEVICE,          /* no driver, or no usable device */
  CIP_ERROR_OUT_OF_MEMORY,      /* a device or page-locked allocation failed */
  CIP_ERROR_CUDA,               /* any other CUDA failure; see cip_stream_error() */
} CipStatus;

typedef enum
{
  CIP_FORMAT_GRAY8,
  CIP_FORMAT_RGBA,
  CIP_FORMAT_BGRA,
  CIP_FORMAT_RGBX,
  CIP_FORMAT_BGRX,
  CIP_FORMAT_ARGB,
  CIP_FORMAT_ABGR,
  CIP_FORMAT_RGB,
  CIP_FORMAT_BGR,
} CipFormat;

#define CIP_N_FORMATS (CIP_FORMAT_BGR + 1)

/* Largest width and height accepted by every operation. */
#define CIP_MAX_DIMENSION 16384

typedef struct
{
  void *data;                   /* first byte of the first row */
  int width;                    /* pixels, 1 .. CIP_MAX_DIMENSION */
  int height;                   /* rows, 1 .. CIP_MAX_DIMENSION */
  size_t stride;                /* bytes from one row to the next */
  CipFormat format;
} CipImage;

typedef enum
{
  CIP_GRAY_BT601,               /* OpenCV's COLOR_RGB2GRAY, bit for bit */
  CIP_GRAY_BT709,
  CIP_GRAY_LUMINOSITY,          /* 0.21 R + 0.71 G + 0.07 B */
  CIP_GRAY_AVERAGE,             /* (R + G + B) / 3 */
} CipGrayMethod;

typedef struct
{
  uint8_t threshold;            /* a pixel above it is foreground */
  uint8_t foreground;           /* value written for foreground pixels */
  bool invert;                  /* write foreground for the other pixels */
} CipMaskParams;

typedef struct
{
  uint64_t allocations;         /* device and page-locked allocations made */
  uint64_t frees;               /* ... and released */
} CipMemoryStats;

/* An element's CUDA stream and the small scratch buffers its operations
 * need (histogram, lookup table, threshold), created once. */
typedef struct _CipStream CipStream;

/* Pixel layout. */
int cip_format_bytes_per_pixel (CipFormat format);
const char *cip_format_name (CipFormat format);
const char *cip_status_name (CipStatus status);

/* Checks that @image is well formed: pointer set, sizes in range, stride
 * holding a whole row. */
CipStatus cip_image_validate (const CipImage * image);

/* Devices.  Returns CIP_ERROR_NO_DEVICE (and *count = 0) when there is no
 * driver or no device. */
CipStatus cip_device_count (int *count);

/* Streams, in the current context.  Every allocation and release made
 * with the stream (its own scratch included) is also added to @stats when
 * set, which must outlive the stream.  On failure @error, when set, says
 * why. */
CipStatus cip_stream_new (CipStream ** stream, CipMemoryStats * stats,
    char *error, size_t error_size);
void cip_stream_free (CipStream * stream);
CipStatus cip_stream_synchronize (CipStream * stream);
/* The CUDA stream (a cudaStream_t). */
void *cip_stream_handle (CipStream * stream);
/* What the last failed call on @stream said, with the CUDA error's name. */
const char *cip_stream_error (const CipStream * stream);

/* Events mark a point in a stream's work, so that another stream, or the
 * host, can wait for it without waiting for the whole stream. */
typedef struct _CipEvent CipEvent;

CipStatus cip_event_new (CipEvent ** event, CipStream * stream);
void cip_event_free (CipEvent * event);
/* Marks the work enqueued on @stream so far. */
CipStatus cip_event_record (CipEvent * event, CipStream * stream);
/* Work enqueued on @stream from now on waits for @event (a no-op if it
 * was never recorded). */
CipStatus cip_stream_wait_event (CipStream * stream, CipEvent * event);
/* Whether the work @event marks is done (or it was never recorded). */
bool cip_event_done (CipEvent * event);
/* Blocks until it is. */
CipStatus cip_event_synchronize (CipEvent * event, CipStream * stream);

/* Memory.  Device images are pitched for coalesced rows. */
CipStatus cip_image_alloc (CipImage * image, int width, int height,
    CipFormat format, CipStream * stream);
void cip_image_free (CipImage * image, CipStream * stream);
CipStatus cip_host_alloc (void **ptr, size_t size, CipStream * stream);
void cip_host_free (void *ptr, CipStream * stream);
/* All allocations and releases of the process, through any stream. */
void cip_memory_stats (CipMemoryStats * stats);

/* Copies the pixels of @src into @dst (same size and format), host or
 * device on either side, asynchronously on @stream. */
CipStatus cip_copy (const CipImage * src, CipImage * dst, CipStream * stream);

/* Operations.  @src and @dst are device images of the same size; @dst is
 * GRAY8.  Each is asynchronous: results are ready after
 * cip_stream_synchronize(). */

/* Colour (any CipFormat) to gray. GRAY8 input is copied. */
CipStatus cip_gray (const CipImage * src, CipImage * dst,
    CipGrayMethod method, CipStream * stream);

/* Binary mask of a gray image: see CipMaskParams. */
CipStatus cip_mask (const CipImage * src, CipImage * dst,
    const CipMaskParams * params, CipStream * stream);

/* Global histogram equalization, OpenCV's equalizeHist bit for bit. */
CipStatus cip_equalize (const CipImage * src, CipImage * dst,
    CipStream * stream);

/* Binarization at the image's Otsu threshold (OpenCV's THRESH_OTSU): a
 * pixel above the threshold becomes 255, every other 0 (swapped when
 * @invert).  The threshold is written to @threshold, which must be
 * page-locked host memory (cip_host_alloc) and is valid once the stream is
 * synchronized. */
CipStatus cip_otsu (const CipImage * src, CipImage * dst, bool invert,
    uint8_t * threshold, CipStream * stream);

#ifdef __cplusplus
}
#endif

#endif /* __CIP_H__ */
