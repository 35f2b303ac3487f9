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

#include "gstcudaimgprocintensity.h"
#include "gstcudaimgprocframe.h"
#include "gstcudaimgprocmeta.h"
#include "gstcudaimgprocpool.h"

GST_DEBUG_CATEGORY_EXTERN (gst_cuda_imgproc_filter_debug);
#define GST_CAT_DEFAULT gst_cuda_imgproc_filter_debug

gboolean
gst_cuda_imgproc_intensity_map (GstCudaImgprocIntensity * intensity,
    GstElement * element, GstBuffer * inbuf, const GstVideoInfo * info,
    GstCudaImgprocDevice * device)
{
  GstCudaImgprocIntensityMeta *meta =
      gst_buffer_get_cuda_imgproc_intensity_meta (inbuf);
  GstVideoFormat format;
  CipEvent *ready;

  intensity->mapped = FALSE;
  if (meta == NULL)
    return FALSE;
  /* the gray frame of an 8-bit or a 16-bit camera */
  format = GST_VIDEO_INFO_FORMAT (&meta->info);
  if ((format != GST_VIDEO_FORMAT_GRAY8 &&
          format != GST_VIDEO_FORMAT_GRAY16_LE) ||
      GST_VIDEO_INFO_WIDTH (&meta->info) != GST_VIDEO_INFO_WIDTH (info) ||
      GST_VIDEO_INFO_HEIGHT (&meta->info) != GST_VIDEO_INFO_HEIGHT (info)) {
    GST_DEBUG_OBJECT (element, "intensity frame %s %dx%d does not match the "
        "input: using the input's values",
        GST_VIDEO_INFO_NAME (&meta->info), GST_VIDEO_INFO_WIDTH (&meta->info),
        GST_VIDEO_INFO_HEIGHT (&meta->info));
    return FALSE;
  }

  intensity->on_device = device &&
      gst_cuda_imgproc_is_device_frame (meta->buffer, device->context);
  ready = gst_cuda_imgproc_buffer_ready_event (meta->buffer);
  if (device && ready) {
    CipStatus status = CIP_ERROR_CUDA;

    /* On the device, our stream waits for its writer; read on the host, the
     * writer must be done first. */
    if (gst_cuda_context_push (device->context)) {
      status = intensity->on_device ?
          cip_stream_wait_event (device->stream, ready) :
          cip_event_synchronize (ready, device->stream);
      gst_cuda_context_pop (NULL);
    }
    if (status != CIP_OK) {
      GST_WARNING_OBJECT (element, "waiting for the intensity frame failed: "
          "%s", cip_stream_error (device->stream));
      return FALSE;
    }
  }
  if (!gst_video_frame_map (&intensity->frame, &meta->info, meta->buffer,
          GST_MAP_READ | (intensity->on_device ? GST_MAP_CUDA : 0))) {
    GST_WARNING_OBJECT (element, "could not map the intensity frame");
    return FALSE;
  }
  intensity->image = gst_cuda_imgproc_plane_image (&intensity->frame, 0,
      format == GST_VIDEO_FORMAT_GRAY16_LE ? CIP_FORMAT_GRAY16 :
      CIP_FORMAT_GRAY8);
  intensity->mapped = TRUE;
  return TRUE;
}

CipStatus
gst_cuda_imgproc_intensity_to_device (GstCudaImgprocIntensity * intensity,
    CipImage * copy, CipStream * stream, const CipImage ** image)
{
  CipStatus status = CIP_OK;

  if (intensity->on_device) {
    *image = &intensity->image;
    return CIP_OK;
  }
  if (copy->data && (copy->width != intensity->image.width ||
          copy->height != intensity->image.height ||
          copy->format != intensity->image.format))
    cip_image_free (copy, stream);
  if (copy->data == NULL)
    status = cip_image_alloc (copy, intensity->image.width,
        intensity->image.height, intensity->image.format, stream);
  if (status == CIP_OK)
    status = cip_copy (&intensity->image, copy, stream);
  if (status == CIP_OK)
    *image = copy;
  return status;
}

void
gst_cuda_imgproc_intensity_unmap (GstCudaImgprocIntensity * intensity)
{
  if (intensity->mapped)
    gst_video_frame_unmap (&intensity->frame);
  intensity->mapped = FALSE;
  memset (&intensity->image, 0, sizeof (intensity->image));
}
