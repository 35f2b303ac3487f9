/* gst-cuda-imgproc
 * Copyright (C) 2026 The gst-cuda-imgproc authors
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2 of the License, or (at your option) any later version.
 */

/* cudamorph against OpenCV's erode, dilate and morphologyEx
 * (expected-morph.ini, morph-*.pgm) and cip_ref_morph: real and random
 * images, every format, odd sizes and padded strides, properties changed
 * between frames, the caps and buffers it refuses, and the segmentation
 * chain cudagray ! cudablur ! cudaotsu ! cudamorph. */

#include <string.h>

#include "test-element.h"
#include "cip-ref.h"

/* GRAY8, the four-byte formats, then GRAY16_LE. */
static const CipFormat formats[] = {
  CIP_FORMAT_GRAY8, CIP_FORMAT_RGBA, CIP_FORMAT_BGRA, CIP_FORMAT_RGBX,
  CIP_FORMAT_BGRX, CIP_FORMAT_ARGB, CIP_FORMAT_ABGR, CIP_FORMAT_GRAY16,
};

#define N_FOUR_BYTE_FORMATS 6

/* The nicks of the enums, in the order of their values. */
static const gchar *operations[] = { "erode", "dilate", "open", "close" };
static const gchar *shapes[] = { "disk", "square", "cross" };

/* The radii expected-morph.ini has for every image but chelsea-rgba. */
static const guint radii[] = { 1, 2, 3, 5, 8, 17, 32 };

/* OpenCV's MD5 for @image (a group of expected-morph.ini). */
static gchar *
expected_md5 (GKeyFile * ini, const gchar * image, guint operation,
    guint shape, guint radius)
{
  gchar *key = g_strdup_printf ("%s-%s-%u", operations[operation],
      shapes[shape], radius);
  gchar *md5 = cip_test_ini_string (ini, image, key);

  g_free (key);
  return md5;
}

/* cip_ref_morph of @src. */
static CipImage
reference_morph (const CipImage * src, guint operation, guint shape,
    guint radius)
{
  CipImage dst = cip_test_image_new (src->width, src->height, src->format, 0);

  fail_unless_equals_int (cip_ref_morph (src, &dst, operation, shape,
          radius, NULL), CIP_OK);
  return dst;
}

static void
set_properties (GstElement * morph, guint operation, guint shape, guint radius)
{
  gint now_operation = -1, now_shape = -1;
  guint now_radius = 0;

  g_object_set (morph, "operation", operation, "shape", shape, "radius",
      radius, NULL);
  g_object_get (morph, "operation", &now_operation, "shape", &now_shape,
      "radius", &now_radius, NULL);
  fail_unless_equals_int (now_operation, operation);
  fail_unless_equals_int (now_shape, shape);
  fail_unless_equals_int (now_radius, radius);
}

/* Pushes @in and checks that the MD5 of the frame that comes out is
 * OpenCV's. */
static void
push_and_assert_md5 (GstHarness * h, GstBuffer * in, GKeyFile * ini,
    const gchar * image, guint operation, guint shape, guint radius)
{
  gchar *expected = expected_md5 (ini, image, operation, shape, radius);
  GstBuffer *out = cip_test_push_pull (h, in);
  GstCaps *caps = cip_test_harness_output_caps (h);
  gchar *got = cip_test_buffer_md5 (out, caps);

  fail_unless (g_str_equal (got, expected), "%s %s %s %u: MD5 %s, "
      "OpenCV's %s", image, operations[operation], shapes[shape], radius,
      got, expected);
  g_free (got);
  gst_caps_unref (caps);
  gst_buffer_unref (out);
  g_free (expected);
}

/* The test images of expected-morph.ini that are stored as files, as the
 * format they were computed in. */
