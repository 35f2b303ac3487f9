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

#include <gst/cuda/cuda-gst.h>
#include <gst/cuda/gstcudacontext.h>
#include <gst/cuda/gstcudamemory.h>

#include "gstcudaimgprocframepath.h"
#include "gstcudaimgproccaps.h"
#include "gstcudaimgprocfilterprivate.h"
#include "gstcudaimgprocframe.h"
#include "gstcudaimgprocmeta.h"
#include "gstcudaimgprocpool.h"

#define GST_CAT_DEFAULT gst_cuda_imgproc_filter_debug

/* Readback areas: a frame_done element's held frame keeps its own. */
static guint
readback_areas (GstCudaImgprocFilterClass * klass)
{
  return klass->frame_done ? GST_CUDA_IMGPROC_MAX_HELD : 1;
}

gboolean
gst_cuda_imgproc_frame_path_start (GstCudaImgprocFilter * filter,
    gint device_id)
{
  GstCudaImgprocFilterClass *klass = GST_CUDA_IMGPROC_FILTER_GET_CLASS (filter);
  GstCudaImgprocFilterPrivate *priv =
      gst_cuda_imgproc_filter_get_private (filter);
  CipStatus status;
  guint i;

  if (priv->active_backend == GST_CUDA_IMGPROC_BACKEND_CPU) {
    priv->readback = g_malloc0 (MAX (readback_areas (klass) *
            klass->readback_size, 1));
    if (klass->report)
      gst_cuda_imgproc_reports_init (&priv->reports, klass->readback_size,
          NULL);
    return TRUE;
  }

  if (!gst_cuda_imgproc_device_open (&priv->device, GST_ELEMENT (filter),
          device_id))
    return FALSE;
  if (!gst_cuda_context_push (priv->device.context))
    goto push_failed;
  status = gst_cuda_imgproc_in_flight_init (&priv->in_flight,
      priv->device.stream);
  if (status == CIP_OK && klass->readback_size > 0 && !klass->report)
    status = cip_host_alloc ((void **) &priv->readback,
        readback_areas (klass) * klass->readback_size, priv->device.stream);
  if (status == CIP_OK && klass->report)
    status = gst_cuda_imgproc_reports_init (&priv->reports,
        klass->readback_size, priv->device.stream);
  /* a held frame's wait sleeps: with many pipelines, spinning waits take
   * the cores the others need */
  for (i = 0; status == CIP_OK && i < GST_CUDA_IMGPROC_MAX_HELD; i++)
    status = cip_event_new_blocking (&priv->held[i].done,
        priv->device.stream);
  gst_cuda_context_pop (NULL);
  if (status != CIP_OK)
    goto alloc_failed;
  return TRUE;

push_failed:
  GST_ELEMENT_ERROR (filter, RESOURCE, FAILED,
      ("Could not make the CUDA context current."), (NULL));
  gst_cuda_imgproc_frame_path_stop (filter);
  return FALSE;
alloc_failed:
  GST_ELEMENT_ERROR (filter, RESOURCE, FAILED,
      ("Could not set up the CUDA stream and its buffers."),
      ("%s: %s", cip_status_name (status),
          cip_stream_error (priv->device.stream)));
  gst_cuda_imgproc_frame_path_stop (filter);
  return FALSE;
}

/* Lets go of a held frame's buffers. */
static void
release_held (GstCudaImgprocHeldFrame * held)
{
  gst_clear_buffer (&held->output);
  gst_clear_buffer (&held->input);
  held->readback = NULL;
}

/* The oldest held frame leaves the ring (its slot, event included, moves
 * to the back). */
static void
shift_held (GstCudaImgprocFilterPrivate * priv)
{
  GstCudaImgprocHeldFrame first = priv->held[0];
  guint i;

  for (i = 0; i + 1 < GST_CUDA_IMGPROC_MAX_HELD; i++)
    priv->held[i] = priv->held[i + 1];
  priv->held[GST_CUDA_IMGPROC_MAX_HELD - 1] = first;
  priv->n_held--;
}

/* Drops the held output frames unpushed (a flush, stop), once their work
 * no longer reads or writes their buffers; they report nothing. */
