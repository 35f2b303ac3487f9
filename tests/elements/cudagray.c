/* gst-cuda-imgproc
 * Copyright (C) 2026 The gst-cuda-imgproc authors
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2 of the License, or (at your option) any later version.
 */

/* cudagray: every input format and method against OpenCV and the
 * reference, its caps, and its method property. */

#include "test-element.h"
#include "cip-ref.h"

/* Every input format, in the order of the pad template. */
static const GstVideoFormat formats[] = {
  GST_VIDEO_FORMAT_RGBA, GST_VIDEO_FORMAT_BGRA, GST_VIDEO_FORMAT_RGBx,
  GST_VIDEO_FORMAT_BGRx, GST_VIDEO_FORMAT_ARGB, GST_VIDEO_FORMAT_ABGR,
  GST_VIDEO_FORMAT_RGB, GST_VIDEO_FORMAT_BGR, GST_VIDEO_FORMAT_NV12,
  GST_VIDEO_FORMAT_I420, GST_VIDEO_FORMAT_GRAY8,
};

static const struct
{
  const gchar *nick;
  CipGrayMethod method;
} methods[] = {
  {"bt601", CIP_GRAY_BT601},
  {"bt709", CIP_GRAY_BT709},
  {"luminosity", CIP_GRAY_LUMINOSITY},
  {"average", CIP_GRAY_AVERAGE},
};

static gboolean
is_packed_rgb (GstVideoFormat format)
{
  return format != GST_VIDEO_FORMAT_NV12 && format != GST_VIDEO_FORMAT_I420
      && format != GST_VIDEO_FORMAT_GRAY8;
}

static CipFormat
cip_format (GstVideoFormat format)
{
  CipFormat f;

  for (f = CIP_FORMAT_GRAY8; f < CIP_N_INPUT_FORMATS; f++)
    if (cip_test_video_format (f) == format)
      return f;
  return CIP_FORMAT_GRAY8;      /* the luma plane of NV12 and I420 */
}

/* Chelsea as a frame's first plane: the colour image repacked (alpha and
 * x bytes 0x37, which must not count), or for NV12, I420 and GRAY8 the
 * gray image OpenCV made of it.  Free with cip_test_image_free(). */
static CipImage
chelsea_plane0 (GstVideoFormat format)
{
  CipImage image;

  if (is_packed_rgb (format)) {
    CipImage rgb = cip_test_image_load ("chelsea.ppm");

    image = cip_test_image_repack (&rgb, cip_format (format), 0x37, 0);
    cip_test_image_free (&rgb);
  } else {
    image = cip_test_image_load ("chelsea-gray-bt601.pgm");
  }
  return image;
}

/* Pushes chelsea in @format through @h and checks the output against
 * @expected. */
static void
push_chelsea (GstHarness * h, GstVideoFormat format, const CipImage * expected)
{
  CipImage src = chelsea_plane0 (format);
  GstBuffer *out;
  GstCaps *caps;

  out = cip_test_push_pull (h, cip_test_buffer_for_format (&src, format, 3));
  caps = cip_test_harness_output_caps (h);
  cip_test_assert_buffer_image (out, caps, expected);
  gst_caps_unref (caps);
  gst_buffer_unref (out);
  cip_test_image_free (&src);
}

/* The default method, bt601, is OpenCV's cvtColor (RGB2GRAY) bit for bit
 * in every format; NV12 and I420 give their luma, GRAY8 itself. */
GST_START_TEST (test_default_method_matches_opencv)
{
  GstVideoFormat format = formats[__i__];
  GstHarness *h = cip_test_harness_new ("cudagray", NULL);
  CipImage expected = cip_test_image_load ("chelsea-gray-bt601.pgm");

  GST_INFO ("format %s", gst_video_format_to_string (format));
  gst_harness_set_src_caps (h, cip_test_caps_new (format, expected.width,
          expected.height));
  push_chelsea (h, format, &expected);

  cip_test_image_free (&expected);
  gst_harness_teardown (h);
}

GST_END_TEST;

