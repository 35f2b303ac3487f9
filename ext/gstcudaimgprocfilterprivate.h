/* gst-cuda-imgproc
 * Copyright (C) 2026 The gst-cuda-imgproc authors
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2 of the License, or (at your option) any later version.
 */

/* The base class's private state, shared by its two files: the element
 * glue (gstcudaimgprocfilter.c) and the frame path
 * (gstcudaimgprocframepath.c).  Fields are grouped by the room that owns
 * them. */

#ifndef __GST_CUDA_IMGPROC_FILTER_PRIVATE_H__
#define __GST_CUDA_IMGPROC_FILTER_PRIVATE_H__

#include "gstcudaimgprocfilter.h"
#include "gstcudaimgprocdevice.h"
#include "gstcudaimgprocinflight.h"
#include "gstcudaimgprocintensity.h"
#include "gstcudaimgprocreports.h"

G_BEGIN_DECLS

GST_DEBUG_CATEGORY_EXTERN (gst_cuda_imgproc_filter_debug);

typedef struct
{
  GstBuffer *output;
  GstBuffer *input;
  guint8 *readback;
  CipEvent *done;               /* recorded after its work */
} GstCudaImgprocHeldFrame;

typedef struct
{
  /* Properties, under the object lock. */
  GstCudaImgprocBackend backend;
  gint device_id;

  /* Between start() and stop(); only the streaming thread touches these
   * after start(). */
  GstCudaImgprocBackend active_backend;
  GstCudaImgprocDevice device;
  /* readback_size bytes a frame: two areas for frame_done elements, used
   * in turn, one for the held frame and one for the next */
  guint8 *readback;
  guint readback_turn;
  guint64 frames;
  guint64 uploads;              /* frames copied host to device */
  guint64 downloads;            /* frames copied device to host */

  /* The in-flight room: inputs held while their reading may still be in
   * flight, and whether downstream waits for our ready events (from the
   * allocation query). */
  GstCudaImgprocInFlight in_flight;
  gboolean downstream_waits;

  /* The held output (frame path): behind a source that is not live, a
   * frame that would be waited for is pushed once the next one's work is
   * queued, complete by then; held[0] is the older.  @next_output and
   * @next_flow: what generate_output gives on its next call. */
  gboolean hold_frames;         /* per caps */
  /* the frame being computed follows a discontinuity: not held, so that
   * GstBaseTransform, which marks the next output it pushes DISCONT,
   * pushes this one and is done with the mark */
  gboolean after_discont;
  gboolean holding;             /* the frame just computed is in held[n_held] */
  GstCudaImgprocHeldFrame held[GST_CUDA_IMGPROC_MAX_HELD];
  guint n_held;
  GstBuffer *next_output;
  GstFlowReturn next_flow;

  /* The reports room, for elements with report(): each frame's readback
   * slot, reported once it is on the host. */
  GstCudaImgprocReports reports;

  /* The caps room's answer, per caps. */
  GstVideoInfo in_info;
  GstVideoInfo out_info;
  gboolean in_cuda;             /* caps say memory:CUDAMemory */
  gboolean out_cuda;
  gboolean neutral_chroma;      /* a gray output as YUV: chroma set to 128 */
  CipFormat src_format;
  CipFormat dst_format;

  /* The frame path's device images, per frame geometry: where system
   * memory frames are uploaded to and downloaded from. */
  CipImage device_src;
  CipImage device_dst;
  /* frame_done elements upload in turn into these two: a held frame's
   * input stays on the device until it is done */
  CipImage device_src_held;

  /* The intensity room, for @reads_intensity elements: the gray frame of
   * the input's intensity meta, and where process() reads it (NULL
   * outside process() or when the input has none). */
  GstCudaImgprocIntensity intensity;
  const CipImage *intensity_for_process;
} GstCudaImgprocFilterPrivate;

GstCudaImgprocFilterPrivate *gst_cuda_imgproc_filter_get_private
    (GstCudaImgprocFilter * filter);

G_END_DECLS

#endif /* __GST_CUDA_IMGPROC_FILTER_PRIVATE_H__ */
