/* gst-cuda-imgproc
 * Copyright (C) 2026 The gst-cuda-imgproc authors
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2 of the License, or (at your option) any later version.
 */

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <string.h>

#include "gstcudaimgprocqueue.h"

CipStatus
gst_cuda_imgproc_queue_init (GstCudaImgprocQueue * queue, guint depth,
    gsize readback_size, gsize state_size, const CipOps * ops,
    CipStream * stream, GstAllocator * host_allocator)
{
  CipStatus status;
  guint i;

  memset (queue, 0, sizeof (*queue));
  queue->depth = depth;
  queue->ops = ops;
  queue->stream = stream;
  queue->entries = g_new0 (GstCudaImgprocQueued, depth);
  queue->states = g_malloc0 (MAX (depth * state_size, 1));
  status = ops->host_alloc ((void **) &queue->readback,
      MAX (depth * readback_size, 1), stream);
  for (i = 0; i < depth; i++) {
    GstCudaImgprocQueued *entry = &queue->entries[i];

    entry->frame.ops = ops;
    entry->frame.stream = stream;
    entry->frame.host_allocator = host_allocator;
    entry->frame.state = queue->states + i * state_size;
    if (queue->readback)
      entry->frame.readback = queue->readback + i * readback_size;
    if (status == CIP_OK && stream)
      status = cip_event_new (&entry->done_polled, stream);
    if (status == CIP_OK && stream)
      status = cip_event_new_blocking (&entry->done_sleeping, stream);
  }
  return status;
}

void
gst_cuda_imgproc_queue_free_uploads (GstCudaImgprocQueue * queue)
{
  guint i;

  for (i = 0; i < queue->depth; i++) {
    cip_image_free (&queue->entries[i].upload, queue->stream);
    cip_image_free (&queue->entries[i].intensity_upload, queue->stream);
  }
}

void
gst_cuda_imgproc_queue_clear (GstCudaImgprocQueue * queue)
{
  guint i;

  if (queue->entries == NULL)
    return;
  g_warn_if_fail (queue->count == 0);
  if (queue->stream)
    gst_cuda_imgproc_queue_free_uploads (queue);
  for (i = 0; i < queue->depth; i++) {
    g_clear_pointer (&queue->entries[i].done_polled, cip_event_free);
    g_clear_pointer (&queue->entries[i].done_sleeping, cip_event_free);
  }
  queue->ops->host_free (queue->readback, queue->stream);
  g_free (queue->states);
  g_free (queue->entries);
  memset (queue, 0, sizeof (*queue));
}

GstCudaImgprocQueued *
gst_cuda_imgproc_queue_nth (GstCudaImgprocQueue * queue, guint i)
{
  g_assert (i <= queue->count && i < queue->depth);
  return &queue->entries[(queue->first + i) % queue->depth];
}

void
gst_cuda_imgproc_queue_append (GstCudaImgprocQueue * queue)
{
  g_assert (queue->count < queue->depth);
  queue->count++;
}

void
gst_cuda_imgproc_queue_pop (GstCudaImgprocQueue * queue)
{
  GstCudaImgprocQueued *entry = gst_cuda_imgproc_queue_nth (queue, 0);

  gst_clear_buffer (&entry->input);
  gst_clear_buffer (&entry->output);
  queue->first = (queue->first + 1) % queue->depth;
  queue->count--;
}