/* Every method in every format equals cip_ref_gray. */
GST_START_TEST (test_methods_match_reference)
{
  GstVideoFormat format = formats[__i__ % G_N_ELEMENTS (formats)];
  guint m = __i__ / G_N_ELEMENTS (formats);
  gchar *props = g_strdup_printf ("method=%s", methods[m].nick);
  GstHarness *h = cip_test_harness_new ("cudagray", props);
  CipImage src = chelsea_plane0 (format);
  CipImage expected = cip_test_image_new (src.width, src.height,
      CIP_FORMAT_GRAY8, 0);

  GST_INFO ("format %s method %s", gst_video_format_to_string (format),
      methods[m].nick);
  fail_unless_equals_int (cip_ref_gray (&src, &expected, methods[m].method,
          NULL), CIP_OK);
  gst_harness_set_src_caps (h, cip_test_caps_new (format, src.width,
          src.height));
  push_chelsea (h, format, &expected);

  cip_test_image_free (&expected);
  cip_test_image_free (&src);
  gst_harness_teardown (h);
  g_free (props);
}

GST_END_TEST;

/* GRAY8 in is GRAY8 out: the very buffer goes through. */
GST_START_TEST (test_gray8_is_passed_through)
{
  GstHarness *h = cip_test_harness_new ("cudagray", "method=average");
  CipImage src = cip_test_image_random (33, 17, CIP_FORMAT_GRAY8, 1);
  GstBuffer *in = cip_test_buffer_new (&src);
  GstBuffer *out;
  GstCaps *caps;

  gst_harness_set_src_caps (h, cip_test_caps_new (GST_VIDEO_FORMAT_GRAY8,
          33, 17));
  out = cip_test_push_pull (h, gst_buffer_ref (in));
  fail_unless (out == in, "GRAY8 input was not passed through");
  caps = cip_test_harness_output_caps (h);
  cip_test_assert_buffer_image (out, caps, &src);

  gst_caps_unref (caps);
  gst_buffer_unref (out);
  gst_buffer_unref (in);
  cip_test_image_free (&src);
  gst_harness_teardown (h);
}

GST_END_TEST;

/* Output caps: GRAY8 at the input's size, frame rate and aspect ratio. */
GST_START_TEST (test_output_caps)
{
  GstVideoFormat format = formats[__i__];
  GstHarness *h = cip_test_harness_new ("cudagray", NULL);
  CipImage src = chelsea_plane0 (format);
  GstBuffer *out;
  GstCaps *caps;
  GstStructure *s;
  gint width = 0, height = 0, num = 0, den = 0;
  gchar *str;

  str = g_strdup_printf ("video/x-raw,format=%s,width=%d,height=%d,"
      "framerate=25/2,pixel-aspect-ratio=1/1",
      gst_video_format_to_string (format), src.width, src.height);
  gst_harness_set_src_caps_str (h, str);
  g_free (str);
  out = cip_test_push_pull (h, cip_test_buffer_for_format (&src, format, 1));

  caps = cip_test_harness_output_caps (h);
  fail_unless (gst_caps_is_fixed (caps));
  s = gst_caps_get_structure (caps, 0);
  fail_unless (gst_structure_has_name (s, "video/x-raw"));
  fail_unless_equals_string (gst_structure_get_string (s, "format"),
      "GRAY8");
  fail_unless (gst_structure_get_int (s, "width", &width));
  fail_unless (gst_structure_get_int (s, "height", &height));
  fail_unless_equals_int (width, 451);
  fail_unless_equals_int (height, 300);
  fail_unless (gst_structure_get_fraction (s, "framerate", &num, &den));
  fail_unless_equals_int (num, 25);
  fail_unless_equals_int (den, 2);
  fail_unless (gst_structure_get_fraction (s, "pixel-aspect-ratio", &num,
          &den));
  fail_unless_equals_int (num, 1);
  fail_unless_equals_int (den, 1);
  fail_unless_equals_int (gst_buffer_get_size (out), GST_ROUND_UP_4 (451) *
      300);

  gst_caps_unref (caps);
  gst_buffer_unref (out);
  cip_test_image_free (&src);
  gst_harness_teardown (h);
}

GST_END_TEST;

/* 16-bit rows at an odd stride, as a video meta puts them, are refused
 * with an error that names the frame, not read across their samples. */
