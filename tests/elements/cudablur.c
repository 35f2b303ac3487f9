/* gst-cuda-imgproc
 * Copyright (C) 2026 The gst-cuda-imgproc authors
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2 of the License, or (at your option) any later version.
 */

/* cudablur against OpenCV's GaussianBlur (expected-blur.ini and the
 * blur-*.pgm/ppm results) and cip_ref_blur: real images, every format,
 * images smaller than the kernel, padded strides, sigma changed between
 * frames, and the caps and buffers it refuses. */

#include <string.h>

#include "test-element.h"
#include "cip-ref.h"

/* GRAY8, the four-byte formats, then GRAY16_LE. */
static const CipFormat formats[] = {
  CIP_FORMAT_GRAY8, CIP_FORMAT_RGBA, CIP_FORMAT_BGRA, CIP_FORMAT_RGBX,
  CIP_FORMAT_BGRX, CIP_FORMAT_ARGB, CIP_FORMAT_ABGR, CIP_FORMAT_GRAY16,
};

/* The [crop NAME] groups of expected-blur.ini. */
static const gchar *crops[] = {
  "camera-0.5", "camera-1.5", "camera-5", "coins-0.8", "coins-2.7",
  "moon-10", "moon-32", "chelsea-1", "chelsea-10",
};

/* A copy of the @width x @height rectangle of @image at @x, @y. */
static CipImage
crop (const CipImage * image, gint x, gint y, gint width, gint height)
{
  gsize bpp = cip_format_bytes_per_pixel (image->format);
  CipImage view = *image;

  view.data = (guint8 *) image->data + y * image->stride + x * bpp;
  view.width = width;
  view.height = height;
  return cip_test_image_copy (&view, 0);
}

/* cip_ref_blur of @src. */
static CipImage
reference_blur (const CipImage * src, gdouble sigma)
{
  CipImage dst = cip_test_image_new (src->width, src->height, src->format, 0);

  fail_unless_equals_int (cip_ref_blur (src, &dst, sigma, NULL), CIP_OK);
  return dst;
}

/* OpenCV's figures are of RGB images; a four-byte image is the same
 * channels with a constant fourth one, which a blur leaves constant. */
static CipImage
as_format (const CipImage * image, CipFormat format, size_t pad)
{
  if (image->format == CIP_FORMAT_RGB)
    return cip_test_image_repack (image, format, 0xff, pad);
  fail_unless_equals_int (format, image->format);
  return cip_test_image_copy (image, pad);
}

/* ---- OpenCV's figures ---- */

/* Crops of camera, coins, moon and chelsea come out as OpenCV blurred
 * them; chelsea in every four-byte format. */
GST_START_TEST (test_crops_match_opencv)
{
  const gchar *name = crops[__i__];
  gchar *group = g_strdup_printf ("crop %s", name);
  GKeyFile *ini = cip_test_expected_file ("expected-blur.ini");
  gchar *source_name = cip_test_ini_string (ini, group, "source");
  gchar *result_name = cip_test_ini_string (ini, group, "result");
  gdouble sigma = cip_test_ini_double (ini, group, "sigma");
  CipImage source = cip_test_image_load (source_name);
  CipImage rect = crop (&source, cip_test_ini_int (ini, group, "x"),
      cip_test_ini_int (ini, group, "y"),
      cip_test_ini_int (ini, group, "width"),
      cip_test_ini_int (ini, group, "height"));
  CipImage result = cip_test_image_load (result_name);
  gchar *props = g_strdup_printf ("sigma=%.17g", sigma);
  guint i;

  GST_INFO ("%s: %s, sigma %g", name, source_name, sigma);
  fail_unless_equals_int (result.width, rect.width);
  fail_unless_equals_int (result.height, rect.height);
  for (i = 0; i < G_N_ELEMENTS (formats); i++) {
    CipFormat format = formats[i];
    GstHarness *h;
    CipImage src, expected;

    /* Gray crops in GRAY8, colour crops in the four-byte formats. */
    if (format == CIP_FORMAT_GRAY16 ||
        (format == CIP_FORMAT_GRAY8) != (rect.format == CIP_FORMAT_GRAY8))
      continue;
    src = as_format (&rect, format, 0);
    expected = as_format (&result, format, 0);
    h = cip_test_harness_new ("cudablur", props);
    cip_test_harness_set_image_caps (h, &src);
    cip_test_push_pull_assert (h, cip_test_buffer_new (&src), &expected);
    gst_harness_teardown (h);
    cip_test_image_free (&expected);
    cip_test_image_free (&src);
  }

  g_free (props);
  cip_test_image_free (&result);
  cip_test_image_free (&rect);
  cip_test_image_free (&source);
  g_free (result_name);
  g_free (source_name);
  g_free (group);
  g_key_file_free (ini);
}

