/* gst-cuda-imgproc
 * Copyright (C) 2026 The gst-cuda-imgproc authors
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2 of the License, or (at your option) any later version.
 */

#ifndef __GST_CUDA_IMGPROC_FILTER_H__
#define __GST_CUDA_IMGPROC_FILTER_H__

#include <gst/gst.h>
#include <gst/base/gstbasetransform.h>
#include <gst/video/video.h>

#include "cip.h"
#include "gstcudaimgproccaps.h"

G_BEGIN_DECLS

/**
 * GstCudaImgprocBackend:
 * @GST_CUDA_IMGPROC_BACKEND_CUDA: CUDA kernels on the GPU
 * @GST_CUDA_IMGPROC_BACKEND_CPU: the reference implementation on the CPU,
 *   with identical output
 *
 * Where an element computes its frames.
 */
typedef enum
{
  GST_CUDA_IMGPROC_BACKEND_CUDA,
  GST_CUDA_IMGPROC_BACKEND_CPU,
} GstCudaImgprocBackend;

#define GST_TYPE_CUDA_IMGPROC_BACKEND (gst_cuda_imgproc_backend_get_type ())
GType gst_cuda_imgproc_backend_get_type (void);

/**
 * GstCudaImgprocFrameReport:
 * @pts: the frame's presentation timestamp
 * @duration: its duration
 * @segment: the segment it was in
 * @readback: what its process() wrote into its readback area
 *
 * What a frame computed, once it is on the host (see @report).
 */
typedef struct
{
  GstClockTime pts;
  GstClockTime duration;
  GstSegment segment;
  const guint8 *readback;
} GstCudaImgprocFrameReport;

#define GST_TYPE_CUDA_IMGPROC_FILTER (gst_cuda_imgproc_filter_get_type ())
G_DECLARE_DERIVABLE_TYPE (GstCudaImgprocFilter, gst_cuda_imgproc_filter,
    GST, CUDA_IMGPROC_FILTER, GstBaseTransform);

/* Frames a @frame_done element has in flight at once, each with its own
 * readback area: the one held until it is pushed and the one just
 * queued.  A subclass keeping per-frame state of its own keeps as many. */
#define GST_CUDA_IMGPROC_MAX_HELD 2

/**
 * GstCudaImgprocFilterClass:
 * @process: computes one frame.  @src is the input's first plane (the
 *   luma plane of NV12 and I420), @dst the output's first plane (GRAY8,
 *   GRAY16 or a packed RGB format, as negotiated).
 *   On the cuda backend both are device images and @stream is the
 *   element's stream, with its CUDA context current: call the cip_*
 *   operation.  On the cpu backend both are host images and @stream is
 *   %NULL: call the cip_ref_* operation.  @readback is the frame's
 *   readback area (see @readback_size): for @report and @frame_done
 *   elements one of several, each frame in flight having its own, the
 *   same one handed to @report or @frame_done.
 * @frame_done: optional; called once the frame's work is done, before
 *   @outbuf is pushed, to attach what the frame computed (from @readback
 *   or the subclass's own host memory), with the CUDA context current.
 *   It may queue more work on @stream and wait for it (%NULL on the cpu
 *   backend).  Behind a source that is not live the frame path does not
 *   wait for the frame right away: it holds @outbuf until the next frame's
 *   work is queued (one frame later), or until an event, a caps change or
 *   the end of the stream.  An error drops the frame.
 * @report: optional, for results that do not travel with the frame (a
 *   property, a bus message): called with what a frame wrote into its
 *   readback area once it is on the host, in frame order.  The frame path
 *   does not wait for it: where the output stays on the GPU, a report
 *   comes at a later frame (at most GST_CUDA_IMGPROC_MAX_REPORTS behind),
 *   or when the stream ends or flushes; otherwise before the frame is
 *   pushed.  Each frame in flight has a readback area of its own.
 * @readback_size: bytes of host memory that @process may have results
 *   written into (page-locked on the cuda backend), allocated at start().
 * @input_formats: for elements whose output format differs from the
 *   input's: the formats the sink pad takes (%NULL-terminated)
 * @output_formats: ... and those the source pad gives.  Both %NULL: the
 *   output has the input's format.
 * @get_output_formats: optional; for elements whose output formats depend
 *   on a property: returns them, in place of @output_formats.
 * @release: optional; frees what @process allocated, at stop(), with the
 *   CUDA context current (@stream %NULL on the cpu backend).
 * @attaches_intensity: the element makes masks: each output frame carries
 *   its gray input as a #GstCudaImgprocIntensityMeta (unless the input
 *   already carried one, which is passed on).
 * @passes_chroma: the chroma planes of NV12 and I420 input pass to the
 *   output of the same format untouched.  Otherwise an element whose
 *   output is GRAY8 may also output NV12 or I420 (for neighbours that take
 *   no GRAY8, such as nvcodec's): the gray frame as luma, full range, with
 *   neutral chroma (128).
 * @reads_intensity: @process reads the gray frame of the input's
 *   #GstCudaImgprocIntensityMeta: see
 *   gst_cuda_imgproc_filter_get_intensity().
 *
 * The shared machinery of the plugin's elements: backend and device
 * selection, the CUDA context (shared through #GstContext), the stream,
 * the persistent device buffers, upload and download, and error posting.
 * Subclasses add their properties, their caps and @process.
 */
struct _GstCudaImgprocFilterClass
{
  GstBaseTransformClass parent_class;

  CipStatus (*process) (GstCudaImgprocFilter * filter, const CipImage * src,
      CipImage * dst, guint8 * readback, CipStream * stream);
  CipStatus (*frame_done) (GstCudaImgprocFilter * filter, GstBuffer * outbuf,
      const guint8 * readback, CipStream * stream);
  void (*report) (GstCudaImgprocFilter * filter,
      const GstCudaImgprocFrameReport * report);

  const gchar *const *(*get_output_formats) (GstCudaImgprocFilter * filter);
  void (*release) (GstCudaImgprocFilter * filter, CipStream * stream);

  gsize readback_size;
  const gchar *const *input_formats;
  const gchar *const *output_formats;
  gboolean attaches_intensity;
  gboolean passes_chroma;
  gboolean reads_intensity;

  gpointer _gst_reserved[GST_PADDING];
};

GstCudaImgprocBackend gst_cuda_imgproc_filter_get_backend (GstCudaImgprocFilter * filter);

const CipImage *gst_cuda_imgproc_filter_get_intensity (GstCudaImgprocFilter *
    filter);

const GstVideoInfo *gst_cuda_imgproc_filter_get_output_info
    (GstCudaImgprocFilter * filter);


G_END_DECLS

#endif /* __GST_CUDA_IMGPROC_FILTER_H__ */