GST_START_TEST (test_odd_16bit_stride_refused)
{
  GstHarness *h = cip_test_harness_new ("cudagray", NULL);
  GstBus *bus = cip_test_harness_add_bus (h);
  GstVideoInfo info;
  gsize offsets[GST_VIDEO_MAX_PLANES] = { 0, 0 };
  gint strides[GST_VIDEO_MAX_PLANES] = { 129, 129 };
  GstBuffer *in;

  fail_unless (gst_video_info_set_format (&info, GST_VIDEO_FORMAT_P010_10LE,
          64, 48));
  offsets[1] = 129 * 48;
  in = gst_buffer_new_allocate (NULL, offsets[1] + 129 * 24, NULL);
  gst_buffer_memset (in, 0, 0x5a, gst_buffer_get_size (in));
  gst_buffer_add_video_meta_full (in, GST_VIDEO_FRAME_FLAG_NONE,
      GST_VIDEO_FORMAT_P010_10LE, 64, 48, 2, offsets, strides);
  cip_test_harness_set_caps (h, GST_VIDEO_FORMAT_P010_10LE, 64, 48);
  fail_unless_equals_int (gst_harness_push (h, in), GST_FLOW_ERROR);
  cip_test_bus_assert_one_error (bus, GST_STREAM_ERROR,
      GST_STREAM_ERROR_FORMAT, "64x48 P010_10LE");
  fail_unless_equals_int (gst_harness_buffers_received (h), 0);
  cip_test_harness_teardown_with_bus (h, bus);
}

GST_END_TEST;

/* The method property's value, as its nick. */
static gchar *
get_method (GstElement * gray)
{
  GParamSpec *pspec =
      g_object_class_find_property (G_OBJECT_GET_CLASS (gray), "method");
  GValue value = G_VALUE_INIT;
  gchar *nick;

  g_value_init (&value, pspec->value_type);
  g_object_get_property (G_OBJECT (gray), "method", &value);
  nick = gst_value_serialize (&value);
  g_value_unset (&value);
  return nick;
}

/* method can change in PLAYING; the next frame uses the new weights. */
GST_START_TEST (test_method_change_while_playing)
{
  static const guint order[] = { 0, 1, 3, 2, 0 };
  GstHarness *h = cip_test_harness_new ("cudagray", NULL);
  GstElement *gray = cip_test_harness_element (h, "cudagray");
  CipImage src = chelsea_plane0 (GST_VIDEO_FORMAT_BGRx);
  CipImage previous = { NULL, };
  guint i;

  gst_harness_set_src_caps (h, cip_test_caps_new (GST_VIDEO_FORMAT_BGRx,
          src.width, src.height));
  for (i = 0; i < G_N_ELEMENTS (order); i++) {
    guint m = order[i];
    CipImage expected = cip_test_image_new (src.width, src.height,
        CIP_FORMAT_GRAY8, 0);
    GstState state = GST_STATE_VOID_PENDING;
    gchar *nick;

    fail_unless_equals_int (cip_ref_gray (&src, &expected, methods[m].method,
            NULL), CIP_OK);
    fail_unless_equals_int (gst_element_get_state (gray, &state, NULL, 0),
        GST_STATE_CHANGE_SUCCESS);
    fail_unless_equals_int (state, GST_STATE_PLAYING);
    if (i > 0)
      gst_util_set_object_arg (G_OBJECT (gray), "method", methods[m].nick);
    nick = get_method (gray);
    fail_unless_equals_string (nick, methods[m].nick);
    g_free (nick);

    push_chelsea (h, GST_VIDEO_FORMAT_BGRx, &expected);
    /* Each change shows: the weights give another image. */
    if (previous.data)
      fail_if (cip_test_images_equal (&previous, &expected, NULL));
    cip_test_image_free (&previous);
    previous = expected;
  }
  fail_unless_equals_int (gst_harness_buffers_received (h),
      G_N_ELEMENTS (order));

  cip_test_image_free (&previous);
  gst_object_unref (gray);
  cip_test_image_free (&src);
  gst_harness_teardown (h);
}

GST_END_TEST;

static Suite *
cudagray_suite (void)
{
  Suite *s = suite_create ("cudagray");
  TCase *tc = tcase_create ("general");

  suite_add_tcase (s, tc);
  tcase_set_timeout (tc, CIP_TEST_TIMEOUT);
  tcase_add_loop_test (tc, test_default_method_matches_opencv, 0,
      G_N_ELEMENTS (formats));
  tcase_add_loop_test (tc, test_methods_match_reference, 0,
      G_N_ELEMENTS (formats) * G_N_ELEMENTS (methods));
  tcase_add_test (tc, test_gray8_is_passed_through);
  tcase_add_loop_test (tc, test_output_caps, 0, G_N_ELEMENTS (formats));
  tcase_add_test (tc, test_method_change_while_playing);
  tcase_add_test (tc, test_odd_16bit_stride_refused);

  return s;
}

CIP_TEST_ELEMENT_MAIN (cudagray)