GST_END_TEST;

/* Noise at the ends of the sigma range: 0.1 copies, 32 reaches 128
 * pixels across a 61x47 image. */
GST_START_TEST (test_noise_matches_opencv)
{
  static const gchar *sigmas[] = { "0.1", "0.3", "1", "32" };
  gchar *props = g_strdup_printf ("sigma=%s", sigmas[__i__]);
  gchar *file = g_strdup_printf ("blur-noise-%s.pgm", sigmas[__i__]);
  GstHarness *h = cip_test_harness_new ("cudablur", props);
  CipImage noise = cip_test_image_load ("blur-noise.pgm");
  CipImage expected = cip_test_image_load (file);

  cip_test_harness_set_image_caps (h, &noise);
  cip_test_push_pull_assert (h, cip_test_buffer_new (&noise), &expected);
  if (g_str_equal (sigmas[__i__], "0.1"))
    fail_unless (cip_test_images_equal (&noise, &expected, NULL));

  cip_test_image_free (&expected);
  cip_test_image_free (&noise);
  gst_harness_teardown (h);
  g_free (file);
  g_free (props);
}

GST_END_TEST;

/* sigma set between frames, in PLAYING, applies from the next frame: 40
 * sigmas from 0.1 to 32 in a row on the same noise, each frame's hash
 * that of OpenCV's result. */
GST_START_TEST (test_sigma_sweep_between_frames_matches_opencv)
{
  GKeyFile *ini = cip_test_expected_file ("expected-blur.ini");
  gchar **sigmas = g_key_file_get_string_list (ini, "sweep", "sigmas", NULL,
      NULL);
  gchar **hashes = g_key_file_get_string_list (ini, "sweep", "hashes", NULL,
      NULL);
  GstHarness *h = cip_test_harness_new ("cudablur", NULL);
  GstElement *blur = cip_test_harness_element (h, "cudablur");
  CipImage noise = cip_test_image_load ("blur-noise.pgm");
  guint i, n;

  fail_unless (sigmas != NULL && hashes != NULL);
  n = g_strv_length (sigmas);
  fail_unless_equals_int (n, g_strv_length (hashes));
  fail_unless (n >= 40);
  cip_test_harness_set_image_caps (h, &noise);
  for (i = 0; i < n; i++) {
    gdouble sigma = g_ascii_strtod (sigmas[i], NULL), now = 0;
    guint32 expected = (guint32) g_ascii_strtoull (hashes[i], NULL, 10);
    GstBuffer *out;
    GstCaps *caps;
    guint32 got;

    g_object_set (blur, "sigma", sigma, NULL);
    g_object_get (blur, "sigma", &now, NULL);
    fail_unless (now == sigma, "sigma %g read back as %g", sigma, now);
    out = cip_test_push_pull (h, cip_test_buffer_new (&noise));
    caps = cip_test_harness_output_caps (h);
    got = cip_test_buffer_fnv1a (out, caps);
    fail_unless (got == expected, "sigma %s: hash %u, OpenCV's %u",
        sigmas[i], got, expected);
    gst_caps_unref (caps);
    gst_buffer_unref (out);
  }
  fail_unless_equals_int (gst_harness_buffers_received (h), n);

  cip_test_image_free (&noise);
  gst_object_unref (blur);
  gst_harness_teardown (h);
  g_strfreev (hashes);
  g_strfreev (sigmas);
  g_key_file_free (ini);
}

