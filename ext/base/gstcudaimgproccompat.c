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

#include "gstcudaimgproccompat.h"

#if HAVE_GST_CUDA
#include <gst/cuda/cuda-gst.h>
#else
#include <gmodule.h>
#endif

#if HAVE_GST_ANALYTICS
#include <gst/analytics/analytics.h>
#endif

gboolean
gst_cuda_imgproc_have_cuda_memory (void)
{
  return HAVE_GST_CUDA;
}

#if HAVE_GST_CUDA

gint
gst_cuda_imgproc_device_count (const gchar ** error_name)
{
  gint n_devices = 0;
  const gchar *name = NULL;
  CUresult result;

  if (!gst_cuda_load_library ())
    return -1;
  result = CuInit (0);
  if (result == CUDA_SUCCESS)
    result = CuDeviceGetCount (&n_devices);
  if (result != CUDA_SUCCESS) {
    CuGetErrorName (result, &name);
    n_devices = 0;
  }
  if (error_name)
    *error_name = name;
  return n_devices;
}

gboolean
gst_cuda_imgproc_memory_is_of_context (GstMemory * mem,
    GstCudaContext * context)
{
  return gst_is_cuda_memory (mem) &&
      GST_CUDA_MEMORY_CAST (mem)->context == context;
}

#else /* no libgstcuda: GStreamer 1.20 */

/* The driver API, as much of it as the stand-in needs, loaded at run time
 * like libgstcuda does: the plugin loads without a driver. */
typedef int CUresult;
typedef int CUdevice;
typedef void *CUcontext;
#define CUDA_SUCCESS 0

static struct
{
  CUresult (*Init) (unsigned int flags);
  CUresult (*DeviceGetCount) (int *count);
  CUresult (*DeviceGet) (CUdevice * device, int ordinal);
  CUresult (*DevicePrimaryCtxRetain) (CUcontext * ctx, CUdevice device);
  CUresult (*DevicePrimaryCtxRelease) (CUdevice device);
  CUresult (*CtxPushCurrent) (CUcontext ctx);
  CUresult (*CtxPopCurrent) (CUcontext * ctx);
  CUresult (*GetErrorName) (CUresult error, const char **name);
} driver;

static gboolean
load_symbol (GModule * module, const gchar * name, gpointer * symbol)
{
  if (g_module_symbol (module, name, symbol))
    return TRUE;
  GST_WARNING ("libcuda.so.1 has no %s", name);
  return FALSE;
}

gboolean
gst_cuda_imgproc_load_library (void)
{
  static gsize loaded = 0;

  if (g_once_init_enter (&loaded)) {
    GModule *module = g_module_open ("libcuda.so.1",
        G_MODULE_BIND_LAZY | G_MODULE_BIND_LOCAL);
    gboolean ok = module != NULL &&
        load_symbol (module, "cuInit", (gpointer *) & driver.Init) &&
        load_symbol (module, "cuDeviceGetCount",
        (gpointer *) & driver.DeviceGetCount) &&
        load_symbol (module, "cuDeviceGet", (gpointer *) & driver.DeviceGet) &&
        load_symbol (module, "cuDevicePrimaryCtxRetain",
        (gpointer *) & driver.DevicePrimaryCtxRetain) &&
        load_symbol (module, "cuDevicePrimaryCtxRelease_v2",
        (gpointer *) & driver.DevicePrimaryCtxRelease) &&
        load_symbol (module, "cuCtxPushCurrent_v2",
        (gpointer *) & driver.CtxPushCurrent) &&
        load_symbol (module, "cuCtxPopCurrent_v2",
        (gpointer *) & driver.CtxPopCurrent) &&
        load_symbol (module, "cuGetErrorName",
        (gpointer *) & driver.GetErrorName);

    if (ok)
      g_module_make_resident (module);
    else if (module)
      g_module_close (module);
    /* 1 on failure too (g_once needs non-zero): 2 says loaded. */
    g_once_init_leave (&loaded, ok ? 2 : 1);
  }
  return loaded == 2;
}

