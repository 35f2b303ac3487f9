/* gst-cuda-imgproc
 * Copyright (C) 2026 The gst-cuda-imgproc authors
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2 of the License, or (at your option) any later version.
 */

/* Input frames whose reading may still be in flight on an element's
 * stream.  When an element pushes a frame without synchronizing (its
 * reader orders itself after the frame's kernels on the GPU), the input
 * those kernels read must stay alive until they have run: it is held
 * here, oldest first, until an event recorded after its kernels has
 * passed, so that an upstream pool never refills a frame still being
 * read.  Every call is made with the stream's CUDA context current. */

#ifndef __GST_CUDA_IMGPROC_IN_FLIGHT_H__
#define __GST_CUDA_IMGPROC_IN_FLIGHT_H__

#include <gst/gst.h>

#include "cip.h"

G_BEGIN_DECLS

/* More frames in flight wait for the oldest: four keep the GPU busy
 * without holding many of upstream's buffers. */
#define GST_CUDA_IMGPROC_MAX_IN_FLIGHT 4

typedef struct
{
  GstBuffer *buffers[GST_CUDA_IMGPROC_MAX_IN_FLIGHT];
  CipEvent *done[GST_CUDA_IMGPROC_MAX_IN_FLIGHT];
  guint first;
  guint count;
} GstCudaImgprocInFlight;

/* Creates the ring's events on @stream. */
CipStatus gst_cuda_imgproc_in_flight_init (GstCudaImgprocInFlight * ring,
    CipStream * stream);
/* Drains the ring and frees its events. */
void gst_cuda_imgproc_in_flight_clear (GstCudaImgprocInFlight * ring,
    CipStream * stream);

/* Holds @inbuf until the work enqueued on @stream so far has passed. */
CipStatus gst_cuda_imgproc_in_flight_hold (GstCudaImgprocInFlight * ring,
    GstBuffer * inbuf, CipStream * stream);
/* Lets go of the held frames whose reading has passed, without waiting. */
void gst_cuda_imgproc_in_flight_release_passed (GstCudaImgprocInFlight *
    ring);
/* Waits for @stream and lets go of every held frame. */
void gst_cuda_imgproc_in_flight_drain (GstCudaImgprocInFlight * ring,
    CipStream * stream);

G_END_DECLS

#endif /* __GST_CUDA_IMGPROC_IN_FLIGHT_H__ */
