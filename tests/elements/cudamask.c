/* gst-cuda-imgproc
 * Copyright (C) 2026 The gst-cuda-imgproc authors
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2 of the License, or (at your option) any later version.
 */

/* cudamask: its defaults, threshold, foreground and invert against the
 * definition and cip_ref_mask, and property changes between frames. */

#include <string.h>

#include "test-element.h"
#include "cip-ref.h"

typedef struct
{
  guint threshold;
  guint foreground;
  gboolean invert;
} MaskCase;

static const MaskCase cases[] = {
  {0, 255, FALSE},
  {0, 255, TRUE},
  {107, 255, FALSE},
  {107, 255, TRUE},
  {40, 128, FALSE},
  {200, 1, TRUE},
  {254, 255, FALSE},
  {255, 255, FALSE},            /* nothing is above 255: all background */
  {255, 77, TRUE},              /* ... so all foreground */
  {100, 0, FALSE},              /* foreground 0: all 0 */
};

/* The definition, pixel by pixel. */
static guint8
mask_pixel (guint8 in, const MaskCase * c)
{
  gboolean above = in > c->threshold;

  return (above != !!c->invert) ? c->foreground : 0;
}

/* Fails unless @out (plane 0 of a GRAY8 buffer of @caps) is @src masked by
 * @c, by the definition and by cip_ref_mask. */
static void
assert_masked (GstBuffer * out, GstCaps * caps, const CipImage * src,
    const MaskCase * c)
{
  CipMaskParams params = { c->threshold, c->foreground, c->invert };
  CipImage expected = cip_test_image_new (src->width, src->height,
      CIP_FORMAT_GRAY8, 0);
  GstVideoFrame frame;
  CipImage actual;
  gint x, y;

  cip_test_frame_map (&frame, out, caps, &actual);
  for (y = 0; y < src->height; y++)
    for (x = 0; x < src->width; x++) {
      guint8 in = ((const guint8 *) src->data)[y * src->stride + x];
      guint8 got = ((const guint8 *) actual.data)[y * actual.stride + x];

      if (got != mask_pixel (in, c)) {
        gst_video_frame_unmap (&frame);
        fail ("pixel %d,%d: %u became %u, expected %u (threshold %u, "
            "foreground %u, invert %d)", x, y, in, got, mask_pixel (in, c),
            c->threshold, c->foreground, c->invert);
      }
    }
  gst_video_frame_unmap (&frame);

  fail_unless_equals_int (cip_ref_mask (src, &expected, &params, NULL), CIP_OK);
  cip_test_assert_buffer_image (out, caps, &expected);
  cip_test_image_free (&expected);
}

/* With the defaults, any non-zero pixel becomes 255 and 0 stays 0. */
GST_START_TEST (test_defaults_mark_nonzero_pixels)
{
  GstHarness *h = cip_test_harness_new ("cudamask", NULL);
  CipImage src = cip_test_image_random (97, 31, CIP_FORMAT_GRAY8, 5);
  guint8 *p = src.data;
  GstBuffer *out;
  GstCaps *caps;
  GstVideoFrame frame;
  CipImage actual;
  guint zeros = 0, marked = 0;
  gint i, x, y;

  /* A third of the pixels 0, and a few 1 and 255. */
  for (i = 0; i < 97 * 31; i++)
    if (p[i] % 3 == 0)
      p[i] = 0;
  p[1] = 1;
  p[2] = 255;

  cip_test_harness_set_image_caps (h, &src);
  out = cip_test_push_pull (h, cip_test_buffer_new (&src));
  caps = cip_test_harness_output_caps (h);
  cip_test_frame_map (&frame, out, caps, &actual);
  for (y = 0; y < src.height; y++)
    for (x = 0; x < src.width; x++) {
      guint8 in = p[y * src.stride + x];
      guint8 got = ((guint8 *) actual.data)[y * actual.stride + x];

      if (got != (in ? 255 : 0)) {
        gst_video_frame_unmap (&frame);
        fail ("pixel %d,%d: %u became %u", x, y, in, got);
      }
      zeros += in == 0;
      marked += got == 255;
    }
  gst_video_frame_unmap (&frame);
  fail_unless (zeros > 0 && marked > 0);
  fail_unless_equals_int (zeros + marked, 97 * 31);
  assert_masked (out, caps, &src, &cases[0]);

  gst_caps_unref (caps);
  gst_buffer_unref (out);
  cip_test_image_free (&src);
  gst_harness_teardown (h);
}

