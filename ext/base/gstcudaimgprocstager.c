/* gst-cuda-imgproc
 * Copyright (C) 2026 The gst-cuda-imgproc authors
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2 of the License, or (at your option) any later version.
 */

/* One upload, chunk by chunk:
 *
 * 1. grant: the calling (streaming) thread lets a chunk be taken once the
 *    slot it goes to is free, that is, once the device copy of the slot's
 *    previous chunk has run;
 * 2. copy: any thread, the streaming thread or a helper, takes the next
 *    granted chunk and copies its rows into its slot;
 * 3. send: the streaming thread alone queues the device copy of each
 *    copied chunk, in order, and records the slot's event after it.
 *
 * Only the streaming thread makes CUDA calls: helpers copy host memory,
 * nothing else, and need no context.  A helper may come late, once the
 * upload it was called for is over: it then helps with the next one, or
 * finds none and leaves. */

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <string.h>

#include <gst/gst.h>

#include "gstcudaimgprocstager.h"
#include "cip-pixel.h"

GST_DEBUG_CATEGORY_EXTERN (gst_cuda_imgproc_filter_debug);
#define GST_CAT_DEFAULT gst_cuda_imgproc_filter_debug

/* Rows go in chunks of about this many bytes: a device copy of one runs
 * near the bus's speed, and a frame makes enough of them for the threads
 * to share. */
#define CHUNK_BYTES (1 << 20)
/* Staging memory an element may page-lock: a frame larger than that
 * reuses slots within the frame. */
#define MAX_STAGING_BYTES (32 << 20)
/* Helper threads of the process, at most: the copies are bound by the
 * host's memory, which a few threads fill. */
#define MAX_HELPERS 4

struct _GstCudaImgprocStager
{
  const CipOps *ops;
  CipStream *stream;            /* NULL with the reference's ops */

  /* The ring of slots, and for each slot the event recorded after the
   * device copy that reads it, with the number of that record (0: none).
   * Records run in stream order: once one has, every older one has too.
   * The streaming thread's alone. */
  guint8 *staging;
  gsize staging_bytes;
  gsize slot_bytes;
  guint n_slots;
  guint slots_allocated;
  CipEvent **slot_read;
  guint64 *slot_record;
  guint64 records;              /* made so far */
  guint64 passed;               /* the newest known to have run */
  guint next_slot;              /* where the next upload starts */

  /* The upload in progress: its geometry is set before it becomes
   * active and stays until it is over; the rest is under @lock. */
  GMutex lock;
  GCond cond;
  gboolean active;
  const guint8 *src;
  gsize src_stride;
  gsize row_bytes;
  guint height;
  guint rows_per_chunk;
  guint n_chunks;
  guint first_slot;
  guint granted;                /* chunks that may be taken */
  guint taken;                  /* chunks taken, in order */
  gboolean *copied;             /* chunk by chunk */
  guint chunks_allocated;
  guint n_copied;
  /* helper calls queued or running */
  guint pending_helpers;
};

static void help (gpointer data, gpointer unused);

static gpointer
helpers_new (gpointer unused)
{
  guint n_threads = CLAMP (g_get_num_processors () / 2, 1, MAX_HELPERS);
  GError *error = NULL;
  GThreadPool *pool = g_thread_pool_new (help, NULL, n_threads, TRUE, &error);

  if (pool == NULL) {
    GST_WARNING ("no helper threads for the uploads: %s",
        error ? error->message : "unknown error");
    g_clear_error (&error);
    return NULL;
  }
  g_clear_error (&error);
  GST_DEBUG ("%u helper threads for the uploads", n_threads);
  return pool;
}

/* The helper threads, shared by every stager of the process: started by
 * the first upload, kept for the life of the process. */
static GThreadPool *
helpers (void)
{
  static GOnce once = G_ONCE_INIT;

  return g_once (&once, helpers_new, NULL);
}

GstCudaImgprocStager *
gst_cuda_imgproc_stager_new (const CipOps * ops, CipStream * stream)
{
  GstCudaImgprocStager *stager = g_new0 (GstCudaImgprocStager, 1);

  stager->ops = ops;
  stager->stream = stream;
  g_mutex_init (&stager->lock);
  g_cond_init (&stager->cond);
  return stager;
}

/* Waits until the device copy that reads @slot has run. */
static CipStatus
wait_slot (GstCudaImgprocStager * stager, guint slot)
{
  CipStatus status;

  if (stager->slot_record[slot] <= stager->passed)
    return CIP_OK;
  status = cip_event_synchronize (stager->slot_read[slot], stager->stream);
  if (status == CIP_OK)
    stager->passed = stager->slot_record[slot];
  return status;
}