static void
discard_held (GstCudaImgprocFilter * filter)
{
  GstCudaImgprocFilterClass *klass = GST_CUDA_IMGPROC_FILTER_GET_CLASS (filter);
  GstCudaImgprocFilterPrivate *priv =
      gst_cuda_imgproc_filter_get_private (filter);

  gst_clear_buffer (&priv->next_output);
  priv->next_flow = GST_FLOW_OK;
  if (priv->n_held == 0)
    return;
  if (gst_cuda_context_push (priv->device.context)) {
    cip_stream_synchronize (priv->device.stream);
    gst_cuda_context_pop (NULL);
  }
  while (priv->n_held > 0) {
    if (klass->report)
      gst_cuda_imgproc_reports_drop_held (&priv->reports);
    release_held (&priv->held[priv->n_held - 1]);
    priv->n_held--;
  }
}

/* Whether upstream is live: a live frame is never held back (it would
 * add a frame interval of latency).  Unknown counts as live. */
static gboolean
upstream_is_live (GstCudaImgprocFilter * filter)
{
  GstQuery *query = gst_query_new_latency ();
  gboolean live = TRUE;

  if (gst_pad_peer_query (GST_BASE_TRANSFORM_SINK_PAD (filter), query))
    gst_query_parse_latency (query, &live, NULL, NULL);
  gst_query_unref (query);
  return live;
}

/* Releases the device images; with the context current. */
static void
free_device_images (GstCudaImgprocFilterPrivate * priv)
{
  gst_cuda_imgproc_in_flight_drain (&priv->in_flight, priv->device.stream);
  cip_image_free (&priv->device_src, priv->device.stream);
  cip_image_free (&priv->device_src_held, priv->device.stream);
  cip_image_free (&priv->device_dst, priv->device.stream);
  gst_cuda_imgproc_intensity_free (&priv->intensity, priv->device.stream);
}

void
gst_cuda_imgproc_frame_path_stop (GstCudaImgprocFilter * filter)
{
  GstCudaImgprocFilterClass *klass = GST_CUDA_IMGPROC_FILTER_GET_CLASS (filter);
  GstCudaImgprocFilterPrivate *priv =
      gst_cuda_imgproc_filter_get_private (filter);
  CipStream *stream = priv->device.stream;
  guint i;

  if (priv->active_backend == GST_CUDA_IMGPROC_BACKEND_CPU) {
    if (klass->release)
      klass->release (filter, NULL);
    g_clear_pointer (&priv->readback, g_free);
    if (klass->report)
      gst_cuda_imgproc_reports_clear (&priv->reports, NULL);
    return;
  }

  discard_held (filter);
  if (priv->device.context && gst_cuda_context_push (priv->device.context)) {
    if (klass->report && priv->reports.area) {
      /* frames already pushed still report what they found */
      gst_cuda_imgproc_reports_deliver (&priv->reports, filter, TRUE, stream);
      gst_cuda_imgproc_reports_clear (&priv->reports, stream);
    }
    free_device_images (priv);
    if (klass->release && stream)
      klass->release (filter, stream);
    gst_cuda_imgproc_in_flight_clear (&priv->in_flight, stream);
    for (i = 0; i < GST_CUDA_IMGPROC_MAX_HELD; i++)
      g_clear_pointer (&priv->held[i].done, cip_event_free);
    cip_host_free (priv->readback, stream);
    gst_cuda_context_pop (NULL);
  }
  priv->readback = NULL;
  gst_cuda_imgproc_device_close (&priv->device);
  gst_clear_object (&priv->device.context);
}

/* Device images for the negotiated caps, reallocated only when the frame
 * geometry changed. */