gint
gst_cuda_imgproc_device_count (const gchar ** error_name)
{
  gint n_devices = 0;
  const gchar *name = NULL;
  CUresult result;

  if (!gst_cuda_imgproc_load_library ())
    return -1;
  result = driver.Init (0);
  if (result == CUDA_SUCCESS)
    result = driver.DeviceGetCount (&n_devices);
  if (result != CUDA_SUCCESS) {
    driver.GetErrorName (result, &name);
    n_devices = 0;
  }
  if (error_name)
    *error_name = name;
  return n_devices;
}

typedef struct _GstCudaImgprocContext GstCudaImgprocContext;
typedef GstObjectClass GstCudaImgprocContextClass;

/* A device's primary context: the one the CUDA runtime uses, one per
 * device and process, retained for the object's life. */
struct _GstCudaImgprocContext
{
  GstObject parent;

  CUdevice device;
  CUcontext context;
};

G_DEFINE_TYPE (GstCudaImgprocContext, gst_cuda_imgproc_context,
    GST_TYPE_OBJECT);

static void
gst_cuda_imgproc_context_finalize (GObject * object)
{
  GstCudaImgprocContext *self = (GstCudaImgprocContext *) object;

  if (self->context)
    driver.DevicePrimaryCtxRelease (self->device);
  G_OBJECT_CLASS (gst_cuda_imgproc_context_parent_class)->finalize (object);
}

static void
gst_cuda_imgproc_context_class_init (GstCudaImgprocContextClass * klass)
{
  G_OBJECT_CLASS (klass)->finalize = gst_cuda_imgproc_context_finalize;
}

static void
gst_cuda_imgproc_context_init (GstCudaImgprocContext * self)
{
}

GstCudaContext *
gst_cuda_imgproc_context_new (gint device_id)
{
  GstCudaImgprocContext *self;
  CUdevice device;
  CUcontext context;

  if (gst_cuda_imgproc_device_count (NULL) <= device_id ||
      driver.DeviceGet (&device, device_id) != CUDA_SUCCESS ||
      driver.DevicePrimaryCtxRetain (&context, device) != CUDA_SUCCESS)
    return NULL;
  self = g_object_new (gst_cuda_imgproc_context_get_type (), NULL);
  gst_object_ref_sink (self);
  self->device = device;
  self->context = context;
  return self;
}

gboolean
gst_cuda_imgproc_context_push (GstCudaContext * context)
{
  return driver.CtxPushCurrent (context->context) == CUDA_SUCCESS;
}

gboolean
gst_cuda_imgproc_context_pop (gpointer * cuda_ctx)
{
  CUcontext popped = NULL;
  gboolean ok = driver.CtxPopCurrent (&popped) == CUDA_SUCCESS;

  if (cuda_ctx)
    *cuda_ctx = popped;
  return ok;
}

gboolean
gst_cuda_imgproc_ensure_element_context (GstElement * element, gint device_id,
    GstCudaContext ** context)
{
  if (*context == NULL)
    *context = gst_cuda_imgproc_context_new (MAX (device_id, 0));
  return *context != NULL;
}

gboolean
gst_cuda_imgproc_memory_is_of_context (GstMemory * mem,
    GstCudaContext * context)
{
  return FALSE;
}

#endif

#if HAVE_GST_CUDA && GST_CHECK_VERSION (1, 24, 0)

GstCudaStream *
gst_cuda_imgproc_stream_new (GstCudaContext * context)
{
  return gst_cuda_stream_new (context);
}

GstCudaStream *
gst_cuda_imgproc_stream_ref (GstCudaStream * stream)
{
  return stream ? gst_cuda_stream_ref (stream) : NULL;
}

void
gst_cuda_imgproc_clear_stream (GstCudaStream ** stream)
{
  gst_clear_cuda_stream (stream);
}

gpointer
gst_cuda_imgproc_stream_handle (GstCudaStream * stream)
{
  return stream ? (gpointer) gst_cuda_stream_get_handle (stream) : NULL;
}