/* Waits until no device copy reads the staging memory: the newest
 * record's. */
static CipStatus
wait_slots (GstCudaImgprocStager * stager)
{
  guint slot, newest = 0;

  for (slot = 0; slot < stager->slots_allocated; slot++)
    if (stager->slot_record[slot] > stager->slot_record[newest])
      newest = slot;
  return stager->slots_allocated > 0 ? wait_slot (stager, newest) : CIP_OK;
}

void
gst_cuda_imgproc_stager_free (GstCudaImgprocStager * stager)
{
  guint slot;

  if (stager == NULL)
    return;
  /* a helper called for the last upload may not have run yet */
  g_mutex_lock (&stager->lock);
  while (stager->pending_helpers > 0)
    g_cond_wait (&stager->cond, &stager->lock);
  g_mutex_unlock (&stager->lock);

  (void) wait_slots (stager);
  if (stager->staging)
    stager->ops->host_free (stager->staging, stager->stream);
  for (slot = 0; slot < stager->slots_allocated; slot++)
    g_clear_pointer (&stager->slot_read[slot], cip_event_free);
  g_free (stager->slot_read);
  g_free (stager->slot_record);
  g_free (stager->copied);
  g_mutex_clear (&stager->lock);
  g_cond_clear (&stager->cond);
  g_free (stager);
}

/* The staging memory for chunks of @slot_bytes, @n_chunks a frame: a
 * ring of two frames where that is within MAX_STAGING_BYTES, so that a
 * frame's slots were last read two frames before, else as many slots as
 * fit.  Reallocated only where it is too small. */
static CipStatus
ensure_staging (GstCudaImgprocStager * stager, gsize slot_bytes, guint n_chunks)
{
  guint n_slots = MIN (2 * n_chunks, MAX (MAX_STAGING_BYTES / slot_bytes, 1));
  CipStatus status;
  guint slot;

  if (n_chunks > stager->chunks_allocated) {
    g_mutex_lock (&stager->lock);
    stager->copied = g_renew (gboolean, stager->copied, n_chunks);
    stager->chunks_allocated = n_chunks;
    g_mutex_unlock (&stager->lock);
  }
  if (slot_bytes == stager->slot_bytes && n_slots == stager->n_slots)
    return CIP_OK;

  /* the slots move: none may still be read */
  status = wait_slots (stager);
  if (status != CIP_OK)
    return status;
  stager->slot_bytes = stager->n_slots = 0;
  if (slot_bytes * n_slots > stager->staging_bytes) {
    if (stager->staging)
      stager->ops->host_free (stager->staging, stager->stream);
    stager->staging = NULL;
    stager->staging_bytes = 0;
    status = stager->ops->host_alloc ((void **) &stager->staging,
        slot_bytes * n_slots, stager->stream);
    if (status != CIP_OK) {
      stager->staging = NULL;
      return status;
    }
    stager->staging_bytes = slot_bytes * n_slots;
  }
  if (n_slots > stager->slots_allocated) {
    stager->slot_read = g_renew (CipEvent *, stager->slot_read, n_slots);
    stager->slot_record = g_renew (guint64, stager->slot_record, n_slots);
    for (slot = stager->slots_allocated; slot < n_slots; slot++) {
      stager->slot_read[slot] = NULL;
      stager->slot_record[slot] = 0;
    }
    stager->slots_allocated = n_slots;
  }
  for (slot = 0; stager->stream && slot < n_slots; slot++) {
    if (stager->slot_read[slot])
      continue;
    status = cip_event_new (&stager->slot_read[slot], stager->stream);
    if (status != CIP_OK)
      return status;
  }
  GST_DEBUG ("staging: %u slots of %" G_GSIZE_FORMAT " bytes", n_slots,
      slot_bytes);
  stager->slot_bytes = slot_bytes;
  stager->n_slots = n_slots;
  stager->next_slot = 0;
  return CIP_OK;
}

static guint
slot_of (GstCudaImgprocStager * stager, guint chunk)
{
  return (stager->first_slot + chunk) % stager->n_slots;
}

static guint
chunk_rows (GstCudaImgprocStager * stager, guint chunk)
{
  return MIN (stager->rows_per_chunk,
      stager->height - chunk * stager->rows_per_chunk);
}