static gboolean
configure_device_images (GstCudaImgprocFilter * filter)
{
  GstCudaImgprocFilterPrivate *priv =
      gst_cuda_imgproc_filter_get_private (filter);
  gint width = GST_VIDEO_INFO_WIDTH (&priv->in_info);
  gint height = GST_VIDEO_INFO_HEIGHT (&priv->in_info);
  CipStatus status;

  if (priv->active_backend == GST_CUDA_IMGPROC_BACKEND_CPU)
    return TRUE;

  /* Reallocate only when the frame geometry changed. */
  if (priv->device_src.data && priv->device_src.width == width &&
      priv->device_src.height == height &&
      priv->device_src.format == priv->src_format &&
      priv->device_dst.format == priv->dst_format)
    return TRUE;

  if (!gst_cuda_context_push (priv->device.context)) {
    GST_ELEMENT_ERROR (filter, RESOURCE, FAILED,
        ("Could not make the CUDA context current."), (NULL));
    return FALSE;
  }
  free_device_images (priv);
  status = cip_image_alloc (&priv->device_src, width, height,
      priv->src_format, priv->device.stream);
  if (status == CIP_OK && GST_CUDA_IMGPROC_FILTER_GET_CLASS (filter)->frame_done)
    status = cip_image_alloc (&priv->device_src_held, width, height,
        priv->src_format, priv->device.stream);
  if (status == CIP_OK)
    status = cip_image_alloc (&priv->device_dst, width, height,
        priv->dst_format, priv->device.stream);
  if (status != CIP_OK) {
    GST_ELEMENT_ERROR (filter, RESOURCE, NO_SPACE_LEFT,
        ("Could not allocate device memory for %dx%d frames.", width, height),
        ("%s: %s", cip_status_name (status),
            cip_stream_error (priv->device.stream)));
    free_device_images (priv);
  }
  gst_cuda_context_pop (NULL);
  return status == CIP_OK;
}

gboolean
gst_cuda_imgproc_frame_path_set_caps (GstCudaImgprocFilter * filter,
    const GstCudaImgprocFormats * formats, GstCaps * incaps,
    GstCaps * outcaps)
{
  GstBaseTransform *trans = GST_BASE_TRANSFORM (filter);
  GstCudaImgprocFilterPrivate *priv =
      gst_cuda_imgproc_filter_get_private (filter);
  GstVideoInfo in_info, out_info;
  CipFormat src_format, dst_format;
  gint width, height;

  if (!gst_video_info_from_caps (&in_info, incaps) ||
      !gst_video_info_from_caps (&out_info, outcaps))
    goto invalid_caps;
  if (!gst_cuda_imgproc_cip_format (GST_VIDEO_INFO_FORMAT (&in_info),
          &src_format) ||
      !gst_cuda_imgproc_cip_format (GST_VIDEO_INFO_FORMAT (&out_info),
          &dst_format))
    goto unsupported_format;

  width = GST_VIDEO_INFO_WIDTH (&in_info);
  height = GST_VIDEO_INFO_HEIGHT (&in_info);
  if (width != GST_VIDEO_INFO_WIDTH (&out_info) ||
      height != GST_VIDEO_INFO_HEIGHT (&out_info) ||
      width > CIP_MAX_DIMENSION || height > CIP_MAX_DIMENSION)
    goto invalid_caps;

  GST_DEBUG_OBJECT (filter, "%" GST_PTR_FORMAT " -> %" GST_PTR_FORMAT,
      incaps, outcaps);

  /* the held frame goes out under the caps it was made for (a
   * renegotiation from downstream comes here before the next frame) */
  if (gst_cuda_imgproc_frame_path_push_held (filter) != GST_FLOW_OK)
    GST_DEBUG_OBJECT (filter, "held frame not pushed");

  priv->in_info = in_info;
  priv->out_info = out_info;
  priv->in_cuda = gst_cuda_imgproc_caps_are_cuda (incaps);
  priv->out_cuda = gst_cuda_imgproc_caps_are_cuda (outcaps);
  priv->src_format = src_format;
  priv->dst_format = dst_format;
  priv->neutral_chroma = gst_cuda_imgproc_caps_is_gray_as_yuv (formats,
      GST_VIDEO_INFO_FORMAT (&in_info), GST_VIDEO_INFO_FORMAT (&out_info));
  /* Equal caps are not a copy when the output's chroma is not the input's
   * (cudagray on NV12). */
  if (priv->neutral_chroma && gst_base_transform_is_passthrough (trans))
    gst_base_transform_set_passthrough (trans, FALSE);
  priv->hold_frames = priv->active_backend == GST_CUDA_IMGPROC_BACKEND_CUDA
      && !upstream_is_live (filter);
  GST_DEBUG_OBJECT (filter, "%s frames", priv->hold_frames ? "holding" :
      "not holding");

  if (gst_base_transform_is_passthrough (trans))
    return TRUE;
  return configure_device_images (filter);

invalid_caps:
  GST_ELEMENT_ERROR (filter, CORE, NEGOTIATION,
      ("Cannot process %" GST_PTR_FORMAT " into %" GST_PTR_FORMAT ".",
          incaps, outcaps), (NULL));
  return FALSE;
unsupported_format:
  GST_ELEMENT_ERROR (filter, CORE, NEGOTIATION,
      ("Unsupported format: %s to %s.",
          gst_video_format_to_string (GST_VIDEO_INFO_FORMAT (&in_info)),
          gst_video_format_to_string (GST_VIDEO_INFO_FORMAT (&out_info))),
      (NULL));
  return FALSE;
}