static CipImage
load_morph_image (const gchar * image)
{
  if (g_str_equal (image, "coins"))
    return cip_test_image_load ("coins.pgm");
  if (g_str_equal (image, "camera"))
    return cip_test_image_load ("camera.pgm");
  if (g_str_equal (image, "random"))
    return cip_test_image_load ("morph-random.pgm");
  if (g_str_equal (image, "dots"))
    return cip_test_image_load ("morph-dots.pgm");
  /* 16-bit PGMs load as GRAY16. */
  if (g_str_equal (image, "random16"))
    return cip_test_image_load ("morph16-random.pgm");
  if (g_str_equal (image, "camera16"))
    return cip_test_image_load ("morph16-camera.pgm");
  if (g_str_equal (image, "random-rgba")) {
    /* Stored as GRAY8 four times as wide. */
    CipImage rgba = cip_test_image_load ("morph-random-rgba.pgm");

    fail_unless_equals_int (rgba.width % 4, 0);
    rgba.width /= 4;
    rgba.format = CIP_FORMAT_RGBA;
    return rgba;
  }
  if (g_str_equal (image, "chelsea-rgba")) {
    CipImage rgb = cip_test_image_load ("chelsea.ppm");
    CipImage rgba = cip_test_image_repack (&rgb, CIP_FORMAT_RGBA, 0x5a, 0);

    cip_test_image_free (&rgb);
    return rgba;
  }
  fail ("no image %s", image);
  return cip_test_image_new (1, 1, CIP_FORMAT_GRAY8, 0);
}

/* ---- OpenCV's figures ---- */

static const gchar *md5_images[] = {
  "coins", "camera", "random", "random-rgba", "dots", "random16", "camera16",
};

/* Each image, operation and shape, with every radius from 1 to 32 set in
 * PLAYING between frames: each frame's MD5 is OpenCV's. */
GST_START_TEST (test_matches_opencv)
{
  const guint n_ops = G_N_ELEMENTS (operations);
  const guint n_shapes = G_N_ELEMENTS (shapes);
  const gchar *image = md5_images[__i__ / (n_ops * n_shapes)];
  guint operation = __i__ / n_shapes % n_ops;
  guint shape = __i__ % n_shapes;
  GKeyFile *ini = cip_test_expected_file ("expected-morph.ini");
  CipImage src = load_morph_image (image);
  GstHarness *h = cip_test_harness_new ("cudamorph", NULL);
  GstElement *morph = cip_test_harness_element (h, "cudamorph");
  guint i;

  GST_INFO ("%s %s %s", image, operations[operation], shapes[shape]);
  cip_test_harness_set_image_caps (h, &src);
  for (i = 0; i < G_N_ELEMENTS (radii); i++) {
    set_properties (morph, operation, shape, radii[i]);
    push_and_assert_md5 (h, cip_test_buffer_new (&src), ini, image,
        operation, shape, radii[i]);
  }
  fail_unless_equals_int (gst_harness_buffers_received (h),
      G_N_ELEMENTS (radii));

  gst_object_unref (morph);
  gst_harness_teardown (h);
  cip_test_image_free (&src);
  g_key_file_free (ini);
}

GST_END_TEST;

/* chelsea with alpha 0x5a in every four-byte format: each byte is its own
 * channel, so every layout gives OpenCV's RGBA result with its bytes
 * moved; RGBA is checked against the MD5, the others against the
 * reference. */
GST_START_TEST (test_chelsea_every_four_byte_format)
{
  static const guint chelsea_radii[] = { 1, 3, 17 };
  CipFormat format = formats[1 + __i__];
  GKeyFile *ini = cip_test_expected_file ("expected-morph.ini");
  CipImage rgb = cip_test_image_load ("chelsea.ppm");
  CipImage src = cip_test_image_repack (&rgb, format, 0x5a, 0);
  GstHarness *h = cip_test_harness_new ("cudamorph", NULL);
  GstElement *morph = cip_test_harness_element (h, "cudamorph");
  guint operation, i;

  GST_INFO ("%s", cip_format_name (format));
  cip_test_harness_set_image_caps (h, &src);
  for (operation = 0; operation < G_N_ELEMENTS (operations); operation++)
    for (i = 0; i < G_N_ELEMENTS (chelsea_radii); i++) {
      guint shape = (operation + i) % G_N_ELEMENTS (shapes);

      set_properties (morph, operation, shape, chelsea_radii[i]);
      if (format == CIP_FORMAT_RGBA) {
        push_and_assert_md5 (h, cip_test_buffer_new (&src), ini,
            "chelsea-rgba", operation, shape, chelsea_radii[i]);
      } else {
        CipImage expected = reference_morph (&src, operation, shape,
            chelsea_radii[i]);

        cip_test_push_pull_assert (h, cip_test_buffer_new (&src), &expected);
        cip_test_image_free (&expected);
      }
    }

  gst_object_unref (morph);
  gst_harness_teardown (h);
  cip_test_image_free (&src);
  cip_test_image_free (&rgb);
  g_key_file_free (ini);
}

