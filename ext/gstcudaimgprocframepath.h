/* gst-cuda-imgproc
 * Copyright (C) 2026 The gst-cuda-imgproc authors
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2 of the License, or (at your option) any later version.
 */

/* The base class's frame path: what a frame needs from start() to stop()
 * (the device, the in-flight ring, the readback area), the device images
 * of the negotiated geometry, and one frame through them: map, upload,
 * the subclass's process(), download, chroma, hand-over.  Every function
 * posts its error before it fails. */

#ifndef __GST_CUDA_IMGPROC_FRAME_PATH_H__
#define __GST_CUDA_IMGPROC_FRAME_PATH_H__

#include "gstcudaimgprocfilter.h"
#include "gstcudaimgproccaps.h"

G_BEGIN_DECLS

/* On the element's active backend; the cpu backend needs only the
 * readback area. */
gboolean gst_cuda_imgproc_frame_path_start (GstCudaImgprocFilter * filter,
    gint device_id);
void gst_cuda_imgproc_frame_path_stop (GstCudaImgprocFilter * filter);

/* Takes the negotiated caps (@formats: the element's, as its class says
 * them now) and prepares the device images for their frames, reallocated
 * only when the frame geometry changed. */
gboolean gst_cuda_imgproc_frame_path_set_caps (GstCudaImgprocFilter *
    filter, const GstCudaImgprocFormats * formats, GstCaps * incaps,
    GstCaps * outcaps);

/* Computes @outbuf from @inbuf. */
GstFlowReturn gst_cuda_imgproc_frame_path_run (GstCudaImgprocFilter * filter,
    GstBuffer * inbuf, GstBuffer * outbuf);

typedef GstFlowReturn (*GstCudaImgprocGenerateFunc) (GstBaseTransform *
    trans, GstBuffer ** outbuf);

/* GstBaseTransform's generate_output: the queued input computed by
 * @compute (GstBaseTransform's own); where the frame path holds frames,
 * the output pushed is the one before it. */
GstFlowReturn gst_cuda_imgproc_frame_path_generate (GstCudaImgprocFilter *
    filter, GstCudaImgprocGenerateFunc compute, GstBuffer ** outbuf);

/* Completes and pushes the held output frame, if any: before anything
 * else goes downstream (a serialized event, new caps). */
GstFlowReturn gst_cuda_imgproc_frame_path_push_held (GstCudaImgprocFilter *
    filter);

/* An input frame is about to be submitted; @is_discont as GstBaseTransform
 * gives it (set from a DISCONT input until it has pushed an output): the
 * held frames, from before the discontinuity, go out first, and the frame
 * is not held. */
GstFlowReturn gst_cuda_imgproc_frame_path_submit (GstCudaImgprocFilter *
    filter, gboolean is_discont);

/* Lets go of the held frames (end of stream, flush): input frames still
 * read, and, with @discard_output, the held output frame unpushed. */
void gst_cuda_imgproc_frame_path_drain (GstCudaImgprocFilter * filter,
    gboolean discard_output);

G_END_DECLS

#endif /* __GST_CUDA_IMGPROC_FRAME_PATH_H__ */