void
gst_cuda_imgproc_frame_path_drain (GstCudaImgprocFilter * filter,
    gboolean discard_output)
{
  GstCudaImgprocFilterPrivate *priv =
      gst_cuda_imgproc_filter_get_private (filter);

  if (discard_output)
    discard_held (filter);
  else
    gst_cuda_imgproc_frame_path_push_held (filter);

  if ((priv->in_flight.count > 0 || priv->reports.count > 0) &&
      gst_cuda_context_push (priv->device.context)) {
    gst_cuda_imgproc_in_flight_drain (&priv->in_flight, priv->device.stream);
    gst_cuda_imgproc_reports_deliver (&priv->reports, filter, TRUE,
        priv->device.stream);
    gst_cuda_context_pop (NULL);
  }
}

/* Whether the chroma planes are written on the stream: where the output
 * frame is (a neutral fill), or where either frame is (a copy); else on
 * the host, never sent through the GPU for nothing. */
static gboolean
chroma_on_device (GstCudaImgprocFilterPrivate * priv, gboolean src_on_device,
    gboolean dst_on_device)
{
  return priv->neutral_chroma ? dst_on_device : src_on_device ||
      dst_on_device;
}

/* The subclass's frame_done, once the frame is unmapped (it adds metas),
 * with the context current on the cuda backend. */
static CipStatus
call_frame_done (GstCudaImgprocFilter * filter, GstBuffer * outbuf,
    const guint8 * readback)
{
  GstCudaImgprocFilterClass *klass = GST_CUDA_IMGPROC_FILTER_GET_CLASS (filter);
  GstCudaImgprocFilterPrivate *priv =
      gst_cuda_imgproc_filter_get_private (filter);
  CipStatus status;

  if (klass->frame_done == NULL)
    return CIP_OK;
  if (priv->active_backend == GST_CUDA_IMGPROC_BACKEND_CPU)
    return klass->frame_done (filter, outbuf, readback, NULL);
  if (!gst_cuda_context_push (priv->device.context))
    return CIP_ERROR_CUDA;
  status = klass->frame_done (filter, outbuf, readback, priv->device.stream);
  gst_cuda_context_pop (NULL);
  return status;
}

/* The readback area of the frame about to be processed. */
static guint8 *
frame_readback (GstCudaImgprocFilter * filter)
{
  GstCudaImgprocFilterClass *klass = GST_CUDA_IMGPROC_FILTER_GET_CLASS (filter);
  GstCudaImgprocFilterPrivate *priv =
      gst_cuda_imgproc_filter_get_private (filter);

  if (klass->frame_done == NULL)
    return priv->readback;
  priv->readback_turn = (priv->readback_turn + 1) % GST_CUDA_IMGPROC_MAX_HELD;
  return priv->readback + priv->readback_turn * klass->readback_size;
}

/* One frame on the element's stream.  Device frames are read and written
 * in place, once the frame's writer is done with it; host frames are
 * uploaded into, or downloaded from, the persistent device images.  Planes
 * past the first (chroma) are copied between the frames.  Then either one
 * synchronization, or, when downstream is one of ours waiting for the
 * output's ready event, none: the input is held until its reading is
 * done. */
