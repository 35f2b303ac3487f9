/* gst-cuda-imgproc
 * Copyright (C) 2026 The gst-cuda-imgproc authors
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2 of the License, or (at your option) any later version.
 */

/* Where no CUDA device is usable (no driver, or CUDA_VISIBLE_DEVICES=-1):
 * with backend=auto, the default, every element runs on the CPU and says
 * so in a RESOURCE/NOT_FOUND warning; with backend=cuda it refuses to
 * start with RESOURCE/NOT_FOUND, saying why; with backend=cpu it works
 * without a word.  Runs on every host, hence its own main() without the
 * backend skip. */

#include <string.h>

#include "test-element.h"

static const gchar *elements[] = {
  "cudagray", "cudamask", "cudaequalize", "cudaotsu", "cudablur",
  "cudamorph", "cudalabel",
};

/* Brings @name (backend=cuda; the default is auto) up towards PLAYING and
 * checks that it fails to start with RESOURCE/NOT_FOUND naming CUDA. */
static void
check_refuses_to_start (const gchar * name)
{
  GstElement *element = gst_element_factory_make (name, NULL);
  GstBus *bus = gst_bus_new ();
  GstStateChangeReturn ret;
  gchar *backend = NULL;

  fail_unless (element != NULL, "no element %s", name);
  gst_object_ref_sink (element);
  gst_element_set_bus (element, bus);
  {
    GValue value = G_VALUE_INIT;

    g_value_init (&value, G_PARAM_SPEC_VALUE_TYPE
        (g_object_class_find_property (G_OBJECT_GET_CLASS (element),
                "backend")));
    g_object_get_property (G_OBJECT (element), "backend", &value);
    backend = gst_value_serialize (&value);
    g_value_unset (&value);
  }
  fail_unless_equals_string (backend, "auto");
  g_free (backend);
  gst_util_set_object_arg (G_OBJECT (element), "backend", "cuda");

  /* The driver and device are looked for on the way to READY. */
  ret = gst_element_set_state (element, GST_STATE_READY);
  fail_unless_equals_int (ret, GST_STATE_CHANGE_FAILURE);
  cip_test_bus_assert_one_error (bus, GST_RESOURCE_ERROR,
      GST_RESOURCE_ERROR_NOT_FOUND, "CUDA");

  fail_unless_equals_int (gst_element_set_state (element, GST_STATE_NULL),
      GST_STATE_CHANGE_SUCCESS);
  gst_element_set_bus (element, NULL);
  gst_object_unref (bus);
  gst_object_unref (element);
}

/* The test runs where it should: no CUDA device usable. */
GST_START_TEST (test_no_usable_device_here)
{
  fail_if (cip_test_have_cuda_device (),
      "a CUDA device is usable: run with CUDA_VISIBLE_DEVICES=-1");
}

GST_END_TEST;

GST_START_TEST (test_cuda_backend_refuses_to_start)
{
  check_refuses_to_start (elements[__i__]);
}

GST_END_TEST;

/* Two elements in one process: the second fails as cleanly as the first
 * (and does not hang). */
GST_START_TEST (test_second_element_also_refuses)
{
  check_refuses_to_start ("cudagray");
  check_refuses_to_start ("cudaotsu");
}

GST_END_TEST;

/* With no backend= the elements run on the CPU: each says so once, in a
 * RESOURCE/NOT_FOUND warning naming the CPU, and the frames come out as
 * the reference computes them. */
