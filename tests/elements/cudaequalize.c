/* gst-cuda-imgproc
 * Copyright (C) 2026 The gst-cuda-imgproc authors
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2 of the License, or (at your option) any later version.
 */

/* cudaequalize against OpenCV's equalizeHist: GRAY8, the luma plane of
 * NV12 and I420 with the chroma planes passed untouched, the Y bytes of
 * packed YUV (YUY2, YVYU, UYVY) with U and V untouched; GRAY16_LE against
 * its definition (docs/design.md), written out here on its own. */

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

static const GstVideoFormat packed_formats[] = {
  GST_VIDEO_FORMAT_YUY2, GST_VIDEO_FORMAT_YVYU, GST_VIDEO_FORMAT_UYVY,
};

static const gchar *images16[] = {
  "otsu16-camera", "otsu16-coins-12bit", "otsu16-bimodal", "blur16-camera",
  "blur16-noise", "otsu16-two-levels", "otsu16-flat",
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

/* A packed 4:2:2 buffer of @format in GStreamer's default layout, its Y
 * bytes @luma's, every other byte (U, V, an odd width's spare Y) a
 * pattern of @seed. */
static GstBuffer *
packed_buffer_new (const CipImage * luma, GstVideoFormat format, guint seed)
{
  GstVideoInfo info;
  GstVideoFrame frame;
  GstBuffer *buffer;
  gint x, y, offset = format == GST_VIDEO_FORMAT_UYVY ? 1 : 0;

  fail_unless (gst_video_info_set_format (&info, format, luma->width,
          luma->height));
  buffer = gst_buffer_new_allocate (NULL, GST_VIDEO_INFO_SIZE (&info), NULL);
  fail_unless (gst_video_frame_map (&frame, &info, buffer, GST_MAP_WRITE));
  for (y = 0; y < luma->height; y++) {
    guint8 *row = (guint8 *) GST_VIDEO_FRAME_PLANE_DATA (&frame, 0) +
        y * GST_VIDEO_FRAME_PLANE_STRIDE (&frame, 0);

    for (x = 0; x < 4 * ((luma->width + 1) / 2); x++)
      row[x] = (guint8) (seed + 7 * x + 13 * y);
    for (x = 0; x < luma->width; x++)
      row[2 * x + offset] = ((const guint8 *) luma->data)[y * luma->stride + x];
  }
  gst_video_frame_unmap (&frame);
  return buffer;
}

/* Fails unless @out (packed, @format) has @luma's pixels as its Y bytes
 * and every other byte of its rows as @in has them. */
static void
assert_packed (GstBuffer * in, GstBuffer * out, GstVideoFormat format,
    const CipImage * luma)
{
  GstVideoInfo info;
  GstVideoFrame fi, fo;
  gint x, y, offset = format == GST_VIDEO_FORMAT_UYVY ? 1 : 0;

  fail_unless (gst_video_info_set_format (&info, format, luma->width,
          luma->height));
  fail_unless (gst_video_frame_map (&fi, &info, in, GST_MAP_READ));
  fail_unless (gst_video_frame_map (&fo, &info, out, GST_MAP_READ));
  for (y = 0; y < luma->height; y++) {
    const guint8 *a = (const guint8 *) GST_VIDEO_FRAME_PLANE_DATA (&fi, 0) +
        y * GST_VIDEO_FRAME_PLANE_STRIDE (&fi, 0);
    const guint8 *b = (const guint8 *) GST_VIDEO_FRAME_PLANE_DATA (&fo, 0) +
        y * GST_VIDEO_FRAME_PLANE_STRIDE (&fo, 0);

    for (x = 0; x < 4 * ((luma->width + 1) / 2); x++) {
      gboolean is_y = (x & 1) == offset && x / 2 < luma->width;
      guint8 want = is_y ?
          ((const guint8 *) luma->data)[y * luma->stride + x / 2] : a[x];

      fail_unless (b[x] == want, "%s %dx%d: byte %d of row %d is %u, not %u",
          gst_video_format_to_string (format), luma->width, luma->height,
          x, y, b[x], want);
    }
  }
  gst_video_frame_unmap (&fo);
  gst_video_frame_unmap (&fi);
}

/* Packed YUV: the Y bytes are equalized as OpenCV's equalizeHist does the
 * same luma, U and V come out byte for byte as they went in. */
GST_START_TEST (test_packed_luma_matches_opencv_chroma_untouched)
{
  const gchar *name = images[__i__ / G_N_ELEMENTS (packed_formats)];
  GstVideoFormat format = packed_formats[__i__ % G_N_ELEMENTS (packed_formats)];
  GstHarness *h = cip_test_harness_new ("cudaequalize", NULL);
  CipImage luma = load (name, "");
  CipImage expected = load (name, "-equalize");
  GstBuffer *in, *out;
  GstCaps *caps;
  GstVideoInfo info;

  GST_INFO ("%s %s", name, gst_video_format_to_string (format));
  gst_harness_set_src_caps (h, cip_test_caps_new (format, luma.width,
          luma.height));
  in = packed_buffer_new (&luma, format, __i__);
  out = cip_test_push_pull (h, gst_buffer_ref (in));
  caps = cip_test_harness_output_caps (h);
  fail_unless (gst_video_info_from_caps (&info, caps));
  fail_unless_equals_int (GST_VIDEO_INFO_FORMAT (&info), format);
  assert_packed (in, out, format, &expected);

  gst_caps_unref (caps);
  gst_buffer_unref (out);
  gst_buffer_unref (in);
  cip_test_image_free (&expected);
  cip_test_image_free (&luma);
  gst_harness_teardown (h);
}

GST_END_TEST;

/* Odd and small widths of packed YUV, as GStreamer lays them out (the
 * last pixel a macropixel of its own): the Y bytes are what the GRAY8
 * path makes of the same luma, every other byte passes untouched. */
GST_START_TEST (test_packed_odd_widths_match_gray8)
{
  static const gint sizes[][2] = { {1, 1}, {3, 2}, {7, 5}, {33, 17},
  {127, 9}, {641, 31}
  };
  GstVideoFormat format = packed_formats[__i__ % G_N_ELEMENTS (packed_formats)];
  gint w = sizes[__i__ / G_N_ELEMENTS (packed_formats)][0];
  gint hgt = sizes[__i__ / G_N_ELEMENTS (packed_formats)][1];
  GstHarness *gray = cip_test_harness_new ("cudaequalize", NULL);
  GstHarness *h = cip_test_harness_new ("cudaequalize", NULL);
  CipImage luma = cip_test_image_random (w, hgt, CIP_FORMAT_GRAY8, 900 + __i__);
  CipImage expected;
  GstBuffer *in, *out, *gray_out;
  GstCaps *gray_caps;
  GstVideoFrame frame;

  /* a narrow range, so that equalizing moves every level */
  for (gint i = 0; i < w * hgt; i++)
    ((guint8 *) luma.data)[i] = 40 + ((guint8 *) luma.data)[i] % 50;
  gst_harness_set_src_caps (gray, cip_test_caps_new (GST_VIDEO_FORMAT_GRAY8,
          w, hgt));
  gray_out = cip_test_push_pull (gray, cip_test_buffer_new (&luma));
  gray_caps = cip_test_harness_output_caps (gray);
  cip_test_frame_map (&frame, gray_out, gray_caps, &expected);

  gst_harness_set_src_caps (h, cip_test_caps_new (format, w, hgt));
  in = packed_buffer_new (&luma, format, __i__);
  out = cip_test_push_pull (h, gst_buffer_ref (in));
  assert_packed (in, out, format, &expected);

  gst_video_frame_unmap (&frame);
  gst_caps_unref (gray_caps);
  gst_buffer_unref (gray_out);
  gst_buffer_unref (out);
  gst_buffer_unref (in);
  cip_test_image_free (&luma);
  gst_harness_teardown (h);
  gst_harness_teardown (gray);
}

GST_END_TEST;

/* The GRAY16 definition (docs/design.md), written out on its own: counts
 * (smoothed as the 8-bit ones when @history is set), the first occupied
 * level f to 0, a later level to its running sum s past f times 65535 /
 * (N - count of f), rounded half to even.  In long double: s x 65535 is
 * exact, the quotient correctly rounded to 64 bits (or more), nowhere
 * near enough to a half to round the other way unless it is one, which
 * it then is exactly. */
static void
equalize16_expected (const CipImage * frame, gdouble * history, gdouble s,
    gboolean restart, CipImage * out)
{
  guint32 *counts = g_new0 (guint32, 65536);
  guint16 *lut = g_new0 (guint16, 65536);
  guint64 total = 0, sum = 0;
  guint first = 0, i;
  gint x, y;

  for (y = 0; y < frame->height; y++)
    for (x = 0; x < frame->width; x++)
      counts[GST_READ_UINT16_LE ((const guint8 *) frame->data +
              y * frame->stride + 2 * x)]++;
  for (i = 0; history && i < 65536; i++) {
    volatile gdouble kept = s * history[i];
    volatile gdouble added = (1.0 - s) * counts[i];

    history[i] = restart ? (gdouble) counts[i] : kept + added;
    counts[i] = (guint32) nearbyint (history[i]);
  }
  for (i = 0; i < 65536; i++)
    total += counts[i];
  while (first < 65535 && counts[first] == 0)
    first++;
  if (counts[first] == total) {
    lut[first] = first;
  } else {
    for (i = first + 1; i < 65536; i++) {
      sum += counts[i];
      lut[i] = (guint16) nearbyintl ((long double) sum * 65535.0L /
          (long double) (total - counts[first]));
    }
  }
  for (y = 0; y < frame->height; y++)
    for (x = 0; x < frame->width; x++)
      GST_WRITE_UINT16_LE ((guint8 *) out->data + y * out->stride + 2 * x,
          lut[GST_READ_UINT16_LE ((const guint8 *) frame->data +
                  y * frame->stride + 2 * x)]);
  g_free (lut);
  g_free (counts);
}

/* GRAY16_LE in, GRAY16_LE out, equalized on 65,536 levels as defined. */
GST_START_TEST (test_gray16_matches_definition)
{
  const gchar *name = images16[__i__];
  GstHarness *h = cip_test_harness_new ("cudaequalize", NULL);
  CipImage src = load (name, "");
  CipImage expected = cip_test_image_new (src.width, src.height,
      CIP_FORMAT_GRAY16, 0);
  GstBuffer *out;
  GstCaps *caps;

  GST_INFO ("%s", name);
  fail_unless_equals_int (src.format, CIP_FORMAT_GRAY16);
  equalize16_expected (&src, NULL, 0, TRUE, &expected);
  gst_harness_set_src_caps (h, cip_test_caps_new (GST_VIDEO_FORMAT_GRAY16_LE,
          src.width, src.height));
  out = cip_test_push_pull (h, cip_test_buffer_new (&src));
  caps = cip_test_harness_output_caps (h);
  fail_unless_equals_string (gst_structure_get_string
      (gst_caps_get_structure (caps, 0), "format"), "GRAY16_LE");
  cip_test_assert_buffer_image (out, caps, &expected);

  gst_caps_unref (caps);
  gst_buffer_unref (out);
  cip_test_image_free (&expected);
  cip_test_image_free (&src);
  gst_harness_teardown (h);
}

GST_END_TEST;

/* Where single or double precision would round the wrong way: 640x480
 * with 1,024 pixels at level 0 and 9,734 at 1 (exactly 2083.49998... ->
 * 2083, single precision 2084), and 1920x1080 with 64 at 0 and 1,036,768
 * at 1 (exactly 32767.5 -> 32768, double precision 32767); the rest at
 * 2, which maps to 65535. */
GST_START_TEST (test_gray16_exact_rounding)
{
  static const struct
  {
    gint w, h, zeros, ones;
    guint16 want;
  } cases[] = { {640, 480, 1024, 9734, 2083},
  {1920, 1080, 64, 1036768, 32768}
  };
  guint c;

  for (c = 0; c < G_N_ELEMENTS (cases); c++) {
    GstHarness *h = cip_test_harness_new ("cudaequalize", NULL);
    CipImage src = cip_test_image_new (cases[c].w, cases[c].h,
        CIP_FORMAT_GRAY16, 0);
    GstBuffer *out;
    GstCaps *caps;
    GstVideoFrame frame;
    CipImage actual;
    gint i, n = cases[c].w * cases[c].h;

    for (i = 0; i < n; i++)
      GST_WRITE_UINT16_LE ((guint8 *) src.data + 2 * i,
          i < cases[c].zeros ? 0 : i < cases[c].zeros + cases[c].ones ? 1 : 2);
    gst_harness_set_src_caps (h,
        cip_test_caps_new (GST_VIDEO_FORMAT_GRAY16_LE, cases[c].w, cases[c].h));
    out = cip_test_push_pull (h, cip_test_buffer_new (&src));
    caps = cip_test_harness_output_caps (h);
    cip_test_frame_map (&frame, out, caps, &actual);
    fail_unless_equals_int (GST_READ_UINT16_LE ((guint8 *) actual.data), 0);
    fail_unless_equals_int (GST_READ_UINT16_LE ((guint8 *) actual.data +
            2 * cases[c].zeros), cases[c].want);
    fail_unless_equals_int (GST_READ_UINT16_LE ((guint8 *) actual.data +
            (cases[c].h - 1) * actual.stride + 2 * (cases[c].w - 1)), 65535);
    gst_video_frame_unmap (&frame);
    gst_caps_unref (caps);
    gst_buffer_unref (out);
    cip_test_image_free (&src);
    gst_harness_teardown (h);
  }
}

GST_END_TEST;

/* temporal-smoothing on GRAY16_LE: frames whose levels move, each
 * equalized with the 16-bit histogram smoothed over the frames before it,
 * as defined; a DISCONT frame starts over. */
GST_START_TEST (test_gray16_temporal_smoothing)
{
  GstHarness *h = cip_test_harness_new ("cudaequalize",
      "temporal-smoothing=0.75");
  CipImage base = load ("otsu16-camera", "");
  gdouble *history = g_new0 (gdouble, 65536);
  guint i, differs = 0;

  gst_harness_set_src_caps (h, cip_test_caps_new (GST_VIDEO_FORMAT_GRAY16_LE,
          base.width, base.height));
  for (i = 0; i < 6; i++) {
    gboolean discont = i == 5;
    CipImage src = cip_test_image_copy (&base, 0);
    CipImage expected = cip_test_image_new (base.width, base.height,
        CIP_FORMAT_GRAY16, 0);
    CipImage alone = cip_test_image_new (base.width, base.height,
        CIP_FORMAT_GRAY16, 0);
    GstBuffer *in, *out;
    GstCaps *caps;
    gint x, y;

    /* the levels scaled down and shifted, differently each frame */
    for (y = 0; y < src.height; y++)
      for (x = 0; x < src.width; x++) {
        guint8 *p = (guint8 *) src.data + y * src.stride + 2 * x;

        GST_WRITE_UINT16_LE (p, GST_READ_UINT16_LE (p) / (i + 2) + 997 * i);
      }
    in = cip_test_buffer_new (&src);
    if (discont)
      GST_BUFFER_FLAG_SET (in, GST_BUFFER_FLAG_DISCONT);
    equalize16_expected (&src, history, 0.75, i == 0 || discont, &expected);
    equalize16_expected (&src, NULL, 0, TRUE, &alone);
    out = cip_test_push_pull (h, in);
    caps = cip_test_harness_output_caps (h);
    cip_test_assert_buffer_image (out, caps, &expected);
    if (memcmp (expected.data, alone.data, expected.stride * expected.height))
      differs++;
    else
      fail_unless (i == 0 || discont, "frame %u: smoothing changed nothing", i);
    gst_caps_unref (caps);
    gst_buffer_unref (out);
    cip_test_image_free (&alone);
    cip_test_image_free (&expected);
    cip_test_image_free (&src);
  }
  fail_unless_equals_int (differs, 4);
  g_free (history);
  cip_test_image_free (&base);
  gst_harness_teardown (h);
}

GST_END_TEST;

/* temporal-smoothing on packed YUV: the Y bytes as the GRAY8 path
 * smooths the same luma (one element each, frame for frame). */
GST_START_TEST (test_packed_temporal_smoothing)
{
  static const gchar *turns[] = { "camera", "moon", "moon", "camera" };
  GstVideoFormat format = packed_formats[__i__];
  GstHarness *gray = cip_test_harness_new ("cudaequalize",
      "temporal-smoothing=0.75");
  GstHarness *h = cip_test_harness_new ("cudaequalize",
      "temporal-smoothing=0.75");
  guint i;

  gst_harness_set_src_caps (gray, cip_test_caps_new (GST_VIDEO_FORMAT_GRAY8,
          512, 512));
  gst_harness_set_src_caps (h, cip_test_caps_new (format, 512, 512));
  for (i = 0; i < G_N_ELEMENTS (turns); i++) {
    CipImage luma = load (turns[i], "");
    CipImage expected;
    GstBuffer *in = packed_buffer_new (&luma, format, i), *out, *gray_out;
    GstCaps *gray_caps;
    GstVideoFrame frame;

    gray_out = cip_test_push_pull (gray, cip_test_buffer_new (&luma));
    gray_caps = cip_test_harness_output_caps (gray);
    cip_test_frame_map (&frame, gray_out, gray_caps, &expected);
    out = cip_test_push_pull (h, gst_buffer_ref (in));
    assert_packed (in, out, format, &expected);
    gst_video_frame_unmap (&frame);
    gst_caps_unref (gray_caps);
    gst_buffer_unref (gray_out);
    gst_buffer_unref (out);
    gst_buffer_unref (in);
    cip_test_image_free (&luma);
  }
  gst_harness_teardown (h);
  gst_harness_teardown (gray);
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
  tcase_add_loop_test (tc, test_packed_luma_matches_opencv_chroma_untouched,
      0, G_N_ELEMENTS (images) * G_N_ELEMENTS (packed_formats));
  tcase_add_loop_test (tc, test_packed_odd_widths_match_gray8, 0,
      6 * G_N_ELEMENTS (packed_formats));
  tcase_add_loop_test (tc, test_packed_temporal_smoothing, 0,
      G_N_ELEMENTS (packed_formats));
  tcase_add_loop_test (tc, test_gray16_matches_definition, 0,
      G_N_ELEMENTS (images16));
  tcase_add_test (tc, test_gray16_exact_rounding);
  tcase_add_test (tc, test_gray16_temporal_smoothing);

  return s;
}

CIP_TEST_ELEMENT_MAIN (cudaequalize)