static CipStatus
process_on_device (GstCudaImgprocFilter * filter, GstBuffer * inbuf,
    GstVideoFrame * in_frame, gboolean src_on_device, GstBuffer * outbuf,
    GstVideoFrame * out_frame, gboolean dst_on_device, guint8 ** readback_out)
{
  GstCudaImgprocFilterClass *klass = GST_CUDA_IMGPROC_FILTER_GET_CLASS (filter);
  GstCudaImgprocFilterPrivate *priv =
      gst_cuda_imgproc_filter_get_private (filter);
  CipImage src = gst_cuda_imgproc_plane_image (in_frame, 0,
      priv->src_format);
  CipImage dst = gst_cuda_imgproc_plane_image (out_frame, 0,
      priv->dst_format);
  CipImage *work_src = src_on_device ? &src : &priv->device_src;
  CipImage *work_dst = dst_on_device ? &dst : &priv->device_dst;
  CipEvent *output_ready = gst_cuda_imgproc_buffer_ready_event (outbuf);
  guint8 *readback = klass->report ?
      gst_cuda_imgproc_reports_next_slot (&priv->reports, filter,
      priv->device.stream) : frame_readback (filter);
  GstCudaImgprocHeldFrame *held = &priv->held[priv->n_held];
  gboolean defer = dst_on_device && klass->frame_done == NULL &&
      !klass->reads_intensity && gst_cuda_imgproc_device_reader_orders
      (&priv->device, outbuf, priv->downstream_waits);
  CipStatus status = klass->report && readback == NULL ? CIP_ERROR_CUDA :
      CIP_OK;
  gboolean committed = FALSE;

  /* The input's writer may still be at work: our stream waits for it. */
  if (status == CIP_OK && src_on_device)
    status = gst_cuda_imgproc_device_order_after (&priv->device, inbuf);
  if (status == CIP_OK && !src_on_device && priv->device_src_held.data) {
    /* the held frame's upload stays where it is */
    CipImage other = priv->device_src;

    priv->device_src = priv->device_src_held;
    priv->device_src_held = other;
  }
  if (status == CIP_OK && !src_on_device)
    status = cip_copy (&src, &priv->device_src, priv->device.stream);
  if (status == CIP_OK && priv->intensity.mapped)
    status = gst_cuda_imgproc_intensity_to_device (&priv->intensity,
        priv->device.stream, &priv->intensity_for_process);
  if (status == CIP_OK)
    status = klass->process (filter, work_src, work_dst, readback,
        priv->device.stream);
  priv->intensity_for_process = NULL;
  if (status == CIP_OK && !dst_on_device)
    status = cip_copy (&priv->device_dst, &dst, priv->device.stream);

  if (status == CIP_OK && chroma_on_device (priv, src_on_device,
          dst_on_device))
    status = gst_cuda_imgproc_frame_finish_chroma (in_frame, out_frame,
        priv->neutral_chroma, priv->device.stream);

  if (status == CIP_OK && klass->report) {
    status = gst_cuda_imgproc_reports_commit (&priv->reports, outbuf,
        &GST_BASE_TRANSFORM (filter)->segment, priv->device.stream);
    committed = status == CIP_OK;
  }

  if (status == CIP_OK && defer) {
    status = cip_event_record (output_ready, priv->device.stream);
    if (status == CIP_OK)
      status = gst_cuda_imgproc_in_flight_hold (&priv->in_flight, inbuf,
          priv->device.stream);
  } else if (status == CIP_OK && priv->hold_frames && !priv->after_discont) {
    /* completed once the next frame's work is queued; inputs of frames
     * that went out before without a wait (other caps) go back upstream
     * once read */
    gst_cuda_imgproc_in_flight_release_passed (&priv->in_flight);
    status = cip_event_record (held->done, priv->device.stream);
    if (status == CIP_OK) {
      gst_buffer_replace (&held->input, inbuf);
      held->readback = readback;
      priv->holding = TRUE;
      if (committed)
        gst_cuda_imgproc_reports_hold_last (&priv->reports);
      committed = FALSE;
    }
  } else if (status == CIP_OK) {
    gst_cuda_imgproc_in_flight_drain (&priv->in_flight, priv->device.stream);
    status = cip_stream_synchronize (priv->device.stream);
    /* the frame leaves the GPU: its report goes before it */
    if (status == CIP_OK && klass->report) {
      status = gst_cuda_imgproc_reports_deliver (&priv->reports, filter,
          FALSE, priv->device.stream);
      committed = FALSE;
    }
  }
  /* a frame that is not pushed reports nothing */
  if (status != CIP_OK && committed)
    gst_cuda_imgproc_reports_drop_last (&priv->reports);
  if (status == CIP_OK) {
    priv->uploads += !src_on_device;
    priv->downloads += !dst_on_device;
  }
  *readback_out = readback;
  return status;
}

