/* gst-cuda-imgproc
 * Copyright (C) 2026 The gst-cuda-imgproc authors
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2 of the License, or (at your option) any later version.
 */

/* GstCudaMemory frames for the elements' CUDA-memory outputs.
 *
 * GstCudaMemory has no GRAY8 layout: its allocator aborts on formats it
 * does not know.  A GRAY8 frame is therefore allocated as an RGBA
 * GstCudaMemory a quarter as wide (same pitch, same rows, so the same bytes
 * in the same places, on the device and in the memory's host staging copy),
 * and the buffer's GstVideoMeta says what the bytes are: GRAY8, with the
 * allocation's pitch as stride.  Every reader maps frames through the meta
 * (gst_video_frame_map), so it reads GRAY8 correctly.  I420 with an odd
 * height, whose native 1.22 layout lets the chroma planes overlap, is laid
 * out the same way with correct plane offsets.  Other formats use the
 * allocator's own layout. */

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "gstcudaimgproccompat.h"
#include "gstcudaimgprocpool.h"

/* A frame's ready event, kept on its memory for the memory's life. */
typedef struct
{
  CipEvent *event;
  GstCudaContext *context;
} ReadyEvent;

static GQuark ready_event_quark;

GType
gst_cuda_imgproc_ready_event_api_get_type (void)
{
  static GType type = 0;
  static const gchar *tags[] = { GST_META_TAG_MEMORY_STR, NULL };

  if (g_once_init_enter (&type)) {
    GType t = gst_meta_api_type_register ("GstCudaImgprocReadyEventAPI",
        tags);
    g_once_init_leave (&type, t);
  }
  return type;
}

CipEvent *
gst_cuda_imgproc_buffer_ready_event (GstBuffer * buffer)
{
  ReadyEvent *ready;

  if (ready_event_quark == 0 || gst_buffer_n_memory (buffer) != 1)
    return NULL;
  ready = gst_mini_object_get_qdata (GST_MINI_OBJECT_CAST
      (gst_buffer_peek_memory (buffer, 0)), ready_event_quark);
  return ready ? ready->event : NULL;
}

#if HAVE_GST_CUDA

GST_DEBUG_CATEGORY_STATIC (gst_cuda_imgproc_pool_debug);
#define GST_CAT_DEFAULT gst_cuda_imgproc_pool_debug

struct _GstCudaImgprocPool
{
  GstBufferPool parent;

  GstCudaContext *context;
  GstCudaStream *stream;        /* the owner's (1.24+): its frames carry it */
  GstAllocator *allocator;

  GstVideoInfo info;            /* the frames, as the caps say */
  GstVideoInfo alloc_info;      /* what is asked of the CUDA allocator */
  gboolean repacked;            /* alloc_info is a stand-in for info */
};

static void
ready_event_free (ReadyEvent * ready)
{
  if (gst_cuda_context_push (ready->context)) {
    cip_event_free (ready->event);
    gst_cuda_context_pop (NULL);
  }
  gst_object_unref (ready->context);
  g_free (ready);
}

G_DEFINE_TYPE_WITH_CODE (GstCudaImgprocPool, gst_cuda_imgproc_pool,
    GST_TYPE_BUFFER_POOL,
    GST_DEBUG_CATEGORY_INIT (gst_cuda_imgproc_pool_debug, "cudaimgprocpool", 0,
        "CUDA memory pool of cudaimgproc"));

/* Formats the 1.22 CUDA allocator lays out itself. */
static gboolean
allocator_knows_layout (const GstVideoInfo * info)
{
  switch (GST_VIDEO_INFO_FORMAT (info)) {
    case GST_VIDEO_FORMAT_NV12:
    case GST_VIDEO_FORMAT_RGBA:
    case GST_VIDEO_FORMAT_BGRA:
    case GST_VIDEO_FORMAT_RGBx:
    case GST_VIDEO_FORMAT_BGRx:
    case GST_VIDEO_FORMAT_ARGB:
    case GST_VIDEO_FORMAT_ABGR:
    case GST_VIDEO_FORMAT_RGB:
    case GST_VIDEO_FORMAT_BGR:
      return TRUE;
    case GST_VIDEO_FORMAT_I420:
      return GST_VIDEO_INFO_HEIGHT (info) % 2 == 0;
    default:
      return FALSE;
  }
}