GST_END_TEST;

/* GRAY16_LE: a 16-bit camera crop comes out as OpenCV blurs CV_16U (within
 * 1 is the promise; it is bit for bit). */
GST_START_TEST (test_camera16_matches_opencv)
{
  static const gchar *sigmas[] = { "1.5", "5" };
  gchar *props = g_strdup_printf ("sigma=%s", sigmas[__i__]);
  gchar *file = g_strdup_printf ("blur16-camera-%s.pgm", sigmas[__i__]);
  GstHarness *h = cip_test_harness_new ("cudablur", props);
  CipImage camera = cip_test_image_load ("blur16-camera.pgm");
  CipImage expected = cip_test_image_load (file);
  GstCaps *caps, *want;

  fail_unless_equals_int (camera.format, CIP_FORMAT_GRAY16);
  cip_test_harness_set_image_caps (h, &camera);
  cip_test_push_pull_assert (h, cip_test_buffer_new (&camera), &expected);
  /* Rows padded and 64 bytes in, as a video meta says. */
  cip_test_push_pull_assert (h, cip_test_buffer_new_strided (&camera, 64),
      &expected);
  caps = cip_test_harness_output_caps (h);
  want = cip_test_caps_new (GST_VIDEO_FORMAT_GRAY16_LE, camera.width,
      camera.height);
  fail_unless (gst_caps_is_equal (caps, want));

  gst_caps_unref (want);
  gst_caps_unref (caps);
  cip_test_image_free (&expected);
  cip_test_image_free (&camera);
  gst_harness_teardown (h);
  g_free (file);
  g_free (props);
}

GST_END_TEST;

/* GRAY16_LE: 40 sigmas set between frames on the camera crop and on
 * full-range noise, each frame's hash that of OpenCV's CV_16U result. */
GST_START_TEST (test_sweep16_between_frames_matches_opencv)
{
  const gchar *group = __i__ ? "sweep16 noise16" : "sweep16 camera16";
  GKeyFile *ini = cip_test_expected_file ("expected-blur.ini");
  gchar **sigmas = g_key_file_get_string_list (ini, group, "sigmas", NULL,
      NULL);
  gchar **hashes = g_key_file_get_string_list (ini, group, "hashes", NULL,
      NULL);
  gchar *name = cip_test_ini_string (ini, group, "image");
  GstHarness *h = cip_test_harness_new ("cudablur", NULL);
  GstElement *blur = cip_test_harness_element (h, "cudablur");
  CipImage image = cip_test_image_load (name);
  guint i, n;

  fail_unless (sigmas != NULL && hashes != NULL);
  n = g_strv_length (sigmas);
  fail_unless_equals_int (n, g_strv_length (hashes));
  fail_unless (n >= 40);
  fail_unless_equals_int (image.format, CIP_FORMAT_GRAY16);
  cip_test_harness_set_image_caps (h, &image);
  for (i = 0; i < n; i++) {
    guint32 expected = (guint32) g_ascii_strtoull (hashes[i], NULL, 10);
    GstBuffer *out;
    GstCaps *caps;
    guint32 got;

    g_object_set (blur, "sigma", g_ascii_strtod (sigmas[i], NULL), NULL);
    out = cip_test_push_pull (h, cip_test_buffer_new (&image));
    caps = cip_test_harness_output_caps (h);
    got = cip_test_buffer_fnv1a (out, caps);
    fail_unless (got == expected, "%s sigma %s: hash %u, OpenCV's %u",
        name, sigmas[i], got, expected);
    gst_caps_unref (caps);
    gst_buffer_unref (out);
  }

  cip_test_image_free (&image);
  gst_object_unref (blur);
  gst_harness_teardown (h);
  g_free (name);
  g_strfreev (hashes);
  g_strfreev (sigmas);
  g_key_file_free (ini);
}

GST_END_TEST;

