/* gst-cuda-imgproc
 * Copyright (C) 2026 The gst-cuda-imgproc authors
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2 of the License, or (at your option) any later version.
 */

/* cudaequalize against OpenCV's equalizeHist: GRAY8, and the luma plane of
 * NV12 and I420 with the chroma planes passed untouched. */

#include <string.h>

#include <math.h>
#include <string.h>

#include "test-element.h"

static const gchar *images[] = {
  "coins", "camera", "moon", "phantom", "chelsea-gray-bt601",
};

static const GstVideoFormat yuv_formats[] = {
  GST_VIDEO_FORMAT_NV12, GST_VIDEO_FORMAT_NV21, GST_VIDEO_FORMAT_NV16,
  GST_VIDEO_FORMAT_NV61, GST_VIDEO_FORMAT_NV24, GST_VIDEO_FORMAT_I420,
  GST_VIDEO_FORMAT_YV12, GST_VIDEO_FORMAT_Y42B, GST_VIDEO_FORMAT_Y444,
};

static CipImage
load (const gchar * name, const gchar * suffix)
{
  gchar *file = g_strdup_printf ("%s%s.pgm", name, suffix);
  CipImage image = cip_test_image_load (file);

  g_free (file);
  return image;
}

/* GRAY8 frames come out as OpenCV's equalizeHist made them. */
GST_START_TEST (test_gray8_matches_opencv)
{
  const gchar *name = images[__i__];
  GstHarness *h = cip_test_harness_new ("cudaequalize", NULL);
  CipImage src = load (name, "");
  CipImage expected = load (name, "-equalize");
  GstBuffer *out;
  GstCaps *caps;

  GST_INFO ("%s", name);
  gst_harness_set_src_caps (h, cip_test_caps_new (GST_VIDEO_FORMAT_GRAY8,
          src.width, src.height));
  out = cip_test_push_pull (h, cip_test_buffer_new (&src));
  caps = cip_test_harness_output_caps (h);
  fail_unless_equals_string (gst_structure_get_string
      (gst_caps_get_structure (caps, 0), "format"), "GRAY8");
  cip_test_assert_buffer_image (out, caps, &expected);

  gst_caps_unref (caps);
  gst_buffer_unref (out);
  cip_test_image_free (&expected);
  cip_test_image_free (&src);
  gst_harness_teardown (h);
}

GST_END_TEST;

/* 8-bit YUV in planes: the luma plane is equalized as OpenCV does, the
 * chroma planes (a pattern) come out byte for byte as they went in. */
GST_START_TEST (test_yuv_luma_matches_opencv_chroma_untouched)
{
  const gchar *name = images[__i__ / G_N_ELEMENTS (yuv_formats)];
  GstVideoFormat format = yuv_formats[__i__ % G_N_ELEMENTS (yuv_formats)];
  GstHarness *h = cip_test_harness_new ("cudaequalize", NULL);
  CipImage luma = load (name, "");
  CipImage expected = load (name, "-equalize");
  GstBuffer *in, *out;
  GstCaps *caps;
  GstVideoInfo info;
  guint plane;

  GST_INFO ("%s %s", name, gst_video_format_to_string (format));
  gst_harness_set_src_caps (h, cip_test_caps_new (format, luma.width,
          luma.height));
  in = cip_test_buffer_new_yuv420 (&luma, format, (guint8) __i__);
  out = cip_test_push_pull (h, gst_buffer_ref (in));
  caps = cip_test_harness_output_caps (h);
  fail_unless (gst_video_info_from_caps (&info, caps));
  fail_unless_equals_int (GST_VIDEO_INFO_FORMAT (&info), format);
  fail_unless_equals_int (gst_buffer_get_size (out),
      GST_VIDEO_INFO_SIZE (&info));
  cip_test_assert_buffer_image (out, caps, &expected);
  fail_unless_equals_int (GST_VIDEO_INFO_N_PLANES (&info),
      g_str_has_prefix (gst_video_format_to_string (format), "NV") ? 2 : 3);
  for (plane = 1; plane < GST_VIDEO_INFO_N_PLANES (&info); plane++)
    cip_test_assert_buffer_plane_equal (in, out, caps, plane);

  gst_caps_unref (caps);
  gst_buffer_unref (out);
  gst_buffer_unref (in);
  cip_test_image_free (&expected);
  cip_test_image_free (&luma);
  gst_harness_teardown (h);
}

GST_END_TEST;

/* A constant frame is left as it is (as equalizeHist does). */
GST_START_TEST (test_constant_frame_unchanged)
{
  static const guint8 values[] = { 0, 77, 255 };
  GstHarness *h = cip_test_harness_new ("cudaequalize", NULL);
  CipImage src = cip_test_image_new (64, 48, CIP_FORMAT_GRAY8, 0);
  guint i;

  gst_harness_set_src_caps (h, cip_test_caps_new (GST_VIDEO_FORMAT_GRAY8,
          64, 48));
  for (i = 0; i < G_N_ELEMENTS (values); i++) {
    GstBuffer *out;
    GstCaps *caps;

    memset (src.data, values[i], src.stride * src.height);
    out = cip_test_push_pull (h, cip_test_buffer_new (&src));
    caps = cip_test_harness_output_caps (h);
    cip_test_assert_buffer_image (out, caps, &src);
    gst_caps_unref (caps);
    gst_buffer_unref (out);
  }

  cip_test_image_free (&src);
  gst_harness_teardown (h);
}

GST_END_TEST;

/* Each frame is equalized with its own histogram: frames of different
 * images in a row each match OpenCV. */