GST_END_TEST;

/* threshold, foreground and invert, set at creation, on coins. */
GST_START_TEST (test_properties_on_coins)
{
  const MaskCase *c = &cases[__i__];
  gchar *props = g_strdup_printf ("threshold=%u foreground=%u invert=%s",
      c->threshold, c->foreground, c->invert ? "true" : "false");
  GstHarness *h = cip_test_harness_new ("cudamask", props);
  CipImage coins = cip_test_image_load ("coins.pgm");
  GstBuffer *out;
  GstCaps *caps;

  cip_test_harness_set_image_caps (h, &coins);
  out = cip_test_push_pull (h, cip_test_buffer_new (&coins));
  caps = cip_test_harness_output_caps (h);
  assert_masked (out, caps, &coins, c);

  gst_caps_unref (caps);
  gst_buffer_unref (out);
  cip_test_image_free (&coins);
  gst_harness_teardown (h);
  g_free (props);
}

GST_END_TEST;

/* Properties set between frames, in PLAYING, apply from the next frame. */
GST_START_TEST (test_property_change_between_frames)
{
  static const guint order[] = { 0, 2, 3, 4, 5, 0 };
  GstHarness *h = cip_test_harness_new ("cudamask", NULL);
  GstElement *mask = cip_test_harness_element (h, "cudamask");
  CipImage coins = cip_test_image_load ("coins.pgm");
  guint i;

  cip_test_harness_set_image_caps (h, &coins);
  for (i = 0; i < G_N_ELEMENTS (order); i++) {
    const MaskCase *c = &cases[order[i]];
    guint threshold, foreground;
    gboolean invert;
    GstBuffer *out;
    GstCaps *caps;

    if (i > 0)
      g_object_set (mask, "threshold", c->threshold, "foreground",
          c->foreground, "invert", c->invert, NULL);
    g_object_get (mask, "threshold", &threshold, "foreground", &foreground,
        "invert", &invert, NULL);
    fail_unless_equals_int (threshold, c->threshold);
    fail_unless_equals_int (foreground, c->foreground);
    fail_unless_equals_int (invert, c->invert);

    out = cip_test_push_pull (h, cip_test_buffer_new (&coins));
    caps = cip_test_harness_output_caps (h);
    assert_masked (out, caps, &coins, c);
    gst_caps_unref (caps);
    gst_buffer_unref (out);
  }
  fail_unless_equals_int (gst_harness_buffers_received (h),
      G_N_ELEMENTS (order));

  gst_object_unref (mask);
  cip_test_image_free (&coins);
  gst_harness_teardown (h);
}

GST_END_TEST;

/* Output caps are the input's: GRAY8 of the same size and rate. */
GST_START_TEST (test_output_caps_equal_input_caps)
{
  GstHarness *h = cip_test_harness_new ("cudamask", "threshold=9");
  CipImage src = cip_test_image_random (45, 11, CIP_FORMAT_GRAY8, 9);
  GstCaps *in_caps = cip_test_caps_new (GST_VIDEO_FORMAT_GRAY8, 45, 11);
  GstBuffer *out;
  GstCaps *caps;

  gst_harness_set_src_caps (h, gst_caps_ref (in_caps));
  out = cip_test_push_pull (h, cip_test_buffer_new (&src));
  caps = cip_test_harness_output_caps (h);
  fail_unless (gst_caps_is_equal (caps, in_caps), "%" GST_PTR_FORMAT
      " != %" GST_PTR_FORMAT, caps, in_caps);
  {
    const MaskCase c = { 9, 255, FALSE };

    assert_masked (out, caps, &src, &c);
  }

  gst_caps_unref (caps);
  gst_caps_unref (in_caps);
  gst_buffer_unref (out);
  cip_test_image_free (&src);
  gst_harness_teardown (h);
}

GST_END_TEST;

/* GRAY16_LE in, a GRAY8 mask out, at a threshold in 16-bit units. */
GST_START_TEST (test_gray16_input)
{
  GstHarness *h = cip_test_harness_new ("cudamask",
      "threshold=30000 foreground=200");
  CipImage src = cip_test_image_load ("otsu16-camera.pgm");
  CipImage expected = cip_test_image_new (src.width, src.height,
      CIP_FORMAT_GRAY8, 0);
  CipMaskParams params = { 30000, 200, false };
  GstBuffer *out;
  GstCaps *caps;
  GstVideoInfo info;

  fail_unless_equals_int (cip_ref_mask (&src, &expected, &params, NULL),
      CIP_OK);
  cip_test_harness_set_image_caps (h, &src);
  out = cip_test_push_pull (h, cip_test_buffer_new (&src));
  caps = cip_test_harness_output_caps (h);
  fail_unless (gst_video_info_from_caps (&info, caps));
  fail_unless_equals_int (GST_VIDEO_INFO_FORMAT (&info),
      GST_VIDEO_FORMAT_GRAY8);
  cip_test_assert_buffer_image (out, caps, &expected);

  gst_caps_unref (caps);
  gst_buffer_unref (out);
  cip_test_image_free (&expected);
  cip_test_image_free (&src);
  gst_harness_teardown (h);
}