static const gint tiny_sizes[][2] = {
  {1, 1}, {1, 7}, {7, 1}, {2, 3}, {3, 2}, {5, 5}, {9, 4},
};

/* Images smaller than the kernel, mirrored many times over, as OpenCV
 * blurs them; their rows padded to odd strides and starting at an odd
 * offset. */
GST_START_TEST (test_tiny_images_match_opencv)
{
  static const gchar *sigmas[] = { "0.5", "2.7", "32" };
  gint width = tiny_sizes[__i__][0], height = tiny_sizes[__i__][1];
  gchar *group = g_strdup_printf ("tiny %dx%d", width, height);
  GKeyFile *ini = cip_test_expected_file ("expected-blur.ini");
  CipImage src = cip_test_image_new (width, height, CIP_FORMAT_GRAY8, 3);
  CipImage expected = cip_test_image_new (width, height, CIP_FORMAT_GRAY8, 0);
  gint x, y;
  guint s;

  cip_test_image_fill_random (&src, __i__);
  for (y = 0; y < height; y++)
    for (x = 0; x < width; x++)
      ((guint8 *) src.data)[y * src.stride + x] = (x * 37 + y * 91 + 11) & 255;

  for (s = 0; s < G_N_ELEMENTS (sigmas); s++) {
    gchar *key = g_strdup_printf ("sigma%s", sigmas[s]);
    gchar *props = g_strdup_printf ("sigma=%s", sigmas[s]);
    gsize n = (gsize) width * height;
    gint *values = cip_test_ini_ints (ini, group, key, n);
    GstHarness *h = cip_test_harness_new ("cudablur", props);
    gsize i;

    for (i = 0; i < n; i++)
      ((guint8 *) expected.data)[i] = values[i];
    cip_test_harness_set_image_caps (h, &src);
    cip_test_push_pull_assert (h, cip_test_buffer_new_strided (&src, 1),
        &expected);
    gst_harness_teardown (h);
    g_free (values);
    g_free (props);
    g_free (key);
  }

  cip_test_image_free (&expected);
  cip_test_image_free (&src);
  g_key_file_free (ini);
  g_free (group);
}

GST_END_TEST;

/* ---- The definition, by hand ---- */

/* A single 255 pixel far from the borders at sigma 0.5, whose weights are
 * 202 27 0: the output is the outer product of the weights, (k_|dx|
 * k_|dy| 255 + 2^15) >> 16. */
GST_START_TEST (test_impulse_response)
{
  static const gint weights[] = { 202, 27, 0 };
  GstHarness *h = cip_test_harness_new ("cudablur", "sigma=0.5");
  CipImage src = cip_test_image_new (11, 9, CIP_FORMAT_GRAY8, 0);
  CipImage expected = cip_test_image_new (11, 9, CIP_FORMAT_GRAY8, 0);
  gint x, y;

  memset (src.data, 0, src.stride * src.height);
  ((guint8 *) src.data)[4 * src.stride + 5] = 255;
  for (y = 0; y < 9; y++)
    for (x = 0; x < 11; x++) {
      gint dx = ABS (x - 5), dy = ABS (y - 4);
      guint32 v = 0;

      if (dx <= 2 && dy <= 2)
        v = weights[dx] * weights[dy] * 255;
      ((guint8 *) expected.data)[y * expected.stride + x] =
          (v + (1 << 15)) >> 16;
    }
  fail_unless_equals_int (((guint8 *) expected.data)[4 * 11 + 5], 159);
  fail_unless_equals_int (((guint8 *) expected.data)[4 * 11 + 6], 21);

  cip_test_harness_set_image_caps (h, &src);
  cip_test_push_pull_assert (h, cip_test_buffer_new (&src), &expected);

  cip_test_image_free (&expected);
  cip_test_image_free (&src);
  gst_harness_teardown (h);
}

GST_END_TEST;

