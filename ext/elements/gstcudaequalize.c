/* gst-cuda-imgproc
 * Copyright (C) 2026 The gst-cuda-imgproc authors
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2 of the License, or (at your option) any later version.
 */

/**
 * SECTION:element-cudaequalize
 * @title: cudaequalize
 *
 * Global histogram equalization on the GPU, equal to OpenCV's
 * `equalizeHist` bit for bit.  The histogram, its cumulative sum and the
 * lookup table are all computed on the GPU: nothing returns to the host
 * within a frame.  Of 8-bit YUV in planes (NV12, NV21, NV16, NV61, NV24,
 * I420, YV12, Y42B, Y444) the luma plane is equalized and the chroma
 * planes pass untouched; of packed YUV (YUY2, YVYU, UYVY) the Y bytes are
 * equalized and the U and V bytes pass untouched.  GRAY16_LE is equalized
 * on its 65,536 levels by the same formula (see the design notes).
 *
 * ## Example launch line
 * |[
 * gst-launch-1.0 filesrc location=moon.png ! pngdec ! videoconvert ! cudagray ! cudaequalize ! videoconvert ! autovideosink
 * ]|
 *
 * Since: 0.1
 */

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "gstcudaequalize.h"

GST_DEBUG_CATEGORY_STATIC (gst_cuda_equalize_debug);
#define GST_CAT_DEFAULT gst_cuda_equalize_debug

/* The formats of both pads: the output has the input's; of YUV the
 * luma is equalized and the chroma passes untouched. */
static const gchar *const formats[] = {
  "GRAY8", "NV12", "NV21", "NV16", "NV61", "NV24", "I420", "YV12", "Y42B",
  "Y444", "YUY2", "YVYU", "UYVY", "GRAY16_LE", NULL
};

enum
{
  PROP_0,
  PROP_TEMPORAL_SMOOTHING,
};

#define DEFAULT_TEMPORAL_SMOOTHING 0.0
/* 1 would keep the first frame's histogram for ever. */
#define MAX_TEMPORAL_SMOOTHING 0.999

struct _GstCudaEqualize
{
  GstCudaImgprocFilter parent;

  gdouble temporal_smoothing;
};

G_DEFINE_TYPE_WITH_CODE (GstCudaEqualize, gst_cuda_equalize,
    GST_TYPE_CUDA_IMGPROC_FILTER,
    GST_DEBUG_CATEGORY_INIT (gst_cuda_equalize_debug, "cudaequalize", 0,
        "cudaequalize element"));
GST_ELEMENT_REGISTER_DEFINE (cudaequalize, "cudaequalize", GST_RANK_NONE,
    GST_TYPE_CUDA_EQUALIZE);

static void gst_cuda_equalize_set_property (GObject * object, guint prop_id,
    const GValue * value, GParamSpec * pspec);
static void gst_cuda_equalize_get_property (GObject * object, guint prop_id,
    GValue * value, GParamSpec * pspec);
static CipStatus gst_cuda_equalize_process (GstCudaImgprocFilter * filter,
    GstCudaImgprocFrame * frame);

static void
gst_cuda_equalize_class_init (GstCudaEqualizeClass * klass)
{
  GObjectClass *gobject_class = G_OBJECT_CLASS (klass);
  GstElementClass *element_class = GST_ELEMENT_CLASS (klass);
  GstCudaImgprocFilterClass *filter_class =
      GST_CUDA_IMGPROC_FILTER_CLASS (klass);

  gobject_class->set_property = gst_cuda_equalize_set_property;
  gobject_class->get_property = gst_cuda_equalize_get_property;

  /**
   * GstCudaEqualize:temporal-smoothing:
   *
   * How much of the histogram carries over from frame to frame, so that
   * live video does not flicker: each bin is
   * `s × previous + (1 − s) × this frame's count`, and the table is made
   * from the counts so smoothed.  0 equalizes each frame on its own.
   * Starts over after a flush, a caps change or a discontinuity.
   *
   * Since: 0.2
   */
  g_object_class_install_property (gobject_class, PROP_TEMPORAL_SMOOTHING,
      g_param_spec_double ("temporal-smoothing", "Temporal smoothing",
          "Share of the previous frames' histogram in each frame's "
          "(0: each frame on its own)", 0.0, MAX_TEMPORAL_SMOOTHING,
          DEFAULT_TEMPORAL_SMOOTHING, G_PARAM_READWRITE |
          G_PARAM_STATIC_STRINGS | GST_PARAM_MUTABLE_PLAYING |
          GST_PARAM_CONTROLLABLE));

  gst_cuda_imgproc_caps_add_pad_templates (element_class, formats, NULL);
  gst_element_class_set_static_metadata (element_class,
      "CUDA histogram equalization", "Filter/Effect/Video/Hardware",
      "Equalizes the histogram of gray video or of the luma of YUV, "
      "on the GPU", "gst-cuda-imgproc authors");

  filter_class->process = GST_DEBUG_FUNCPTR (gst_cuda_equalize_process);
  filter_class->passes_chroma = TRUE;
  /* a double a level: 65,536 of them for GRAY16_LE */
  filter_class->history_size = CIP_HIST16_BINS * sizeof (gdouble);
}

static void
gst_cuda_equalize_init (GstCudaEqualize * self)
{
  self->temporal_smoothing = DEFAULT_TEMPORAL_SMOOTHING;
}

static void
gst_cuda_equalize_set_property (GObject * object, guint prop_id,
    const GValue * value, GParamSpec * pspec)
{
  GstCudaEqualize *self = GST_CUDA_EQUALIZE (object);

  GST_OBJECT_LOCK (self);
  switch (prop_id) {
    case PROP_TEMPORAL_SMOOTHING:
      self->temporal_smoothing = g_value_get_double (value);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
      break;
  }
  GST_OBJECT_UNLOCK (self);
}

static void
gst_cuda_equalize_get_property (GObject * object, guint prop_id,
    GValue * value, GParamSpec * pspec)
{
  GstCudaEqualize *self = GST_CUDA_EQUALIZE (object);

  GST_OBJECT_LOCK (self);
  switch (prop_id) {
    case PROP_TEMPORAL_SMOOTHING:
      g_value_set_double (value, self->temporal_smoothing);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
      break;
  }
  GST_OBJECT_UNLOCK (self);
}

/* Every frame updates the history, so that smoothing switched on while
 * playing starts from the frames just before. */
static CipStatus
gst_cuda_equalize_process (GstCudaImgprocFilter * filter,
    GstCudaImgprocFrame * frame)
{
  GstCudaEqualize *self = GST_CUDA_EQUALIZE (filter);
  CipSmoothing smoothing = { frame->history, 0, frame->restart };

  GST_OBJECT_LOCK (self);
  smoothing.factor = self->temporal_smoothing;
  GST_OBJECT_UNLOCK (self);

  return frame->ops->equalize_smoothed (frame->src, frame->dst, &smoothing,
      frame->stream);
}
