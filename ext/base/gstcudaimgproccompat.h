/* gst-cuda-imgproc
 * Copyright (C) 2026 The gst-cuda-imgproc authors
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2 of the License, or (at your option) any later version.
 */

/* What differs between the GStreamer versions the plugin builds against
 * (1.20 to 1.28), in one place: nothing else tests GST_CHECK_VERSION or
 * HAVE_GST_CUDA (but the CUDA-memory pool, gstcudaimgprocpool.c, which
 * exists only with libgstcuda).
 *
 * GStreamer 1.20 has no libgstcuda (gstreamer-cuda-1.0 came with 1.22;
 * 1.20 keeps that code inside nvcodec), so there is no GstCudaMemory to
 * take, give or map and no GstCudaContext to share.  Built without it
 * (HAVE_GST_CUDA 0), this header stands in for the part of libgstcuda the
 * rooms use, under the same names, so that they read the same on every
 * version: GstCudaContext is then our own context object (the device's
 * primary context, through the driver library loaded at run time), pushed
 * and popped as libgstcuda's; each element makes its own (contexts are not
 * shared through GstContext, but the primary context is one per device
 * and process anyway); GST_MAP_CUDA and the memory:CUDAMemory feature are
 * defined but never met, since without CUDA memory
 * (gst_cuda_imgproc_have_cuda_memory) the elements offer system memory
 * only.
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

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <gst/gst.h>
#include <gst/video/video.h>

#if !defined (HAVE_GST_CUDA)
#error "gstcudaimgproccompat.h needs config.h (HAVE_GST_CUDA)"
#endif

#if HAVE_GST_CUDA
#include <gst/cuda/gstcudacontext.h>
#include <gst/cuda/gstcudaloader.h>
#include <gst/cuda/gstcudamemory.h>
#include <gst/cuda/gstcudautils.h>
#endif

#include "cip.h"

G_BEGIN_DECLS
#if HAVE_GST_CUDA && GST_CHECK_VERSION (1, 24, 0)
#include <gst/cuda/gstcudastream.h>
#else
typedef struct _GstCudaStream GstCudaStream;
#endif

#if !HAVE_GST_CUDA
/* The stand-in for libgstcuda (GStreamer 1.20): see above. */
typedef struct _GstCudaImgprocContext GstCudaContext;

#define GST_MAP_CUDA (GST_MAP_FLAG_LAST << 1)
#define GST_CAPS_FEATURE_MEMORY_CUDA_MEMORY "memory:CUDAMemory"

/* Whether the driver library could be loaded (once a process). */
gboolean gst_cuda_imgproc_load_library (void);
/* Device @device_id's primary context, retained; NULL where it cannot be
 * had. */
GstCudaContext *gst_cuda_imgproc_context_new (gint device_id);
gboolean gst_cuda_imgproc_context_push (GstCudaContext * context);
gboolean gst_cuda_imgproc_context_pop (gpointer * cuda_ctx);
/* @context, made for @device_id (-1: device 0) unless already there. */
gboolean gst_cuda_imgproc_ensure_element_context (GstElement * element,
    gint device_id, GstCudaContext ** context);

#define gst_cuda_load_library() gst_cuda_imgproc_load_library ()
#define gst_cuda_context_push(context) gst_cuda_imgproc_context_push (context)
#define gst_cuda_context_pop(cuda_ctx) gst_cuda_imgproc_context_pop (cuda_ctx)
#define gst_cuda_ensure_element_context(element, device_id, context) \
    gst_cuda_imgproc_ensure_element_context (element, device_id, context)
/* No GstContext sharing: nothing is taken, no query answered. */
static inline gboolean
gst_cuda_imgproc_handle_set_context (GstElement * element,
    GstContext * context, gint device_id, GstCudaContext ** cuda_ctx)
{
  return FALSE;
}

static inline gboolean
gst_cuda_imgproc_handle_context_query (GstElement * element,
    GstQuery * query, GstCudaContext * cuda_ctx)
{
  return FALSE;
}

#define gst_cuda_handle_set_context gst_cuda_imgproc_handle_set_context
#define gst_cuda_handle_context_query gst_cuda_imgproc_handle_context_query
#endif

/* Whether this build has CUDA memory (libgstcuda, GStreamer 1.22+): the
 * memory:CUDAMemory caps feature, GstCudaContext sharing, nvcodec
 * interop.  Without it, system memory only. */
gboolean gst_cuda_imgproc_have_cuda_memory (void);

/* The number of CUDA devices, after loading the driver and cuInit; -1
 * when the driver cannot be loaded, 0 with @error_name (nullable) the
 * driver's answer when there is no usable device. */
gint gst_cuda_imgproc_device_count (const gchar ** error_name);

/* Whether @mem is a GstCudaMemory of @context, whose device pointer the
 * kernels can use as it is (never without libgstcuda). */
gboolean gst_cuda_imgproc_memory_is_of_context (GstMemory * mem,
    GstCudaContext * context);

/* A new stream of @context for frames shared with other elements, or
 * NULL where GStreamer has none (before 1.24, or the stream could not be
 * made). */
GstCudaStream *gst_cuda_imgproc_stream_new (GstCudaContext * context);
GstCudaStream *gst_cuda_imgproc_stream_ref (GstCudaStream * stream);
void gst_cuda_imgproc_clear_stream (GstCudaStream ** stream);
/* Its CUstream. */
gpointer gst_cuda_imgproc_stream_handle (GstCudaStream * stream);

/* A GstCudaMemory frame of @info in @context whose work is ordered on
 * @stream (which is ignored before 1.24); NULL without libgstcuda. */
GstMemory *gst_cuda_imgproc_memory_alloc (GstAllocator * allocator,
    GstCudaContext * context, GstCudaStream * stream,
    const GstVideoInfo * info);
/* The stream @mem's work is ordered on: NULL when it has none. */
GstCudaStream *gst_cuda_imgproc_memory_get_stream (GstMemory * mem);

/* Whether this GStreamer has the analytics meta (1.24+, built with
 * libgstanalytics). */
gboolean gst_cuda_imgproc_have_analytics_meta (void);

/* The track of a region: its id, and when it was first seen. */
typedef struct
{
  guint64 id;
  GstClockTime first_seen;
} GstCudaImgprocTrack;

/* One GstAnalyticsODMtd of @type per region of @regions (its bounding
 * box, confidence 1) in @buffer's GstAnalyticsRelationMeta, made for
 * them and @n_more entries more; with @tracks (one per region, or NULL)
 * also a GstAnalyticsTrackingMtd per region, last seen at @last_seen,
 * which its ODMtd relates to (GST_ANALYTICS_REL_TYPE_RELATE_TO).  The
 * number of regions added (0 without the analytics meta). */
guint gst_cuda_imgproc_add_analytics_regions (GstBuffer * buffer,
    GQuark type, const CipRegion * regions, guint n,
    const GstCudaImgprocTrack * tracks, GstClockTime last_seen, guint n_more);

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