/* Copies the rows of @chunk into its slot, packed; any thread. */
static void
copy_chunk (GstCudaImgprocStager * stager, guint chunk)
{
  gsize first_row = (gsize) chunk * stager->rows_per_chunk;
  guint rows = chunk_rows (stager, chunk), y;
  const guint8 *from = stager->src + first_row * stager->src_stride;
  guint8 *to = stager->staging + slot_of (stager, chunk) * stager->slot_bytes;

  if (stager->src_stride == stager->row_bytes) {
    memcpy (to, from, rows * stager->row_bytes);
    return;
  }
  for (y = 0; y < rows; y++)
    memcpy (to + y * stager->row_bytes, from + y * stager->src_stride,
        stager->row_bytes);
}

/* A helper: takes granted chunks until the upload has none left. */
static void
help (gpointer data, gpointer unused)
{
  GstCudaImgprocStager *stager = data;

  g_mutex_lock (&stager->lock);
  while (stager->active && stager->taken < stager->n_chunks) {
    guint chunk;

    /* its slot is still read: briefly, by the device copy before */
    if (stager->taken == stager->granted) {
      g_cond_wait (&stager->cond, &stager->lock);
      continue;
    }
    chunk = stager->taken++;
    g_mutex_unlock (&stager->lock);
    copy_chunk (stager, chunk);
    g_mutex_lock (&stager->lock);
    stager->copied[chunk] = TRUE;
    stager->n_copied++;
    g_cond_broadcast (&stager->cond);
  }
  stager->pending_helpers--;
  g_cond_broadcast (&stager->cond);
  g_mutex_unlock (&stager->lock);
}

/* Calls as many helpers as there are chunks besides the streaming
 * thread's first, within the pool's threads. */
static void
call_helpers (GstCudaImgprocStager * stager)
{
  GThreadPool *pool = helpers ();
  guint wanted;

  if (pool == NULL || stager->n_chunks < 2)
    return;
  wanted = MIN ((guint) g_thread_pool_get_max_threads (pool),
      stager->n_chunks - 1);
  g_mutex_lock (&stager->lock);
  while (stager->pending_helpers < wanted) {
    stager->pending_helpers++;
    g_thread_pool_push (pool, stager, NULL);
  }
  g_mutex_unlock (&stager->lock);
}

/* Whether the device copy that reads @slot has run, asking the GPU only
 * where no newer record is known to have. */
static gboolean
slot_free (GstCudaImgprocStager * stager, guint slot)
{
  if (stager->slot_record[slot] <= stager->passed)
    return TRUE;
  if (!cip_event_done (stager->slot_read[slot]))
    return FALSE;
  stager->passed = stager->slot_record[slot];
  return TRUE;
}

/* Grants the chunks, from the first not granted yet, whose slot no device
 * copy reads any more: in a frame larger than the ring, the slot's
 * previous chunk must have been sent (@sent chunks are), and in any
 * frame the copy that reads the slot must have run.  The streaming
 * thread only: it alone changes @granted. */
static void
grant (GstCudaImgprocStager * stager, guint sent)
{
  guint limit = MIN (stager->n_chunks, sent + stager->n_slots);
  guint chunk, newest = stager->granted;

  /* one question for all, usually: the newest record the candidates
   * wait for */
  for (chunk = stager->granted; chunk < limit; chunk++)
    if (stager->slot_record[slot_of (stager, chunk)] >
        stager->slot_record[slot_of (stager, newest)])
      newest = chunk;
  if (newest < limit)
    (void) slot_free (stager, slot_of (stager, newest));
  for (chunk = stager->granted; chunk < limit; chunk++)
    if (!slot_free (stager, slot_of (stager, chunk)))
      break;

  if (chunk > stager->granted) {
    g_mutex_lock (&stager->lock);
    stager->granted = chunk;
    g_cond_broadcast (&stager->cond);
    g_mutex_unlock (&stager->lock);
  }
}

/* Waits for the device copy that reads the next chunk's slot, then
 * grants what it can. */
static CipStatus
wait_and_grant (GstCudaImgprocStager * stager, guint sent)
{
  CipStatus status = wait_slot (stager, slot_of (stager, stager->granted));

  if (status == CIP_OK)
    grant (stager, sent);
  return status;
}

/* Queues the device copy of @chunk, from its slot into its rows of @dst,
 * and records its slot's event after it. */