GST_END_TEST;

/* The seed workflow: coins through cudaotsu, then an erosion with a disk
 * of radius 2, is OpenCV's result (which equals scikit-image's
 * binary_erosion with disk (2)). */
GST_START_TEST (test_otsu_mask_erosion_matches_opencv)
{
  gchar *launch = g_strdup_printf ("cudaotsu backend=%s ! "
      "cudamorph backend=%s operation=erode shape=disk radius=2",
      cip_test_backend_name (), cip_test_backend_name ());
  GstHarness *h = gst_harness_new_parse (launch);
  CipImage coins = cip_test_image_load ("coins.pgm");
  CipImage expected = cip_test_image_load ("morph-coins-mask-erode-disk-2.pgm");
  GKeyFile *ini = cip_test_expected_file ("expected-morph.ini");

  gst_harness_set_sink_caps_str (h, "video/x-raw");
  cip_test_harness_set_image_caps (h, &coins);
  cip_test_push_pull_assert (h, cip_test_buffer_new (&coins), &expected);
  /* The same figure by its MD5, so that the file cannot drift. */
  push_and_assert_md5 (h, cip_test_buffer_new (&coins), ini, "coins-mask",
      0, 0, 2);

  g_key_file_free (ini);
  cip_test_image_free (&expected);
  cip_test_image_free (&coins);
  gst_harness_teardown (h);
  g_free (launch);
}

GST_END_TEST;

/* ---- The definition, by hand ---- */

/* A single bright pixel on black, dilated, draws the structuring element
 * of cip_morph_element() around itself; eroded, it vanishes. */
GST_START_TEST (test_dilated_point_draws_the_element)
{
  guint shape = __i__ % G_N_ELEMENTS (shapes);
  guint radius = __i__ / G_N_ELEMENTS (shapes) ? 4 : 2;
  gint n = 2 * radius + 1, cx = 9, cy = 7;
  guint8 element[(2 * 4 + 1) * (2 * 4 + 1)];
  CipImage src = cip_test_image_new (21, 15, CIP_FORMAT_GRAY8, 0);
  CipImage dilated = cip_test_image_new (21, 15, CIP_FORMAT_GRAY8, 0);
  CipImage eroded = cip_test_image_new (21, 15, CIP_FORMAT_GRAY8, 0);
  GstHarness *h = cip_test_harness_new ("cudamorph", NULL);
  GstElement *morph = cip_test_harness_element (h, "cudamorph");
  gint x, y;

  fail_unless_equals_int (cip_morph_element (shape, radius, element), CIP_OK);
  memset (src.data, 0, src.stride * src.height);
  memset (dilated.data, 0, dilated.stride * dilated.height);
  memset (eroded.data, 0, eroded.stride * eroded.height);
  ((guint8 *) src.data)[cy * src.stride + cx] = 200;
  for (y = 0; y < n; y++)
    for (x = 0; x < n; x++)
      if (element[y * n + x])
        ((guint8 *) dilated.data)[(cy - (gint) radius + y) * dilated.stride +
            cx - (gint) radius + x] = 200;

  cip_test_harness_set_image_caps (h, &src);
  set_properties (morph, 1, shape, radius);
  cip_test_push_pull_assert (h, cip_test_buffer_new (&src), &dilated);
  set_properties (morph, 0, shape, radius);
  cip_test_push_pull_assert (h, cip_test_buffer_new (&src), &eroded);
  /* Opening removes the point; closing keeps it. */
  set_properties (morph, 2, shape, radius);
  cip_test_push_pull_assert (h, cip_test_buffer_new (&src), &eroded);
  set_properties (morph, 3, shape, radius);
  cip_test_push_pull_assert (h, cip_test_buffer_new (&src), &src);

  gst_object_unref (morph);
  gst_harness_teardown (h);
  cip_test_image_free (&eroded);
  cip_test_image_free (&dilated);
  cip_test_image_free (&src);
}