GstMemory *
gst_cuda_imgproc_memory_alloc (GstAllocator * allocator,
    GstCudaContext * context, GstCudaStream * stream, const GstVideoInfo * info)
{
  return gst_cuda_allocator_alloc (GST_CUDA_ALLOCATOR (allocator), context,
      stream, info);
}

GstCudaStream *
gst_cuda_imgproc_memory_get_stream (GstMemory * mem)
{
  if (!gst_is_cuda_memory (mem))
    return NULL;
  return gst_cuda_memory_get_stream (GST_CUDA_MEMORY_CAST (mem));
}

#else /* GStreamer 1.22, or no libgstcuda (1.20): no stream on a memory */

GstCudaStream *
gst_cuda_imgproc_stream_new (GstCudaContext * context)
{
  return NULL;
}

GstCudaStream *
gst_cuda_imgproc_stream_ref (GstCudaStream * stream)
{
  return NULL;
}

void
gst_cuda_imgproc_clear_stream (GstCudaStream ** stream)
{
  *stream = NULL;
}

gpointer
gst_cuda_imgproc_stream_handle (GstCudaStream * stream)
{
  return NULL;
}

GstMemory *
gst_cuda_imgproc_memory_alloc (GstAllocator * allocator,
    GstCudaContext * context, GstCudaStream * stream, const GstVideoInfo * info)
{
#if HAVE_GST_CUDA
  return gst_cuda_allocator_alloc (GST_CUDA_ALLOCATOR (allocator), context,
      info);
#else
  return NULL;                  /* never asked: no CUDA memory */
#endif
}

GstCudaStream *
gst_cuda_imgproc_memory_get_stream (GstMemory * mem)
{
  return NULL;
}

#endif

gboolean
gst_cuda_imgproc_have_analytics_meta (void)
{
  return HAVE_GST_ANALYTICS;
}

#if HAVE_GST_ANALYTICS
/* The relation meta this code made on a buffer, and for how many entries:
 * a pooled buffer keeps it, emptied, from frame to frame, and the meta
 * does not tell its size. */
typedef struct
{
  GstAnalyticsRelationMeta *meta;
  guint order;
} RelationMetaSize;

static GQuark
relation_meta_size_quark (void)
{
  static gsize quark = 0;

  if (g_once_init_enter (&quark)) {
    gsize q = g_quark_from_static_string ("gst-cuda-imgproc-relation-size");
    g_once_init_leave (&quark, q);
  }
  return (GQuark) quark;
}
#endif

guint
gst_cuda_imgproc_add_analytics_regions (GstBuffer * buffer, GQuark type,
    const CipRegion * regions, guint n, const GstCudaImgprocTrack * tracks,
    GstClockTime last_seen, guint n_more)
{
#if HAVE_GST_ANALYTICS
  guint entries = (tracks ? 2 * n : n) + n_more;
  GstAnalyticsRelationMeta *meta;
  RelationMetaSize *size;
  /* 1.24 writes the handle whether asked for or not. */
  GstAnalyticsODMtd od;
  GstAnalyticsTrackingMtd track;
  guint i;

  if (n == 0)
    return 0;
  /* A pooled buffer keeps its relation meta, emptied: kept while it holds
   * the frame's entries and is not twice too large (clearing it costs the
   * square of its size).  One for fewer entries would grow by that many at
   * a time, copying its matrix each time: made again to size. */
  size = gst_mini_object_get_qdata (GST_MINI_OBJECT_CAST (buffer),
      relation_meta_size_quark ());
  meta = gst_buffer_get_analytics_relation_meta (buffer);
  if (meta != NULL && gst_analytics_relation_get_length (meta) == 0 &&
      (size == NULL || size->meta != meta || size->order < entries ||
          size->order > 2 * entries + 32)) {
    gst_buffer_remove_meta (buffer, (GstMeta *) meta);
    meta = NULL;
  }
  if (meta == NULL) {
    /* Sized for every entry at once, with room for a few more regions in
     * the frames after: the meta keeps an order^2 relation matrix, regrown
     * to twice the order (and copied) each time it fills up. */
    guint order = entries + entries / 16 + 8;
    GstAnalyticsRelationMetaInitParams params = { order, (gsize) order * 64 };

    meta = gst_buffer_add_analytics_relation_meta_full (buffer, &params);
    if (meta == NULL)
      return 0;
    if (size == NULL) {
      size = g_new (RelationMetaSize, 1);
      gst_mini_object_set_qdata (GST_MINI_OBJECT_CAST (buffer),
          relation_meta_size_quark (), size, g_free);
    }
    size->meta = meta;
    size->order = order;
  }
  /* Else an input's, passed on: GStreamer keeps one a frame, and it takes
   * ours too. */
  for (i = 0; i < n; i++) {
    if (!gst_analytics_relation_meta_add_od_mtd (meta, type, regions[i].left,
            regions[i].top, regions[i].width, regions[i].height, 1.0f, &od))
      break;
    if (tracks == NULL)
      continue;
    if (!gst_analytics_relation_meta_add_tracking_mtd (meta, tracks[i].id,
            tracks[i].first_seen, &track))
      break;
    gst_analytics_tracking_mtd_update_last_seen (&track, last_seen);
    if (!gst_analytics_relation_meta_set_relation (meta,
            GST_ANALYTICS_REL_TYPE_RELATE_TO, od.id, track.id))
      break;
  }
  return i;
#else
  return 0;
#endif
}