/* Rows of each plane, one after the other, at one pitch. */
static void
repacked_layout (const GstVideoInfo * info, gsize pitch, gsize * offsets,
    gint * strides, guint * rows_total)
{
  const GstVideoFormatInfo *finfo = info->finfo;
  guint plane, comp, rows = 0;

  for (plane = 0; plane < GST_VIDEO_INFO_N_PLANES (info); plane++) {
    offsets[plane] = pitch * rows;
    strides[plane] = pitch;
    for (comp = 0; comp < GST_VIDEO_INFO_N_COMPONENTS (info); comp++) {
      if (GST_VIDEO_FORMAT_INFO_PLANE (finfo, comp) == plane) {
        rows += GST_VIDEO_INFO_COMP_HEIGHT (info, comp);
        break;
      }
    }
  }
  *rows_total = rows;
}

/* Widest row of any plane, in bytes. */
static gsize
widest_row (const GstVideoInfo * info)
{
  gsize widest = 0;
  guint comp;

  for (comp = 0; comp < GST_VIDEO_INFO_N_COMPONENTS (info); comp++)
    widest = MAX (widest, (gsize) GST_VIDEO_INFO_COMP_WIDTH (info, comp) *
        GST_VIDEO_INFO_COMP_PSTRIDE (info, comp));
  return widest;
}

static GstBuffer *
wrap_memory (GstCudaImgprocPool * self, GstMemory * mem)
{
  GstCudaMemory *cmem = (GstCudaMemory *) mem;
  GstBuffer *buffer = gst_buffer_new ();
  gsize offsets[GST_VIDEO_MAX_PLANES] = { 0, };
  gint strides[GST_VIDEO_MAX_PLANES] = { 0, };
  guint plane, rows;

  gst_buffer_append_memory (buffer, mem);
  if (self->repacked) {
    repacked_layout (&self->info, GST_VIDEO_INFO_PLANE_STRIDE (&cmem->info, 0),
        offsets, strides, &rows);
  } else {
    for (plane = 0; plane < GST_VIDEO_INFO_N_PLANES (&cmem->info); plane++) {
      offsets[plane] = GST_VIDEO_INFO_PLANE_OFFSET (&cmem->info, plane);
      strides[plane] = GST_VIDEO_INFO_PLANE_STRIDE (&cmem->info, plane);
    }
  }
  gst_buffer_add_video_meta_full (buffer, GST_VIDEO_FRAME_FLAG_NONE,
      GST_VIDEO_INFO_FORMAT (&self->info), GST_VIDEO_INFO_WIDTH (&self->info),
      GST_VIDEO_INFO_HEIGHT (&self->info),
      GST_VIDEO_INFO_N_PLANES (&self->info), offsets, strides);
  return buffer;
}

static gboolean
gst_cuda_imgproc_pool_set_config (GstBufferPool * pool, GstStructure * config)
{
  GstCudaImgprocPool *self = GST_CUDA_IMGPROC_POOL (pool);
  GstCaps *caps = NULL;
  guint min_buffers, max_buffers;
  GstMemory *probe;

  if (!gst_buffer_pool_config_get_params (config, &caps, NULL, &min_buffers,
          &max_buffers) || caps == NULL ||
      !gst_video_info_from_caps (&self->info, caps)) {
    GST_WARNING_OBJECT (self, "invalid caps in config");
    return FALSE;
  }

  self->repacked = !allocator_knows_layout (&self->info);
  if (self->repacked) {
    gsize offsets[GST_VIDEO_MAX_PLANES];
    gint strides[GST_VIDEO_MAX_PLANES];
    guint rows;

    repacked_layout (&self->info, 0, offsets, strides, &rows);
    gst_video_info_set_format (&self->alloc_info, GST_VIDEO_FORMAT_RGBA,
        GST_ROUND_UP_4 (widest_row (&self->info)) / 4, rows);
  } else {
    self->alloc_info = self->info;
  }

  /* The allocator picks the pitch: learn the real size from one frame. */
  probe = gst_cuda_imgproc_memory_alloc (self->allocator, self->context,
      self->stream, &self->alloc_info);
  if (probe == NULL) {
    GST_WARNING_OBJECT (self, "could not allocate a %s frame",
        GST_VIDEO_INFO_NAME (&self->info));
    return FALSE;
  }
  gst_buffer_pool_config_set_params (config, caps, probe->size, min_buffers,
      max_buffers);
  gst_memory_unref (probe);

  return GST_BUFFER_POOL_CLASS (gst_cuda_imgproc_pool_parent_class)->set_config
      (pool, config);
}

