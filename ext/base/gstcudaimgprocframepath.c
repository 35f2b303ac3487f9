/* gst-cuda-imgproc
 * Copyright (C) 2026 The gst-cuda-imgproc authors
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2 of the License, or (at your option) any later version.
 */

/* A frame's way through an element, top to bottom:
 *
 * 1. submit: an input after a discontinuity, or before a renegotiation,
 *    first lets the frames in flight out;
 * 2. generate: the input is computed at once (mapped, uploaded,
 *    process(), downloaded, chroma) and joins the queue with the event
 *    recorded after its work;
 * 3. next_output, the one way out: outputs leave in frame order.  One
 *    whose reader orders itself after our work on the GPU leaves at once;
 *    any other leaves once its work has run, and behind a source that is
 *    not live the newest waits in the queue until the next frame's work
 *    is queued, so that the GPU runs one frame while the host finishes
 *    the one before;
 * 4. a frame whose output has left stays in the queue until its work has
 *    run: then frame_done, and its input goes back upstream.
 *
 * Events, a drain query and the end of the stream push what is in flight
 * through the same way out (push_all); a flush drops it. */

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "gstcudaimgproccompat.h"

#include "gstcudaimgprocframepath.h"
#include "gstcudaimgprocframe.h"
#include "gstcudaimgprocmeta.h"
#include "gstcudaimgprocpool.h"

GST_DEBUG_CATEGORY_EXTERN (gst_cuda_imgproc_filter_debug);
#define GST_CAT_DEFAULT gst_cuda_imgproc_filter_debug

#define CLASS(filter) GST_CUDA_IMGPROC_FILTER_GET_CLASS (filter)

/* Whether pageable frames are uploaded through the stager.  Test-only:
 * CIP_STAGE_PAGEABLE=0, in a build with -Dtest-switches=true alone, keeps
 * the driver's own staging, for the benchmark to measure both. */
static gboolean
stage_pageable (void)
{
#if CIP_TEST_SWITCHES
  return g_strcmp0 (g_getenv ("CIP_STAGE_PAGEABLE"), "0") != 0;
#else
  return TRUE;
#endif
}

/* Elements whose output waits for its results hold fewer frames. */
static guint
queue_depth (GstCudaImgprocFilterClass * klass)
{
  return klass->attaches_results ? GST_CUDA_IMGPROC_QUEUE_DEPTH_WAITING :
      GST_CUDA_IMGPROC_QUEUE_DEPTH;
}

gboolean
gst_cuda_imgproc_frame_path_start (GstCudaImgprocFramePath * path,
    GstCudaImgprocFilter * filter, gboolean on_cuda, gint device_id,
    GstCudaImgprocZeroCopy zero_copy)
{
  GstCudaImgprocFilterClass *klass = CLASS (filter);
  CipStatus status;

  path->on_cuda = on_cuda;
  path->ops = on_cuda ? &cip_cuda_ops : &cip_ref_ops;
  if (on_cuda && !gst_cuda_imgproc_device_open (&path->device,
          GST_ELEMENT (filter), device_id))
    return FALSE;
  if (on_cuda && !gst_cuda_context_push (path->device.context))
    goto push_failed;
  status = gst_cuda_imgproc_queue_init (&path->queue, queue_depth (klass),
      klass->readback_size, klass->frame_state_size, path->ops,
      on_cuda ? path->device.stream : NULL,
      on_cuda ? path->device.host_allocator : NULL);
  if (status == CIP_OK && klass->history_size > 0)
    status = path->ops->buffer_alloc (&path->history, klass->history_size,
        on_cuda ? path->device.stream : NULL);
  path->restart_history = TRUE;
  path->in_place = on_cuda && (zero_copy == GST_CUDA_IMGPROC_ZERO_COPY_ON ||
      (zero_copy == GST_CUDA_IMGPROC_ZERO_COPY_AUTO &&
          cip_stream_integrated (path->device.stream)));
  GST_DEBUG_OBJECT (filter, "system-memory frames %s", path->in_place ?
      "used in place" : "copied");
  if (status == CIP_OK && on_cuda && stage_pageable ())
    path->stager = gst_cuda_imgproc_stager_new (path->ops, path->device.stream);
  if (on_cuda)
    gst_cuda_context_pop (NULL);
  if (status != CIP_OK)
    goto alloc_failed;
  return TRUE;

push_failed:
  GST_ELEMENT_ERROR (filter, RESOURCE, FAILED,
      ("Could not make the CUDA context current."), (NULL));
  gst_cuda_imgproc_frame_path_stop (path, filter);
  return FALSE;
alloc_failed:
  GST_ELEMENT_ERROR (filter, RESOURCE, FAILED,
      ("Could not set up the CUDA stream and its buffers."),
      ("%s: %s", cip_status_name (status),
          path->device.stream ? cip_stream_error (path->device.stream) :
          "out of memory"));
  gst_cuda_imgproc_frame_path_stop (path, filter);
  return FALSE;
}