GST_END_TEST;

/* ---- Formats, sizes and layouts against the reference ---- */

/* The defaults are erode, disk, radius 1: random frames of every format
 * come out as cip_ref_morph makes them, with the input's caps. */
GST_START_TEST (test_defaults_every_format)
{
  CipFormat format = formats[__i__];
  GstHarness *h = cip_test_harness_new ("cudamorph", NULL);
  GstElement *morph = cip_test_harness_element (h, "cudamorph");
  CipImage src = cip_test_image_random (97, 61, format, 70 + __i__);
  CipImage expected = reference_morph (&src, CIP_MORPH_ERODE,
      CIP_SHAPE_DISK, 1);
  GstCaps *in_caps = cip_test_caps_new (cip_test_video_format (format),
      97, 61);
  GstBuffer *out;
  GstCaps *caps;
  gint operation = -1, shape = -1;
  guint radius = 0;

  g_object_get (morph, "operation", &operation, "shape", &shape, "radius",
      &radius, NULL);
  fail_unless_equals_int (operation, CIP_MORPH_ERODE);
  fail_unless_equals_int (shape, CIP_SHAPE_DISK);
  fail_unless_equals_int (radius, 1);

  gst_harness_set_src_caps (h, gst_caps_ref (in_caps));
  out = cip_test_push_pull (h, cip_test_buffer_new (&src));
  caps = cip_test_harness_output_caps (h);
  fail_unless (gst_caps_is_equal (caps, in_caps), "%" GST_PTR_FORMAT
      " != %" GST_PTR_FORMAT, caps, in_caps);
  cip_test_assert_buffer_image (out, caps, &expected);
  fail_if (cip_test_images_equal (&src, &expected, NULL));

  gst_caps_unref (caps);
  gst_caps_unref (in_caps);
  gst_buffer_unref (out);
  cip_test_image_free (&expected);
  cip_test_image_free (&src);
  gst_object_unref (morph);
  gst_harness_teardown (h);
}

GST_END_TEST;

static const gint odd_sizes[][2] = {
  {1, 1}, {3, 1}, {1, 7}, {2, 3}, {33, 17}, {127, 129}, {641, 479},
};

/* Every format and odd size, in GStreamer's default layout and in rows
 * padded to an odd stride (GRAY16: an even one, as its samples need)
 * starting 64 bytes in, with a small and a large radius and every
 * operation. */
GST_START_TEST (test_odd_sizes_and_strides)
{
  static const struct
  {
    guint operation, shape, radius;
  } settings[] = {
    {CIP_MORPH_ERODE, CIP_SHAPE_SQUARE, 1},
    {CIP_MORPH_DILATE, CIP_SHAPE_DISK, 2},
    {CIP_MORPH_OPEN, CIP_SHAPE_CROSS, 5},
    {CIP_MORPH_CLOSE, CIP_SHAPE_DISK, 17},
  };
  CipFormat format = formats[__i__ / G_N_ELEMENTS (odd_sizes)];
  const gint *size = odd_sizes[__i__ % G_N_ELEMENTS (odd_sizes)];
  GstHarness *h = cip_test_harness_new ("cudamorph", NULL);
  GstElement *morph = cip_test_harness_element (h, "cudamorph");
  CipImage src = cip_test_image_new (size[0], size[1], format,
      format == CIP_FORMAT_GRAY16 ? 14 : 13);
  guint s;

  GST_INFO ("%s %dx%d", cip_format_name (format), size[0], size[1]);
  cip_test_image_fill_random (&src, __i__);
  cip_test_harness_set_image_caps (h, &src);
  for (s = 0; s < G_N_ELEMENTS (settings); s++) {
    CipImage expected = reference_morph (&src, settings[s].operation,
        settings[s].shape, settings[s].radius);

    set_properties (morph, settings[s].operation, settings[s].shape,
        settings[s].radius);
    cip_test_push_pull_assert (h, cip_test_buffer_new (&src), &expected);
    cip_test_push_pull_assert (h, cip_test_buffer_new_strided (&src, 64),
        &expected);
    cip_test_image_free (&expected);
  }

  cip_test_image_free (&src);
  gst_object_unref (morph);
  gst_harness_teardown (h);
}