static GstFlowReturn
gst_cuda_imgproc_pool_alloc_buffer (GstBufferPool * pool,
    GstBuffer ** buffer, GstBufferPoolAcquireParams * params)
{
  GstCudaImgprocPool *self = GST_CUDA_IMGPROC_POOL (pool);
  GstMemory *mem;

  ReadyEvent *ready;
  CipStatus status = CIP_ERROR_CUDA;

  mem = gst_cuda_imgproc_memory_alloc (self->allocator, self->context,
      self->stream, &self->alloc_info);
  if (mem == NULL) {
    GST_ERROR_OBJECT (self, "could not allocate a %s frame",
        GST_VIDEO_INFO_NAME (&self->info));
    return GST_FLOW_ERROR;
  }

  ready = g_new0 (ReadyEvent, 1);
  ready->context = gst_object_ref (self->context);
  if (gst_cuda_context_push (self->context)) {
    status = cip_event_new (&ready->event, NULL);
    gst_cuda_context_pop (NULL);
  }
  if (status != CIP_OK) {
    GST_ERROR_OBJECT (self, "could not create a CUDA event: %s",
        cip_status_name (status));
    gst_object_unref (ready->context);
    g_free (ready);
    gst_memory_unref (mem);
    return GST_FLOW_ERROR;
  }
  gst_mini_object_set_qdata (GST_MINI_OBJECT_CAST (mem), ready_event_quark,
      ready, (GDestroyNotify) ready_event_free);

  *buffer = wrap_memory (self, mem);
  return GST_FLOW_OK;
}

static const gchar **
gst_cuda_imgproc_pool_get_options (GstBufferPool * pool)
{
  static const gchar *options[] = { GST_BUFFER_POOL_OPTION_VIDEO_META, NULL };

  return options;
}

static void
gst_cuda_imgproc_pool_finalize (GObject * object)
{
  GstCudaImgprocPool *self = GST_CUDA_IMGPROC_POOL (object);

  gst_clear_object (&self->allocator);
  gst_cuda_imgproc_clear_stream (&self->stream);
  gst_clear_object (&self->context);
  G_OBJECT_CLASS (gst_cuda_imgproc_pool_parent_class)->finalize (object);
}

static void
gst_cuda_imgproc_pool_class_init (GstCudaImgprocPoolClass * klass)
{
  GObjectClass *gobject_class = G_OBJECT_CLASS (klass);
  GstBufferPoolClass *pool_class = GST_BUFFER_POOL_CLASS (klass);

  gobject_class->finalize = gst_cuda_imgproc_pool_finalize;
  pool_class->get_options = gst_cuda_imgproc_pool_get_options;
  pool_class->set_config = gst_cuda_imgproc_pool_set_config;
  pool_class->alloc_buffer = gst_cuda_imgproc_pool_alloc_buffer;

  ready_event_quark = g_quark_from_static_string ("cudaimgproc-ready-event");
}

static void
gst_cuda_imgproc_pool_init (GstCudaImgprocPool * self)
{
}

GstBufferPool *
gst_cuda_imgproc_pool_new (GstCudaContext * context, GstCudaStream * stream)
{
  GstCudaImgprocPool *self;

  gst_cuda_memory_init_once ();
  self = g_object_new (GST_TYPE_CUDA_IMGPROC_POOL, NULL);
  gst_object_ref_sink (self);
  self->context = gst_object_ref (context);
  self->stream = gst_cuda_imgproc_stream_ref (stream);
  self->allocator = gst_allocator_find (GST_CUDA_MEMORY_TYPE_NAME);
  return GST_BUFFER_POOL_CAST (self);
}

#else /* no libgstcuda (GStreamer 1.20): no CUDA memory, so no CUDA caps
       * to make a pool for, and no frame carries a ready event */

GstBufferPool *
gst_cuda_imgproc_pool_new (GstCudaContext * context, GstCudaStream * stream)
{
  return NULL;
}

#endif
