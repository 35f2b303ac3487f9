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
 * Turns a gray image (GRAY8, or GRAY16_LE from a deep camera or a
 * scanner) into a binary GRAY8 mask on the GPU: a pixel above `threshold`
 * becomes `foreground`, every other pixel 0 (`invert` swaps them).  With
 * the defaults, any non-zero pixel is foreground, as when separating
 * tissue from background in a CT slice.
 *
 * The threshold is in the input's units: 0-255 on GRAY8, 0-65535 on
 * GRAY16_LE.  A threshold above 255 on GRAY8 input is refused: caps
 * negotiation fails with a `CORE/NEGOTIATION` error that says so, and
 * setting one while GRAY8 flows keeps the old value, with a warning.
 *
 * ## Example launch line
 * |[
 * gst-launch-1.0 filesrc location=slice.png ! pngdec ! videoconvert ! cudagray ! cudamask threshold=40 ! pngenc ! filesink location=mask.png
 * gst-launch-1.0 filesrc location=slice16.png ! pngdec ! video/x-raw,format=GRAY16_LE ! cudamask threshold=12000 ! pngenc ! filesink location=mask.png
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

/* The largest threshold an 8-bit input can exceed. */
#define MAX_THRESHOLD_8BIT 255

/* GRAY8 or GRAY16_LE in, a GRAY8 mask out (which may also leave as the
 * gray frame of NV12 or I420). */
static const gchar *const input_formats[] = { "GRAY8", "GRAY16_LE", NULL };
static const gchar *const output_formats[] = { "GRAY8", NULL };

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
static gboolean gst_cuda_mask_set_caps (GstBaseTransform * trans,
    GstCaps * incaps, GstCaps * outcaps);
static CipStatus gst_cuda_mask_process (GstCudaImgprocFilter * filter,
    GstCudaImgprocFrame * frame);

static void
gst_cuda_mask_class_init (GstCudaMaskClass * klass)
{
  GObjectClass *gobject_class = G_OBJECT_CLASS (klass);
  GstElementClass *element_class = GST_ELEMENT_CLASS (klass);
  GstBaseTransformClass *trans_class = GST_BASE_TRANSFORM_CLASS (klass);
  GstCudaImgprocFilterClass *filter_class =
      GST_CUDA_IMGPROC_FILTER_CLASS (klass);

  gobject_class->set_property = gst_cuda_mask_set_property;
  gobject_class->get_property = gst_cuda_mask_get_property;

  /**
   * GstCudaMask:threshold:
   *
   * Pixels strictly above this gray level are foreground, in the input's
   * units: 0-255 on GRAY8, 0-65535 on GRAY16_LE.  Above 255, GRAY8 input
   * is refused at negotiation (a `CORE/NEGOTIATION` error); set while
   * GRAY8 flows, such a value is not taken (a `LIBRARY/SETTINGS` warning).
   *
   * Since: 0.1
   */
  g_object_class_install_property (gobject_class, PROP_THRESHOLD,
      g_param_spec_uint ("threshold", "Threshold",
          "Gray level that a pixel must exceed to be foreground, in the "
          "input's units: 0-255 on GRAY8 (higher values refuse GRAY8), "
          "0-65535 on GRAY16_LE", 0, G_MAXUINT16, DEFAULT_THRESHOLD,
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

  gst_cuda_imgproc_caps_add_pad_templates (element_class, input_formats,
      output_formats);
  gst_element_class_set_static_metadata (element_class,
      "CUDA binary mask", "Filter/Effect/Video/Hardware",
      "Marks the pixels of a gray image above a threshold, on the GPU",
      "gst-cuda-imgproc authors");

  trans_class->set_caps = GST_DEBUG_FUNCPTR (gst_cuda_mask_set_caps);

  filter_class->process = GST_DEBUG_FUNCPTR (gst_cuda_mask_process);
  filter_class->attaches_intensity = TRUE;
  filter_class->input_formats = input_formats;
  filter_class->output_formats = output_formats;
}

static void
gst_cuda_mask_init (GstCudaMask * self)
{
  self->threshold = DEFAULT_THRESHOLD;
  self->foreground = DEFAULT_FOREGROUND;
  self->invert = DEFAULT_INVERT;
}

/* Whether the negotiated input is GRAY8. */
static gboolean
gst_cuda_mask_input_is_8bit (GstCudaMask * self)
{
  GstCaps *caps = gst_pad_get_current_caps (GST_BASE_TRANSFORM_SINK_PAD (self));
  GstVideoInfo info;
  gboolean is_8bit = FALSE;

  if (caps && gst_video_info_from_caps (&info, caps))
    is_8bit = GST_VIDEO_INFO_FORMAT (&info) == GST_VIDEO_FORMAT_GRAY8;
  if (caps)
    gst_caps_unref (caps);
  return is_8bit;
}

static guint
gst_cuda_mask_get_threshold (GstCudaMask * self)
{
  guint threshold;

  GST_OBJECT_LOCK (self);
  threshold = self->threshold;
  GST_OBJECT_UNLOCK (self);
  return threshold;
}

static void
gst_cuda_mask_set_property (GObject * object, guint prop_id,
    const GValue * value, GParamSpec * pspec)
{
  GstCudaMask *self = GST_CUDA_MASK (object);
  guint threshold = 0;

  if (prop_id == PROP_THRESHOLD) {
    threshold = g_value_get_uint (value);
    if (threshold > MAX_THRESHOLD_8BIT && gst_cuda_mask_input_is_8bit (self)) {
      GST_ELEMENT_WARNING (self, LIBRARY, SETTINGS,
          ("Threshold %u is above 255, the largest value of the 8-bit "
              "(GRAY8) input: the threshold stays %u.", threshold,
              gst_cuda_mask_get_threshold (self)),
          ("GRAY8 input takes thresholds of 0-255"));
      return;
    }
  }

  GST_OBJECT_LOCK (self);
  switch (prop_id) {
    case PROP_THRESHOLD:
      self->threshold = threshold;
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

/* Refuses GRAY8 input while the threshold is above what it can reach. */
static gboolean
gst_cuda_mask_set_caps (GstBaseTransform * trans, GstCaps * incaps,
    GstCaps * outcaps)
{
  GstCudaMask *self = GST_CUDA_MASK (trans);
  GstVideoInfo info;
  gboolean input_8bit;
  guint threshold;

  if (!gst_video_info_from_caps (&info, incaps))
    return FALSE;
  input_8bit = GST_VIDEO_INFO_FORMAT (&info) == GST_VIDEO_FORMAT_GRAY8;

  threshold = gst_cuda_mask_get_threshold (self);
  if (input_8bit && threshold > MAX_THRESHOLD_8BIT)
    goto threshold_too_high;

  return GST_BASE_TRANSFORM_CLASS (gst_cuda_mask_parent_class)->set_caps
      (trans, incaps, outcaps);

threshold_too_high:
  GST_ELEMENT_ERROR (self, CORE, NEGOTIATION,
      ("Threshold %u is above 255, the largest value of the 8-bit (GRAY8) "
          "input.", threshold),
      ("set a threshold of 0-255 for GRAY8, or give GRAY16_LE input "
          "(0-65535); caps %" GST_PTR_FORMAT, incaps));
  return FALSE;
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