static CipStatus
send (GstCudaImgprocStager * stager, guint chunk, CipImage * dst)
{
  guint slot = slot_of (stager, chunk);
  gsize first_row = (gsize) chunk * stager->rows_per_chunk;
  CipImage staged = *dst, rows = *dst;
  CipStatus status;

  staged.data = stager->staging + slot * stager->slot_bytes;
  staged.height = chunk_rows (stager, chunk);
  staged.stride = stager->row_bytes;
  rows.data = (guint8 *) dst->data + first_row * dst->stride;
  rows.height = staged.height;
  status = stager->ops->copy (&staged, &rows, stager->stream);
  if (status == CIP_OK && stager->stream) {
    /* the slot counts as read from here on, even if the event failed */
    stager->slot_record[slot] = ++stager->records;
    status = cip_event_record (stager->slot_read[slot], stager->stream);
  }
  return status;
}

/* The streaming thread's part: grants, copies chunks, and sends each
 * copied one as soon as those before it are, until every chunk is sent
 * or a call failed.  On return no thread touches a slot or @src. */
static CipStatus
run (GstCudaImgprocStager * stager, CipImage * dst)
{
  CipStatus status = CIP_OK;
  guint sent = 0;

  while (status == CIP_OK && sent < stager->n_chunks) {
    gboolean wait_for_slot = FALSE;
    gint mine = -1;
    guint ready;

    grant (stager, sent);
    g_mutex_lock (&stager->lock);
    for (ready = sent; ready < stager->n_chunks && stager->copied[ready];
        ready++);
    if (ready == sent) {
      if (stager->taken < stager->granted)
        mine = stager->taken++;
      else if (stager->granted < stager->n_chunks &&
          stager->granted < sent + stager->n_slots)
        wait_for_slot = TRUE;
      else
        /* the next chunk to send is a helper's, still being copied */
        g_cond_wait (&stager->cond, &stager->lock);
    }
    g_mutex_unlock (&stager->lock);

    if (mine >= 0) {
      copy_chunk (stager, mine);
      g_mutex_lock (&stager->lock);
      stager->copied[mine] = TRUE;
      stager->n_copied++;
      g_mutex_unlock (&stager->lock);
    } else if (wait_for_slot) {
      status = wait_and_grant (stager, sent);
    } else {
      for (; sent < ready && status == CIP_OK; sent++)
        status = send (stager, sent, dst);
    }
  }

  g_mutex_lock (&stager->lock);
  /* after a failure, no more chunks: those taken are finished */
  stager->granted = stager->taken;
  while (stager->n_copied < stager->taken)
    g_cond_wait (&stager->cond, &stager->lock);
  stager->active = FALSE;
  g_cond_broadcast (&stager->cond);
  g_mutex_unlock (&stager->lock);
  return status;
}

CipStatus
gst_cuda_imgproc_stager_upload (GstCudaImgprocStager * stager,
    const CipImage * src, CipImage * dst)
{
  gsize row_bytes, rows_per_chunk;
  guint n_chunks;
  CipStatus status;

  if (cip_image_validate (src) != CIP_OK || cip_image_validate (dst) != CIP_OK
      || src->width != dst->width || src->height != dst->height
      || src->format != dst->format)
    return CIP_ERROR_INVALID_ARGUMENT;
  /* packed 4:2:2 of an odd width: its last macropixel whole, as cip_copy
   * copies it */
  row_bytes = src->format == CIP_FORMAT_YUYV || src->format == CIP_FORMAT_UYVY
      ? (gsize) cip_packed_row_bytes (src->width) : (gsize) src->width *
      cip_format_bytes_per_pixel (src->format);
  /* a stride that ends at the last pixel instead (a video meta's of
   * 2 x width): the plain copy takes it */
  if (src->stride < row_bytes || dst->stride < row_bytes)
    return stager->ops->copy (src, dst, stager->stream);
  rows_per_chunk = CLAMP (CHUNK_BYTES / row_bytes, 1, (gsize) src->height);
  n_chunks = (src->height + rows_per_chunk - 1) / rows_per_chunk;
  status = ensure_staging (stager, rows_per_chunk * row_bytes, n_chunks);
  if (status != CIP_OK)
    return status;

  g_mutex_lock (&stager->lock);
  stager->src = src->data;
  stager->src_stride = src->stride;
  stager->row_bytes = row_bytes;
  stager->height = src->height;
  stager->rows_per_chunk = rows_per_chunk;
  stager->n_chunks = n_chunks;
  stager->first_slot = stager->next_slot;
  stager->granted = stager->taken = stager->n_copied = 0;
  memset (stager->copied, 0, n_chunks * sizeof (gboolean));
  stager->active = TRUE;
  g_mutex_unlock (&stager->lock);

  grant (stager, 0);
  call_helpers (stager);
  status = run (stager, dst);
  stager->next_slot = (stager->first_slot + n_chunks) % stager->n_slots;
  return status;
}
