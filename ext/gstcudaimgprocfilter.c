/* gst-cuda-imgproc
 * Copyright (C) 2026 The gst-cuda-imgproc authors
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2 of the License, or (at your option) any later version.
 */

/**
 * SECTION:gstcudaimgprocfilter
 * @title: GstCudaImgprocFilter
 * @short_description: Base class of the cudaimgproc elements
 *
 * Owns what the plugin's elements share.  With `backend=cuda` it finds the
 * CUDA context (shared with other CUDA elements through #GstContext), makes
 * one stream per instance, allocates the device images when caps are set
 * and reuses them for every frame.  Frames in CUDA memory are processed in
 * place; frames in system memory are uploaded and downloaded, through
 * page-locked pools.  Each frame costs at most one synchronization, none
 * when the next element is one of ours.  With `backend=cpu` the subclass
 * runs the reference implementation on the mapped frames.  Every failure
 * posts an error message before the element returns %FALSE or
 * %GST_FLOW_ERROR.
 */

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <gst/cuda/cuda-gst.h>
#include <gst/cuda/gstcudacontext.h>
#include <gst/cuda/gstcudaloader.h>
#include <gst/cuda/gstcudamemory.h>
#include <gst/cuda/gstcudautils.h>

#include "gstcudaimgprocfilter.h"
#include "gstcudaimgprocallocation.h"
#include "gstcudaimgproccaps.h"
#include "gstcudaimgproccompat.h"
#include "gstcudaimgprocdevice.h"
#include "gstcudaimgprocframe.h"
#include "gstcudaimgprocinflight.h"
#include "gstcudaimgprocintensity.h"
#include "gstcudaimgprochostallocator.h"
#include "gstcudaimgprocpool.h"
#include "gstcudaimgprocmeta.h"

GST_DEBUG_CATEGORY (gst_cuda_imgproc_filter_debug);
#define GST_CAT_DEFAULT gst_cuda_imgproc_filter_debug

enum
{
  PROP_0,
  PROP_BACKEND,
  PROP_CUDA_DEVICE_ID,
  PROP_STATS,
};

#define DEFAULT_BACKEND GST_CUDA_IMGPROC_BACKEND_CUDA
#define DEFAULT_CUDA_DEVICE_ID -1


typedef struct
{
  /* Properties, under the object lock. */
  GstCudaImgprocBackend backend;
  gint device_id;

  /* Between start() and stop(); only the streaming thread touches these
   * after start(). */
  GstCudaImgprocBackend active_backend;
  GstCudaImgprocDevice device;
  guint64 frames;
  guint64 uploads;              /* frames copied host to device */
  guint64 downloads;            /* frames copied device to host */
  guint8 *readback;
  /* Inputs held while their reading may still be in flight. */
  GstCudaImgprocInFlight in_flight;
  gboolean downstream_waits;

  /* Per caps. */
  GstVideoInfo in_info;
  GstVideoInfo out_info;
  gboolean in_cuda;             /* caps say memory:CUDAMemory */
  gboolean out_cuda;
  gboolean neutral_chroma;      /* a gray output as YUV: chroma set to 128 */
  CipFormat src_format;
  CipFormat dst_format;
  CipImage device_src;
  CipImage device_dst;

  /* For @reads_intensity elements: the gray frame of the input's
   * intensity meta, and where process() reads it (NULL outside process()
   * or when the input has none). */
  GstCudaImgprocIntensity intensity;
  const CipImage *intensity_for_process;
} GstCudaImgprocFilterPrivate;

G_DEFINE_ABSTRACT_TYPE_WITH_CODE (GstCudaImgprocFilter,
    gst_cuda_imgproc_filter, GST_TYPE_BASE_TRANSFORM,
    G_ADD_PRIVATE (GstCudaImgprocFilter);
    GST_DEBUG_CATEGORY_INIT (gst_cuda_imgproc_filter_debug,
        "cudaimgprocfilter", 0, "cudaimgproc base class"));

#define GET_PRIV(filter) \
  ((GstCudaImgprocFilterPrivate *) \
   gst_cuda_imgproc_filter_get_instance_private (filter))

GType
gst_cuda_imgproc_backend_get_type (void)
{
  static GType type = 0;
  static const GEnumValue values[] = {
    {GST_CUDA_IMGPROC_BACKEND_CUDA, "CUDA kernels on the GPU", "cuda"},
    {GST_CUDA_IMGPROC_BACKEND_CPU,
        "Reference implementation on the CPU (identical output)", "cpu"},
    {0, NULL, NULL},
  };

  if (g_once_init_enter (&type)) {
    GType t = g_enum_register_static ("GstCudaImgprocBackend", values);
    g_once_init_leave (&type, t);
  }
  return type;
}

static void gst_cuda_imgproc_filter_set_property (GObject * object,
    guint prop_id, const GValue * value, GParamSpec * pspec);