gboolean
gst_cuda_imgproc_have_analytics_segmentation (void)
{
  return HAVE_GST_ANALYTICS_SEGMENTATION;
}

gboolean
gst_cuda_imgproc_add_analytics_segmentation (GstBuffer * buffer,
    const GstVideoInfo * info, guint16 max_id)
{
#if HAVE_GST_ANALYTICS_SEGMENTATION
  /* every id a label image can hold, made once; the meta copies those it
   * takes */
  static guint ids[G_MAXUINT16 + 1];
  static gsize ids_made = 0;
  GstAnalyticsRelationMeta *meta;
  GstAnalyticsSegmentationMtd segmentation;
  GstVideoMeta *layout = gst_buffer_get_video_meta (buffer);
  GstBuffer *mask;
  guint i;

  if (g_once_init_enter (&ids_made)) {
    for (i = 0; i < G_N_ELEMENTS (ids); i++)
      ids[i] = i;
    g_once_init_leave (&ids_made, 1);
  }
  meta = gst_buffer_get_analytics_relation_meta (buffer);
  if (meta == NULL)
    meta = gst_buffer_add_analytics_relation_meta (buffer);
  if (meta == NULL)
    return FALSE;
  /* Its memory appended to a new buffer, not gst_buffer_copy_region():
   * that would hang a parent-buffer meta on the mask when @buffer comes
   * from a pool, and the meta would hold the buffer it is on. */
  mask = gst_buffer_new ();
  for (i = 0; i < gst_buffer_n_memory (buffer); i++)
    gst_buffer_append_memory (mask, gst_buffer_get_memory (buffer, i));
  /* the frame's own layout where it has one (a downstream pool's) */
  if (layout != NULL)
    gst_buffer_add_video_meta_full (mask, GST_VIDEO_FRAME_FLAG_NONE,
        layout->format, layout->width, layout->height, layout->n_planes,
        layout->offset, layout->stride);
  else
    gst_buffer_add_video_meta_full (mask, GST_VIDEO_FRAME_FLAG_NONE,
        GST_VIDEO_INFO_FORMAT (info), GST_VIDEO_INFO_WIDTH (info),
        GST_VIDEO_INFO_HEIGHT (info), GST_VIDEO_INFO_N_PLANES (info),
        info->offset, info->stride);
  /* the meta takes the mask */
  if (!gst_analytics_relation_meta_add_segmentation_mtd (meta, mask,
          GST_SEGMENTATION_TYPE_INSTANCE, (gsize) max_id + 1, ids, 0, 0,
          GST_VIDEO_INFO_WIDTH (info), GST_VIDEO_INFO_HEIGHT (info),
          &segmentation)) {
    gst_buffer_unref (mask);
    return FALSE;
  }
  return TRUE;
#else
  return FALSE;
#endif
}
