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
 * Owns what the plugin's elements share.  On the GPU (`backend=cuda`, or
 * `auto`, the default, where a usable device is there) it finds the
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

#include "gstcudaimgproccompat.h"

#include "gstcudaimgprocfilter.h"
#include "gstcudaimgprocallocation.h"
#include "gstcudaimgproccaps.h"
#include "gstcudaimgprocframe.h"
#include "gstcudaimgprocframepath.h"
#include "gstcudaimgprocmeta.h"

GST_DEBUG_CATEGORY (gst_cuda_imgproc_filter_debug);
#define GST_CAT_DEFAULT gst_cuda_imgproc_filter_debug

enum
{
  PROP_0,
  PROP_BACKEND,
  PROP_CUDA_DEVICE_ID,
  PROP_ZERO_COPY,
  PROP_STATS,
};

#define DEFAULT_BACKEND GST_CUDA_IMGPROC_BACKEND_AUTO
#define DEFAULT_CUDA_DEVICE_ID -1
#define DEFAULT_ZERO_COPY GST_CUDA_IMGPROC_ZERO_COPY_AUTO


typedef struct
{
  /* Properties, under the object lock; changed only in NULL and READY. */
  GstCudaImgprocBackend backend;
  gint device_id;
  GstCudaImgprocZeroCopy zero_copy;

  /* backend=auto: whether CUDA was found usable, from NULL to READY until
   * back to NULL */
  gboolean auto_resolved;
  gboolean auto_on_cuda;
  /* the segment is reversed and has no stop: no running times */
  gboolean timeless_segment;

  /* Everything a frame needs, from start() to stop(). */
  GstCudaImgprocFramePath path;
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
    {GST_CUDA_IMGPROC_BACKEND_AUTO, "The GPU where a usable CUDA device is "
          "there, otherwise the CPU, with a warning", "auto"},
    {GST_CUDA_IMGPROC_BACKEND_CUDA,
        "CUDA kernels on the GPU; without a usable device the element fails "
          "to start", "cuda"},
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

GType
gst_cuda_imgproc_zero_copy_get_type (void)
{
  static GType type = 0;
  static const GEnumValue values[] = {
    {GST_CUDA_IMGPROC_ZERO_COPY_AUTO, "On where the GPU shares the host's "
          "memory (integrated, as a Jetson's), off elsewhere", "auto"},
    {GST_CUDA_IMGPROC_ZERO_COPY_ON, "Kernels use system-memory frames in "
          "place, on any GPU", "on"},
    {GST_CUDA_IMGPROC_ZERO_COPY_OFF, "System-memory frames are copied to and "
          "from device memory", "off"},
    {0, NULL, NULL},
  };

  if (g_once_init_enter (&type)) {
    GType t = g_enum_register_static ("GstCudaImgprocZeroCopy", values);
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
static GstFlowReturn
gst_cuda_imgproc_filter_submit_input_buffer (GstBaseTransform * trans,
    gboolean is_discont, GstBuffer * input);
static GstFlowReturn gst_cuda_imgproc_filter_generate_output (GstBaseTransform
    * trans, GstBuffer ** outbuf);
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
   * Where frames are computed: `cuda` on the GPU, `cpu` with the
   * reference implementation (identical output, no GPU needed), or `auto`:
   * the GPU where a usable CUDA device is there, otherwise the CPU, with
   * a `RESOURCE/NOT_FOUND` warning on the bus that says why.  With `cuda`
   * and no usable device the element fails to start instead.  Every
   * element of a process decides alike, so a chain of them falls back
   * together.
   *
   * Since: 0.1
   */
  g_object_class_install_property (gobject_class, PROP_BACKEND,
      g_param_spec_enum ("backend", "Backend",
          "Where frames are computed: auto (the GPU where a usable CUDA "
          "device is there, otherwise the CPU with a warning), cuda (the "
          "GPU, or fail to start) or cpu (reference implementation, "
          "identical output)",
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
   * GstCudaImgprocFilter:zero-copy:
   *
   * Whether the kernels read and write frames in system memory in place,
   * through the GPU's view of page-locked host memory, rather than copies
   * of them in device memory.  Page-locked frames (the pools the elements
   * propose and use) are used as they are; an upstream frame in
   * GStreamer's system memory is page-locked once, where the driver can
   * and within a bound, and stays so until upstream frees it; any other is
   * copied.  `auto`
   * turns it on where the GPU shares the host's memory (an integrated GPU,
   * a Jetson's), where a copy is pure waste; on a discrete GPU the kernels
   * then cross the bus for every pixel they touch.  `cudalabel` copies its
   * input all the same (it reads it again when the frame is done).  The
   * `stats` counters `uploads` and `downloads` count the copies made.
   *
   * Since: 0.2
   */
  g_object_class_install_property (gobject_class, PROP_ZERO_COPY,
      g_param_spec_enum ("zero-copy", "Zero copy",
          "Whether kernels use system-memory frames in place: auto (on "
          "where the GPU shares the host's memory, as a Jetson's), on or "
          "off (copies to and from device memory)",
          GST_TYPE_CUDA_IMGPROC_ZERO_COPY, DEFAULT_ZERO_COPY,
          G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS |
          GST_PARAM_MUTABLE_READY));

  /**
   * GstCudaImgprocFilter:stats:
   *
   * Counters of the element's work since it was created: `frames`
   * processed; `uploads` and `downloads`, the frames it copied between host
   * and device memory (none when both pads carry CUDA memory);
   * `page-locked`, the memories of other elements' system-memory frames
   * it page-locked for those copies because they came back; `staged`, the
   * frames in pageable memory (seen once, or past the bound on what may be
   * page-locked) it uploaded through its own page-locked staging memory,
   * copied there by several threads;
   * `device-allocations` and `device-frees`, the device and page-locked
   * buffers it allocated and released for itself, which happens when it
   * starts, when caps change, when a frame first needs more scratch memory
   * (`cudablur`, `cudamorph`, `cudalabel`) and when `cudalabel` finds more
   * regions than ever before; never on every frame.
   *
   * Since: 0.1
   */
  g_object_class_install_property (gobject_class, PROP_STATS,
      g_param_spec_boxed ("stats", "Statistics",
          "Frames processed, frames uploaded and downloaded, and device and "
          "page-locked allocations made and released (at start, on caps "
          "changes and when a frame first needs more memory; never on every "
          "frame)",
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
  trans_class->submit_input_buffer =
      GST_DEBUG_FUNCPTR (gst_cuda_imgproc_filter_submit_input_buffer);
  trans_class->generate_output =
      GST_DEBUG_FUNCPTR (gst_cuda_imgproc_filter_generate_output);
  trans_class->sink_event =
      GST_DEBUG_FUNCPTR (gst_cuda_imgproc_filter_sink_event);

  gst_type_mark_as_plugin_api (GST_TYPE_CUDA_IMGPROC_FILTER, 0);
  gst_type_mark_as_plugin_api (GST_TYPE_CUDA_IMGPROC_BACKEND, 0);
  gst_type_mark_as_plugin_api (GST_TYPE_CUDA_IMGPROC_ZERO_COPY, 0);
}

static void
gst_cuda_imgproc_filter_init (GstCudaImgprocFilter * filter)
{
  GstCudaImgprocFilterPrivate *priv = GET_PRIV (filter);

  priv->backend = DEFAULT_BACKEND;
  priv->device_id = DEFAULT_CUDA_DEVICE_ID;
  priv->zero_copy = DEFAULT_ZERO_COPY;
  /* as GstVideoFilter: a live source's late frames are dropped and
   * counted in a QoS message, not computed */
  gst_base_transform_set_qos_enabled (GST_BASE_TRANSFORM (filter), TRUE);
}

static void
gst_cuda_imgproc_filter_finalize (GObject * object)
{
  GstCudaImgprocFilterPrivate *priv =
      GET_PRIV (GST_CUDA_IMGPROC_FILTER (object));

  gst_clear_object (&priv->path.device.context);

  G_OBJECT_CLASS (gst_cuda_imgproc_filter_parent_class)->finalize (object);
}

/* The backend and device are chosen at start: a change while frames
 * flow would leave the caps and the frames in different memories. */
static void
gst_cuda_imgproc_filter_set_property (GObject * object, guint prop_id,
    const GValue * value, GParamSpec * pspec)
{
  GstCudaImgprocFilterPrivate *priv =
      GET_PRIV (GST_CUDA_IMGPROC_FILTER (object));
  gboolean refused;

  GST_OBJECT_LOCK (object);
  refused = GST_STATE (object) > GST_STATE_READY;
  switch (prop_id) {
    case PROP_BACKEND:
      if (!refused)
        priv->backend = g_value_get_enum (value);
      break;
    case PROP_CUDA_DEVICE_ID:
      if (!refused)
        priv->device_id = g_value_get_int (value);
      break;
    case PROP_ZERO_COPY:
      if (!refused)
        priv->zero_copy = g_value_get_enum (value);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
      refused = FALSE;
      break;
  }
  GST_OBJECT_UNLOCK (object);

  if (refused)
    GST_ELEMENT_WARNING (object, RESOURCE, SETTINGS,
        ("'%s' can change only in the NULL or READY state: the element "
            "keeps its value.", pspec->name),
        ("set while %s", gst_element_state_get_name (GST_STATE (object))));
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
    case PROP_ZERO_COPY:
      g_value_set_enum (value, priv->zero_copy);
      break;
    case PROP_STATS:
      g_value_take_boxed (value, gst_structure_new ("cudaimgproc-stats",
              "frames", G_TYPE_UINT64, priv->path.frames,
              "uploads", G_TYPE_UINT64, priv->path.uploads,
              "downloads", G_TYPE_UINT64, priv->path.downloads,
              "page-locked", G_TYPE_UINT64, priv->path.page_locked,
              "staged", G_TYPE_UINT64, priv->path.staged,
              "device-allocations", G_TYPE_UINT64,
              priv->path.device.memory.allocations,
              "device-frees", G_TYPE_UINT64, priv->path.device.memory.frees,
              NULL));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
      break;
  }
  GST_OBJECT_UNLOCK (object);
}

/* Whether frames are (or, before READY, would be) computed on the GPU;
 * auto counts as the GPU until NULL to READY has looked for it. */
static gboolean
uses_cuda (GstCudaImgprocFilter * filter)
{
  GstCudaImgprocFilterPrivate *priv = GET_PRIV (filter);
  gboolean on_cuda;

  GST_OBJECT_LOCK (filter);
  on_cuda = priv->backend == GST_CUDA_IMGPROC_BACKEND_CUDA ||
      (priv->backend == GST_CUDA_IMGPROC_BACKEND_AUTO &&
      (!priv->auto_resolved || priv->auto_on_cuda));
  GST_OBJECT_UNLOCK (filter);
  return on_cuda;
}

/* backend=auto: the GPU if CUDA finds a usable device, otherwise the CPU,
 * with one warning that says why.  The driver and device are the
 * machine's, so every element of a process decides alike. */
static void
resolve_auto_backend (GstCudaImgprocFilter * filter, gint device_id)
{
  GstCudaImgprocFilterPrivate *priv = GET_PRIV (filter);
  gchar *why = NULL, *detail = NULL;
  gboolean on_cuda = gst_cuda_imgproc_device_find (device_id, &why, &detail);

  GST_OBJECT_LOCK (filter);
  priv->auto_resolved = TRUE;
  priv->auto_on_cuda = on_cuda;
  GST_OBJECT_UNLOCK (filter);
  if (on_cuda)
    return;

  GST_ELEMENT_WARNING (filter, RESOURCE, NOT_FOUND,
      ("%s %s runs on the CPU (the reference implementation, the same "
          "output).", why, GST_OBJECT_NAME (filter)),
      ("backend=auto; %s.  Set backend=cuda to make this an error, or "
          "backend=cpu to say so.", detail ? detail : "no device"));
  g_free (why);
  g_free (detail);
}

/**
 * gst_cuda_imgproc_filter_get_output_info:
 * @filter: a #GstCudaImgprocFilter
 *
 * Returns: the negotiated output video info, valid from set_caps() on.
 */
const GstVideoInfo *
gst_cuda_imgproc_filter_get_output_info (GstCudaImgprocFilter * filter)
{
  return &GET_PRIV (filter)->path.out_info;
}

/* The element's formats as its class says them now. */
static GstCudaImgprocFormats
element_formats (GstCudaImgprocFilter * self)
{
  GstCudaImgprocFilterClass *klass = GST_CUDA_IMGPROC_FILTER_GET_CLASS (self);
  GstCudaImgprocFormats formats = { klass->input_formats,
    klass->get_output_formats ? klass->get_output_formats (self) :
        klass->output_formats, klass->deep_formats, klass->passes_chroma
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
      caps, uses_cuda (self));

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
    othercaps = gst_cuda_imgproc_caps_fixate_luma (caps, othercaps);
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
      &priv->path.device.context);

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
          priv->path.device.context))
    return TRUE;
  /* upstream wants its frames back: ours go out, theirs are let go */
  if (GST_QUERY_TYPE (query) == GST_QUERY_DRAIN && direction == GST_PAD_SINK)
    gst_cuda_imgproc_frame_path_push_all (&priv->path,
        GST_CUDA_IMGPROC_FILTER (trans), TRUE);

  return GST_BASE_TRANSFORM_CLASS (gst_cuda_imgproc_filter_parent_class)->query
      (trans, direction, query);
}

/* With backend=cuda a missing driver or device fails the change to
 * READY, with the reason; with auto it is where the element falls back to
 * the CPU. */
static GstStateChangeReturn
gst_cuda_imgproc_filter_change_state (GstElement * element,
    GstStateChange transition)
{
  GstCudaImgprocFilter *filter = GST_CUDA_IMGPROC_FILTER (element);
  GstCudaImgprocFilterPrivate *priv = GET_PRIV (filter);
  GstStateChangeReturn ret;

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
    if (backend == GST_CUDA_IMGPROC_BACKEND_AUTO)
      resolve_auto_backend (filter, device_id);
  }

  ret = GST_ELEMENT_CLASS (gst_cuda_imgproc_filter_parent_class)->change_state
      (element, transition);
  if (transition == GST_STATE_CHANGE_READY_TO_NULL) {
    GST_OBJECT_LOCK (filter);
    priv->auto_resolved = FALSE;
    GST_OBJECT_UNLOCK (filter);
  }
  return ret;
}

static gboolean
gst_cuda_imgproc_filter_start (GstBaseTransform * trans)
{
  GstCudaImgprocFilter *filter = GST_CUDA_IMGPROC_FILTER (trans);
  GstCudaImgprocFilterPrivate *priv = GET_PRIV (filter);
  gboolean on_cuda, auto_pending;
  GstCudaImgprocZeroCopy zero_copy;
  gint device_id;

  GST_OBJECT_LOCK (filter);
  auto_pending = priv->backend == GST_CUDA_IMGPROC_BACKEND_AUTO &&
      !priv->auto_resolved;
  device_id = priv->device_id;
  zero_copy = priv->zero_copy;
  GST_OBJECT_UNLOCK (filter);
  /* auto set in READY, after the change to READY looked for nothing */
  if (auto_pending)
    resolve_auto_backend (filter, device_id);
  on_cuda = uses_cuda (filter);
  priv->timeless_segment = FALSE;

  return gst_cuda_imgproc_frame_path_start (&priv->path, filter, on_cuda,
      device_id, zero_copy);
}

static gboolean
gst_cuda_imgproc_filter_stop (GstBaseTransform * trans)
{
  GstCudaImgprocFilter *filter = GST_CUDA_IMGPROC_FILTER (trans);

  gst_cuda_imgproc_frame_path_stop (&GET_PRIV (filter)->path, filter);
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
  if (priv->path.on_cuda)
    gst_cuda_imgproc_allocation_propose (&priv->path.device, query,
        priv->path.queue.depth);
  return TRUE;
}

static gboolean
gst_cuda_imgproc_filter_decide_allocation (GstBaseTransform * trans,
    GstQuery * query)
{
  GstCudaImgprocFilterPrivate *priv =
      GET_PRIV (GST_CUDA_IMGPROC_FILTER (trans));
  GstCaps *caps;

  priv->path.downstream_waits =
      gst_cuda_imgproc_allocation_downstream_waits (query);
  if (!priv->path.on_cuda ||
      !gst_cuda_imgproc_allocation_wants_own_pool (query))
    return GST_BASE_TRANSFORM_CLASS
        (gst_cuda_imgproc_filter_parent_class)->decide_allocation (trans,
        query);

  if (!gst_cuda_imgproc_allocation_decide (&priv->path.device, query,
          priv->path.queue.depth)) {
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
  GstCudaImgprocFormats formats = element_formats (filter);

  return gst_cuda_imgproc_frame_path_set_caps (&GET_PRIV (filter)->path,
      filter, &formats, incaps, outcaps);
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

/* GstBaseTransform negotiates an output pool only for a class with a
 * transform(); ours computes its frames in generate_output, which never
 * calls it. */
static GstFlowReturn
gst_cuda_imgproc_filter_transform (GstBaseTransform * trans,
    GstBuffer * inbuf, GstBuffer * outbuf)
{
  g_return_val_if_reached (GST_FLOW_NOT_SUPPORTED);
}

/* An element that reads the intensity frame is where it ends; other metas
 * stay where no element here could invalidate them. */
static gboolean
gst_cuda_imgproc_filter_transform_meta (GstBaseTransform * trans,
    GstBuffer * outbuf, GstMeta * meta, GstBuffer * inbuf)
{
  GstCudaImgprocFilterClass *klass = GST_CUDA_IMGPROC_FILTER_GET_CLASS (trans);

  if (meta->info->api == GST_CUDA_IMGPROC_INTENSITY_META_API_TYPE)
    return !klass->reads_intensity;
  return gst_cuda_imgproc_meta_survives_filter (meta);
}

/* Every input is computed as it comes, and every frame leaves, in order,
 * through the frame path's one way out (see gstcudaimgprocframepath.c). */
static GstFlowReturn
gst_cuda_imgproc_filter_generate_output (GstBaseTransform * trans,
    GstBuffer ** outbuf)
{
  GstCudaImgprocFilter *filter = GST_CUDA_IMGPROC_FILTER (trans);

  return gst_cuda_imgproc_frame_path_generate (&GET_PRIV (filter)->path,
      filter, outbuf);
}

/* A reversed TIME segment without a stop has no running times. */
static void
follow_segment (GstCudaImgprocFilter * filter, GstEvent * event)
{
  const GstSegment *segment;

  gst_event_parse_segment (event, &segment);
  GET_PRIV (filter)->timeless_segment = segment->format == GST_FORMAT_TIME &&
      segment->rate < 0 && !GST_CLOCK_TIME_IS_VALID (segment->stop);
}

static GstFlowReturn
gst_cuda_imgproc_filter_submit_input_buffer (GstBaseTransform * trans,
    gboolean is_discont, GstBuffer * input)
{
  GstCudaImgprocFilter *filter = GST_CUDA_IMGPROC_FILTER (trans);
  GstFlowReturn ret =
      gst_cuda_imgproc_frame_path_submit (&GET_PRIV (filter)->path, filter,
      is_discont);

  if (ret != GST_FLOW_OK) {
    gst_buffer_unref (input);
    return ret;
  }
  /* GstBaseTransform's own submit asks for the frame's running time for
   * QoS (before 1.22 even with QoS off): a CRITICAL in a segment that has
   * none, which skips it, and QoS, to queue the frame as it would */
  if (GET_PRIV (filter)->timeless_segment) {
    if (!gst_pad_has_current_caps (GST_BASE_TRANSFORM_SINK_PAD (trans))) {
      gst_buffer_unref (input);
      return GST_FLOW_NOT_NEGOTIATED;
    }
    trans->queued_buf = input;
    return GST_FLOW_OK;
  }
  return
      GST_BASE_TRANSFORM_CLASS
      (gst_cuda_imgproc_filter_parent_class)->submit_input_buffer (trans,
      is_discont, input);
}

/* The frames in flight go before any serialized event (the end of the
 * stream waits for all their work), and a flush drops them. */
static gboolean
gst_cuda_imgproc_filter_sink_event (GstBaseTransform * trans, GstEvent * event)
{
  GstCudaImgprocFilter *filter = GST_CUDA_IMGPROC_FILTER (trans);
  GstCudaImgprocFramePath *path = &GET_PRIV (filter)->path;

  if (GST_EVENT_TYPE (event) == GST_EVENT_FLUSH_STOP)
    gst_cuda_imgproc_frame_path_flush (path, filter);
  else if (GST_EVENT_IS_SERIALIZED (event))
    gst_cuda_imgproc_frame_path_push_all (path, filter,
        GST_EVENT_TYPE (event) == GST_EVENT_EOS);
  if (GST_EVENT_TYPE (event) == GST_EVENT_SEGMENT)
    follow_segment (filter, event);

  return
      GST_BASE_TRANSFORM_CLASS
      (gst_cuda_imgproc_filter_parent_class)->sink_event (trans, event);
}
