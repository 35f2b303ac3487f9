/* gst-cuda-imgproc
 * Copyright (C) 2026 The gst-cuda-imgproc authors
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2 of the License, or (at your option) any later version.
 */

/**
 * SECTION:element-cudaotsu
 * @title: cudaotsu
 *
 * Binarizes each gray frame at its own Otsu threshold, computed on the GPU
 * without a host round trip: on GRAY8 the threshold equals OpenCV's
 * `THRESH_OTSU`, on GRAY16_LE scikit-image's `threshold_otsu` of the
 * 16-bit frame (a histogram bin per level).  The output is a GRAY8 mask:
 * a pixel above the threshold becomes 255, every other 0 (`invert` swaps
 * them).  The last frame's threshold, in the input's units, is the
 * read-only `threshold` property; with `post-messages=true` every frame's
 * threshold is posted on the bus as an element message named `cudaotsu`:
 *
 * - `threshold` (#guint): the frame's Otsu threshold, 0-255 on GRAY8,
 *   0-65535 on GRAY16_LE
 * - `timestamp` (#GstClockTime): the frame's presentation timestamp
 * - `stream-time` (#GstClockTime): its stream time
 * - `running-time` (#GstClockTime): its running time
 * - `duration` (#GstClockTime): its duration
 *
 * Messages come in frame order.  Reading the threshold back never holds
 * a frame that stays on the GPU: its message is posted once the
 * threshold is on the host, usually while a later frame is processed (at
 * most four frames behind), and every message is posted before the
 * end-of-stream goes downstream.
 *
 * ## Example launch line
 * |[
 * gst-launch-1.0 -m filesrc location=coins.png ! pngdec ! videoconvert ! cudagray ! cudaotsu post-messages=true ! pngenc ! filesink location=coins-otsu.png
 * ]|
 *
 * Since: 0.1
 */

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "gstcudaotsu.h"
#include "gstcudaimgprocframe.h"

GST_DEBUG_CATEGORY_STATIC (gst_cuda_otsu_debug);
#define GST_CAT_DEFAULT gst_cuda_otsu_debug

enum
{
  PROP_0,
  PROP_INVERT,
  PROP_THRESHOLD,
  PROP_POST_MESSAGES,
  PROP_TEMPORAL_SMOOTHING,
};

static GParamSpec *threshold_pspec;

#define DEFAULT_INVERT FALSE
#define DEFAULT_POST_MESSAGES FALSE
#define DEFAULT_TEMPORAL_SMOOTHING 0.0
/* 1 would keep the first frame's histogram for ever. */
#define MAX_TEMPORAL_SMOOTHING 0.999

/* GRAY8 or GRAY16_LE in, a GRAY8 mask out (which may also leave as the
 * gray frame of NV12 or I420). */
static const gchar *const input_formats[] = { "GRAY8", "GRAY16_LE", NULL };
static const gchar *const output_formats[] = { "GRAY8", NULL };

/* What a frame in flight keeps beside its readback area. */
typedef struct
{
  gboolean deep;                /* GRAY16 input: a 16-bit threshold */
} GstCudaOtsuFrameState;

struct _GstCudaOtsu
{
  GstCudaImgprocFilter parent;

  gboolean invert;
  gboolean post_messages;
  gdouble temporal_smoothing;
  guint threshold;
};

G_DEFINE_TYPE_WITH_CODE (GstCudaOtsu, gst_cuda_otsu,
    GST_TYPE_CUDA_IMGPROC_FILTER,
    GST_DEBUG_CATEGORY_INIT (gst_cuda_otsu_debug, "cudaotsu", 0,
        "cudaotsu element"));
GST_ELEMENT_REGISTER_DEFINE (cudaotsu, "cudaotsu", GST_RANK_NONE,
    GST_TYPE_CUDA_OTSU);

static void gst_cuda_otsu_set_property (GObject * object, guint prop_id,
    const GValue * value, GParamSpec * pspec);
static void gst_cuda_otsu_get_property (GObject * object, guint prop_id,
    GValue * value, GParamSpec * pspec);
