/* gst-cuda-imgproc
 * Copyright (C) 2026 The gst-cuda-imgproc authors
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2 of the License, or (at your option) any later version.
 */

/* The base class's frame path: what a frame needs from start() to stop()
 * (the backend, the device, the queue of frames in flight), the device
 * images of the negotiated geometry, and every frame through them: map,
 * upload, the subclass's process(), download, chroma, and the one way
 * out, gst_cuda_imgproc_frame_path_next_output ().  Every function posts
 * its error before it fails. */

#ifndef __GST_CUDA_IMGPROC_FRAME_PATH_H__
#define __GST_CUDA_IMGPROC_FRAME_PATH_H__

#include "gstcudaimgprocfilter.h"
#include "gstcudaimgproccaps.h"
#include "gstcudaimgprocdevice.h"
#include "gstcudaimgprocintensity.h"
#include "gstcudaimgprocqueue.h"
#include "gstcudaimgprocstager.h"

G_BEGIN_DECLS

typedef struct
{
  /* From start() to stop(); only the streaming thread touches these. */
  gboolean on_cuda;
  /* System-memory frames used in place by the kernels (zero-copy). */
  gboolean in_place;
  /* Where pageable frames are uploaded through (cuda only). */
  GstCudaImgprocStager *stager;
  const CipOps *ops;
  GstCudaImgprocDevice device;
  GstCudaImgprocQueue queue;
  /* downstream waits for our ready events (from the allocation query) */
  gboolean downstream_waits;
  /* behind a source that is not live, a frame that leaves complete may
   * wait in the queue until the next frame's work is queued (per caps) */
  gboolean hold_frames;
  /* the frame being submitted follows a discontinuity: not held, so that
   * GstBaseTransform, which marks the next output it pushes DISCONT,
   * pushes this one and is done with the mark */
  gboolean after_discont;
  /* What the element carries from frame to frame (@history_size of its
   * class), in the backend's memory; the next frame starts it over. */
  gpointer history;
  gboolean restart_history;

  /* Counters, read by the stats property. */
  guint64 frames;
  guint64 uploads;              /* frames copied host to device */
  guint64 downloads;            /* frames copied device to host */
  guint64 page_locked;          /* system memories page-locked for copies */
  guint64 staged;               /* frames uploaded through the stager */

  /* Per caps. */
  GstVideoInfo in_info;
  GstVideoInfo out_info;
  gboolean in_cuda;             /* caps say memory:CUDAMemory */
  gboolean out_cuda;
  gboolean neutral_chroma;      /* a gray output as YUV: chroma set to 128 */
  CipFormat src_format;
  CipFormat dst_format;
  /* where system-memory frames are uploaded to and downloaded from */
  CipImage upload;
  CipImage download;

  /* Between mapping a frame's intensity meta and its process(). */
  GstCudaImgprocIntensity intensity;
} GstCudaImgprocFramePath;

/* On @backend; the cpu backend needs only the queue. */
gboolean gst_cuda_imgproc_frame_path_start (GstCudaImgprocFramePath * path,
    GstCudaImgprocFilter * filter, gboolean on_cuda, gint device_id,
    GstCudaImgprocZeroCopy zero_copy);
void gst_cuda_imgproc_frame_path_stop (GstCudaImgprocFramePath * path,
    GstCudaImgprocFilter * filter);

/* Takes the negotiated caps (@formats: the element's, as its class says
 * them now) and prepares the device images for their frames, reallocated
 * only when the frame geometry changed. */
gboolean gst_cuda_imgproc_frame_path_set_caps (GstCudaImgprocFramePath *
    path, GstCudaImgprocFilter * filter,
    const GstCudaImgprocFormats * formats, GstCaps * incaps,
    GstCaps * outcaps);

/* An input is about to be submitted (@is_discont as GstBaseTransform gives
 * it): where it follows a discontinuity, or where the output is about to
 * be renegotiated, the frames in flight leave first. */
GstFlowReturn gst_cuda_imgproc_frame_path_submit (GstCudaImgprocFramePath *
    path, GstCudaImgprocFilter * filter, gboolean is_discont);

/* GstBaseTransform's generate_output: the queued input, if any, is
 * computed and joins the queue; then the next output that may leave. */
GstFlowReturn gst_cuda_imgproc_frame_path_generate (GstCudaImgprocFramePath *
    path, GstCudaImgprocFilter * filter, GstBuffer ** outbuf);

/* The one way out: the oldest output that may leave now, in frame order
 * (%NULL when none may); with @drain, every output may, once its work has
 * run. */
GstFlowReturn gst_cuda_imgproc_frame_path_next_output (GstCudaImgprocFramePath
    * path, GstCudaImgprocFilter * filter, gboolean drain,
    GstBuffer ** outbuf);

/* Pushes every output in flight, ahead of what comes next downstream (a
 * serialized event); with @finish (end of stream, a drain query), waits
 * until every frame's work has run and its input can go back upstream. */
GstFlowReturn gst_cuda_imgproc_frame_path_push_all (GstCudaImgprocFramePath *
    path, GstCudaImgprocFilter * filter, gboolean finish);

/* Drops the outputs in flight unpushed (a flush, stop) once their work
 * has run; frames whose output left still get frame_done. */
void gst_cuda_imgproc_frame_path_flush (GstCudaImgprocFramePath * path,
    GstCudaImgprocFilter * filter);

G_END_DECLS

#endif /* __GST_CUDA_IMGPROC_FRAME_PATH_H__ */
