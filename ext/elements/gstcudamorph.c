/* gst-cuda-imgproc
 * Copyright (C) 2026 The gst-cuda-imgproc authors
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2 of the License, or (at your option) any later version.
 */

/**
 * SECTION:element-cudamorph
 * @title: cudamorph
 *
 * Morphology on the GPU: erosion, dilation, opening and closing with a
 * disk, square or cross of a given radius, equal bit for bit to OpenCV's
 * `erode`, `dilate` and `morphologyEx` with the same element and the
 * default border (pixels outside the image do not count).  Every byte of
 * a pixel is its own channel, except in GRAY16_LE, whose 16-bit pixels
 * are taken whole (OpenCV's `CV_16U`), as thermal, depth and X-ray
 * cameras give them; the output has the input's format.  On a
 * binary GRAY8 mask, such as cudaotsu's output, it is binary morphology:
 * an erosion detaches touching objects and removes specks.
 *
 * ## Example launch line
 * |[
 * gst-launch-1.0 filesrc location=coins.png ! pngdec ! videoconvert ! cudagray ! cudaotsu ! cudamorph operation=erode shape=disk radius=2 ! videoconvert ! autovideosink
 * ]|
 *
 * Since: 0.1
 */

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "gstcudamorph.h"

GST_DEBUG_CATEGORY_STATIC (gst_cuda_morph_debug);
#define GST_CAT_DEFAULT gst_cuda_morph_debug

enum
{
  PROP_0,
  PROP_OPERATION,
  PROP_SHAPE,
  PROP_RADIUS,
};

#define DEFAULT_OPERATION GST_CUDA_MORPH_OPERATION_ERODE
#define DEFAULT_SHAPE GST_CUDA_MORPH_SHAPE_DISK
#define DEFAULT_RADIUS 1

/* The formats of both pads: the output has the input's (and a GRAY8
 * output may also be the gray frame as NV12 or I420). */
static const gchar *const formats[] = {
  "GRAY8", "RGBA", "BGRA", "RGBx", "BGRx", "ARGB", "ABGR", "GRAY16_LE", NULL
};

struct _GstCudaMorph
{
  GstCudaImgprocFilter parent;

  GstCudaMorphOperation operation;
  GstCudaMorphShape shape;
  guint radius;
};

G_DEFINE_TYPE_WITH_CODE (GstCudaMorph, gst_cuda_morph,
    GST_TYPE_CUDA_IMGPROC_FILTER,
    GST_DEBUG_CATEGORY_INIT (gst_cuda_morph_debug, "cudamorph", 0,
        "cudamorph element"));
GST_ELEMENT_REGISTER_DEFINE (cudamorph, "cudamorph", GST_RANK_NONE,
    GST_TYPE_CUDA_MORPH);

GType
gst_cuda_morph_operation_get_type (void)
{
  static GType type = 0;
  static const GEnumValue values[] = {
    {GST_CUDA_MORPH_OPERATION_ERODE,
        "Erode: minimum over the element, bright regions shrink", "erode"},
    {GST_CUDA_MORPH_OPERATION_DILATE,
        "Dilate: maximum over the element, bright regions grow", "dilate"},
    {GST_CUDA_MORPH_OPERATION_OPEN,
        "Open: erode, then dilate; removes small bright details", "open"},
    {GST_CUDA_MORPH_OPERATION_CLOSE,
        "Close: dilate, then erode; fills small dark details", "close"},
    {0, NULL, NULL},
  };

  if (g_once_init_enter (&type)) {
    GType t = g_enum_register_static ("GstCudaMorphOperation", values);
    g_once_init_leave (&type, t);
  }
  return type;
}

GType
gst_cuda_morph_shape_get_type (void)
{
  static GType type = 0;
  static const GEnumValue values[] = {
    {GST_CUDA_MORPH_SHAPE_DISK,
        "Disk: the pixels within the radius, x^2 + y^2 <= r^2", "disk"},
    {GST_CUDA_MORPH_SHAPE_SQUARE,
        "Square: the whole (2r+1) x (2r+1) square", "square"},
    {GST_CUDA_MORPH_SHAPE_CROSS,
        "Cross: the centre row and column", "cross"},
    {0, NULL, NULL},
  };

  if (g_once_init_enter (&type)) {
    GType t = g_enum_register_static ("GstCudaMorphShape", values);
    g_once_init_leave (&type, t);
  }
  return type;
}

static void gst_cuda_morph_set_property (GObject * object, guint prop_id,
    const GValue * value, GParamSpec * pspec);
static void gst_cuda_morph_get_property (GObject * object, guint prop_id,
    GValue * value, GParamSpec * pspec);
static CipStatus gst_cuda_morph_process (GstCudaImgprocFilter * filter,
    GstCudaImgprocFrame * frame);