static CipStatus gst_cuda_otsu_process (GstCudaImgprocFilter * filter,
    GstCudaImgprocFrame * frame);
static CipStatus gst_cuda_otsu_frame_done (GstCudaImgprocFilter * filter,
    GstCudaImgprocFrame * frame, GstBuffer * outbuf);

static void
gst_cuda_otsu_class_init (GstCudaOtsuClass * klass)
{
  GObjectClass *gobject_class = G_OBJECT_CLASS (klass);
  GstElementClass *element_class = GST_ELEMENT_CLASS (klass);
  GstCudaImgprocFilterClass *filter_class =
      GST_CUDA_IMGPROC_FILTER_CLASS (klass);

  gobject_class->set_property = gst_cuda_otsu_set_property;
  gobject_class->get_property = gst_cuda_otsu_get_property;

  /**
   * GstCudaOtsu:invert:
   *
   * Write 255 for the pixels at or below the threshold, and 0 for those
   * above.
   *
   * Since: 0.1
   */
  g_object_class_install_property (gobject_class, PROP_INVERT,
      g_param_spec_boolean ("invert", "Invert",
          "Mark the pixels at or below the threshold as foreground (255) "
          "instead", DEFAULT_INVERT,
          G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS |
          GST_PARAM_MUTABLE_PLAYING | GST_PARAM_CONTROLLABLE));

  /**
   * GstCudaOtsu:threshold:
   *
   * The Otsu threshold of the last frame whose threshold is known (0
   * before the first), in the input's units: 0-255 on GRAY8, 0-65535 on
   * GRAY16_LE.  Where the output stays on the GPU, a frame's
   * threshold is read back without making the frame wait, and becomes
   * known a frame or a few later (at most four), or at the end of the
   * stream; where the output goes to system memory, before the frame is
   * pushed.
   *
   * Since: 0.1
   */
  threshold_pspec = g_param_spec_uint ("threshold", "Threshold",
      "Otsu threshold of the last frame processed, in the input's units "
      "(0-255 on GRAY8, 0-65535 on GRAY16_LE); 0 before the first frame",
      0, G_MAXUINT16, 0, G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);
  g_object_class_install_property (gobject_class, PROP_THRESHOLD,
      threshold_pspec);

  /**
   * GstCudaOtsu:post-messages:
   *
   * Post each frame's threshold as a `cudaotsu` element message.
   *
   * Since: 0.1
   */
  g_object_class_install_property (gobject_class, PROP_POST_MESSAGES,
      g_param_spec_boolean ("post-messages", "Post messages",
          "Post each frame's threshold, with its timestamps, as a "
          "\"cudaotsu\" element message on the bus", DEFAULT_POST_MESSAGES,
          G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS |
          GST_PARAM_MUTABLE_PLAYING));

  /**
   * GstCudaOtsu:temporal-smoothing:
   *
   * How much of the histogram carries over from frame to frame, so that
   * the threshold of live video does not jump: each bin is
   * `s × previous + (1 − s) × this frame's count`, and the threshold is
   * the Otsu threshold of the counts so smoothed.  0 thresholds each
   * frame on its own.  Starts over after a flush, a caps change or a
   * discontinuity.
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

  gst_cuda_imgproc_caps_add_pad_templates (element_class, input_formats,
      output_formats);
  gst_element_class_set_static_metadata (element_class,
      "CUDA Otsu binarization", "Filter/Effect/Video/Hardware",
      "Binarizes each gray frame at its Otsu threshold, on the GPU",
      "gst-cuda-imgproc authors");

  filter_class->process = GST_DEBUG_FUNCPTR (gst_cuda_otsu_process);
  filter_class->attaches_intensity = TRUE;
  filter_class->frame_done = GST_DEBUG_FUNCPTR (gst_cuda_otsu_frame_done);
  filter_class->input_formats = input_formats;
  filter_class->output_formats = output_formats;
  /* The frame's threshold: a byte, or a 16-bit word (8 keeps every
   * frame's area aligned). */
  filter_class->readback_size = 8;
  filter_class->frame_state_size = sizeof (GstCudaOtsuFrameState);
  /* the smoothed histogram, of GRAY16 at most */
  filter_class->history_size = CIP_HIST16_BINS * sizeof (gdouble);
}