static void gst_cuda_imgproc_filter_get_property (GObject * object,
    guint prop_id, GValue * value, GParamSpec * pspec);
static void gst_cuda_imgproc_filter_finalize (GObject * object);
static void gst_cuda_imgproc_filter_set_context (GstElement * element,
    GstContext * context);
static GstStateChangeReturn gst_cuda_imgproc_filter_change_state (GstElement *
    element, GstStateChange transition);
static gboolean gst_cuda_imgproc_filter_start (GstBaseTransform * trans);
static gboolean gst_cuda_imgproc_filter_stop (GstBaseTransform * trans);
static gboolean gst_cuda_imgproc_filter_query (GstBaseTransform * trans,
    GstPadDirection direction, GstQuery * query);
static GstCaps *gst_cuda_imgproc_filter_transform_caps (GstBaseTransform *
    trans, GstPadDirection direction, GstCaps * caps, GstCaps * filter);
static GstCaps *gst_cuda_imgproc_filter_fixate_caps (GstBaseTransform *
    trans, GstPadDirection direction, GstCaps * caps, GstCaps * othercaps);
static gboolean gst_cuda_imgproc_filter_transform_size (GstBaseTransform *
    trans, GstPadDirection direction, GstCaps * caps, gsize size,
    GstCaps * othercaps, gsize * othersize);
static gboolean gst_cuda_imgproc_filter_propose_allocation (GstBaseTransform
    * trans, GstQuery * decide_query, GstQuery * query);
static gboolean gst_cuda_imgproc_filter_decide_allocation (GstBaseTransform *
    trans, GstQuery * query);
static GstFlowReturn
gst_cuda_imgproc_filter_prepare_output_buffer (GstBaseTransform * trans,
    GstBuffer * input, GstBuffer ** output);
static gboolean gst_cuda_imgproc_filter_set_caps (GstBaseTransform * trans,
    GstCaps * incaps, GstCaps * outcaps);
static void gst_cuda_imgproc_filter_before_transform (GstBaseTransform *
    trans, GstBuffer * buffer);
static GstFlowReturn gst_cuda_imgproc_filter_transform (GstBaseTransform *
    trans, GstBuffer * inbuf, GstBuffer * outbuf);
static gboolean gst_cuda_imgproc_filter_transform_meta (GstBaseTransform *
    trans, GstBuffer * outbuf, GstMeta * meta, GstBuffer * inbuf);
static gboolean gst_cuda_imgproc_filter_sink_event (GstBaseTransform * trans,
    GstEvent * event);

