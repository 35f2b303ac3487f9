/* gst-cuda-imgproc
 * Copyright (C) 2026 The gst-cuda-imgproc authors
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2 of the License, or (at your option) any later version.
 */

/**
 * SECTION:element-cudagray
 * @title: cudagray
 *
 * Converts colour video to GRAY8 on the GPU.  The `method` property picks
 * the weights; the default, `bt601`, equals OpenCV's
 * `cvtColor (..., COLOR_RGB2GRAY)` bit for bit.  Of YUV, as cameras and
 * decoders give it (YUY2, UYVY, NV12, NV21, I420, P010_10LE, ...), and of
 * GRAY16 the gray is the luma, byte for byte what `videoconvert` gives;
 * inputs of more than eight bits can also give GRAY16_LE.  GRAY8 input
 * passes through.
 *
 * ## Example launch line
 * |[
 * gst-launch-1.0 videotestsrc ! video/x-raw,format=RGBA ! cudagray ! videoconvert ! autovideosink
 * ]|
 *
 * Since: 0.1
 */

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "gstcudagray.h"

GST_DEBUG_CATEGORY_STATIC (gst_cuda_gray_debug);
#define GST_CAT_DEFAULT gst_cuda_gray_debug

enum
{
  PROP_0,
  PROP_METHOD,
};

#define DEFAULT_METHOD GST_CUDA_GRAY_METHOD_BT601

/* Colour, then YUV as cameras and decoders give it (its luma is the
 * gray), then gray. */
static const gchar *const input_formats[] = {
  "RGBA", "BGRA", "RGBx", "BGRx", "ARGB", "ABGR", "RGB", "BGR",
  "NV12", "NV21", "NV16", "NV61", "NV24", "I420", "YV12", "Y42B", "Y444",
  "YUY2", "YVYU", "UYVY", "P010_10LE", "P016_LE", "I420_10LE", "I420_12LE",
  "GRAY8", "GRAY16_LE", "GRAY16_BE", NULL
};

/* Of those, the ones of more than eight bits, which may keep them. */
static const gchar *const deep_formats[] = {
  "P010_10LE", "P016_LE", "I420_10LE", "I420_12LE", "GRAY16_LE",
  "GRAY16_BE", NULL
};

static const gchar *const output_formats[] = { "GRAY8", "GRAY16_LE", NULL };

struct _GstCudaGray
{
  GstCudaImgprocFilter parent;

  GstCudaGrayMethod method;
};

G_DEFINE_TYPE_WITH_CODE (GstCudaGray, gst_cuda_gray,
    GST_TYPE_CUDA_IMGPROC_FILTER,
    GST_DEBUG_CATEGORY_INIT (gst_cuda_gray_debug, "cudagray", 0,
        "cudagray element"));
GST_ELEMENT_REGISTER_DEFINE (cudagray, "cudagray", GST_RANK_NONE,
    GST_TYPE_CUDA_GRAY);

GType
gst_cuda_gray_method_get_type (void)
{
  static GType type = 0;
  static const GEnumValue values[] = {
    {GST_CUDA_GRAY_METHOD_BT601,
        "ITU-R BT.601: 0.299 R + 0.587 G + 0.114 B (as OpenCV)", "bt601"},
    {GST_CUDA_GRAY_METHOD_BT709,
        "ITU-R BT.709: 0.2126 R + 0.7152 G + 0.0722 B", "bt709"},
    {GST_CUDA_GRAY_METHOD_LUMINOSITY,
        "Luminosity: 0.21 R + 0.71 G + 0.07 B", "luminosity"},
    {GST_CUDA_GRAY_METHOD_AVERAGE, "Average: (R + G + B) / 3", "average"},
    {0, NULL, NULL},
  };

  if (g_once_init_enter (&type)) {
    GType t = g_enum_register_static ("GstCudaGrayMethod", values);
    g_once_init_leave (&type, t);
  }
  return type;
}

static void gst_cuda_gray_set_property (GObject * object, guint prop_id,
    const GValue * value, GParamSpec * pspec);
static void gst_cuda_gray_get_property (GObject * object, guint prop_id,
    GValue * value, GParamSpec * pspec);
static CipStatus gst_cuda_gray_process (GstCudaImgprocFilter * filter,
    GstCudaImgprocFrame * frame);

static void
gst_cuda_gray_class_init (GstCudaGrayClass * klass)
{
  GObjectClass *gobject_class = G_OBJECT_CLASS (klass);
  GstElementClass *element_class = GST_ELEMENT_CLASS (klass);
  GstBaseTransformClass *trans_class = GST_BASE_TRANSFORM_CLASS (klass);
  GstCudaImgprocFilterClass *filter_class =
      GST_CUDA_IMGPROC_FILTER_CLASS (klass);

  gobject_class->set_property = gst_cuda_gray_set_property;
  gobject_class->get_property = gst_cuda_gray_get_property;

  /**
   * GstCudaGray:method:
   *
   * The weights of R, G and B in the gray value.
   *
   * Since: 0.1
   */
  g_object_class_install_property (gobject_class, PROP_METHOD,
      g_param_spec_enum ("method", "Method",
          "Weights of R, G and B in the gray value",
          GST_TYPE_CUDA_GRAY_METHOD, DEFAULT_METHOD,
          G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS |
          GST_PARAM_MUTABLE_PLAYING));

  gst_cuda_imgproc_caps_add_pad_templates (element_class, input_formats,
      output_formats);
  gst_element_class_set_static_metadata (element_class,
      "CUDA colour to gray", "Filter/Converter/Video/Hardware",
      "Converts colour or YUV video to GRAY8 (or GRAY16_LE) on the GPU",
      "gst-cuda-imgproc authors");

  /* GRAY8 in, GRAY8 out: nothing to compute. */
  trans_class->passthrough_on_same_caps = TRUE;

  filter_class->process = GST_DEBUG_FUNCPTR (gst_cuda_gray_process);
  filter_class->input_formats = input_formats;
  filter_class->output_formats = output_formats;
  filter_class->deep_formats = deep_formats;

  gst_type_mark_as_plugin_api (GST_TYPE_CUDA_GRAY_METHOD, 0);
}

static void
gst_cuda_gray_init (GstCudaGray * self)
{
  self->method = DEFAULT_METHOD;
}

static void
gst_cuda_gray_set_property (GObject * object, guint prop_id,
    const GValue * value, GParamSpec * pspec)
{
  GstCudaGray *self = GST_CUDA_GRAY (object);

  GST_OBJECT_LOCK (self);
  switch (prop_id) {
    case PROP_METHOD:
      self->method = g_value_get_enum (value);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
      break;
  }
  GST_OBJECT_UNLOCK (self);
}

static void
gst_cuda_gray_get_property (GObject * object, guint prop_id, GValue * value,
    GParamSpec * pspec)
{
  GstCudaGray *self = GST_CUDA_GRAY (object);

  GST_OBJECT_LOCK (self);
  switch (prop_id) {
    case PROP_METHOD:
      g_value_set_enum (value, self->method);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
      break;
  }
  GST_OBJECT_UNLOCK (self);
}

static CipStatus
gst_cuda_gray_process (GstCudaImgprocFilter * filter,
    GstCudaImgprocFrame * frame)
{
  GstCudaGray *self = GST_CUDA_GRAY (filter);
  CipGrayMethod method;

  GST_OBJECT_LOCK (self);
  method = (CipGrayMethod) self->method;
  GST_OBJECT_UNLOCK (self);

  return frame->ops->gray (frame->src, frame->dst, method, frame->stream);
}
