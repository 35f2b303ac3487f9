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
 * @GST_CUDA_IMGPROC_BACKEND_CUDA: CUDA kernels on the GPU; without a usable
 *   device the element fails to start
 * @GST_CUDA_IMGPROC_BACKEND_CPU: the reference implementation on the CPU,
 *   with identical output
 * @GST_CUDA_IMGPROC_BACKEND_AUTO: CUDA where a usable device is there,
 *   otherwise the CPU, with a warning that says why
 *
 * Where an element computes its frames.
 */
typedef enum
{
  GST_CUDA_IMGPROC_BACKEND_CUDA,
  GST_CUDA_IMGPROC_BACKEND_CPU,
  GST_CUDA_IMGPROC_BACKEND_AUTO,
} GstCudaImgprocBackend;

#define GST_TYPE_CUDA_IMGPROC_BACKEND (gst_cuda_imgproc_backend_get_type ())
GType gst_cuda_imgproc_backend_get_type (void);

/**
 * GstCudaImgprocZeroCopy:
 * @GST_CUDA_IMGPROC_ZERO_COPY_AUTO: on where the GPU shares the host's
 *   memory (an integrated GPU, a Jetson's), off elsewhere
 * @GST_CUDA_IMGPROC_ZERO_COPY_ON: kernels read and write system-memory
 *   frames in place, on any GPU
 * @GST_CUDA_IMGPROC_ZERO_COPY_OFF: system-memory frames are copied to and
 *   from device memory
 *
 * Whether the kernels use system-memory frames in place rather than
 * copies of them.
 */
typedef enum
{
  GST_CUDA_IMGPROC_ZERO_COPY_AUTO,
  GST_CUDA_IMGPROC_ZERO_COPY_ON,
  GST_CUDA_IMGPROC_ZERO_COPY_OFF,
} GstCudaImgprocZeroCopy;

#define GST_TYPE_CUDA_IMGPROC_ZERO_COPY \
  (gst_cuda_imgproc_zero_copy_get_type ())
GType gst_cuda_imgproc_zero_copy_get_type (void);

/**
 * GstCudaImgprocFrame:
 * @src: the input's first plane (the luma plane of NV12 and I420)
 * @dst: the output's first plane (GRAY8, GRAY16 or a packed RGB format,
 *   as negotiated)
 * @intensity: for @reads_intensity elements, the gray frame of the
 *   input's #GstCudaImgprocIntensityMeta, or %NULL when it has none
 * @ops: the backend's operations (#CipOps): the kernels or the reference
 * @stream: the element's stream, with its CUDA context current; %NULL on
 *   the cpu backend
 * @readback: @readback_size bytes the operations may write results into
 *   (page-locked on the cuda backend), read in @frame_done
 * @host_allocator: for results that leave with the output and may outlive
 *   the element: page-locked memory the device writes into, which keeps
 *   its context alive (%NULL on the cpu backend: system memory)
 * @state: @frame_state_size bytes of the subclass's own, zeroed at
 *   start() and kept with this frame's place in the queue
 * @history: @history_size bytes the element carries from frame to frame,
 *   where the backend computes (device memory on the cuda backend); the
 *   operations update it in frame order
 * @restart: the first frame since start, a flush, a caps change or a
 *   discontinuity: @history holds nothing yet
 * @pts: the frame's presentation timestamp
 * @duration: its duration
 * @segment: the segment it was in
 *
 * One frame in flight, as @process and @frame_done see it.  @src, @dst and
 * @intensity are where the backend computes (device or host memory) and
 * are valid during @process only.
 */
typedef struct
{
  const CipImage *src;
  CipImage *dst;
  const CipImage *intensity;
  const CipOps *ops;
  CipStream *stream;
  guint8 *readback;
  GstAllocator *host_allocator;
  gpointer state;
  gpointer history;
  gboolean restart;
  GstClockTime pts;
  GstClockTime duration;
  GstSegment segment;
} GstCudaImgprocFrame;