static void
gst_cuda_imgproc_filter_class_init (GstCudaImgprocFilterClass * klass)
{
  GObjectClass *gobject_class = G_OBJECT_CLASS (klass);
  GstElementClass *element_class = GST_ELEMENT_CLASS (klass);
  GstBaseTransformClass *trans_class = GST_BASE_TRANSFORM_CLASS (klass);

  gobject_class->set_property = gst_cuda_imgproc_filter_set_property;
  gobject_class->get_property = gst_cuda_imgproc_filter_get_property;
  gobject_class->finalize = gst_cuda_imgproc_filter_finalize;

  /**
   * GstCudaImgprocFilter:backend:
   *
   * Where frames are computed: `cuda` on the GPU, or `cpu` with the
   * reference implementation (identical output, no GPU needed).
   *
   * Since: 0.1
   */
  g_object_class_install_property (gobject_class, PROP_BACKEND,
      g_param_spec_enum ("backend", "Backend",
          "Where frames are computed: cuda (GPU) or cpu (reference "
          "implementation, identical output, no GPU needed)",
          GST_TYPE_CUDA_IMGPROC_BACKEND, DEFAULT_BACKEND,
          G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS |
          GST_PARAM_MUTABLE_READY));

  /**
   * GstCudaImgprocFilter:cuda-device-id:
   *
   * The CUDA device to run on; -1 takes the context of neighbouring CUDA
   * elements, or device 0.
   *
   * Since: 0.1
   */
  g_object_class_install_property (gobject_class, PROP_CUDA_DEVICE_ID,
      g_param_spec_int ("cuda-device-id", "CUDA device ID",
          "CUDA device to run on (-1: the device of neighbouring CUDA "
          "elements, or device 0)", -1, G_MAXINT, DEFAULT_CUDA_DEVICE_ID,
          G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS |
          GST_PARAM_MUTABLE_READY));

  /**
   * GstCudaImgprocFilter:stats:
   *
   * Counters of the element's work since it was created: `frames`
   * processed; `uploads` and `downloads`, the frames it copied between host
   * and device memory (none when both pads carry CUDA memory);
   * `device-allocations` and `device-frees`, the device and page-locked
   * buffers it allocated and released for itself, which happens when it
   * starts and when caps change, never per frame.
   *
   * Since: 0.1
   */
  g_object_class_install_property (gobject_class, PROP_STATS,
      g_param_spec_boxed ("stats", "Statistics",
          "Frames processed, frames uploaded and downloaded, and device and "
          "page-locked allocations made and released (at start and caps "
          "changes, never per frame)",
          GST_TYPE_STRUCTURE, G_PARAM_READABLE | G_PARAM_STATIC_STRINGS));

  element_class->change_state =
      GST_DEBUG_FUNCPTR (gst_cuda_imgproc_filter_change_state);
  element_class->set_context =
      GST_DEBUG_FUNCPTR (gst_cuda_imgproc_filter_set_context);

  trans_class->start = GST_DEBUG_FUNCPTR (gst_cuda_imgproc_filter_start);
  trans_class->stop = GST_DEBUG_FUNCPTR (gst_cuda_imgproc_filter_stop);
  trans_class->transform_meta =
      GST_DEBUG_FUNCPTR (gst_cuda_imgproc_filter_transform_meta);
  trans_class->query = GST_DEBUG_FUNCPTR (gst_cuda_imgproc_filter_query);
  trans_class->transform_caps =
      GST_DEBUG_FUNCPTR (gst_cuda_imgproc_filter_transform_caps);
  trans_class->fixate_caps =
      GST_DEBUG_FUNCPTR (gst_cuda_imgproc_filter_fixate_caps);
  trans_class->transform_size =
      GST_DEBUG_FUNCPTR (gst_cuda_imgproc_filter_transform_size);
  trans_class->propose_allocation =
      GST_DEBUG_FUNCPTR (gst_cuda_imgproc_filter_propose_allocation);
  trans_class->decide_allocation =
      GST_DEBUG_FUNCPTR (gst_cuda_imgproc_filter_decide_allocation);
  trans_class->prepare_output_buffer =
      GST_DEBUG_FUNCPTR (gst_cuda_imgproc_filter_prepare_output_buffer);
  trans_class->set_caps = GST_DEBUG_FUNCPTR (gst_cuda_imgproc_filter_set_caps);
  trans_class->before_transform =
      GST_DEBUG_FUNCPTR (gst_cuda_imgproc_filter_before_transform);
  trans_class->transform =
      GST_DEBUG_FUNCPTR (gst_cuda_imgproc_filter_transform);
  trans_class->sink_event =
      GST_DEBUG_FUNCPTR (gst_cuda_imgproc_filter_sink_event);

  gst_type_mark_as_plugin_api (GST_TYPE_CUDA_IMGPROC_FILTER, 0);
  gst_type_mark_as_plugin_api (GST_TYPE_CUDA_IMGPROC_BACKEND, 0);
}

static void
gst_cuda_imgproc_filter_init (GstCudaImgprocFilter * filter)
{
  GstCudaImgprocFilterPrivate *priv = GET_PRIV (filter);

  priv->backend = DEFAULT_BACKEND;
  priv->device_id = DEFAULT_CUDA_DEVICE_ID;
}

static void
gst_cuda_imgproc_filter_finalize (GObject * object)
{
  GstCudaImgprocFilterPrivate *priv =
      GET_PRIV (GST_CUDA_IMGPROC_FILTER (object));

  gst_clear_object (&priv->device.context);

  G_OBJECT_CLASS (gst_cuda_imgproc_filter_parent_class)->finalize (object);
}

static void
gst_cuda_imgproc_filter_set_property (GObject * object, guint prop_id,
    const GValue * value, GParamSpec * pspec)
{
  GstCudaImgprocFilterPrivate *priv =
      GET_PRIV (GST_CUDA_IMGPROC_FILTER (object));

  GST_OBJECT_LOCK (object);
  switch (prop_id) {
    case PROP_BACKEND:
      priv->backend = g_value_get_enum (value);
      break;
    case PROP_CUDA_DEVICE_ID:
      priv->device_id = g_value_get_int (value);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
      break;
  }
  GST_OBJECT_UNLOCK (object);
}

static void
gst_cuda_imgproc_filter_get_property (GObject * object, guint prop_id,
    GValue * value, GParamSpec * pspec)
{
  GstCudaImgprocFilterPrivate *priv =
      GET_PRIV (GST_CUDA_IMGPROC_FILTER (object));

  GST_OBJECT_LOCK (object);
  switch (prop_id) {
    case PROP_BACKEND:
      g_value_set_enum (value, priv->backend);
      break;
    case PROP_CUDA_DEVICE_ID:
      g_value_set_int (value, priv->device_id);
      break;
    case PROP_STATS:
      g_value_take_boxed (value, gst_structure_new ("cudaimgproc-stats",
              "frames", G_TYPE_UINT64, priv->frames,
              "uploads", G_TYPE_UINT64, priv->uploads,
              "downloads", G_TYPE_UINT64, priv->downloads,
              "device-allocations", G_TYPE_UINT64,
              priv->device.memory.allocations,
              "device-frees", G_TYPE_UINT64, priv->device.memory.frees, NULL));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
      break;
  }
  GST_OBJECT_UNLOCK (object);
}