GST_END_TEST;

/* ---- The segmentation chain ---- */

/* cudagray ! cudablur ! cudaotsu ! cudamorph on chelsea: each stage as
 * its reference computes it, in one pipeline, frame after frame. */
GST_START_TEST (test_segmentation_chain)
{
  const gchar *backend = cip_test_backend_name ();
  gchar *launch = g_strdup_printf ("cudagray backend=%s ! "
      "cudablur backend=%s sigma=1.5 ! cudaotsu backend=%s ! "
      "cudamorph backend=%s operation=open shape=disk radius=3",
      backend, backend, backend, backend);
  GstHarness *h = gst_harness_new_parse (launch);
  CipImage rgb = cip_test_image_load ("chelsea.ppm");
  CipImage bgrx = cip_test_image_repack (&rgb, CIP_FORMAT_BGRX, 0, 0);
  CipImage gray = cip_test_image_new (rgb.width, rgb.height,
      CIP_FORMAT_GRAY8, 0);
  CipImage blurred = cip_test_image_new (rgb.width, rgb.height,
      CIP_FORMAT_GRAY8, 0);
  CipImage mask = cip_test_image_new (rgb.width, rgb.height,
      CIP_FORMAT_GRAY8, 0);
  CipImage expected;
  guint8 threshold = 0;
  guint i;

  fail_unless_equals_int (cip_ref_gray (&bgrx, &gray, CIP_GRAY_BT601, NULL),
      CIP_OK);
  fail_unless_equals_int (cip_ref_blur (&gray, &blurred, 1.5, NULL), CIP_OK);
  fail_unless_equals_int (cip_ref_otsu (&blurred, &mask, FALSE, &threshold,
          NULL), CIP_OK);
  expected = reference_morph (&mask, CIP_MORPH_OPEN, CIP_SHAPE_DISK, 3);
  /* Not a trivial mask. */
  fail_if (cip_test_images_equal (&mask, &expected, NULL));

  gst_harness_set_sink_caps_str (h, "video/x-raw");
  cip_test_harness_set_image_caps (h, &bgrx);
  for (i = 0; i < 3; i++)
    cip_test_push_pull_assert (h, cip_test_buffer_new (&bgrx), &expected);

  cip_test_image_free (&expected);
  cip_test_image_free (&mask);
  cip_test_image_free (&blurred);
  cip_test_image_free (&gray);
  cip_test_image_free (&bgrx);
  cip_test_image_free (&rgb);
  gst_harness_teardown (h);
  g_free (launch);
}

GST_END_TEST;

/* ---- Negotiation, malformed input and properties ---- */

/* Three-byte RGB, big-endian 16-bit gray and planar YUV are refused. */
GST_START_TEST (test_refuses_other_formats)
{
  static const GstVideoFormat refused[] = {
    GST_VIDEO_FORMAT_RGB, GST_VIDEO_FORMAT_BGR, GST_VIDEO_FORMAT_GRAY16_BE,
    GST_VIDEO_FORMAT_NV12, GST_VIDEO_FORMAT_I420,
  };
  GstHarness *h = cip_test_harness_new ("cudamorph", NULL);

  cip_test_assert_caps_refused (h, refused[__i__], 16, 8);
  gst_harness_teardown (h);
}

GST_END_TEST;

/* A buffer too small for its caps is a STREAM/FORMAT error, and nothing is
 * pushed. */