GstFlowReturn
gst_cuda_imgproc_frame_path_run (GstCudaImgprocFilter * filter,
    GstBuffer * inbuf, GstBuffer * outbuf)
{
  GstCudaImgprocFilterClass *klass = GST_CUDA_IMGPROC_FILTER_GET_CLASS (filter);
  GstCudaImgprocFilterPrivate *priv =
      gst_cuda_imgproc_filter_get_private (filter);
  gboolean on_cuda = priv->active_backend == GST_CUDA_IMGPROC_BACKEND_CUDA;
  GstVideoFrame in_frame, out_frame;
  gboolean src_on_device, dst_on_device, have_intensity;
  guint8 *readback = NULL;
  CipStatus status;

  /* CUDA memory of another context is read and written through its host
   * copy, like system memory. */
  src_on_device = on_cuda && priv->in_cuda &&
      gst_cuda_imgproc_is_device_frame (inbuf, priv->device.context);
  dst_on_device = on_cuda && priv->out_cuda &&
      gst_cuda_imgproc_is_device_frame (outbuf, priv->device.context);

  /* A device frame read on the host must be complete first. */
  if (on_cuda && priv->in_cuda && !src_on_device &&
      gst_cuda_imgproc_buffer_ready_event (inbuf)) {
    status = CIP_ERROR_CUDA;
    if (gst_cuda_context_push (priv->device.context)) {
      status = cip_event_synchronize (gst_cuda_imgproc_buffer_ready_event
          (inbuf), priv->device.stream);
      gst_cuda_context_pop (NULL);
    }
    if (status != CIP_OK)
      goto wait_failed;
  }

  if (!gst_cuda_imgproc_frame_map_checked (&in_frame, &priv->in_info, inbuf,
          GST_MAP_READ | (src_on_device ? GST_MAP_CUDA : 0)))
    goto invalid_input;
  /* a downstream pool's video meta is taken no more on trust than the
   * input's */
  if (!gst_cuda_imgproc_frame_map_checked (&out_frame, &priv->out_info,
          outbuf, GST_MAP_WRITE | (dst_on_device ? GST_MAP_CUDA : 0)))
    goto invalid_output;
  have_intensity = klass->reads_intensity &&
      gst_cuda_imgproc_intensity_map (&priv->intensity, GST_ELEMENT (filter),
      inbuf, &priv->in_info, on_cuda ? &priv->device : NULL);

  if (!on_cuda) {
    CipImage src = gst_cuda_imgproc_plane_image (&in_frame, 0,
        priv->src_format);
    CipImage dst = gst_cuda_imgproc_plane_image (&out_frame, 0,
        priv->dst_format);

    readback = klass->report ?
        gst_cuda_imgproc_reports_next_slot (&priv->reports, filter, NULL) :
        frame_readback (filter);

    priv->intensity_for_process = have_intensity ?
        &priv->intensity.image : NULL;
    status = klass->process (filter, &src, &dst, readback, NULL);
    priv->intensity_for_process = NULL;
    if (status == CIP_OK && klass->report) {
      gst_cuda_imgproc_reports_commit (&priv->reports, outbuf,
          &GST_BASE_TRANSFORM (filter)->segment, NULL);
      gst_cuda_imgproc_reports_deliver (&priv->reports, filter, FALSE, NULL);
    }

  } else if (gst_cuda_context_push (priv->device.context)) {
    status = process_on_device (filter, inbuf, &in_frame, src_on_device,
        outbuf, &out_frame, dst_on_device, &readback);
    gst_cuda_context_pop (NULL);
  } else {
    gst_cuda_imgproc_intensity_unmap (&priv->intensity);
    goto push_failed;
  }
  /* A device pointer outlives its map: kernels still reading the gray
   * frame keep it through the held input, whose meta holds it. */
  gst_cuda_imgproc_intensity_unmap (&priv->intensity);
  if (status != CIP_OK)
    goto process_failed;


  if (!on_cuda || !chroma_on_device (priv, src_on_device, dst_on_device))
    gst_cuda_imgproc_frame_finish_chroma (&in_frame, &out_frame,
        priv->neutral_chroma, NULL);

  gst_video_frame_unmap (&out_frame);
  gst_video_frame_unmap (&in_frame);

  /* A mask carries the gray frame it was made from, unless its input
   * already carried one (a mask of a mask): that one is passed on. */
  if (klass->attaches_intensity &&
      !gst_buffer_get_cuda_imgproc_intensity_meta (outbuf))
    gst_buffer_add_cuda_imgproc_intensity_meta (outbuf, inbuf, &priv->in_info);

  priv->frames++;
  if (!priv->holding)
    status = call_frame_done (filter, outbuf, readback);
  if (status != CIP_OK)
    goto process_failed_unmapped;
  return GST_FLOW_OK;

wait_failed:
  GST_ELEMENT_ERROR (filter, LIBRARY, FAILED,
      ("Waiting for the input frame's CUDA work failed."),
      ("%s: %s", cip_status_name (status),
            cip_stream_error (priv->device.stream)));
  return GST_FLOW_ERROR;
invalid_input:
  GST_ELEMENT_ERROR (filter, STREAM, FORMAT,
      ("Input buffer does not hold a %dx%d %s frame.",
          GST_VIDEO_INFO_WIDTH (&priv->in_info),
          GST_VIDEO_INFO_HEIGHT (&priv->in_info),
          GST_VIDEO_INFO_NAME (&priv->in_info)),
      ("buffer of %" G_GSIZE_FORMAT " bytes, caps need %" G_GSIZE_FORMAT
          " (or its video meta does not fit)", gst_buffer_get_size (inbuf),
          GST_VIDEO_INFO_SIZE (&priv->in_info)));
  return GST_FLOW_ERROR;
invalid_output:
  gst_video_frame_unmap (&in_frame);
  GST_ELEMENT_ERROR (filter, STREAM, FORMAT,
      ("Output buffer does not hold a %dx%d %s frame.",
          GST_VIDEO_INFO_WIDTH (&priv->out_info),
          GST_VIDEO_INFO_HEIGHT (&priv->out_info),
          GST_VIDEO_INFO_NAME (&priv->out_info)),
      ("buffer of %" G_GSIZE_FORMAT " bytes, caps need %" G_GSIZE_FORMAT
          " (or its video meta does not fit)", gst_buffer_get_size (outbuf),
          GST_VIDEO_INFO_SIZE (&priv->out_info)));
  return GST_FLOW_ERROR;
push_failed:
  gst_video_frame_unmap (&out_frame);
  gst_video_frame_unmap (&in_frame);
  GST_ELEMENT_ERROR (filter, RESOURCE, FAILED,
      ("Could not make the CUDA context current."), (NULL));
  return GST_FLOW_ERROR;
process_failed:
  gst_video_frame_unmap (&out_frame);
  gst_video_frame_unmap (&in_frame);
process_failed_unmapped:
  if (priv->active_backend == GST_CUDA_IMGPROC_BACKEND_CPU)
    GST_ELEMENT_ERROR (filter, LIBRARY, FAILED,
        ("Could not process the frame."), ("%s", cip_status_name (status)));
  else
    GST_ELEMENT_ERROR (filter, LIBRARY, FAILED,
        ("CUDA processing of the frame failed."),
        ("%s: %s", cip_status_name (status),
            cip_stream_error (priv->device.stream)));
  return GST_FLOW_ERROR;
}