GstCudaImgprocBackend
gst_cuda_imgproc_filter_get_backend (GstCudaImgprocFilter * filter)
{
  GstCudaImgprocFilterPrivate *priv = GET_PRIV (filter);
  GstCudaImgprocBackend backend;

  GST_OBJECT_LOCK (filter);
  backend = priv->backend;
  GST_OBJECT_UNLOCK (filter);
  return backend;
}

/**
 * gst_cuda_imgproc_filter_get_intensity:
 * @filter: a #GstCudaImgprocFilter whose class sets @reads_intensity
 *
 * Returns: (nullable): during @process, the gray frame of the input's
 * #GstCudaImgprocIntensityMeta, of the input's size, where @process runs
 * (device or host memory); %NULL when the input has none.
 */
const CipImage *
gst_cuda_imgproc_filter_get_intensity (GstCudaImgprocFilter * filter)
{
  return GET_PRIV (filter)->intensity_for_process;
}

/* The element's formats as its class says them now. */
static GstCudaImgprocFormats
element_formats (GstCudaImgprocFilter * self)
{
  GstCudaImgprocFilterClass *klass = GST_CUDA_IMGPROC_FILTER_GET_CLASS (self);
  GstCudaImgprocFormats formats = { klass->input_formats,
    klass->get_output_formats ? klass->get_output_formats (self) :
        klass->output_formats, klass->passes_chroma
  };

  return formats;
}

/* The same frames (or, for elements that change the format, the formats
 * the other pad has) in CUDA memory first, so that CUDA neighbours get
 * device frames, then in system memory.  The cpu backend stays in system
 * memory. */
static GstCaps *
gst_cuda_imgproc_filter_transform_caps (GstBaseTransform * trans,
    GstPadDirection direction, GstCaps * caps, GstCaps * filter)
{
  GstCudaImgprocFilter *self = GST_CUDA_IMGPROC_FILTER (trans);
  GstCudaImgprocFormats formats = element_formats (self);
  GstCaps *result = gst_cuda_imgproc_caps_transform (&formats, direction,
      caps, gst_cuda_imgproc_filter_get_backend (self) ==
      GST_CUDA_IMGPROC_BACKEND_CUDA);

  if (filter) {
    GstCaps *tmp = gst_caps_intersect_full (filter, result,
        GST_CAPS_INTERSECT_FIRST);

    gst_caps_unref (result);
    result = tmp;
  }

  GST_DEBUG_OBJECT (trans, "%s %" GST_PTR_FORMAT " -> %" GST_PTR_FORMAT,
      direction == GST_PAD_SINK ? "sink" : "src", caps, result);
  return result;
}

/* Output in CUDA memory whenever downstream takes it.  GstBaseTransform
 * lists the downstream peer's own caps first, which would turn every link
 * of a chain that ends in system memory into system memory.  An element
 * that can pass its input through (cudagray on GRAY8) keeps doing so. */
static GstCaps *
gst_cuda_imgproc_filter_fixate_caps (GstBaseTransform * trans,
    GstPadDirection direction, GstCaps * caps, GstCaps * othercaps)
{
  GstBaseTransformClass *trans_class = GST_BASE_TRANSFORM_GET_CLASS (trans);
  gboolean can_pass_through = trans_class->passthrough_on_same_caps &&
      gst_caps_can_intersect (caps, othercaps);

  if (direction == GST_PAD_SINK && !can_pass_through)
    othercaps = gst_cuda_imgproc_caps_prefer_cuda (othercaps);

  othercaps = GST_BASE_TRANSFORM_CLASS
      (gst_cuda_imgproc_filter_parent_class)->fixate_caps (trans, direction,
      caps, othercaps);
  if (direction == GST_PAD_SINK) {
    GstCudaImgprocFormats formats =
        element_formats (GST_CUDA_IMGPROC_FILTER (trans));

    othercaps = gst_cuda_imgproc_caps_fixate_gray_as_yuv (&formats, caps,
        othercaps);
  }
  return othercaps;
}

static void
gst_cuda_imgproc_filter_set_context (GstElement * element, GstContext * context)
{
  GstCudaImgprocFilterPrivate *priv =
      GET_PRIV (GST_CUDA_IMGPROC_FILTER (element));
  gint device_id;

  GST_OBJECT_LOCK (element);
  device_id = priv->device_id;
  GST_OBJECT_UNLOCK (element);

  gst_cuda_handle_set_context (element, context, device_id,
      &priv->device.context);

  GST_ELEMENT_CLASS (gst_cuda_imgproc_filter_parent_class)->set_context
      (element, context);
}