/* A constant frame stays constant at any sigma, in every format. */
GST_START_TEST (test_constant_frame_unchanged)
{
  CipFormat format = formats[__i__];
  GstHarness *h = cip_test_harness_new ("cudablur", "sigma=7.5");
  CipImage src = cip_test_image_new (37, 23, format, 0);

  memset (src.data, 0xc3, src.stride * src.height);
  cip_test_harness_set_image_caps (h, &src);
  cip_test_push_pull_assert (h, cip_test_buffer_new (&src), &src);

  cip_test_image_free (&src);
  gst_harness_teardown (h);
}

GST_END_TEST;

/* ---- Formats, sizes and layouts against the reference ---- */

/* The default sigma is 1.0: random frames of every format come out as
 * cip_ref_blur makes them, the output caps those of the input. */
GST_START_TEST (test_default_sigma_every_format)
{
  CipFormat format = formats[__i__];
  GstHarness *h = cip_test_harness_new ("cudablur", NULL);
  GstElement *blur = cip_test_harness_element (h, "cudablur");
  CipImage src = cip_test_image_random (97, 61, format, 40 + __i__);
  CipImage expected = reference_blur (&src, 1.0);
  GstCaps *in_caps = cip_test_caps_new (cip_test_video_format (format),
      97, 61);
  GstBuffer *out;
  GstCaps *caps;
  gdouble sigma = 0;

  g_object_get (blur, "sigma", &sigma, NULL);
  fail_unless (sigma == 1.0);
  gst_harness_set_src_caps (h, gst_caps_ref (in_caps));
  out = cip_test_push_pull (h, cip_test_buffer_new (&src));
  caps = cip_test_harness_output_caps (h);
  fail_unless (gst_caps_is_equal (caps, in_caps), "%" GST_PTR_FORMAT
      " != %" GST_PTR_FORMAT, caps, in_caps);
  cip_test_assert_buffer_image (out, caps, &expected);
  /* A blur that changed nothing would pass a weaker test. */
  fail_if (cip_test_images_equal (&src, &expected, NULL));

  gst_caps_unref (caps);
  gst_caps_unref (in_caps);
  gst_buffer_unref (out);
  cip_test_image_free (&expected);
  cip_test_image_free (&src);
  gst_object_unref (blur);
  gst_harness_teardown (h);
}

GST_END_TEST;

static const gint odd_sizes[][2] = {
  {1, 1}, {3, 1}, {1, 7}, {2, 3}, {33, 17}, {127, 129}, {641, 479},
};

/* Every format and odd size, in GStreamer's default layout and in rows
 * padded to an odd stride (GRAY16: an even one, as its samples need)
 * starting 64 bytes in, at a sigma whose kernel fits one tile (2.7) and
 * one that does not (20). */
GST_START_TEST (test_odd_sizes_and_strides)
{
  static const gdouble sigmas[] = { 2.7, 20.0 };
  CipFormat format = formats[__i__ / G_N_ELEMENTS (odd_sizes)];
  const gint *size = odd_sizes[__i__ % G_N_ELEMENTS (odd_sizes)];
  GstHarness *h = cip_test_harness_new ("cudablur", NULL);
  GstElement *blur = cip_test_harness_element (h, "cudablur");
  CipImage src = cip_test_image_new (size[0], size[1], format,
      format == CIP_FORMAT_GRAY16 ? 14 : 13);
  guint s;

  GST_INFO ("%s %dx%d", cip_format_name (format), size[0], size[1]);
  cip_test_image_fill_random (&src, __i__);
  cip_test_harness_set_image_caps (h, &src);
  for (s = 0; s < G_N_ELEMENTS (sigmas); s++) {
    CipImage expected = reference_blur (&src, sigmas[s]);

    g_object_set (blur, "sigma", sigmas[s], NULL);
    cip_test_push_pull_assert (h, cip_test_buffer_new (&src), &expected);
    cip_test_push_pull_assert (h, cip_test_buffer_new_strided (&src, 64),
        &expected);
    cip_test_image_free (&expected);
  }
  fail_unless_equals_int (gst_harness_buffers_received (h),
      2 * G_N_ELEMENTS (sigmas));

  cip_test_image_free (&src);
  gst_object_unref (blur);
  gst_harness_teardown (h);
}