/* The oldest held frame, once its work has run: its reports and
 * frame_done, then it is complete.  A failure drops it. */
static GstFlowReturn
complete_held (GstCudaImgprocFilter * filter, GstBuffer ** outbuf)
{
  GstCudaImgprocFilterClass *klass = GST_CUDA_IMGPROC_FILTER_GET_CLASS (filter);
  GstCudaImgprocFilterPrivate *priv =
      gst_cuda_imgproc_filter_get_private (filter);
  GstCudaImgprocHeldFrame *held = &priv->held[0];
  GstBuffer *output = g_steal_pointer (&held->output);
  CipStatus status = CIP_ERROR_CUDA;

  /* its report goes with it, and those before it; not those of the
   * frames held behind it, which may yet be dropped */
  if (klass->report)
    gst_cuda_imgproc_reports_release_held (&priv->reports);
  /* one context push for the wait, the reports and frame_done */
  if (gst_cuda_context_push (priv->device.context)) {
    status = cip_event_synchronize (held->done, priv->device.stream);
    if (status == CIP_OK && klass->report)
      status = gst_cuda_imgproc_reports_deliver (&priv->reports, filter,
          FALSE, priv->device.stream);
    if (status == CIP_OK && klass->frame_done)
      status = klass->frame_done (filter, output, held->readback,
          priv->device.stream);
    gst_cuda_context_pop (NULL);
  }
  release_held (held);
  shift_held (priv);
  if (status != CIP_OK) {
    gst_buffer_unref (output);
    GST_ELEMENT_ERROR (filter, LIBRARY, FAILED,
        ("CUDA processing of the frame failed."),
        ("%s: %s", cip_status_name (status),
            cip_stream_error (priv->device.stream)));
    return GST_FLOW_ERROR;
  }
  *outbuf = output;
  return GST_FLOW_OK;
}