#define GST_TYPE_CUDA_IMGPROC_FILTER (gst_cuda_imgproc_filter_get_type ())
G_DECLARE_DERIVABLE_TYPE (GstCudaImgprocFilter, gst_cuda_imgproc_filter,
    GST, CUDA_IMGPROC_FILTER, GstBaseTransform);

/**
 * GstCudaImgprocFilterClass:
 * @process: computes one frame: calls the operation of @frame's @ops on
 *   its @src and @dst, with its @stream.  Required.
 * @frame_done: optional; called once a frame's work has run, in frame
 *   order, with the CUDA context current: takes what it computed from
 *   @readback or @state.  @outbuf is the output frame when it has not
 *   left yet (always for @attaches_results elements), else %NULL.
 *   It may queue more work on the stream and wait for it.  An error drops
 *   the frame.
 * @clear_frame_state: optional; frees what a frame's @state holds, at
 *   stop(), with the CUDA context current.
 * @get_output_formats: optional; for elements whose output formats
 *   depend on a property: returns them, in place of @output_formats.
 * @readback_size: bytes of @readback a frame has (page-locked on the cuda
 *   backend).
 * @frame_state_size: bytes of @state a frame has.
 * @history_size: bytes of @history the element has (0: none).
 * @input_formats: for elements whose output format differs from the
 *   input's: the formats the sink pad takes (%NULL-terminated)
 * @output_formats: ... and those the source pad gives.  Both %NULL: the
 *   output has the input's format.
 * @deep_formats: optional; of @input_formats, those of more than eight
 *   bits: the only ones a GRAY16_LE of @output_formats comes from.
 * @attaches_results: @frame_done attaches what a frame computed to its
 *   output, which then leaves only once the frame's work has run.
 * @attaches_intensity: the element makes masks: each output frame carries
 *   its gray input as a #GstCudaImgprocIntensityMeta (unless the input
 *   already carried one, which is passed on).
 * @passes_chroma: the chroma planes of YUV input pass to the output of
 *   the same format untouched.  Otherwise an element whose
 *   output is GRAY8 may also output NV12 or I420 (for neighbours that take
 *   no GRAY8, such as nvcodec's): the gray frame as luma, full range, with
 *   neutral chroma (128).
 * @reads_intensity: @process reads the gray frame of the input's
 *   #GstCudaImgprocIntensityMeta (@intensity), and the meta ends here.
 *
 * The shared machinery of the plugin's elements: backend and device
 * selection, the CUDA context (shared through #GstContext), the stream,
 * the queue of frames in flight, upload and download, and error posting.
 * Subclasses add their properties, their formats and @process.
 */
struct _GstCudaImgprocFilterClass
{
  GstBaseTransformClass parent_class;

  CipStatus (*process) (GstCudaImgprocFilter * filter,
      GstCudaImgprocFrame * frame);
  CipStatus (*frame_done) (GstCudaImgprocFilter * filter,
      GstCudaImgprocFrame * frame, GstBuffer * outbuf);
  void (*clear_frame_state) (GstCudaImgprocFilter * filter,
      GstCudaImgprocFrame * frame);
  const gchar *const *(*get_output_formats) (GstCudaImgprocFilter * filter);

  gsize readback_size;
  gsize frame_state_size;
  gsize history_size;
  const gchar *const *input_formats;
  const gchar *const *output_formats;
  const gchar *const *deep_formats;
  gboolean attaches_results;
  gboolean attaches_intensity;
  gboolean passes_chroma;
  gboolean reads_intensity;

  gpointer _gst_reserved[GST_PADDING];
};

const GstVideoInfo *gst_cuda_imgproc_filter_get_output_info
    (GstCudaImgprocFilter * filter);


G_END_DECLS

#endif /* __GST_CUDA_IMGPROC_FILTER_H__ */
