/* gst-cuda-imgproc
 * Copyright (C) 2026 The gst-cuda-imgproc authors
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2 of the License, or (at your option) any later version.
 */

/**
 * SECTION:element-cudablur
 * @title: cudablur
 *
 * Gaussian blur on the GPU, equal bit for bit to OpenCV's `GaussianBlur`
 * with a (2r+1) x (2r+1) kernel, r = ceil (4 `sigma`), and mirrored
 * borders (`BORDER_REFLECT_101`).  Every byte of a pixel is blurred as
 * its own channel, alpha and padding included; GRAY16_LE's 16-bit pixels
 * are blurred whole, bit for bit as OpenCV blurs `CV_16U` images (weights
 * in 1/65536).  The output has the input's format.  A light blur before a threshold keeps noise out of
 * the mask.
 *
 * ## Example launch line
 * |[
 * gst-launch-1.0 filesrc location=coins.png ! pngdec ! videoconvert ! cudagray ! cudablur sigma=1.5 ! cudaotsu ! videoconvert ! autovideosink
 * ]|
 *
 * Since: 0.1
 */

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "gstcudablur.h"

GST_DEBUG_CATEGORY_STATIC (gst_cuda_blur_debug);
#define GST_CAT_DEFAULT gst_cuda_blur_debug

enum
{
  PROP_0,
  PROP_SIGMA,
};

#define DEFAULT_SIGMA 1.0

/* The formats of both pads: the output has the input's (and a GRAY8
 * output may also be the gray frame as NV12 or I420). */
static const gchar *const formats[] = {
  "GRAY8", "RGBA", "BGRA", "RGBx", "BGRx", "ARGB", "ABGR", "GRAY16_LE", NULL
};

struct _GstCudaBlur
{
  GstCudaImgprocFilter parent;

  gdouble sigma;
};

G_DEFINE_TYPE_WITH_CODE (GstCudaBlur, gst_cuda_blur,
    GST_TYPE_CUDA_IMGPROC_FILTER,
    GST_DEBUG_CATEGORY_INIT (gst_cuda_blur_debug, "cudablur", 0,
        "cudablur element"));
GST_ELEMENT_REGISTER_DEFINE (cudablur, "cudablur", GST_RANK_NONE,
    GST_TYPE_CUDA_BLUR);

static void gst_cuda_blur_set_property (GObject * object, guint prop_id,
    const GValue * value, GParamSpec * pspec);
static void gst_cuda_blur_get_property (GObject * object, guint prop_id,
    GValue * value, GParamSpec * pspec);
static CipStatus gst_cuda_blur_process (GstCudaImgprocFilter * filter,
    GstCudaImgprocFrame * frame);

static void
gst_cuda_blur_class_init (GstCudaBlurClass * klass)
{
  GObjectClass *gobject_class = G_OBJECT_CLASS (klass);
  GstElementClass *element_class = GST_ELEMENT_CLASS (klass);
  GstCudaImgprocFilterClass *filter_class =
      GST_CUDA_IMGPROC_FILTER_CLASS (klass);

  gobject_class->set_property = gst_cuda_blur_set_property;
  gobject_class->get_property = gst_cuda_blur_get_property;

  /**
   * GstCudaBlur:sigma:
   *
   * The standard deviation of the Gaussian, in pixels.  The kernel
   * reaches ceil (4 sigma) pixels on each side of the centre; sigma 0.25
   * or less copies the image.
   *
   * Since: 0.1
   */
  g_object_class_install_property (gobject_class, PROP_SIGMA,
      g_param_spec_double ("sigma", "Sigma",
          "Standard deviation of the Gaussian in pixels (0.1-32); the "
          "kernel reaches ceil (4 sigma) pixels on each side",
          CIP_BLUR_SIGMA_MIN, CIP_BLUR_SIGMA_MAX, DEFAULT_SIGMA,
          G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS |
          GST_PARAM_MUTABLE_PLAYING | GST_PARAM_CONTROLLABLE));

  gst_cuda_imgproc_caps_add_pad_templates (element_class, formats, NULL);
  gst_element_class_set_static_metadata (element_class,
      "CUDA Gaussian blur", "Filter/Effect/Video/Hardware",
      "Blurs 8- or 16-bit gray or four-byte RGB video with a Gaussian, "
      "on the GPU", "gst-cuda-imgproc authors");

  filter_class->process = GST_DEBUG_FUNCPTR (gst_cuda_blur_process);
}

static void
gst_cuda_blur_init (GstCudaBlur * self)
{
  self->sigma = DEFAULT_SIGMA;
}

static void
gst_cuda_blur_set_property (GObject * object, guint prop_id,
    const GValue * value, GParamSpec * pspec)
{
  GstCudaBlur *self = GST_CUDA_BLUR (object);

  GST_OBJECT_LOCK (self);
  switch (prop_id) {
    case PROP_SIGMA:
      self->sigma = g_value_get_double (value);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
      break;
  }
  GST_OBJECT_UNLOCK (self);
}

static void
gst_cuda_blur_get_property (GObject * object, guint prop_id, GValue * value,
    GParamSpec * pspec)
{
  GstCudaBlur *self = GST_CUDA_BLUR (object);

  GST_OBJECT_LOCK (self);
  switch (prop_id) {
    case PROP_SIGMA:
      g_value_set_double (value, self->sigma);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
      break;
  }
  GST_OBJECT_UNLOCK (self);
}

static CipStatus
gst_cuda_blur_process (GstCudaImgprocFilter * filter,
    GstCudaImgprocFrame * frame)
{
  GstCudaBlur *self = GST_CUDA_BLUR (filter);
  gdouble sigma;

  GST_OBJECT_LOCK (self);
  sigma = self->sigma;
  GST_OBJECT_UNLOCK (self);

  return frame->ops->blur (frame->src, frame->dst, sigma, frame->stream);
}
