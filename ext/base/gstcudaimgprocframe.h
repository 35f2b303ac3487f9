/* gst-cuda-imgproc
 * Copyright (C) 2026 The gst-cuda-imgproc authors
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2 of the License, or (at your option) any later version.
 */

/* Frames as the kernels see them: GStreamer video frames mapped, checked
 * against what their caps say, and their planes described as CipImages. */

#ifndef __GST_CUDA_IMGPROC_FRAME_H__
#define __GST_CUDA_IMGPROC_FRAME_H__

#include <gst/gst.h>
#include <gst/video/video.h>
#include "gstcudaimgproccompat.h"

#include "cip.h"
#include "gstcudaimgprocdevice.h"

G_BEGIN_DECLS

/* The CipFormat of the first plane of @format (GRAY8 for the luma of NV12
 * and I420); FALSE for a format no operation takes. */
gboolean gst_cuda_imgproc_cip_format (GstVideoFormat format,
    CipFormat * cip_format);

/* Maps @buffer as a frame of @info for @flags, refusing a buffer whose
 * video meta describes another frame, or whose planes do not lie within
 * its memory (gst_video_frame_map() takes a meta's strides and offsets as
 * they are).  FALSE: nothing is mapped, and @why says what is wrong. */
gboolean gst_cuda_imgproc_frame_map_checked (GstVideoFrame * frame,
    const GstVideoInfo * info, GstBuffer * buffer, GstMapFlags flags,
    const gchar ** why);
/* The same checks without mapping (a buffer passed through untouched). */
gboolean gst_cuda_imgproc_frame_check (const GstVideoInfo * info,
    GstBuffer * buffer, const gchar ** why);
/* Posts STREAM/FORMAT for @buffer, the @what ("Input", "Output") frame,
 * which a check refused saying @why; returns GST_FLOW_ERROR. */
GstFlowReturn gst_cuda_imgproc_frame_refuse (GstElement * element,
    const GstVideoInfo * info, GstBuffer * buffer, const gchar * what,
    const gchar * why);

/* Plane @plane of @frame as an image: the first plane in @format, the
 * others as rows of bytes (they are only ever copied or filled). */
CipImage gst_cuda_imgproc_plane_image (GstVideoFrame * frame, guint plane,
    CipFormat format);

/* Whether @buffer is one device frame of @context, whose pointer the
 * kernels can use as it is. */
gboolean gst_cuda_imgproc_is_device_frame (GstBuffer * buffer,
    GstCudaContext * context);

/* Whether @image, the first plane of @frame in system memory, can be used
 * in place by @device's kernels: its memory is page-locked, or @frame's
 * one memory could be page-locked now (once: it stays so until freed, and
 * a memory the driver refused is not asked again; within the bounds of
 * gst_cuda_imgproc_frame_pin_recurring()).  Then @image's data is
 * the kernels' address of it.  With the context current. */
gboolean gst_cuda_imgproc_frame_in_place (GstVideoFrame * frame,
    CipImage * image, GstCudaImgprocDevice * device);

/* Before @frame, in system memory, is copied to or from the device: its
 * one memory, pageable, is page-locked the second time it comes (a pool's
 * buffers, a frozen image, an application's ring of frames), so that its
 * copies from then on run at the bus's speed, not through the driver's
 * staging; memory seen once is left as it is.  The registrations of the
 * process are bounded in number and bytes, and each is dropped when its
 * memory is freed.  With the context current; whether this call
 * page-locked it, and in @page_locked (unless NULL) whether the memory
 * is page-locked now, by its allocator or by us. */
gboolean gst_cuda_imgproc_frame_pin_recurring (GstVideoFrame * frame,
    GstCudaImgprocDevice * device, gboolean * page_locked);

/* The planes of @out past the first: @in's, when both have one format, or
 * neutral chroma for a gray frame as YUV (@neutral).  On @stream when set
 * (a device plane on either side), else on the host. */
CipStatus gst_cuda_imgproc_frame_finish_chroma (GstVideoFrame * in,
    GstVideoFrame * out, gboolean neutral, CipStream * stream);

/* An element message named @name about @buffer: its `timestamp` and
 * `duration`, and, when @segment is in TIME, its `stream-time` and
 * `running-time` (left out otherwise: no segment after a flush, or a
 * stream in bytes).  The caller adds its results and posts it. */
GstStructure *gst_cuda_imgproc_frame_message_new (const gchar * name,
    const GstSegment * segment, GstBuffer * buffer);
/* The same about a frame at @pts lasting @duration. */
GstStructure *gst_cuda_imgproc_frame_message_new_at (const gchar * name,
    const GstSegment * segment, GstClockTime pts, GstClockTime duration);

G_END_DECLS

#endif /* __GST_CUDA_IMGPROC_FRAME_H__ */