static void
gst_cuda_otsu_init (GstCudaOtsu * self)
{
  self->invert = DEFAULT_INVERT;
  self->post_messages = DEFAULT_POST_MESSAGES;
  self->temporal_smoothing = DEFAULT_TEMPORAL_SMOOTHING;
}

static void
gst_cuda_otsu_set_property (GObject * object, guint prop_id,
    const GValue * value, GParamSpec * pspec)
{
  GstCudaOtsu *self = GST_CUDA_OTSU (object);

  GST_OBJECT_LOCK (self);
  switch (prop_id) {
    case PROP_INVERT:
      self->invert = g_value_get_boolean (value);
      break;
    case PROP_POST_MESSAGES:
      self->post_messages = g_value_get_boolean (value);
      break;
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
gst_cuda_otsu_get_property (GObject * object, guint prop_id, GValue * value,
    GParamSpec * pspec)
{
  GstCudaOtsu *self = GST_CUDA_OTSU (object);

  GST_OBJECT_LOCK (self);
  switch (prop_id) {
    case PROP_INVERT:
      g_value_set_boolean (value, self->invert);
      break;
    case PROP_THRESHOLD:
      g_value_set_uint (value, self->threshold);
      break;
    case PROP_POST_MESSAGES:
      g_value_set_boolean (value, self->post_messages);
      break;
    case PROP_TEMPORAL_SMOOTHING:
      g_value_set_double (value, self->temporal_smoothing);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
      break;
  }
  GST_OBJECT_UNLOCK (self);
}

static CipStatus
gst_cuda_otsu_process (GstCudaImgprocFilter * filter,
    GstCudaImgprocFrame * frame)
{
  GstCudaOtsu *self = GST_CUDA_OTSU (filter);
  GstCudaOtsuFrameState *state = frame->state;
  CipSmoothing smoothing = { frame->history, 0, frame->restart };
  gboolean invert;

  GST_OBJECT_LOCK (self);
  invert = self->invert;
  smoothing.factor = self->temporal_smoothing;
  GST_OBJECT_UNLOCK (self);

  /* every frame updates the history, so that smoothing switched on while
   * playing starts from the frames just before */
  state->deep = frame->src->format == CIP_FORMAT_GRAY16;
  if (state->deep)
    return frame->ops->otsu16_smoothed (frame->src, frame->dst, invert,
        (guint16 *) frame->readback, &smoothing, frame->stream);
  return frame->ops->otsu_smoothed (frame->src, frame->dst, invert,
      frame->readback, &smoothing, frame->stream);
}

/* The threshold, once the frame's work has run: where the output stays
 * on the GPU the frame has left by then, and the threshold comes a frame
 * or a few later. */
static CipStatus
gst_cuda_otsu_frame_done (GstCudaImgprocFilter * filter,
    GstCudaImgprocFrame * frame, GstBuffer * outbuf)
{
  GstCudaOtsu *self = GST_CUDA_OTSU (filter);
  const GstCudaOtsuFrameState *state = frame->state;
  guint threshold = state->deep ? *(const guint16 *) frame->readback :
      frame->readback[0];
  GstStructure *s;
  gboolean post;

  GST_OBJECT_LOCK (self);
  self->threshold = threshold;
  post = self->post_messages;
  GST_OBJECT_UNLOCK (self);

  GST_LOG_OBJECT (self, "threshold %u at %" GST_TIME_FORMAT, threshold,
      GST_TIME_ARGS (frame->pts));
  /* by its spec: no lookup by name for every frame */
  g_object_notify_by_pspec (G_OBJECT (self), threshold_pspec);

  if (!post)
    return CIP_OK;

  s = gst_cuda_imgproc_frame_message_new_at ("cudaotsu", &frame->segment,
      frame->pts, frame->duration);
  gst_structure_set (s, "threshold", G_TYPE_UINT, threshold, NULL);
  gst_element_post_message (GST_ELEMENT (self),
      gst_message_new_element (GST_OBJECT (self), s));
  return CIP_OK;
}