GST_START_TEST (test_short_buffer_is_an_error)
{
  GstVideoFormat format = __i__ ? GST_VIDEO_FORMAT_ARGB :
      GST_VIDEO_FORMAT_GRAY8;
  GstHarness *h = cip_test_harness_new ("cudamorph", "operation=close");
  GstBus *bus = cip_test_harness_add_bus (h);

  cip_test_assert_short_buffer_refused (h, bus, format);
  cip_test_harness_teardown_with_bus (h, bus);
}

GST_END_TEST;

/* The enums' nicks, the radius range, and the flags of all three. */
GST_START_TEST (test_property_specs)
{
  static const gchar *names[] = { "operation", "shape", "radius" };
  GstElement *morph = gst_element_factory_make ("cudamorph", NULL);
  GObjectClass *klass;
  GParamSpecUInt *radius;
  GEnumClass *enum_class;
  guint i;

  fail_unless (morph != NULL);
  klass = G_OBJECT_GET_CLASS (morph);
  for (i = 0; i < G_N_ELEMENTS (names); i++) {
    GParamSpec *spec = g_object_class_find_property (klass, names[i]);

    fail_unless (spec != NULL, "no property %s", names[i]);
    fail_unless (spec->flags & GST_PARAM_MUTABLE_PLAYING, "%s", names[i]);
    fail_unless ((spec->flags & G_PARAM_READWRITE) == G_PARAM_READWRITE,
        "%s", names[i]);
  }

  enum_class = g_type_class_ref (G_PARAM_SPEC_VALUE_TYPE
      (g_object_class_find_property (klass, "operation")));
  fail_unless_equals_int (enum_class->n_values, G_N_ELEMENTS (operations));
  for (i = 0; i < G_N_ELEMENTS (operations); i++)
    fail_unless_equals_int (g_enum_get_value_by_nick (enum_class,
            operations[i])->value, i);
  g_type_class_unref (enum_class);

  enum_class = g_type_class_ref (G_PARAM_SPEC_VALUE_TYPE
      (g_object_class_find_property (klass, "shape")));
  fail_unless_equals_int (enum_class->n_values, G_N_ELEMENTS (shapes));
  for (i = 0; i < G_N_ELEMENTS (shapes); i++)
    fail_unless_equals_int (g_enum_get_value_by_nick (enum_class,
            shapes[i])->value, i);
  g_type_class_unref (enum_class);

  radius = G_PARAM_SPEC_UINT (g_object_class_find_property (klass, "radius"));
  fail_unless_equals_int (radius->minimum, CIP_MORPH_RADIUS_MIN);
  fail_unless_equals_int (radius->maximum, CIP_MORPH_RADIUS_MAX);
  fail_unless_equals_int (radius->default_value, 1);

  gst_object_unref (morph);
}

GST_END_TEST;

static Suite *
cudamorph_suite (void)
{
  Suite *s = suite_create ("cudamorph");
  TCase *tc = tcase_create ("general");

  suite_add_tcase (s, tc);
  tcase_set_timeout (tc, CIP_TEST_TIMEOUT);
  tcase_add_loop_test (tc, test_matches_opencv, 0,
      G_N_ELEMENTS (md5_images) * G_N_ELEMENTS (operations) *
      G_N_ELEMENTS (shapes));
  tcase_add_loop_test (tc, test_chelsea_every_four_byte_format, 0,
      N_FOUR_BYTE_FORMATS);
  tcase_add_test (tc, test_otsu_mask_erosion_matches_opencv);
  tcase_add_loop_test (tc, test_dilated_point_draws_the_element, 0,
      2 * G_N_ELEMENTS (shapes));
  tcase_add_loop_test (tc, test_defaults_every_format, 0,
      G_N_ELEMENTS (formats));
  tcase_add_loop_test (tc, test_odd_sizes_and_strides, 0,
      G_N_ELEMENTS (formats) * G_N_ELEMENTS (odd_sizes));
  tcase_add_test (tc, test_segmentation_chain);
  tcase_add_loop_test (tc, test_refuses_other_formats, 0, 5);
  tcase_add_loop_test (tc, test_short_buffer_is_an_error, 0, 2);
  tcase_add_test (tc, test_property_specs);

  return s;
}

CIP_TEST_ELEMENT_MAIN (cudamorph)
