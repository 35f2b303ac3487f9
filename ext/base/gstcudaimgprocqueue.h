/* gst-cuda-imgproc
 * Copyright (C) 2026 The gst-cuda-imgproc authors
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2 of the License, or (at your option) any later version.
 */

/* The frames an element has in flight, oldest first: each one entry with
 * everything its frame needs until its work has run and its output has
 * left: the input (which the GPU may still read), the output (until it
 * leaves), the frame as the subclass sees it (readback area, state,
 * timing), the event recorded after its work, and its own device copies
 * of the input where the element reads them again when the frame is
 * done.  The frame path decides when entries come and go
 * (gstcudaimgprocframepath.c); this is only where they live. */

#ifndef __GST_CUDA_IMGPROC_QUEUE_H__
#define __GST_CUDA_IMGPROC_QUEUE_H__

#include <gst/gst.h>

#include "cip.h"
#include "gstcudaimgprocfilter.h"

G_BEGIN_DECLS

/* Entries at most: frames whose output leaves before their work has run
 * wait, past four, for the oldest (more would keep more of upstream's
 * buffers); frames whose output waits for their work need two, the one
 * held and the next. */
#define GST_CUDA_IMGPROC_QUEUE_DEPTH 4
#define GST_CUDA_IMGPROC_QUEUE_DEPTH_WAITING 2

typedef struct
{
  GstCudaImgprocFrame frame;
  GstBuffer *input;
  GstBuffer *output;            /* until it leaves */
  /* recorded after its work (NULL on cpu): one of two, by how the host
   * waits for it.  An output that left is waited for only when the queue
   * is full, by then briefly: the host polls.  An output that waits for
   * its work may wait long: the host sleeps, leaving the cores to other
   * pipelines. */
  CipEvent *done;
  CipEvent *done_polled;
  CipEvent *done_sleeping;
  /* the output leaves only once the work has run ... */
  gboolean waits;
  /* ... and, when it is the newest, may wait there for the next frame */
  gboolean may_hold;
  /* for elements that read the frame again when it is done */
  CipImage upload;
  CipImage intensity_upload;
} GstCudaImgprocQueued;

typedef struct
{
  GstCudaImgprocQueued *entries;
  guint depth;
  guint first;
  guint count;
  guint8 *readback;             /* depth areas, page-locked on cuda */
  guint8 *states;               /* depth subclass states */
  const CipOps *ops;
  CipStream *stream;
} GstCudaImgprocQueue;

/* @depth entries, each with @readback_size bytes of readback (through
 * @ops: page-locked on the cuda backend), @state_size bytes of state and,
 * with a @stream, an event; their frames' host_allocator is
 * @host_allocator. */
CipStatus gst_cuda_imgproc_queue_init (GstCudaImgprocQueue * queue,
    guint depth, gsize readback_size, gsize state_size, const CipOps * ops,
    CipStream * stream, GstAllocator * host_allocator);
/* Frees what init allocated and the entries' device copies; the entries
 * must have been taken out. */
void gst_cuda_imgproc_queue_clear (GstCudaImgprocQueue * queue);

/* The @i-th entry from the oldest (i < count); entry @count is the next
 * free one, which gst_cuda_imgproc_queue_append () adds. */
GstCudaImgprocQueued *gst_cuda_imgproc_queue_nth (GstCudaImgprocQueue *
    queue, guint i);
void gst_cuda_imgproc_queue_append (GstCudaImgprocQueue * queue);
/* Takes the oldest entry out, letting go of its buffers. */
void gst_cuda_imgproc_queue_pop (GstCudaImgprocQueue * queue);
/* Frees every entry's device copies (caps change). */
void gst_cuda_imgproc_queue_free_uploads (GstCudaImgprocQueue * queue);

#define gst_cuda_imgproc_queue_is_full(q) ((q)->count == (q)->depth)

G_END_DECLS

#endif /* __GST_CUDA_IMGPROC_QUEUE_H__ */