static void
gst_cuda_morph_class_init (GstCudaMorphClass * klass)
{
  GObjectClass *gobject_class = G_OBJECT_CLASS (klass);
  GstElementClass *element_class = GST_ELEMENT_CLASS (klass);
  GstCudaImgprocFilterClass *filter_class =
      GST_CUDA_IMGPROC_FILTER_CLASS (klass);

  gobject_class->set_property = gst_cuda_morph_set_property;
  gobject_class->get_property = gst_cuda_morph_get_property;

  /**
   * GstCudaMorph:operation:
   *
   * Erode, dilate, open (erode then dilate) or close (dilate then erode).
   *
   * Since: 0.1
   */
  g_object_class_install_property (gobject_class, PROP_OPERATION,
      g_param_spec_enum ("operation", "Operation",
          "Minimum (erode) or maximum (dilate) over the structuring "
          "element, or one after the other (open, close)",
          GST_TYPE_CUDA_MORPH_OPERATION, DEFAULT_OPERATION,
          G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS |
          GST_PARAM_MUTABLE_PLAYING | GST_PARAM_CONTROLLABLE));

  /**
   * GstCudaMorph:shape:
   *
   * The shape of the structuring element: a disk, a square or a cross.
   *
   * Since: 0.1
   */
  g_object_class_install_property (gobject_class, PROP_SHAPE,
      g_param_spec_enum ("shape", "Shape",
          "Structuring element: the pixels within the radius (disk), the "
          "whole square, or the centre row and column (cross)",
          GST_TYPE_CUDA_MORPH_SHAPE, DEFAULT_SHAPE,
          G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS |
          GST_PARAM_MUTABLE_PLAYING | GST_PARAM_CONTROLLABLE));

  /**
   * GstCudaMorph:radius:
   *
   * How far the structuring element reaches from its centre, in pixels:
   * it spans 2 radius + 1 pixels across.
   *
   * Since: 0.1
   */
  g_object_class_install_property (gobject_class, PROP_RADIUS,
      g_param_spec_uint ("radius", "Radius",
          "Pixels (1-32) the structuring element reaches from its centre; "
          "it spans 2 radius + 1 pixels across",
          CIP_MORPH_RADIUS_MIN, CIP_MORPH_RADIUS_MAX, DEFAULT_RADIUS,
          G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS |
          GST_PARAM_MUTABLE_PLAYING | GST_PARAM_CONTROLLABLE));

  gst_cuda_imgproc_caps_add_pad_templates (element_class, formats, NULL);
  gst_element_class_set_static_metadata (element_class,
      "CUDA morphology", "Filter/Effect/Video/Hardware",
      "Erodes, dilates, opens or closes 8- or 16-bit gray or four-byte RGB "
      "video, on the GPU", "gst-cuda-imgproc authors");

  filter_class->process = GST_DEBUG_FUNCPTR (gst_cuda_morph_process);

  gst_type_mark_as_plugin_api (GST_TYPE_CUDA_MORPH_OPERATION, 0);
  gst_type_mark_as_plugin_api (GST_TYPE_CUDA_MORPH_SHAPE, 0);
}

static void
gst_cuda_morph_init (GstCudaMorph * self)
{
  self->operation = DEFAULT_OPERATION;
  self->shape = DEFAULT_SHAPE;
  self->radius = DEFAULT_RADIUS;
}

static void
gst_cuda_morph_set_property (GObject * object, guint prop_id,
    const GValue * value, GParamSpec * pspec)
{
  GstCudaMorph *self = GST_CUDA_MORPH (object);

  GST_OBJECT_LOCK (self);
  switch (prop_id) {
    case PROP_OPERATION:
      self->operation = g_value_get_enum (value);
      break;
    case PROP_SHAPE:
      self->shape = g_value_get_enum (value);
      break;
    case PROP_RADIUS:
      self->radius = g_value_get_uint (value);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
      break;
  }
  GST_OBJECT_UNLOCK (self);
}

static void
gst_cuda_morph_get_property (GObject * object, guint prop_id, GValue * value,
    GParamSpec * pspec)
{
  GstCudaMorph *self = GST_CUDA_MORPH (object);

  GST_OBJECT_LOCK (self);
  switch (prop_id) {
    case PROP_OPERATION:
      g_value_set_enum (value, self->operation);
      break;
    case PROP_SHAPE:
      g_value_set_enum (value, self->shape);
      break;
    case PROP_RADIUS:
      g_value_set_uint (value, self->radius);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
      break;
  }
  GST_OBJECT_UNLOCK (self);
}

static CipStatus
gst_cuda_morph_process (GstCudaImgprocFilter * filter,
    GstCudaImgprocFrame * frame)
{
  GstCudaMorph *self = GST_CUDA_MORPH (filter);
  CipMorphOperation operation;
  CipMorphShape shape;
  gint radius;

  GST_OBJECT_LOCK (self);
  operation = (CipMorphOperation) self->operation;
  shape = (CipMorphShape) self->shape;
  radius = self->radius;
  GST_OBJECT_UNLOCK (self);

  return frame->ops->morph (frame->src, frame->dst, operation, shape, radius,
      frame->stream);
}
