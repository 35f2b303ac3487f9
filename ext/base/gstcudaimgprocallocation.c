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

#include <gst/video/video.h>

#include "gstcudaimgprocallocation.h"
#include "gstcudaimgproccaps.h"
#include "gstcudaimgprocpool.h"

GST_DEBUG_CATEGORY_EXTERN (gst_cuda_imgproc_filter_debug);
#define GST_CAT_DEFAULT gst_cuda_imgproc_filter_debug

/* A pool of CUDA-memory frames makes them when it is activated, before
 * the stream flows, up to this size: a pool that grew later allocated
 * from the streaming thread, and the driver's allocation waits for every
 * other thread of the context to leave it (sixteen pipelines at once:
 * one stream stopped for seconds while the others ran). */
#define MADE_FIRST_BYTES_MAX (512 * 1024 * 1024)

/* The frames of a pool of @caps made when it is activated, for the @held
 * frames the element may have in flight: CUDA memory up to
 * MADE_FIRST_BYTES_MAX.  System-memory pools grow as frames need them:
 * their pipelines wait for each frame's download, which leaves the
 * driver free between frames, and huge caps refused at their first
 * buffer cost one frame, not a queue of them. */
static guint
frames_made_first (GstCaps * caps, guint held)
{
  GstVideoInfo info;
  guint64 frame_size;

  if (!gst_cuda_imgproc_caps_are_cuda (caps) ||
      !gst_video_info_from_caps (&info, caps))
    return 0;
  frame_size = GST_VIDEO_INFO_SIZE (&info);
  return held * frame_size <= MADE_FIRST_BYTES_MAX ? held : 0;
}

/* A pool of @caps frames: CUDA memory in the element's context, or
 * page-locked system memory (on the cuda backend), with video meta; its
 * @min_buffers frames are made when it is activated. */
static GstBufferPool *
make_pool (GstCudaImgprocDevice * device, GstCaps * caps, guint min_buffers,
    guint * size)
{
  GstBufferPool *pool;
  GstStructure *config;
  GstVideoInfo info;

  if (!gst_video_info_from_caps (&info, caps))
    return NULL;

  if (gst_cuda_imgproc_caps_are_cuda (caps)) {
    pool = gst_cuda_imgproc_pool_new (device->context, device->shared_stream);
  } else {
    pool = gst_video_buffer_pool_new ();
  }
  config = gst_buffer_pool_get_config (pool);
  gst_buffer_pool_config_set_params (config, caps, GST_VIDEO_INFO_SIZE (&info),
      min_buffers, 0);
  gst_buffer_pool_config_add_option (config, GST_BUFFER_POOL_OPTION_VIDEO_META);
  if (!gst_cuda_imgproc_caps_are_cuda (caps))
    gst_buffer_pool_config_set_allocator (config, device->host_allocator, NULL);
  if (!gst_buffer_pool_set_config (pool, config)) {
    GST_WARNING ("could not configure a pool for %" GST_PTR_FORMAT, caps);
    gst_object_unref (pool);
    return NULL;
  }

  /* The CUDA pool knows the real frame size only once configured. */
  config = gst_buffer_pool_get_config (pool);
  gst_buffer_pool_config_get_params (config, NULL, size, NULL, NULL);
  gst_structure_free (config);
  return pool;
}

void
gst_cuda_imgproc_allocation_propose (GstCudaImgprocDevice * device,
    GstQuery * query, guint held)
{
  GstBufferPool *pool;
  GstCaps *caps;
  guint size;

  gst_query_parse_allocation (query, &caps, NULL);
  if (caps == NULL)
    return;
  /* Device frames from our neighbours need not be synchronized first. */
  if (gst_cuda_imgproc_caps_are_cuda (caps))
    gst_query_add_allocation_meta (query,
        GST_CUDA_IMGPROC_READY_EVENT_API_TYPE, NULL);
  if (gst_query_get_n_allocation_pools (query) > 0)
    return;

  held = frames_made_first (caps, held);
  pool = make_pool (device, caps, held, &size);
  if (pool) {
    gst_query_add_allocation_pool (query, pool, size, held, 0);
    gst_object_unref (pool);
  }
  /* An upstream that configures the pool itself keeps the allocator. */
  if (!gst_cuda_imgproc_caps_are_cuda (caps))
    gst_query_add_allocation_param (query, device->host_allocator, NULL);
}

gboolean
gst_cuda_imgproc_allocation_downstream_waits (GstQuery * query)
{
  GstCaps *caps;

  gst_query_parse_allocation (query, &caps, NULL);
  return caps != NULL && gst_cuda_imgproc_caps_are_cuda (caps) &&
      gst_query_find_allocation_meta (query,
      GST_CUDA_IMGPROC_READY_EVENT_API_TYPE, NULL);
}

gboolean
gst_cuda_imgproc_allocation_wants_own_pool (GstQuery * query)
{
  GstCaps *caps;

  gst_query_parse_allocation (query, &caps, NULL);
  return caps != NULL && (gst_cuda_imgproc_caps_are_cuda (caps) ||
      gst_query_get_n_allocation_pools (query) == 0);
}

gboolean
gst_cuda_imgproc_allocation_decide (GstCudaImgprocDevice * device,
    GstQuery * query, guint held)
{
  GstBufferPool *pool;
  GstCaps *caps;
  guint size, min_buffers = 0;

  gst_query_parse_allocation (query, &caps, NULL);
  if (gst_query_get_n_allocation_pools (query) > 0)
    gst_query_parse_nth_allocation_pool (query, 0, NULL, NULL, &min_buffers,
        NULL);
  min_buffers += frames_made_first (caps, held);

  pool = make_pool (device, caps, min_buffers, &size);
  if (pool == NULL)
    return FALSE;
  if (gst_query_get_n_allocation_pools (query) > 0)
    gst_query_set_nth_allocation_pool (query, 0, pool, size, min_buffers, 0);
  else
    gst_query_add_allocation_pool (query, pool, size, min_buffers, 0);
  gst_object_unref (pool);
  return TRUE;
}