/* Frees the device images once the GPU is done with them; with the
 * context current. */
static void
free_device_images (GstCudaImgprocFramePath * path)
{
  cip_stream_synchronize (path->device.stream);
  cip_image_free (&path->upload, path->device.stream);
  cip_image_free (&path->download, path->device.stream);
  gst_cuda_imgproc_queue_free_uploads (&path->queue);
}

/* What the subclass keeps in each frame's state, and the queue. */
static void
clear_queue (GstCudaImgprocFramePath * path, GstCudaImgprocFilter * filter)
{
  GstCudaImgprocFilterClass *klass = CLASS (filter);
  guint i;

  for (i = 0; klass->clear_frame_state && i < path->queue.depth; i++)
    klass->clear_frame_state (filter, &path->queue.entries[i].frame);
  gst_cuda_imgproc_queue_clear (&path->queue);
}

void
gst_cuda_imgproc_frame_path_stop (GstCudaImgprocFramePath * path,
    GstCudaImgprocFilter * filter)
{
  gst_cuda_imgproc_frame_path_flush (path, filter);
  if (!path->on_cuda) {
    clear_queue (path, filter);
    if (path->history)
      path->ops->buffer_free (path->history, NULL);
    path->history = NULL;
    return;
  }
  if (path->device.context && path->device.stream &&
      gst_cuda_context_push (path->device.context)) {
    free_device_images (path);
    g_clear_pointer (&path->stager, gst_cuda_imgproc_stager_free);
    clear_queue (path, filter);
    if (path->history)
      path->ops->buffer_free (path->history, path->device.stream);
    path->history = NULL;
    gst_cuda_context_pop (NULL);
  }
  gst_cuda_imgproc_device_close (&path->device);
  gst_clear_object (&path->device.context);
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

/* Device images for the negotiated caps, reallocated only when the frame
 * geometry changed.  Elements that read a frame again when it is done
 * upload each frame in flight into its own. */
static gboolean
configure_device_images (GstCudaImgprocFramePath * path,
    GstCudaImgprocFilter * filter)
{
  gint width = GST_VIDEO_INFO_WIDTH (&path->in_info);
  gint height = GST_VIDEO_INFO_HEIGHT (&path->in_info);
  CipStream *stream = path->device.stream;
  CipStatus status;
  guint i;

  if (path->upload.data && path->upload.width == width &&
      path->upload.height == height &&
      path->upload.format == path->src_format &&
      path->download.format == path->dst_format)
    return TRUE;

  if (!gst_cuda_context_push (path->device.context)) {
    GST_ELEMENT_ERROR (filter, RESOURCE, FAILED,
        ("Could not make the CUDA context current."), (NULL));
    return FALSE;
  }
  free_device_images (path);
  status = cip_image_alloc (&path->upload, width, height, path->src_format,
      stream);
  if (status == CIP_OK)
    status = cip_image_alloc (&path->download, width, height,
        path->dst_format, stream);
  for (i = 0; CLASS (filter)->attaches_results && i < path->queue.depth &&
      status == CIP_OK; i++)
    status = cip_image_alloc (&path->queue.entries[i].upload, width, height,
        path->src_format, stream);
  if (status != CIP_OK) {
    GST_ELEMENT_ERROR (filter, RESOURCE, NO_SPACE_LEFT,
        ("Could not allocate device memory for %dx%d frames.", width, height),
        ("%s: %s", cip_status_name (status), cip_stream_error (stream)));
    free_device_images (path);
  }
  gst_cuda_context_pop (NULL);
  return status == CIP_OK;
}

gboolean
gst_cuda_imgproc_frame_path_set_caps (GstCudaImgprocFramePath * path,
    GstCudaImgprocFilter * filter, const GstCudaImgprocFormats * formats,
    GstCaps * incaps, GstCaps * outcaps)
{
  GstBaseTransform *trans = GST_BASE_TRANSFORM (filter);
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

  path->in_info = in_info;
  path->out_info = out_info;
  path->in_cuda = gst_cuda_imgproc_caps_are_cuda (incaps);
  path->out_cuda = gst_cuda_imgproc_caps_are_cuda (outcaps);
  path->src_format = src_format;
  path->dst_format = dst_format;
  path->neutral_chroma = gst_cuda_imgproc_caps_is_gray_as_yuv (formats,
      GST_VIDEO_INFO_FORMAT (&in_info), GST_VIDEO_INFO_FORMAT (&out_info));
  path->restart_history = TRUE;
  /* Equal caps are not a copy when the output's chroma is not the input's
   * (cudagray on NV12). */
  if (path->neutral_chroma && gst_base_transform_is_passthrough (trans))
    gst_base_transform_set_passthrough (trans, FALSE);
  path->hold_frames = path->on_cuda && !upstream_is_live (filter);
  GST_DEBUG_OBJECT (filter, "%s frames", path->hold_frames ? "holding" :
      "not holding");

  if (!path->on_cuda || gst_base_transform_is_passthrough (trans))
    return TRUE;
  return configure_device_images (path, filter);

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

GstFlowReturn
gst_cuda_imgproc_frame_path_submit (GstCudaImgprocFramePath * path,
    GstCudaImgprocFilter * filter, gboolean is_discont)
{
  path->after_discont = is_discont;
  if (is_discont)
    path->restart_history = TRUE;
  /* GstBaseTransform would mark a frame from before the discontinuity
   * DISCONT; a renegotiation (in the submit that follows) would change the
   * caps and pool under the frames in flight */
  if (is_discont ||
      gst_pad_needs_reconfigure (GST_BASE_TRANSFORM_SRC_PAD (filter)))
    return gst_cuda_imgproc_frame_path_push_all (path, filter, FALSE);
  return GST_FLOW_OK;
}

/* Whether the chroma planes are written on the stream: where the output
 * frame is (a neutral fill), or where either frame is (a copy); else on
 * the host, never sent through the GPU for nothing. */
static gboolean
chroma_on_device (GstCudaImgprocFramePath * path, gboolean src_on_device,
    gboolean dst_on_device)
{
  return path->neutral_chroma ? dst_on_device : src_on_device || dst_on_device;
}

/* The frame of @entry on the element's stream.  Device frames are read and
 * written in place, once the input's writer is done with it; host frames
 * too with zero-copy where their memory allows (the input stays in the
 * queue, and the output waits, until the work is done), else they are
 * uploaded into, or downloaded from, the device images.  An output
 * whose reader orders itself after our work leaves at once; any other
 * waits for the event recorded after it. */
static CipStatus
compute_on_device (GstCudaImgprocFramePath * path,
    GstCudaImgprocFilter * filter, GstCudaImgprocQueued * entry,
    GstVideoFrame * in_frame, gboolean src_on_device,
    GstVideoFrame * out_frame, gboolean dst_on_device)
{
  GstCudaImgprocFilterClass *klass = CLASS (filter);
  CipStream *stream = path->device.stream;
  CipImage src = gst_cuda_imgproc_plane_image (in_frame, 0,
      path->src_format);
  CipImage dst = gst_cuda_imgproc_plane_image (out_frame, 0,
      path->dst_format);
  CipImage *upload = klass->attaches_results ? &entry->upload : &path->upload;
  gboolean leaves_at_once = dst_on_device && !klass->attaches_results &&
      gst_cuda_imgproc_device_reader_orders (&path->device,
      out_frame->buffer, path->downstream_waits);
  /* an element that reads its input again when the frame is done keeps
   * its own copy of it */
  gboolean src_in_place = !src_on_device && path->in_place &&
      !klass->attaches_results &&
      gst_cuda_imgproc_frame_in_place (in_frame, &src, &path->device);
  gboolean dst_in_place = !dst_on_device && path->in_place &&
      gst_cuda_imgproc_frame_in_place (out_frame, &dst, &path->device);
  gboolean staged = FALSE, page_locked;
  CipStatus status = CIP_OK;

  if (src_on_device)
    status = gst_cuda_imgproc_device_order_after (&path->device,
        in_frame->buffer);
  else if (!src_in_place) {
    path->page_locked +=
        gst_cuda_imgproc_frame_pin_recurring (in_frame, &path->device,
        &page_locked);
    /* page-locked memory (ours, or one that came back) is copied as it
     * is; pageable memory the driver would copy through its own staging,
     * one thread at a time */
    staged = path->stager && !page_locked;
    status = staged ? gst_cuda_imgproc_stager_upload (path->stager, &src,
        upload) : cip_copy (&src, upload, stream);
  }
  if (status == CIP_OK && path->intensity.mapped)
    status = gst_cuda_imgproc_intensity_to_device (&path->intensity,
        &entry->intensity_upload, stream, &entry->frame.intensity);

  entry->frame.src = src_on_device || src_in_place ? &src : upload;
  entry->frame.dst = dst_on_device || dst_in_place ? &dst : &path->download;
  if (status == CIP_OK)
    status = klass->process (filter, &entry->frame);
  if (status == CIP_OK && !dst_on_device && !dst_in_place) {
    path->page_locked +=
        gst_cuda_imgproc_frame_pin_recurring (out_frame, &path->device, NULL);
    status = cip_copy (&path->download, &dst, stream);
  }
  if (status == CIP_OK && chroma_on_device (path, src_on_device, dst_on_device))
    status = gst_cuda_imgproc_frame_finish_chroma (in_frame, out_frame,
        path->neutral_chroma, stream);

  if (status == CIP_OK && leaves_at_once)
    status = cip_event_record (gst_cuda_imgproc_buffer_ready_event
        (out_frame->buffer), stream);
  entry->done = leaves_at_once ? entry->done_polled : entry->done_sleeping;
  if (status == CIP_OK)
    status = cip_event_record (entry->done, stream);
  entry->waits = !leaves_at_once;
  entry->may_hold = path->hold_frames && !path->after_discont;
  if (status == CIP_OK) {
    path->uploads += !src_on_device && !src_in_place;
    path->downloads += !dst_on_device && !dst_in_place;
    path->staged += staged;
  }
  return status;
}

/* The frame of @entry with the reference, on the host: done on return. */
static CipStatus
compute_on_host (GstCudaImgprocFramePath * path,
    GstCudaImgprocFilter * filter, GstCudaImgprocQueued * entry,
    GstVideoFrame * in_frame, GstVideoFrame * out_frame)
{
  CipImage src = gst_cuda_imgproc_plane_image (in_frame, 0,
      path->src_format);
  CipImage dst = gst_cuda_imgproc_plane_image (out_frame, 0,
      path->dst_format);

  entry->frame.src = &src;
  entry->frame.dst = &dst;
  entry->frame.intensity = path->intensity.mapped ?
      &path->intensity.image : NULL;
  entry->waits = TRUE;
  entry->may_hold = FALSE;
  return CLASS (filter)->process (filter, &entry->frame);
}

/* Posts a frame's failure to compute, or to complete. */
static GstFlowReturn
processing_failed (GstCudaImgprocFramePath * path,
    GstCudaImgprocFilter * filter, CipStatus status)
{
  if (path->on_cuda) {
    GST_ELEMENT_ERROR (filter, LIBRARY, FAILED,
        ("CUDA processing of the frame failed."),
        ("%s: %s", cip_status_name (status),
            cip_stream_error (path->device.stream)));
    /* copies and kernels queued before the failure may still read or
     * write frames in page-locked host memory that are released on
     * return */
    if (gst_cuda_context_push (path->device.context)) {
      (void) cip_stream_synchronize (path->device.stream);
      gst_cuda_context_pop (NULL);
    }
  } else
    GST_ELEMENT_ERROR (filter, LIBRARY, FAILED,
        ("Could not process the frame."), ("%s", cip_status_name (status)));
  return GST_FLOW_ERROR;
}

/* Computes @outbuf from @inbuf into the queue's next entry, which then
 * holds both. */
static GstFlowReturn
compute (GstCudaImgprocFramePath * path, GstCudaImgprocFilter * filter,
    GstBuffer * inbuf, GstBuffer * outbuf)
{
  GstCudaImgprocFilterClass *klass = CLASS (filter);
  GstCudaImgprocQueued *entry = gst_cuda_imgproc_queue_nth (&path->queue,
      path->queue.count);
  CipStream *stream = path->device.stream;
  GstVideoFrame in_frame, out_frame;
  gboolean src_on_device, dst_on_device;
  const gchar *why = NULL;
  CipStatus status = CIP_OK;
  CipEvent *ready;

  /* CUDA memory of another context is read and written through its host
   * copy, like system memory; a device frame read there must be complete
   * first. */
  src_on_device = path->on_cuda && path->in_cuda &&
      gst_cuda_imgproc_is_device_frame (inbuf, path->device.context);
  dst_on_device = path->on_cuda && path->out_cuda &&
      gst_cuda_imgproc_is_device_frame (outbuf, path->device.context);
  ready = gst_cuda_imgproc_buffer_ready_event (inbuf);
  if (path->on_cuda && path->in_cuda && !src_on_device && ready) {
    status = CIP_ERROR_CUDA;
    if (gst_cuda_context_push (path->device.context)) {
      status = cip_event_synchronize (ready, stream);
      gst_cuda_context_pop (NULL);
    }
    if (status != CIP_OK)
      goto wait_failed;
  }

  if (!gst_cuda_imgproc_frame_map_checked (&in_frame, &path->in_info, inbuf,
          GST_MAP_READ | (src_on_device ? GST_MAP_CUDA : 0), &why))
    return gst_cuda_imgproc_frame_refuse (GST_ELEMENT (filter), &path->in_info,
        inbuf, "Input", why);
  /* a downstream pool's video meta is taken no more on trust than the
   * input's */
  if (!gst_cuda_imgproc_frame_map_checked (&out_frame, &path->out_info,
          outbuf, GST_MAP_WRITE | (dst_on_device ? GST_MAP_CUDA : 0), &why)) {
    gst_video_frame_unmap (&in_frame);
    return gst_cuda_imgproc_frame_refuse (GST_ELEMENT (filter), &path->out_info,
        outbuf, "Output", why);
  }
  if (klass->reads_intensity)
    gst_cuda_imgproc_intensity_map (&path->intensity, GST_ELEMENT (filter),
        inbuf, &path->in_info, path->on_cuda ? &path->device : NULL);

  entry->frame.pts = GST_BUFFER_PTS (outbuf);
  entry->frame.duration = GST_BUFFER_DURATION (outbuf);
  gst_segment_copy_into (&GST_BASE_TRANSFORM (filter)->segment,
      &entry->frame.segment);
  entry->frame.history = path->history;
  entry->frame.restart = path->restart_history;
  path->restart_history = FALSE;
  if (!path->on_cuda)
    status = compute_on_host (path, filter, entry, &in_frame, &out_frame);
  else if (gst_cuda_context_push (path->device.context)) {
    status = compute_on_device (path, filter, entry, &in_frame,
        src_on_device, &out_frame, dst_on_device);
    gst_cuda_context_pop (NULL);
  } else
    status = CIP_ERROR_CUDA;
  entry->frame.src = entry->frame.dst = NULL;
  entry->frame.intensity = NULL;
  /* A device pointer outlives its map: kernels still reading the gray
   * frame keep it through the input, whose meta holds it. */
  gst_cuda_imgproc_intensity_unmap (&path->intensity);
  if (status == CIP_OK && !chroma_on_device (path, src_on_device,
          dst_on_device))
    gst_cuda_imgproc_frame_finish_chroma (&in_frame, &out_frame,
        path->neutral_chroma, NULL);
  gst_video_frame_unmap (&out_frame);
  gst_video_frame_unmap (&in_frame);
  if (status != CIP_OK)
    goto process_failed;

  /* A mask carries the gray frame it was made from, unless its input
   * already carried one (a mask of a mask): that one is passed on. */
  if (klass->attaches_intensity &&
      !gst_buffer_get_cuda_imgproc_intensity_meta (outbuf))
    gst_buffer_add_cuda_imgproc_intensity_meta (outbuf, inbuf, &path->in_info);

  path->frames++;
  entry->input = gst_buffer_ref (inbuf);
  entry->output = outbuf;
  gst_cuda_imgproc_queue_append (&path->queue);
  return GST_FLOW_OK;

wait_failed:
  GST_ELEMENT_ERROR (filter, LIBRARY, FAILED,
      ("Waiting for the input frame's CUDA work failed."),
      ("%s: %s", cip_status_name (status), cip_stream_error (stream)));
  return GST_FLOW_ERROR;
process_failed:
  return processing_failed (path, filter, status);
}

/* A passthrough input joins the queue as it is, checked as any other:
 * nothing leaves that the caps do not describe. */
static GstFlowReturn
pass (GstCudaImgprocFramePath * path, GstCudaImgprocFilter * filter,
    GstBuffer * inbuf)
{
  GstCudaImgprocQueued *entry = gst_cuda_imgproc_queue_nth (&path->queue,
      path->queue.count);
  const gchar *why = NULL;

  if (!gst_cuda_imgproc_frame_check (&path->in_info, inbuf, &why)) {
    GstFlowReturn ret = gst_cuda_imgproc_frame_refuse (GST_ELEMENT (filter),
        &path->in_info, inbuf, "Input", why);

    gst_buffer_unref (inbuf);
    return ret;
  }
  entry->output = inbuf;
  entry->done = NULL;
  entry->waits = FALSE;
  gst_cuda_imgproc_queue_append (&path->queue);
  return GST_FLOW_OK;
}

/* A passthrough entry (no input of its own) has no work. */
static gboolean
work_done (GstCudaImgprocQueued * entry)
{
  return entry->input == NULL || entry->done == NULL ||
      cip_event_done (entry->done);
}

static CipStatus
frame_done (GstCudaImgprocFilter * filter, GstCudaImgprocQueued * entry,
    GstBuffer * outbuf)
{
  GstCudaImgprocFilterClass *klass = CLASS (filter);

  if (klass->frame_done == NULL || entry->input == NULL)
    return CIP_OK;
  return klass->frame_done (filter, &entry->frame, outbuf);
}

/* The oldest entries whose output has left, once their work has run (with
 * @wait, waiting for it): frame_done, and their input goes back
 * upstream.  With the context current. */
static CipStatus
retire_left (GstCudaImgprocFramePath * path, GstCudaImgprocFilter * filter,
    gboolean wait)
{
  CipStatus status = CIP_OK;

  while (path->queue.count > 0 && status == CIP_OK) {
    GstCudaImgprocQueued *oldest = gst_cuda_imgproc_queue_nth (&path->queue,
        0);

    if (oldest->output)
      break;
    if (!work_done (oldest)) {
      if (!wait)
        break;
      status = cip_event_synchronize (oldest->done, path->device.stream);
      if (status != CIP_OK)
        break;
    }
    status = frame_done (filter, oldest, NULL);
    gst_cuda_imgproc_queue_pop (&path->queue);
  }
  return status;
}

/* The entry whose output leaves next, if it may leave now. */
static GstCudaImgprocQueued *
next_leaving (GstCudaImgprocFramePath * path, gboolean drain)
{
  guint i;

  for (i = 0; i < path->queue.count; i++) {
    GstCudaImgprocQueued *entry = gst_cuda_imgproc_queue_nth (&path->queue,
        i);

    if (entry->output == NULL)
      continue;
    if (entry->waits && entry->may_hold && !drain && i + 1 == path->queue.count)
      return NULL;
    return entry;
  }
  return NULL;
}

GstFlowReturn
gst_cuda_imgproc_frame_path_next_output (GstCudaImgprocFramePath * path,
    GstCudaImgprocFilter * filter, gboolean drain, GstBuffer ** outbuf)
{
  GstCudaImgprocQueued *entry;
  GstBuffer *output = NULL;
  CipStatus status;

  *outbuf = NULL;
  if (path->queue.count == 0)
    return GST_FLOW_OK;
  if (path->on_cuda && !gst_cuda_context_push (path->device.context))
    goto push_failed;

  status = retire_left (path, filter, FALSE);
  entry = status == CIP_OK ? next_leaving (path, drain) : NULL;
  if (entry && !entry->waits) {
    /* complete on the GPU before its reader starts; frame_done once its
     * work has run */
    output = g_steal_pointer (&entry->output);
  } else if (entry) {
    /* its work, and that of every frame before it, has run: theirs are
     * done first, then its own, then it leaves */
    if (entry->done)
      status = cip_event_synchronize (entry->done, path->device.stream);
    if (status == CIP_OK)
      status = retire_left (path, filter, TRUE);
    output = g_steal_pointer (&entry->output);
    if (status == CIP_OK)
      status = frame_done (filter, entry, output);
    gst_cuda_imgproc_queue_pop (&path->queue);
    if (status != CIP_OK)
      gst_clear_buffer (&output);
  }

  if (path->on_cuda)
    gst_cuda_context_pop (NULL);
  if (status != CIP_OK)
    goto failed;
  *outbuf = output;
  return GST_FLOW_OK;

push_failed:
  GST_ELEMENT_ERROR (filter, RESOURCE, FAILED,
      ("Could not make the CUDA context current."), (NULL));
  return GST_FLOW_ERROR;
failed:
  return processing_failed (path, filter, status);
}

/* A full queue's oldest frame leaves first: its output, if still here,
 * goes out now (the input waits for GstBaseTransform's next call), else
 * its work is waited for. */
static GstFlowReturn
make_room (GstCudaImgprocFramePath * path, GstCudaImgprocFilter * filter,
    GstBuffer ** outbuf)
{
  GstCudaImgprocQueued *oldest = gst_cuda_imgproc_queue_nth (&path->queue,
      0);
  CipStatus status = CIP_ERROR_CUDA;

  if (oldest->output)
    return gst_cuda_imgproc_frame_path_next_output (path, filter, TRUE, outbuf);
  if (!path->on_cuda) {
    status = retire_left (path, filter, TRUE);
  } else if (gst_cuda_context_push (path->device.context)) {
    status = retire_left (path, filter, TRUE);
    gst_cuda_context_pop (NULL);
  }
  if (status == CIP_OK)
    return GST_FLOW_OK;
  return processing_failed (path, filter, status);
}

GstFlowReturn
gst_cuda_imgproc_frame_path_generate (GstCudaImgprocFramePath * path,
    GstCudaImgprocFilter * filter, GstBuffer ** outbuf)
{
  GstBaseTransform *trans = GST_BASE_TRANSFORM (filter);
  GstBuffer *inbuf = trans->queued_buf, *output = NULL;
  GstFlowReturn ret;

  *outbuf = NULL;
  if (inbuf && gst_cuda_imgproc_queue_is_full (&path->queue)) {
    ret = make_room (path, filter, outbuf);
    if (ret != GST_FLOW_OK || *outbuf)
      return ret;
  }
  if (inbuf) {
    trans->queued_buf = NULL;
    ret = GST_BASE_TRANSFORM_GET_CLASS (trans)->prepare_output_buffer (trans,
        inbuf, &output);
    if (ret != GST_FLOW_OK || output == NULL) {
      gst_buffer_unref (inbuf);
      return ret;
    }
    if (gst_base_transform_is_passthrough (trans)) {
      ret = pass (path, filter, output);
    } else {
      ret = compute (path, filter, inbuf, output);
      gst_buffer_unref (inbuf);
      if (ret != GST_FLOW_OK)
        gst_buffer_unref (output);
    }
    if (ret != GST_FLOW_OK)
      return ret;
  }
  return gst_cuda_imgproc_frame_path_next_output (path, filter, FALSE, outbuf);
}

GstFlowReturn
gst_cuda_imgproc_frame_path_push_all (GstCudaImgprocFramePath * path,
    GstCudaImgprocFilter * filter, gboolean finish)
{
  GstFlowReturn ret;
  GstBuffer *outbuf;

  do {
    ret = gst_cuda_imgproc_frame_path_next_output (path, filter, TRUE, &outbuf);
    if (outbuf)
      ret = gst_pad_push (GST_BASE_TRANSFORM_SRC_PAD (filter), outbuf);
  } while (ret == GST_FLOW_OK && outbuf);

  /* downstream is flushing or gone: what is left goes with the flush */
  if (ret != GST_FLOW_OK)
    gst_cuda_imgproc_frame_path_flush (path, filter);
  else if (finish && path->queue.count > 0 && path->on_cuda &&
      gst_cuda_context_push (path->device.context)) {
    retire_left (path, filter, TRUE);
    gst_cuda_context_pop (NULL);
  }
  return ret;
}

void
gst_cuda_imgproc_frame_path_flush (GstCudaImgprocFramePath * path,
    GstCudaImgprocFilter * filter)
{
  gboolean pushed = FALSE;

  path->restart_history = TRUE;
  if (path->queue.count == 0)
    return;
  if (path->on_cuda) {
    pushed = gst_cuda_context_push (path->device.context);
    if (pushed)
      cip_stream_synchronize (path->device.stream);
  }
  while (path->queue.count > 0) {
    GstCudaImgprocQueued *oldest = gst_cuda_imgproc_queue_nth (&path->queue,
        0);

    /* a frame that is not pushed reports nothing */
    if (oldest->output == NULL && (pushed || !path->on_cuda))
      frame_done (filter, oldest, NULL);
    gst_cuda_imgproc_queue_pop (&path->queue);
  }
  if (pushed)
    gst_cuda_context_pop (NULL);
}