static gboolean
gst_cuda_imgproc_filter_query (GstBaseTransform * trans,
    GstPadDirection direction, GstQuery * query)
{
  GstCudaImgprocFilterPrivate *priv =
      GET_PRIV (GST_CUDA_IMGPROC_FILTER (trans));

  if (GST_QUERY_TYPE (query) == GST_QUERY_CONTEXT &&
      gst_cuda_handle_context_query (GST_ELEMENT (trans), query,
          priv->device.context))
    return TRUE;

  return GST_BASE_TRANSFORM_CLASS (gst_cuda_imgproc_filter_parent_class)->query
      (trans, direction, query);
}

/* A missing driver or device fails the change to READY, with the reason. */
static GstStateChangeReturn
gst_cuda_imgproc_filter_change_state (GstElement * element,
    GstStateChange transition)
{
  GstCudaImgprocFilter *filter = GST_CUDA_IMGPROC_FILTER (element);
  GstCudaImgprocFilterPrivate *priv = GET_PRIV (filter);

  if (transition == GST_STATE_CHANGE_NULL_TO_READY) {
    GstCudaImgprocBackend backend;
    gint device_id;

    GST_OBJECT_LOCK (filter);
    backend = priv->backend;
    device_id = priv->device_id;
    GST_OBJECT_UNLOCK (filter);

    if (backend == GST_CUDA_IMGPROC_BACKEND_CUDA &&
        !gst_cuda_imgproc_device_check (element, device_id))
      return GST_STATE_CHANGE_FAILURE;
  }

  return GST_ELEMENT_CLASS (gst_cuda_imgproc_filter_parent_class)->change_state
      (element, transition);
}

/* Releases the device images; with the context current. */
static void
free_device_images (GstCudaImgprocFilterPrivate * priv)
{
  gst_cuda_imgproc_in_flight_drain (&priv->in_flight, priv->device.stream);
  cip_image_free (&priv->device_src, priv->device.stream);
  cip_image_free (&priv->device_dst, priv->device.stream);
  gst_cuda_imgproc_intensity_free (&priv->intensity, priv->device.stream);
}

static gboolean
gst_cuda_imgproc_filter_start (GstBaseTransform * trans)
{
  GstCudaImgprocFilter *filter = GST_CUDA_IMGPROC_FILTER (trans);
  GstCudaImgprocFilterClass *klass = GST_CUDA_IMGPROC_FILTER_GET_CLASS (filter);
  GstCudaImgprocFilterPrivate *priv = GET_PRIV (filter);
  CipStatus status = CIP_OK;
  gint device_id;

  GST_OBJECT_LOCK (filter);
  priv->active_backend = priv->backend;
  device_id = priv->device_id;
  GST_OBJECT_UNLOCK (filter);

  if (priv->active_backend == GST_CUDA_IMGPROC_BACKEND_CPU) {
    priv->readback = g_malloc0 (MAX (klass->readback_size, 1));
    return TRUE;
  }

  if (!gst_cuda_imgproc_device_open (&priv->device, GST_ELEMENT (filter),
          device_id))
    return FALSE;
  if (!gst_cuda_context_push (priv->device.context))
    goto push_failed;
  status = gst_cuda_imgproc_in_flight_init (&priv->in_flight,
      priv->device.stream);
  if (status == CIP_OK && klass->readback_size > 0)
    status = cip_host_alloc ((void **) &priv->readback, klass->readback_size,
        priv->device.stream);
  gst_cuda_context_pop (NULL);
  if (status != CIP_OK)
    goto alloc_failed;
  return TRUE;

push_failed:
  GST_ELEMENT_ERROR (filter, RESOURCE, FAILED,
      ("Could not make the CUDA context current."), (NULL));
  gst_cuda_imgproc_filter_stop (trans);
  return FALSE;
alloc_failed:
  GST_ELEMENT_ERROR (filter, RESOURCE, FAILED,
      ("Could not set up the CUDA stream and its buffers."),
      ("%s: %s", cip_status_name (status),
          cip_stream_error (priv->device.stream)));
  gst_cuda_imgproc_filter_stop (trans);
  return FALSE;
}

