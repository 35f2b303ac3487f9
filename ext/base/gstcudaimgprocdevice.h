/* gst-cuda-imgproc
 * Copyright (C) 2026 The gst-cuda-imgproc authors
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2 of the License, or (at your option) any later version.
 */

/* An element's device: the CUDA context (shared with neighbouring CUDA
 * elements through GstContext; without libgstcuda, GStreamer 1.20, the
 * device's primary context, see gstcudaimgproccompat.h), the element's
 * stream, and the order between its work and that of the elements around
 * it. */

#ifndef __GST_CUDA_IMGPROC_DEVICE_H__
#define __GST_CUDA_IMGPROC_DEVICE_H__

#include <gst/gst.h>

#include "cip.h"
#include "gstcudaimgproccompat.h"

G_BEGIN_DECLS typedef struct
{
  /* From a neighbour (set_context) or made at open; kept until finalize
   * or a failed open. */
  GstCudaContext *context;
  /* Between open and close. */
  GstAllocator *host_allocator; /* page-locked, for system-memory pools */
  /* GStreamer 1.24+: the stream our CUDA-memory frames carry, which
   * @stream runs on; NULL before 1.24. */
  GstCudaStream *shared_stream;
  /* CIP_SYNC_HANDOVER set, in a build with -Dtest-switches=true: frames
   * are handed over as on 1.22, synchronized on the host (for the
   * benchmark to measure what the stream saves). */
  gboolean sync_handover;
  CipStream *stream;
  /* Where our stream waits for the stream an input frame carries. */
  CipEvent *upstream_done;
  /* Device and page-locked allocations made and released through
   * @stream, over the element's life. */
  CipMemoryStats memory;
} GstCudaImgprocDevice;

/* Whether a driver and device @device_id (-1: any) are there; when not,
 * @why says which is missing, for a user, and @detail (nullable) the
 * driver's answer (both to be freed).  Checked before libgstcuda creates
 * a context, which in 1.22 does not recover from a failed cuInit. */
gboolean gst_cuda_imgproc_device_find (gint device_id, gchar ** why,
    gchar ** detail);
/* The same, posting RESOURCE/NOT_FOUND with the reason when not. */
gboolean gst_cuda_imgproc_device_check (GstElement * element, gint device_id);

/* Finds or makes the context, and sets up the stream; posts the error
 * and leaves @device closed on failure. */
gboolean gst_cuda_imgproc_device_open (GstCudaImgprocDevice * device,
    GstElement * element, gint device_id);
/* Waits for the stream and releases it; the context stays. */
void gst_cuda_imgproc_device_close (GstCudaImgprocDevice * device);

/* Orders the work enqueued on our stream from now on after the writer of
 * @inbuf, a device frame of our context: through its ready event when one
 * of ours wrote it, or through the stream it carries (1.24+), on the GPU.
 * With the context current. */
CipStatus gst_cuda_imgproc_device_order_after (GstCudaImgprocDevice * device,
    GstBuffer * inbuf);

/* Whether the reader of @outbuf, a device frame from our pool, will order
 * itself after our work on the GPU: one of ours that said it waits for
 * ready events (@downstream_waits), or any 1.24+ element, through the
 * stream the frame carries. */
gboolean gst_cuda_imgproc_device_reader_orders (GstCudaImgprocDevice * device,
    GstBuffer * outbuf, gboolean downstream_waits);

G_END_DECLS
#endif /* __GST_CUDA_IMGPROC_DEVICE_H__ */
