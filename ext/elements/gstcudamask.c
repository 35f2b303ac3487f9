/* gst-cuda-imgproc
 * Copyright (C) 2026 The gst-cuda-imgproc authors
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2 of the License, or (at your option) any later version.
 */

/**
 * SECTION:element-cudamask
 * @title: cudamask
 *
 * Turns a gray image into a binary mask on the GPU: a pixel above
 * `threshold` becomes `foreground`, every other pixel 0 (`invert` swaps
 * them).  With the defaults, any non-zero pixel is foreground, as when
 * separating tissue from background in a CT slice.
 *
 * ## Example launch line
 * |[
 * gst-launch-1.0 filesrc location=slice.png ! pngdec ! videoconvert ! cudagray ! cudamask threshold=40 ! pngenc ! filesink location=mask.png
 * ]|
 *
 * Since: 0.1
 */

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "gstcudamask.h"

GST_DEBUG_CATEGORY_STATIC (gst_cuda_mask_debug);
#define GST_CAT_DEFAULT gst_cuda_mask_debug

enum
{
  PROP_0,
  PROP_THRESHOLD,
  PROP_FOREGROUND,
  PROP_INVERT,
};

#define DEFAULT_THRESHOLD 0
#define DEFAULT_FOREGROUND 255
#define DEFAULT_INVERT FALSE

/* The formats of both pads: the output has the input's (and a GRAY8
 * output may also be the gray frame as NV12 or I420). */
static const gchar *const formats[] = { "GRAY8", NULL };

struct _GstCudaMask
{
  GstCudaImgprocFilter parent;

  guint threshold;
  guint foreground;
  gboolean invert;
};

G_DEFINE_TYPE_WITH_CODE (GstCudaMask, gst_cuda_mask,
    GST_TYPE_CUDA_IMGPROC_FILTER,
    GST_DEBUG_CATEGORY_INIT (gst_cuda_mask_debug, "cudamask", 0,
        "cudamask element"));
GST_ELEMENT_REGISTER_DEFINE (cudamask, "cudamask", GST_RANK_NONE,
    GST_TYPE_CUDA_MASK);

static void gst_cuda_mask_set_property (GObject * object, guint prop_id,
    const GValue * value, GParamSpec * pspec);
static void gst_cuda_mask_get_property (GObject * object, guint prop_id,
    GValue * value, GParamSpec * pspec);
static CipStatus gst_cuda_mask_process (GstCudaImgprocFilter * filter,
    GstCudaImgprocFrame * frame);

static void
gst_cuda_mask_class_init (GstCudaMaskClass * klass)
{
  GObjectClass *gobject_class = G_OBJECT_CLASS (klass);
  GstElementClass *element_class = GST_ELEMENT_CLASS (klass);
  GstCudaImgprocFilterClass *filter_class =
      GST_CUDA_IMGPROC_FILTER_CLASS (klass);

  gobject_class->set_property = gst_cuda_mask_set_property;
  gobject_class->get_property = gst_cuda_mask_get_property;

  /**
   * GstCudaMask:threshold:
   *
   * Pixels strictly above this gray level are foreground.
   *
   * Since: 0.1
   */
  g_object_class_install_property (gobject_class, PROP_THRESHOLD,
      g_param_spec_uint ("threshold", "Threshold",
          "Gray level (0-255) that a pixel must exceed to be foreground",
          0, 255, DEFAULT_THRESHOLD,
          G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS |
          GST_PARAM_MUTABLE_PLAYING | GST_PARAM_CONTROLLABLE));

  /**
   * GstCudaMask:foreground:
   *
   * The value written for foreground pixels; background pixels are 0.
   *
   * Since: 0.1
   */
  g_object_class_install_property (gobject_class, PROP_FOREGROUND,
      g_param_spec_uint ("foreground", "Foreground value",
          "Value (0-255) written for foreground pixels; background is 0",
          0, 255, DEFAULT_FOREGROUND,
          G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS |
          GST_PARAM_MUTABLE_PLAYING | GST_PARAM_CONTROLLABLE));

  /**
   * GstCudaMask:invert:
   *
   * Write the foreground value for pixels at or below the threshold, and 0
   * for those above.
   *
   * Since: 0.1
   */
  g_object_class_install_property (gobject_class, PROP_INVERT,
      g_param_spec_boolean ("invert", "Invert",
          "Mark the pixels at or below the threshold as foreground instead",
          DEFAULT_INVERT,
          G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS |
          GST_PARAM_MUTABLE_PLAYING | GST_PARAM_CONTROLLABLE));

  gst_cuda_imgproc_caps_add_pad_templates (element_class, formats, NULL);
  gst_element_class_set_static_metadata (element_class,
      "CUDA binary mask", "Filter/Effect/Video/Hardware",
      "Marks the pixels of a gray image above a threshold, on the GPU",
      "gst-cuda-imgproc authors");

  filter_class->process = GST_DEBUG_FUNCPTR (gst_cuda_mask_process);
  filter_class->attaches_intensity = TRUE;
}

static void
gst_cuda_mask_init (GstCudaMask * self)
{
  self->threshold = DEFAULT_THRESHOLD;
  self->foreground = DEFAULT_FOREGROUND;
  self->invert = DEFAULT_INVERT;
}

static void
gst_cuda_mask_set_property (GObject * object, guint prop_id,
    const GValue * value, GParamSpec * pspec)
{
  GstCudaMask *self = GST_CUDA_MASK (object);

  GST_OBJECT_LOCK (self);
  switch (prop_id) {
    case PROP_THRESHOLD:
      self->threshold = g_value_get_uint (value);
      break;
    case PROP_FOREGROUND:
      self->foreground = g_value_get_uint (value);
      break;
    case PROP_INVERT:
      self->invert = g_value_get_boolean (value);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
      break;
  }
  GST_OBJECT_UNLOCK (self);
}

static void
gst_cuda_mask_get_property (GObject * object, guint prop_id, GValue * value,
    GParamSpec * pspec)
{
  GstCudaMask *self = GST_CUDA_MASK (object);

  GST_OBJECT_LOCK (self);
  switch (prop_id) {
    case PROP_THRESHOLD:
      g_value_set_uint (value, self->threshold);
      break;
    case PROP_FOREGROUND:
      g_value_set_uint (value, self->foreground);
      break;
    case PROP_INVERT:
      g_value_set_boolean (value, self->invert);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
      break;
  }
  GST_OBJECT_UNLOCK (self);
}

static CipStatus
gst_cuda_mask_process (GstCudaImgprocFilter * filter,
    GstCudaImgprocFrame * frame)
{
  GstCudaMask *self = GST_CUDA_MASK (filter);
  CipMaskParams params;

  GST_OBJECT_LOCK (self);
  params.threshold = self->threshold;
  params.foreground = self->foreground;
  params.invert = self->invert;
  GST_OBJECT_UNLOCK (self);

  return frame->ops->mask (frame->src, frame->dst, &params, frame->stream);
}