static gboolean
gst_cuda_imgproc_filter_stop (GstBaseTransform * trans)
{
  GstCudaImgprocFilter *filter = GST_CUDA_IMGPROC_FILTER (trans);
  GstCudaImgprocFilterClass *klass = GST_CUDA_IMGPROC_FILTER_GET_CLASS (filter);
  GstCudaImgprocFilterPrivate *priv = GET_PRIV (filter);
  CipStream *stream = priv->device.stream;

  if (priv->active_backend == GST_CUDA_IMGPROC_BACKEND_CPU) {
    if (klass->release)
      klass->release (filter, NULL);
    g_clear_pointer (&priv->readback, g_free);
    return TRUE;
  }

  if (priv->device.context && gst_cuda_context_push (priv->device.context)) {
    free_device_images (priv);
    if (klass->release && stream)
      klass->release (filter, stream);
    gst_cuda_imgproc_in_flight_clear (&priv->in_flight, stream);
    cip_host_free (priv->readback, stream);
    gst_cuda_context_pop (NULL);
  }
  priv->readback = NULL;
  gst_cuda_imgproc_device_close (&priv->device);
  gst_clear_object (&priv->device.context);
  return TRUE;
}

/* Every output buffer has the size its caps say, whatever the input's. */
static gboolean
gst_cuda_imgproc_filter_transform_size (GstBaseTransform * trans,
    GstPadDirection direction, GstCaps * caps, gsize size,
    GstCaps * othercaps, gsize * othersize)
{
  GstVideoInfo info;

  if (!gst_video_info_from_caps (&info, othercaps))
    return FALSE;
  *othersize = GST_VIDEO_INFO_SIZE (&info);
  return TRUE;
}

/* Upstream may send frames with padded strides and plane offsets; on the
 * cuda backend it gets a pool of frames that upload fast. */
static gboolean
gst_cuda_imgproc_filter_propose_allocation (GstBaseTransform * trans,
    GstQuery * decide_query, GstQuery * query)
{
  GstCudaImgprocFilterPrivate *priv =
      GET_PRIV (GST_CUDA_IMGPROC_FILTER (trans));

  if (!GST_BASE_TRANSFORM_CLASS
      (gst_cuda_imgproc_filter_parent_class)->propose_allocation (trans,
          decide_query, query))
    return FALSE;
  /* Passthrough: downstream answered. */
  if (decide_query == NULL)
    return TRUE;

  gst_query_add_allocation_meta (query, GST_VIDEO_META_API_TYPE, NULL);
  if (priv->active_backend == GST_CUDA_IMGPROC_BACKEND_CUDA)
    gst_cuda_imgproc_allocation_propose (&priv->device, query);
  return TRUE;
}

static gboolean
gst_cuda_imgproc_filter_decide_allocation (GstBaseTransform * trans,
    GstQuery * query)
{
  GstCudaImgprocFilterPrivate *priv =
      GET_PRIV (GST_CUDA_IMGPROC_FILTER (trans));
  GstCaps *caps;

  priv->downstream_waits =
      gst_cuda_imgproc_allocation_downstream_waits (query);
  if (priv->active_backend != GST_CUDA_IMGPROC_BACKEND_CUDA ||
      !gst_cuda_imgproc_allocation_wants_own_pool (query))
    return GST_BASE_TRANSFORM_CLASS
        (gst_cuda_imgproc_filter_parent_class)->decide_allocation (trans,
        query);

  if (!gst_cuda_imgproc_allocation_decide (&priv->device, query)) {
    gst_query_parse_allocation (query, &caps, NULL);
    GST_ELEMENT_ERROR (trans, RESOURCE, NO_SPACE_LEFT,
        ("Could not allocate output frames for %" GST_PTR_FORMAT ".", caps),
        (NULL));
    return FALSE;
  }
  return TRUE;
}

/* GstBaseTransform returns an active pool's failure to allocate a buffer
 * without posting anything (it does post when activating the pool
 * fails): the application would only hear "Internal data stream error"
 * from upstream. */
static GstFlowReturn
gst_cuda_imgproc_filter_prepare_output_buffer (GstBaseTransform * trans,
    GstBuffer * input, GstBuffer ** output)
{
  GstFlowReturn ret = GST_BASE_TRANSFORM_CLASS
      (gst_cuda_imgproc_filter_parent_class)->prepare_output_buffer (trans,
      input, output);
  GstBufferPool *pool;

  if (ret != GST_FLOW_ERROR)
    return ret;

  pool = gst_base_transform_get_buffer_pool (trans);
  if (pool && gst_buffer_pool_is_active (pool))
    GST_ELEMENT_ERROR (trans, RESOURCE, NO_SPACE_LEFT,
        ("Could not allocate an output frame."),
        ("the output buffer pool failed to allocate"));
  gst_clear_object (&pool);
  return ret;
}

