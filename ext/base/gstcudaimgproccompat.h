/* gst-cuda-imgproc
 * Copyright (C) 2026 The gst-cuda-imgproc authors
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2 of the License, or (at your option) any later version.
 */

/* What differs between the GStreamer versions the plugin builds against
 * (1.22 to 1.28), in one place: nothing else tests GST_CHECK_VERSION.
 *
 * Since 1.24 a GstCudaMemory can carry a GstCudaStream: its writer's work
 * is ordered on that stream, and a reader either runs on the same stream
 * or waits for it.  Before 1.24 there are no such streams; the functions
 * below then say there is none, and the elements synchronize as they
 * always did.
 *
 * Since 1.24 a frame can carry what was found in it as a
 * GstAnalyticsRelationMeta (libgstanalytics), which GStreamer's own
 * elements (objectdetectionoverlay) read; since 1.26 that includes a
 * segmentation (an image of region ids). */

#ifndef __GST_CUDA_IMGPROC_COMPAT_H__
#define __GST_CUDA_IMGPROC_COMPAT_H__

#include <gst/gst.h>
#include <gst/video/video.h>
#include <gst/cuda/gstcudacontext.h>
#include <gst/cuda/gstcudamemory.h>

#include "cip.h"

G_BEGIN_DECLS

#if GST_CHECK_VERSION (1, 24, 0)
#include <gst/cuda/gstcudastream.h>
#else
typedef struct _GstCudaStream GstCudaStream;
#endif

/* A new stream of @context for frames shared with other elements, or
 * NULL where GStreamer has none (1.22, or the stream could not be made). */
GstCudaStream *gst_cuda_imgproc_stream_new (GstCudaContext * context);
GstCudaStream *gst_cuda_imgproc_stream_ref (GstCudaStream * stream);
void gst_cuda_imgproc_clear_stream (GstCudaStream ** stream);
/* Its CUstream. */
gpointer gst_cuda_imgproc_stream_handle (GstCudaStream * stream);

/* A GstCudaMemory frame of @info in @context whose work is ordered on
 * @stream (which is ignored before 1.24). */
GstMemory *gst_cuda_imgproc_memory_alloc (GstAllocator * allocator,
    GstCudaContext * context, GstCudaStream * stream,
    const GstVideoInfo * info);
/* The stream @mem's work is ordered on: NULL when it has none. */
GstCudaStream *gst_cuda_imgproc_memory_get_stream (GstMemory * mem);

/* Whether this GStreamer has the analytics meta (1.24+, built with
 * libgstanalytics). */
gboolean gst_cuda_imgproc_have_analytics_meta (void);

/* One GstAnalyticsODMtd of @type per region of @regions (its bounding
 * box, confidence 1) in @buffer's GstAnalyticsRelationMeta, made for
 * them and @n_more entries more; the number added (0 without the
 * analytics meta). */
guint gst_cuda_imgproc_add_analytics_regions (GstBuffer * buffer,
    GQuark type, const CipRegion * regions, guint n, guint n_more);

/* Whether this GStreamer has the analytics segmentation (1.26+). */
gboolean gst_cuda_imgproc_have_analytics_segmentation (void);

/* @buffer, an image of region ids described by @info (GRAY16_LE), as an
 * instance GstAnalyticsSegmentationMtd of itself in its
 * GstAnalyticsRelationMeta, with the ids 0 .. @max_id.  The mask is a
 * buffer of its own that shares @buffer's memory, so that the meta does
 * not hold the buffer it is on.  FALSE without the analytics
 * segmentation. */
gboolean gst_cuda_imgproc_add_analytics_segmentation (GstBuffer * buffer,
    const GstVideoInfo * info, guint16 max_id);

G_END_DECLS

#endif /* __GST_CUDA_IMGPROC_COMPAT_H__ */
