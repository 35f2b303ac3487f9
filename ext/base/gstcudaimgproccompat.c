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

#include "gstcudaimgproccompat.h"

#if HAVE_GST_ANALYTICS
#include <gst/analytics/analytics.h>
#endif

#if GST_CHECK_VERSION (1, 24, 0)

GstCudaStream *
gst_cuda_imgproc_stream_new (GstCudaContext * context)
{
  return gst_cuda_stream_new (context);
}

GstCudaStream *
gst_cuda_imgproc_stream_ref (GstCudaStream * stream)
{
  return stream ? gst_cuda_stream_ref (stream) : NULL;
}

void
gst_cuda_imgproc_clear_stream (GstCudaStream ** stream)
{
  gst_clear_cuda_stream (stream);
}

gpointer
gst_cuda_imgproc_stream_handle (GstCudaStream * stream)
{
  return stream ? (gpointer) gst_cuda_stream_get_handle (stream) : NULL;
}

GstMemory *
gst_cuda_imgproc_memory_alloc (GstAllocator * allocator,
    GstCudaContext * context, GstCudaStream * stream, const GstVideoInfo * info)
{
  return gst_cuda_allocator_alloc (GST_CUDA_ALLOCATOR (allocator), context,
      stream, info);
}

GstCudaStream *
gst_cuda_imgproc_memory_get_stream (GstMemory * mem)
{
  if (!gst_is_cuda_memory (mem))
    return NULL;
  return gst_cuda_memory_get_stream (GST_CUDA_MEMORY_CAST (mem));
}

#else /* GStreamer 1.22 */

GstCudaStream *
gst_cuda_imgproc_stream_new (GstCudaContext * context)
{
  return NULL;
}

GstCudaStream *
gst_cuda_imgproc_stream_ref (GstCudaStream * stream)
{
  return NULL;
}

void
gst_cuda_imgproc_clear_stream (GstCudaStream ** stream)
{
  *stream = NULL;
}

gpointer
gst_cuda_imgproc_stream_handle (GstCudaStream * stream)
{
  return NULL;
}

GstMemory *
gst_cuda_imgproc_memory_alloc (GstAllocator * allocator,
    GstCudaContext * context, GstCudaStream * stream, const GstVideoInfo * info)
{
  return gst_cuda_allocator_alloc (GST_CUDA_ALLOCATOR (allocator), context,
      info);
}

GstCudaStream *
gst_cuda_imgproc_memory_get_stream (GstMemory * mem)
{
  return NULL;
}

#endif

gboolean
gst_cuda_imgproc_have_analytics_meta (void)
{
  return HAVE_GST_ANALYTICS;
}

guint
gst_cuda_imgproc_add_analytics_regions (GstBuffer * buffer, GQuark type,
    const CipRegion * regions, guint n, guint n_more)
{
#if HAVE_GST_ANALYTICS
  /* Sized for every entry at once: the meta keeps an order^2 relation
   * matrix, regrown to twice the order (and copied) each time it fills
   * up. */
  GstAnalyticsRelationMetaInitParams params = { MAX (n + n_more, 1),
    (gsize) MAX (n + n_more, 1) * 64
  };
  GstAnalyticsRelationMeta *meta;
  /* 1.24 writes the handle whether asked for or not. */
  GstAnalyticsODMtd od;
  guint i;

  if (n == 0)
    return 0;
  /* A pooled buffer keeps its relation meta, emptied, sized for the frame
   * it was made for: one for fewer entries would grow by that many at a
   * time, copying its matrix each time.  Made again to size. */
  meta = gst_buffer_get_analytics_relation_meta (buffer);
  if (meta != NULL && gst_analytics_relation_get_length (meta) == 0) {
    gst_buffer_remove_meta (buffer, (GstMeta *) meta);
    meta = NULL;
  }
  /* GStreamer keeps one a frame: an input's, passed on, takes ours too. */
  meta = gst_buffer_add_analytics_relation_meta_full (buffer, &params);
  if (meta == NULL)
    return 0;
  for (i = 0; i < n; i++)
    if (!gst_analytics_relation_meta_add_od_mtd (meta, type, regions[i].left,
            regions[i].top, regions[i].width, regions[i].height, 1.0f, &od))
      break;
  return i;
#else
  return 0;
#endif
}

gboolean
gst_cuda_imgproc_have_analytics_segmentation (void)
{
  return HAVE_GST_ANALYTICS_SEGMENTATION;
}

gboolean
gst_cuda_imgproc_add_analytics_segmentation (GstBuffer * buffer,
    const GstVideoInfo * info, guint16 max_id)
{
#if HAVE_GST_ANALYTICS_SEGMENTATION
  /* every id a label image can hold, made once; the meta copies those it
   * takes */
  static guint ids[G_MAXUINT16 + 1];
  static gsize ids_made = 0;
  GstAnalyticsRelationMeta *meta;
  GstAnalyticsSegmentationMtd segmentation;
  GstVideoMeta *layout = gst_buffer_get_video_meta (buffer);
  GstBuffer *mask;
  guint i;

  if (g_once_init_enter (&ids_made)) {
    for (i = 0; i < G_N_ELEMENTS (ids); i++)
      ids[i] = i;
    g_once_init_leave (&ids_made, 1);
  }
  meta = gst_buffer_get_analytics_relation_meta (buffer);
  if (meta == NULL)
    meta = gst_buffer_add_analytics_relation_meta (buffer);
  if (meta == NULL)
    return FALSE;
  /* Its memory appended to a new buffer, not gst_buffer_copy_region():
   * that would hang a parent-buffer meta on the mask when @buffer comes
   * from a pool, and the meta would hold the buffer it is on. */
  mask = gst_buffer_new ();
  for (i = 0; i < gst_buffer_n_memory (buffer); i++)
    gst_buffer_append_memory (mask, gst_buffer_get_memory (buffer, i));
  /* the frame's own layout where it has one (a downstream pool's) */
  if (layout != NULL)
    gst_buffer_add_video_meta_full (mask, GST_VIDEO_FRAME_FLAG_NONE,
        layout->format, layout->width, layout->height, layout->n_planes,
        layout->offset, layout->stride);
  else
    gst_buffer_add_video_meta_full (mask, GST_VIDEO_FRAME_FLAG_NONE,
        GST_VIDEO_INFO_FORMAT (info), GST_VIDEO_INFO_WIDTH (info),
        GST_VIDEO_INFO_HEIGHT (info), GST_VIDEO_INFO_N_PLANES (info),
        info->offset, info->stride);
  /* the meta takes the mask */
  if (!gst_analytics_relation_meta_add_segmentation_mtd (meta, mask,
          GST_SEGMENTATION_TYPE_INSTANCE, (gsize) max_id + 1, ids, 0, 0,
          GST_VIDEO_INFO_WIDTH (info), GST_VIDEO_INFO_HEIGHT (info),
          &segmentation)) {
    gst_buffer_unref (mask);
    return FALSE;
  }
  return TRUE;
#else
  return FALSE;
#endif
}