static gboolean
gst_cuda_imgproc_filter_set_caps (GstBaseTransform * trans, GstCaps * incaps,
    GstCaps * outcaps)
{
  GstCudaImgprocFilter *filter = GST_CUDA_IMGPROC_FILTER (trans);
  GstCudaImgprocFilterPrivate *priv = GET_PRIV (filter);
  GstVideoInfo in_info, out_info;
  GstCudaImgprocFormats formats;
  CipFormat src_format, dst_format;
  CipStatus status = CIP_OK;
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

  priv->in_info = in_info;
  priv->out_info = out_info;
  priv->in_cuda = gst_cuda_imgproc_caps_are_cuda (incaps);
  priv->out_cuda = gst_cuda_imgproc_caps_are_cuda (outcaps);
  priv->src_format = src_format;
  priv->dst_format = dst_format;
  formats = element_formats (filter);
  priv->neutral_chroma = gst_cuda_imgproc_caps_is_gray_as_yuv (&formats,
      GST_VIDEO_INFO_FORMAT (&in_info), GST_VIDEO_INFO_FORMAT (&out_info));
  /* Equal caps are not a copy when the output's chroma is not the input's
   * (cudagray on NV12). */
  if (priv->neutral_chroma && gst_base_transform_is_passthrough (trans))
    gst_base_transform_set_passthrough (trans, FALSE);

  if (priv->active_backend == GST_CUDA_IMGPROC_BACKEND_CPU ||
      gst_base_transform_is_passthrough (trans))
    return TRUE;

  /* Reallocate only when the frame geometry changed. */
  if (priv->device_src.data && priv->device_src.width == width &&
      priv->device_src.height == height &&
      priv->device_src.format == src_format &&
      priv->device_dst.format == dst_format)
    return TRUE;

  if (!gst_cuda_context_push (priv->device.context))
    goto push_failed;
  free_device_images (priv);
  status = cip_image_alloc (&priv->device_src, width, height, src_format,
      priv->device.stream);
  if (status == CIP_OK)
    status = cip_image_alloc (&priv->device_dst, width, height,
        dst_format, priv->device.stream);
  if (status != CIP_OK)
    free_device_images (priv);
  gst_cuda_context_pop (NULL);
  if (status != CIP_OK)
    goto alloc_failed;

  return TRUE;

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
push_failed:
  GST_ELEMENT_ERROR (filter, RESOURCE, FAILED,
      ("Could not make the CUDA context current."), (NULL));
  return FALSE;
alloc_failed:
  GST_ELEMENT_ERROR (filter, RESOURCE, NO_SPACE_LEFT,
      ("Could not allocate device memory for %dx%d frames.", width, height),
      ("%s: %s", cip_status_name (status),
            cip_stream_error (priv->device.stream)));
  return FALSE;
}

/* Controlled properties take their value for this frame. */
static void
gst_cuda_imgproc_filter_before_transform (GstBaseTransform * trans,
    GstBuffer * buffer)
{
  GstClockTime timestamp = GST_BUFFER_TIMESTAMP (buffer);
  GstClockTime stream_time;

  /* No time segment (data right after a flush, before the new segment). */
  if (trans->segment.format != GST_FORMAT_TIME)
    return;
  stream_time = gst_segment_to_stream_time (&trans->segment, GST_FORMAT_TIME,
      timestamp);
  if (GST_CLOCK_TIME_IS_VALID (stream_time))
    gst_object_sync_values (GST_OBJECT (trans), stream_time);
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
    GstVideoFrame * out_frame, gboolean dst_on_device)
{
  GstCudaImgprocFilterClass *klass = GST_CUDA_IMGPROC_FILTER_GET_CLASS (filter);
  GstCudaImgprocFilterPrivate *priv = GET_PRIV (filter);
  CipImage src = gst_cuda_imgproc_plane_image (in_frame, 0,
      priv->src_format);
  CipImage dst = gst_cuda_imgproc_plane_image (out_frame, 0,
      priv->dst_format);
  CipImage *work_src = src_on_device ? &src : &priv->device_src;
  CipImage *work_dst = dst_on_device ? &dst : &priv->device_dst;
  CipEvent *output_ready = gst_cuda_imgproc_buffer_ready_event (outbuf);
  gboolean defer = dst_on_device && klass->frame_done == NULL &&
      !klass->reads_intensity && gst_cuda_imgproc_device_reader_orders
      (&priv->device, outbuf, priv->downstream_waits);
  CipStatus status = CIP_OK;

  /* The input's writer may still be at work: our stream waits for it. */
  if (src_on_device)
    status = gst_cuda_imgproc_device_order_after (&priv->device, inbuf);
  if (status == CIP_OK && !src_on_device)
    status = cip_copy (&src, &priv->device_src, priv->device.stream);
  if (status == CIP_OK && priv->intensity.mapped)
    status = gst_cuda_imgproc_intensity_to_device (&priv->intensity,
        priv->device.stream, &priv->intensity_for_process);
  if (status == CIP_OK)
    status = klass->process (filter, work_src, work_dst, priv->readback,
        priv->device.stream);
  priv->intensity_for_process = NULL;
  if (status == CIP_OK && !dst_on_device)
    status = cip_copy (&priv->device_dst, &dst, priv->device.stream);

  if (status == CIP_OK && chroma_on_device (priv, src_on_device,
          dst_on_device))
    status = gst_cuda_imgproc_frame_finish_chroma (in_frame, out_frame,
        priv->neutral_chroma, priv->device.stream);

  if (status == CIP_OK && defer) {
    status = cip_event_record (output_ready, priv->device.stream);
    if (status == CIP_OK)
      status = gst_cuda_imgproc_in_flight_hold (&priv->in_flight, inbuf,
          priv->device.stream);
  } else if (status == CIP_OK) {
    gst_cuda_imgproc_in_flight_drain (&priv->in_flight, priv->device.stream);
    status = cip_stream_synchronize (priv->device.stream);
  }
  if (status == CIP_OK) {
    priv->uploads += !src_on_device;
    priv->downloads += !dst_on_device;
  }
  return status;
}