GST_END_TEST;

/* ---- Negotiation and malformed input ---- */

/* Three-byte RGB, big-endian 16-bit gray and planar YUV are not
 * blurred. */
GST_START_TEST (test_refuses_other_formats)
{
  static const GstVideoFormat refused[] = {
    GST_VIDEO_FORMAT_RGB, GST_VIDEO_FORMAT_BGR, GST_VIDEO_FORMAT_GRAY16_BE,
    GST_VIDEO_FORMAT_NV12, GST_VIDEO_FORMAT_I420,
  };
  GstHarness *h = cip_test_harness_new ("cudablur", NULL);

  cip_test_assert_caps_refused (h, refused[__i__], 16, 8);
  gst_harness_teardown (h);
}

GST_END_TEST;

/* A buffer too small for its caps is a STREAM/FORMAT error, and nothing is
 * pushed. */
GST_START_TEST (test_short_buffer_is_an_error)
{
  GstVideoFormat format = __i__ ? GST_VIDEO_FORMAT_BGRx :
      GST_VIDEO_FORMAT_GRAY8;
  GstHarness *h = cip_test_harness_new ("cudablur", NULL);
  GstBus *bus = cip_test_harness_add_bus (h);

  cip_test_assert_short_buffer_refused (h, bus, format);
  cip_test_harness_teardown_with_bus (h, bus);
}

GST_END_TEST;

/* sigma outside 0.1 .. 32 is refused by the property itself. */
GST_START_TEST (test_sigma_range)
{
  GstElement *blur = gst_element_factory_make ("cudablur", NULL);
  GParamSpec *spec;
  GParamSpecDouble *range;

  fail_unless (blur != NULL);
  spec = g_object_class_find_property (G_OBJECT_GET_CLASS (blur), "sigma");
  fail_unless (spec != NULL && G_IS_PARAM_SPEC_DOUBLE (spec));
  range = G_PARAM_SPEC_DOUBLE (spec);
  fail_unless (range->minimum == CIP_BLUR_SIGMA_MIN);
  fail_unless (range->maximum == CIP_BLUR_SIGMA_MAX);
  fail_unless (range->default_value == 1.0);
  fail_unless (spec->flags & GST_PARAM_MUTABLE_PLAYING);
  fail_unless (spec->flags & GST_PARAM_CONTROLLABLE);
  gst_object_unref (blur);
}

GST_END_TEST;

static Suite *
cudablur_suite (void)
{
  Suite *s = suite_create ("cudablur");
  TCase *tc = tcase_create ("general");

  suite_add_tcase (s, tc);
  tcase_set_timeout (tc, CIP_TEST_TIMEOUT);
  tcase_add_loop_test (tc, test_crops_match_opencv, 0, G_N_ELEMENTS (crops));
  tcase_add_loop_test (tc, test_noise_matches_opencv, 0, 4);
  tcase_add_test (tc, test_sigma_sweep_between_frames_matches_opencv);
  tcase_add_loop_test (tc, test_camera16_matches_opencv, 0, 2);
  tcase_add_loop_test (tc, test_sweep16_between_frames_matches_opencv, 0, 2);
  tcase_add_loop_test (tc, test_tiny_images_match_opencv, 0,
      G_N_ELEMENTS (tiny_sizes));
  tcase_add_test (tc, test_impulse_response);
  tcase_add_loop_test (tc, test_constant_frame_unchanged, 0,
      G_N_ELEMENTS (formats));
  tcase_add_loop_test (tc, test_default_sigma_every_format, 0,
      G_N_ELEMENTS (formats));
  tcase_add_loop_test (tc, test_odd_sizes_and_strides, 0,
      G_N_ELEMENTS (formats) * G_N_ELEMENTS (odd_sizes));
  tcase_add_loop_test (tc, test_refuses_other_formats, 0, 5);
  tcase_add_loop_test (tc, test_short_buffer_is_an_error, 0, 2);
  tcase_add_test (tc, test_sigma_range);

  return s;
}

CIP_TEST_ELEMENT_MAIN (cudablur)