GstFlowReturn
gst_cuda_imgproc_frame_path_push_held (GstCudaImgprocFilter * filter)
{
  GstCudaImgprocFilterPrivate *priv =
      gst_cuda_imgproc_filter_get_private (filter);
  GstFlowReturn ret = GST_FLOW_OK;
  GstBuffer *outbuf;

  while (priv->n_held > 0 && ret == GST_FLOW_OK) {
    ret = complete_held (filter, &outbuf);
    if (ret == GST_FLOW_OK)
      ret = gst_pad_push (GST_BASE_TRANSFORM_SRC_PAD (filter), outbuf);
  }
  if (ret != GST_FLOW_OK)
    discard_held (filter);
  return ret;
}

GstFlowReturn
gst_cuda_imgproc_frame_path_submit (GstCudaImgprocFilter * filter,
    gboolean is_discont)
{
  GstCudaImgprocFilterPrivate *priv =
      gst_cuda_imgproc_filter_get_private (filter);

  priv->after_discont = is_discont;
  return is_discont ? gst_cuda_imgproc_frame_path_push_held (filter) :
      GST_FLOW_OK;
}

GstFlowReturn
gst_cuda_imgproc_frame_path_generate (GstCudaImgprocFilter * filter,
    GstCudaImgprocGenerateFunc compute, GstBuffer ** outbuf)
{
  GstBaseTransform *trans = GST_BASE_TRANSFORM (filter);
  GstCudaImgprocFilterPrivate *priv =
      gst_cuda_imgproc_filter_get_private (filter);
  GstBuffer *previous = NULL, *fresh = NULL;
  GstFlowReturn ret;

  *outbuf = NULL;
  /* GstBaseTransform asks again after each output: the frame computed
   * behind the held one, or how computing it went */
  if (trans->queued_buf == NULL) {
    *outbuf = g_steal_pointer (&priv->next_output);
    ret = priv->next_flow;
    priv->next_flow = GST_FLOW_OK;
    return ret;
  }
  /* left by a push that failed */
  gst_clear_buffer (&priv->next_output);
  priv->next_flow = GST_FLOW_OK;

  /* this frame's work is queued first: the GPU runs it while the host
   * finishes the held one */
  priv->holding = FALSE;
  ret = compute (trans, &fresh);
  if (ret == GST_FLOW_OK && fresh && priv->holding) {
    priv->held[priv->n_held++].output = g_steal_pointer (&fresh);
  } else if (priv->holding) {
    if (GST_CUDA_IMGPROC_FILTER_GET_CLASS (filter)->report)
      gst_cuda_imgproc_reports_drop_held (&priv->reports);
    release_held (&priv->held[priv->n_held]);
  }
  priv->holding = FALSE;

  /* downstream is flushing: the held frames, and their reports, go with
   * the flush */
  if (ret == GST_FLOW_FLUSHING) {
    gst_clear_buffer (&fresh);
    return ret;
  }
  if (priv->n_held == GST_CUDA_IMGPROC_MAX_HELD ||
      (priv->n_held > 0 && (fresh || ret != GST_FLOW_OK))) {
    GstFlowReturn done = complete_held (filter, &previous);

    if (done != GST_FLOW_OK) {
      gst_clear_buffer (&fresh);
      return done;
    }
  }

  if (previous == NULL) {
    *outbuf = fresh;
    return ret;
  }
  *outbuf = previous;
  priv->next_output = fresh;
  priv->next_flow = ret;
  return GST_FLOW_OK;
}