static GstFlowReturn
gst_cuda_imgproc_filter_transform (GstBaseTransform * trans,
    GstBuffer * inbuf, GstBuffer * outbuf)
{
  GstCudaImgprocFilter *filter = GST_CUDA_IMGPROC_FILTER (trans);
  GstCudaImgprocFilterClass *klass = GST_CUDA_IMGPROC_FILTER_GET_CLASS (filter);
  GstCudaImgprocFilterPrivate *priv = GET_PRIV (filter);
  gboolean on_cuda = priv->active_backend == GST_CUDA_IMGPROC_BACKEND_CUDA;
  GstVideoFrame in_frame, out_frame;
  gboolean src_on_device, dst_on_device, have_intensity;
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
  if (!gst_video_frame_map (&out_frame, &priv->out_info, outbuf,
          GST_MAP_WRITE | (dst_on_device ? GST_MAP_CUDA : 0)))
    goto invalid_output;
  have_intensity = klass->reads_intensity &&
      gst_cuda_imgproc_intensity_map (&priv->intensity, GST_ELEMENT (filter),
      inbuf, &priv->in_info, on_cuda ? &priv->device : NULL);

  if (!on_cuda) {
    CipImage src = gst_cuda_imgproc_plane_image (&in_frame, 0,
        priv->src_format);
    CipImage dst = gst_cuda_imgproc_plane_image (&out_frame, 0,
        priv->dst_format);

    priv->intensity_for_process = have_intensity ?
        &priv->intensity.image : NULL;
    status = klass->process (filter, &src, &dst, priv->readback, NULL);
    priv->intensity_for_process = NULL;
  } else if (gst_cuda_context_push (priv->device.context)) {
    status = process_on_device (filter, inbuf, &in_frame, src_on_device,
        outbuf, &out_frame, dst_on_device);
    gst_cuda_context_pop (NULL);
  } else {
    gst_cuda_imgproc_intensity_unmap (&priv->intensity);
    goto push_failed;
  }
  /* Kernels that read the frame are done: process_on_device synchronizes
   * for elements that read it (they report per frame). */
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
  if (klass->frame_done)
    klass->frame_done (filter, outbuf, priv->readback);
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
      ("buffer of %" G_GSIZE_FORMAT " bytes, caps need %" G_GSIZE_FORMAT,
          gst_buffer_get_size (outbuf), GST_VIDEO_INFO_SIZE (&priv->out_info)));
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

/* An element that reads the intensity frame is where it ends. */
static gboolean
gst_cuda_imgproc_filter_transform_meta (GstBaseTransform * trans,
    GstBuffer * outbuf, GstMeta * meta, GstBuffer * inbuf)
{
  GstCudaImgprocFilterClass *klass = GST_CUDA_IMGPROC_FILTER_GET_CLASS (trans);

  if (meta->info->api == GST_CUDA_IMGPROC_INTENSITY_META_API_TYPE)
    return !klass->reads_intensity;
  return GST_BASE_TRANSFORM_CLASS
      (gst_cuda_imgproc_filter_parent_class)->transform_meta (trans,
      outbuf, meta, inbuf);
}

/* Held input frames go back upstream at the end of a stream or a flush. */
static gboolean
gst_cuda_imgproc_filter_sink_event (GstBaseTransform * trans, GstEvent * event)
{
  GstCudaImgprocFilterPrivate *priv =
      GET_PRIV (GST_CUDA_IMGPROC_FILTER (trans));

  if ((GST_EVENT_TYPE (event) == GST_EVENT_EOS ||
          GST_EVENT_TYPE (event) == GST_EVENT_FLUSH_STOP) &&
      priv->in_flight.count > 0 &&
      gst_cuda_context_push (priv->device.context)) {
    gst_cuda_imgproc_in_flight_drain (&priv->in_flight, priv->device.stream);
    gst_cuda_context_pop (NULL);
  }

  return
      GST_BASE_TRANSFORM_CLASS
      (gst_cuda_imgproc_filter_parent_class)->sink_event (trans, event);
}