GST_END_TEST;

/* A threshold above 255 refuses GRAY8 input at negotiation, with an
 * error that says why. */
GST_START_TEST (test_gray8_threshold_above_255_refused)
{
  GstHarness *h = cip_test_harness_new ("cudamask", "threshold=300");
  GstBus *bus = cip_test_harness_add_bus (h);
  CipImage src = cip_test_image_random (16, 8, CIP_FORMAT_GRAY8, 3);
  GError *error = NULL;

  cip_test_harness_set_image_caps (h, &src);
  fail_unless_equals_int (gst_harness_push (h, cip_test_buffer_new (&src)),
      GST_FLOW_NOT_NEGOTIATED);
  fail_unless (cip_test_bus_pop_errors (bus, &error) >= 1);
  fail_unless (g_error_matches (error, GST_CORE_ERROR,
          GST_CORE_ERROR_NEGOTIATION));
  fail_unless (strstr (error->message, "above 255") != NULL, "%s",
      error->message);

  g_error_free (error);
  cip_test_image_free (&src);
  cip_test_harness_teardown_with_bus (h, bus);
}

GST_END_TEST;

/* While GRAY8 flows, a threshold above 255 is not taken (a warning says
 * so); on GRAY16_LE it is. */
GST_START_TEST (test_threshold_above_255_while_gray8)
{
  GstHarness *h = cip_test_harness_new ("cudamask", "threshold=7");
  GstBus *bus = cip_test_harness_add_bus (h);
  GstElement *mask = cip_test_harness_element (h, "cudamask");
  CipImage src = cip_test_image_random (16, 8, CIP_FORMAT_GRAY8, 4);
  GstMessage *warning;
  guint threshold;

  cip_test_harness_set_image_caps (h, &src);
  gst_buffer_unref (cip_test_push_pull (h, cip_test_buffer_new (&src)));
  g_object_set (mask, "threshold", 300, NULL);
  g_object_get (mask, "threshold", &threshold, NULL);
  fail_unless_equals_int (threshold, 7);
  warning = cip_test_bus_pop_type (bus, GST_MESSAGE_WARNING);
  fail_unless (warning != NULL);
  gst_message_unref (warning);
  g_object_set (mask, "threshold", 255, NULL);
  g_object_get (mask, "threshold", &threshold, NULL);
  fail_unless_equals_int (threshold, 255);

  cip_test_image_free (&src);
  src = cip_test_image_random (16, 8, CIP_FORMAT_GRAY16, 5);
  cip_test_harness_set_image_caps (h, &src);
  gst_buffer_unref (cip_test_push_pull (h, cip_test_buffer_new (&src)));
  g_object_set (mask, "threshold", 65535, NULL);
  g_object_get (mask, "threshold", &threshold, NULL);
  fail_unless_equals_int (threshold, 65535);

  gst_object_unref (mask);
  cip_test_image_free (&src);
  cip_test_harness_teardown_with_bus (h, bus);
}

GST_END_TEST;

static Suite *
cudamask_suite (void)
{
  Suite *s = suite_create ("cudamask");
  TCase *tc = tcase_create ("general");

  suite_add_tcase (s, tc);
  tcase_set_timeout (tc, CIP_TEST_TIMEOUT);
  tcase_add_test (tc, test_defaults_mark_nonzero_pixels);
  tcase_add_loop_test (tc, test_properties_on_coins, 0, G_N_ELEMENTS (cases));
  tcase_add_test (tc, test_property_change_between_frames);
  tcase_add_test (tc, test_output_caps_equal_input_caps);
  tcase_add_test (tc, test_gray16_input);
  tcase_add_test (tc, test_gray8_threshold_above_255_refused);
  tcase_add_test (tc, test_threshold_above_255_while_gray8);

  return s;
}

CIP_TEST_ELEMENT_MAIN (cudamask)