GST_START_TEST (test_auto_backend_runs_on_the_cpu)
{
  /* the bus is there before the elements look for a device */
  GstElement *bin = gst_parse_bin_from_description ("cudagray ! cudaotsu",
      TRUE, NULL);
  GstBus *bus = gst_bus_new ();
  GstHarness *h;
  CipImage src = cip_test_image_random (64, 48, CIP_FORMAT_RGBA, 7);
  CipImage gray = cip_test_expected_default ("cudagray", &src);
  CipImage expected = cip_test_expected_default ("cudaotsu", &gray);
  GstMessage *msg;
  GError *err = NULL;
  GstBuffer *out;
  GstCaps *caps;
  guint i;

  gst_object_ref_sink (bin);
  gst_element_set_bus (bin, bus);
  h = gst_harness_new_with_element (bin, "sink", "src");
  gst_harness_set_src_caps (h, cip_test_caps_new (GST_VIDEO_FORMAT_RGBA, 64,
          48));
  for (i = 0; i < 3; i++) {
    out = cip_test_push_pull (h, cip_test_buffer_new (&src));
    caps = cip_test_harness_output_caps (h);
    cip_test_assert_buffer_image (out, caps, &expected);
    gst_caps_unref (caps);
    gst_buffer_unref (out);
  }
  for (i = 0; i < 2; i++) {
    msg = cip_test_bus_pop_type (bus, GST_MESSAGE_WARNING);
    fail_unless (msg != NULL, "%u warnings, expected one an element", i);
    gst_message_parse_warning (msg, &err, NULL);
    fail_unless (g_error_matches (err, GST_RESOURCE_ERROR,
            GST_RESOURCE_ERROR_NOT_FOUND), "warning %s",
        err->message);
    fail_unless (strstr (err->message, "runs on the CPU") != NULL,
        "the warning '%s' does not say where the element runs", err->message);
    g_clear_error (&err);
    gst_message_unref (msg);
  }
  fail_unless_equals_int (cip_test_bus_pop_warnings (bus, 0, 0), 0);
  fail_unless_equals_int (cip_test_bus_pop_errors (bus, NULL), 0);

  cip_test_image_free (&expected);
  cip_test_image_free (&gray);
  cip_test_image_free (&src);
  cip_test_harness_teardown_with_bus (h, bus);
  gst_object_unref (bin);
}

GST_END_TEST;

/* backend=cpu needs no device: a frame comes out right. */
GST_START_TEST (test_cpu_backend_works)
{
  const gchar *name = elements[__i__];
  gchar *launch = g_strdup_printf ("%s backend=cpu", name);
  GstHarness *h = gst_harness_new_parse (launch);
  GstBus *bus = cip_test_harness_add_bus (h);
  GstVideoFormat format = g_str_equal (name, "cudagray") ?
      GST_VIDEO_FORMAT_BGRA : GST_VIDEO_FORMAT_GRAY8;
  CipFormat cip_format = g_str_equal (name, "cudagray") ?
      CIP_FORMAT_BGRA : CIP_FORMAT_GRAY8;
  CipImage src = cip_test_image_random (67, 29, cip_format, __i__);
  CipImage expected = cip_test_expected_default (name, &src);
  GstBuffer *out;
  GstCaps *caps;

  gst_harness_set_src_caps (h, cip_test_caps_new (format, 67, 29));
  out = cip_test_push_pull (h, cip_test_buffer_new (&src));
  caps = cip_test_harness_output_caps (h);
  cip_test_assert_buffer_image (out, caps, &expected);
  fail_unless_equals_int (cip_test_bus_pop_errors (bus, NULL), 0);

  gst_caps_unref (caps);
  gst_buffer_unref (out);
  cip_test_image_free (&expected);
  cip_test_image_free (&src);
  gst_harness_teardown (h);
  gst_object_unref (bus);
  g_free (launch);
}

GST_END_TEST;

static Suite *
no_device_suite (void)
{
  Suite *s = suite_create ("no-device");
  TCase *tc = tcase_create ("general");

  suite_add_tcase (s, tc);
  /* Short: the whole binary runs under meson's 30 s default. */
  tcase_set_timeout (tc, 10);
  tcase_add_test (tc, test_no_usable_device_here);
  tcase_add_loop_test (tc, test_cuda_backend_refuses_to_start, 0,
      G_N_ELEMENTS (elements));
  tcase_add_test (tc, test_second_element_also_refuses);
  tcase_add_test (tc, test_auto_backend_runs_on_the_cpu);
  tcase_add_loop_test (tc, test_cpu_backend_works, 0,
      G_N_ELEMENTS (elements));

  return s;
}

int
main (int argc, char **argv)
{
  gst_check_init (&argc, &argv);

  /* GStreamer 1.22's CUDA library, when cuInit() fails (a driver but no
   * visible device), calls g_once_init_leave() with 0, a critical.  That
   * is not this plugin's message; what the element posts is checked. */
  gst_check_add_log_filter ("GLib", G_LOG_LEVEL_CRITICAL,
      g_regex_new ("g_once_init_leave", 0, 0, NULL), NULL, NULL, NULL);
  /* ... and, where GST_DEBUG is set, logs "Failed to cuInit" before it
   * has set up its debug category. */
  gst_check_add_log_filter ("GStreamer", G_LOG_LEVEL_CRITICAL,
      g_regex_new ("category != NULL", 0, 0, NULL), NULL, NULL, NULL);

  return gst_check_run_suite (no_device_suite (), "no-device", __FILE__);
}
