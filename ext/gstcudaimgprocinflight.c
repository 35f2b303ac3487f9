/* gst-cuda-imgproc
 * Copyright (C) 2026 The gst-cuda-imgproc authors
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2 of the License, or (at your option) any later version.
 */

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <string.h>

#include "gstcudaimgprocinflight.h"

#define RING_SIZE GST_CUDA_IMGPROC_MAX_IN_FLIGHT

CipStatus
gst_cuda_imgproc_in_flight_init (GstCudaImgprocInFlight * ring,
    CipStream * stream)
{
  CipStatus status = CIP_OK;
  guint i;

  memset (ring, 0, sizeof (*ring));
  for (i = 0; status == CIP_OK && i < RING_SIZE; i++)
    status = cip_event_new (&ring->done[i], stream);
  return status;
}

void
gst_cuda_imgproc_in_flight_clear (GstCudaImgprocInFlight * ring,
    CipStream * stream)
{
  guint i;

  gst_cuda_imgproc_in_flight_drain (ring, stream);
  for (i = 0; i < RING_SIZE; i++)
    g_clear_pointer (&ring->done[i], cip_event_free);
}

/* Lets go of the oldest frame; its work must be done. */
static void
release_oldest (GstCudaImgprocInFlight * ring)
{
  gst_clear_buffer (&ring->buffers[ring->first]);
  ring->first = (ring->first + 1) % RING_SIZE;
  ring->count--;
}

void
gst_cuda_imgproc_in_flight_release_passed (GstCudaImgprocInFlight * ring)
{
  while (ring->count > 0 && cip_event_done (ring->done[ring->first]))
    release_oldest (ring);
}

void
gst_cuda_imgproc_in_flight_drain (GstCudaImgprocInFlight * ring,
    CipStream * stream)
{
  if (stream)
    cip_stream_synchronize (stream);
  while (ring->count > 0)
    release_oldest (ring);
}

CipStatus
gst_cuda_imgproc_in_flight_hold (GstCudaImgprocInFlight * ring,
    GstBuffer * inbuf, CipStream * stream)
{
  guint slot;
  CipStatus status;

  gst_cuda_imgproc_in_flight_release_passed (ring);
  if (ring->count == RING_SIZE) {
    status = cip_event_synchronize (ring->done[ring->first], stream);
    if (status != CIP_OK)
      return status;
    release_oldest (ring);
  }

  slot = (ring->first + ring->count) % RING_SIZE;
  status = cip_event_record (ring->done[slot], stream);
  if (status == CIP_OK) {
    ring->buffers[slot] = gst_buffer_ref (inbuf);
    ring->count++;
  }
  return status;
}