GST_START_TEST (test_each_frame_its_own_histogram)
{
  static const gchar *same_size[] = { "camera", "moon", "camera" };
  GstHarness *h = cip_test_harness_new ("cudaequalize", NULL);
  guint i;

  gst_harness_set_src_caps (h, cip_test_caps_new (GST_VIDEO_FORMAT_GRAY8,
          512, 512));
  for (i = 0; i < G_N_ELEMENTS (same_size); i++) {
    CipImage src = load (same_size[i], "");
    CipImage expected = load (same_size[i], "-equalize");
    GstBuffer *out;
    GstCaps *caps;

    out = cip_test_push_pull (h, cip_test_buffer_new (&src));
    caps = cip_test_harness_output_caps (h);
    cip_test_assert_buffer_image (out, caps, &expected);
    gst_caps_unref (caps);
    gst_buffer_unref (out);
    cip_test_image_free (&expected);
    cip_test_image_free (&src);
  }

  gst_harness_teardown (h);
}

GST_END_TEST;

/* temporal-smoothing, as docs/elements.md defines it, written out on its
 * own: each bin's history s × previous + (1 − s) × count (the count
 * itself on a restart), rounded half to even, and OpenCV's equalizeHist
 * table of those counts; then @frame through the table into @out. */
static void
equalize_smoothed (const CipImage * frame, gdouble * history, gdouble s,
    gboolean restart, CipImage * out)
{
  guint32 hist[256] = { 0 }, counts[256], total = 0, sum = 0;
  guint8 lut[256] = { 0 };
  guint first = 0, i;
  gint x, y;

  for (y = 0; y < frame->height; y++)
    for (x = 0; x < frame->width; x++)
      hist[((const guint8 *) frame->data)[y * frame->stride + x]]++;
  for (i = 0; i < 256; i++) {
    /* volatile: each product rounded, as the definition has it (no FMA) */
    volatile gdouble kept = s * history[i];
    volatile gdouble added = (1.0 - s) * hist[i];

    history[i] = restart ? (gdouble) hist[i] : kept + added;
    counts[i] = (guint32) nearbyint (history[i]);
    total += counts[i];
  }
  while (first < 255 && counts[first] == 0)
    first++;
  if (counts[first] == total) {
    lut[first] = first;
  } else {
    float scale = 255.f / (float) (total - counts[first]);

    for (i = first + 1; i < 256; i++) {
      sum += counts[i];
      lut[i] = (guint8) CLAMP ((gint) nearbyintf ((float) sum * scale), 0, 255);
    }
  }
  for (y = 0; y < frame->height; y++)
    for (x = 0; x < frame->width; x++)
      ((guint8 *) out->data)[y * out->stride + x] =
          lut[((const guint8 *) frame->data)[y * frame->stride + x]];
}

/* temporal-smoothing: frames of two images in turn, each equalized with
 * the histogram smoothed over the frames before it, as defined; a
 * DISCONT frame starts over (its own histogram: OpenCV's equalizeHist). */
GST_START_TEST (test_temporal_smoothing)
{
  static const gchar *turns[] = { "camera", "moon", "moon", "camera",
    "moon", "camera"
  };
  GstHarness *h = cip_test_harness_new ("cudaequalize",
      "temporal-smoothing=0.75");
  gdouble history[256] = { 0 };
  guint i, differs = 0;

  gst_harness_set_src_caps (h, cip_test_caps_new (GST_VIDEO_FORMAT_GRAY8,
          512, 512));
  for (i = 0; i <= G_N_ELEMENTS (turns); i++) {
    gboolean discont = i == G_N_ELEMENTS (turns);
    CipImage src = load (discont ? "moon" : turns[i], "");
    CipImage expected = cip_test_image_new (512, 512, CIP_FORMAT_GRAY8, 0);
    CipImage alone = load (discont ? "moon" : turns[i], "-equalize");
    GstBuffer *in = cip_test_buffer_new (&src), *out;
    GstCaps *caps;

    if (discont)
      GST_BUFFER_FLAG_SET (in, GST_BUFFER_FLAG_DISCONT);
    equalize_smoothed (&src, history, 0.75, i == 0 || discont, &expected);
    out = cip_test_push_pull (h, in);
    caps = cip_test_harness_output_caps (h);
    cip_test_assert_buffer_image (out, caps, &expected);
    /* the smoothing changes what a frame alone would give, except where
     * it starts over */
    if (memcmp (expected.data, alone.data, expected.stride * 512) != 0)
      differs++;
    else
      fail_unless (i == 0 || discont, "frame %u: smoothing changed nothing", i);
    gst_caps_unref (caps);
    gst_buffer_unref (out);
    cip_test_image_free (&alone);
    cip_test_image_free (&expected);
    cip_test_image_free (&src);
  }
  fail_unless (differs >= G_N_ELEMENTS (turns) - 2);
  gst_harness_teardown (h);
}

GST_END_TEST;

static Suite *
cudaequalize_suite (void)
{
  Suite *s = suite_create ("cudaequalize");
  TCase *tc = tcase_create ("general");

  suite_add_tcase (s, tc);
  tcase_set_timeout (tc, CIP_TEST_TIMEOUT);
  tcase_add_loop_test (tc, test_gray8_matches_opencv, 0, G_N_ELEMENTS (images));
  tcase_add_loop_test (tc, test_yuv_luma_matches_opencv_chroma_untouched, 0,
      G_N_ELEMENTS (images) * G_N_ELEMENTS (yuv_formats));
  tcase_add_test (tc, test_constant_frame_unchanged);
  tcase_add_test (tc, test_each_frame_its_own_histogram);
  tcase_add_test (tc, test_temporal_smoothing);

  return s;
}

CIP_TEST_ELEMENT_MAIN (cudaequalize)
