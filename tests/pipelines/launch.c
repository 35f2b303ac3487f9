/* gst-cuda-imgproc
 * Copyright (C) 2026 The gst-cuda-imgproc authors
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2 of the License, or (at your option) any later version.
 */

/* Launch lines, as a user writes them: each element alone, the four
 * chained, and beside nvcodec's CUDA elements.  Outputs are checked
 * against the reference applied to the same source frames. */

#include <gst/app/gstappsink.h>

#include "cip-ref.h"
#include "test-element.h"

#define N_FRAMES 6

typedef struct
{
  GPtrArray *in;                /* GstSample of the source frames */
  GPtrArray *out;               /* GstSample of the processed frames */
  guint otsu_messages;
} Run;

static void
pull_all (GstElement * pipeline, const gchar * name, GPtrArray * samples)
{
  GstElement *sink = gst_bin_get_by_name (GST_BIN (pipeline), name);
  GstSample *sample;

  if (sink == NULL)
    return;
  while ((sample = gst_app_sink_try_pull_sample (GST_APP_SINK (sink),
              G_GUINT64_CONSTANT (0))))
    g_ptr_array_add (samples, sample);
  gst_object_unref (sink);
}

/* Runs @description (with "%s" standing for the backend, everywhere) to
 * EOS; appsinks named "in" and "out" keep what reached them. */
static Run *
run_pipeline (const gchar * description)
{
  const gchar *backend = cip_test_backend_name ();
  gchar **parts = g_strsplit (description, "%s", -1);
  gchar *launch = g_strjoinv (backend, parts);
  GError *error = NULL;
  GstElement *pipeline;
  GstBus *bus;
  GstMessage *msg;
  Run *run = g_new0 (Run, 1);

  run->in = g_ptr_array_new_with_free_func ((GDestroyNotify) gst_sample_unref);
  run->out = g_ptr_array_new_with_free_func ((GDestroyNotify)
      gst_sample_unref);

  GST_INFO ("launching %s", launch);
  pipeline = gst_parse_launch (launch, &error);
  g_assert_no_error (error);
  fail_unless_equals_int (gst_element_set_state (pipeline, GST_STATE_PLAYING),
      GST_STATE_CHANGE_ASYNC);

  bus = gst_element_get_bus (pipeline);
  while ((msg = gst_bus_timed_pop_filtered (bus, 60 * GST_SECOND,
              GST_MESSAGE_EOS | GST_MESSAGE_ERROR | GST_MESSAGE_ELEMENT))) {
    if (GST_MESSAGE_TYPE (msg) == GST_MESSAGE_ERROR) {
      gchar *debug = NULL;

      gst_message_parse_error (msg, &error, &debug);
      g_error ("%s: %s (%s)", launch, error->message, debug);
    }
    if (GST_MESSAGE_TYPE (msg) == GST_MESSAGE_EOS) {
      gst_message_unref (msg);
      break;
    }
    if (gst_message_has_name (msg, "cudaotsu"))
      run->otsu_messages++;
    gst_message_unref (msg);
  }
  fail_unless (msg != NULL, "%s did not reach EOS", launch);

  pull_all (pipeline, "in", run->in);
  pull_all (pipeline, "out", run->out);

  gst_element_set_state (pipeline, GST_STATE_NULL);
  gst_object_unref (bus);
  gst_object_unref (pipeline);
  g_free (launch);
  g_strfreev (parts);
  return run;
}

static void
run_free (Run * run)
{
  g_ptr_array_unref (run->in);
  g_ptr_array_unref (run->out);
  g_free (run);
}

static CipFormat
format_of (GstVideoFormat format)
{
  switch (format) {
    case GST_VIDEO_FORMAT_RGBA:
      return CIP_FORMAT_RGBA;
    case GST_VIDEO_FORMAT_BGRx:
      return CIP_FORMAT_BGRX;
    case GST_VIDEO_FORMAT_GRAY8:
    case GST_VIDEO_FORMAT_I420:
    case GST_VIDEO_FORMAT_NV12:
      return CIP_FORMAT_GRAY8;  /* plane 0 */
    default:
      g_error ("no CipFormat for %s", gst_video_format_to_string (format));
  }
}

/* Plane 0 of the sample's frame equals @expected. */
static void
assert_plane_equals (GstSample * sample, const CipImage * expected)
{
  GstVideoInfo info;
  GstVideoFrame frame;
  CipImage out;
  gchar *where = NULL;

  fail_unless (gst_video_info_from_caps (&info, gst_sample_get_caps
          (sample)));
  fail_unless (gst_video_frame_map (&frame, &info,
          gst_sample_get_buffer (sample), GST_MAP_READ));
  out.data = GST_VIDEO_FRAME_PLANE_DATA (&frame, 0);
  out.width = GST_VIDEO_FRAME_WIDTH (&frame);
  out.height = GST_VIDEO_FRAME_HEIGHT (&frame);
  out.stride = GST_VIDEO_FRAME_PLANE_STRIDE (&frame, 0);
  out.format = CIP_FORMAT_GRAY8;
  fail_unless (cip_test_images_equal (&out, expected, &where), "%s", where);
  gst_video_frame_unmap (&frame);
}

typedef enum
{
  STEP_GRAY,
  STEP_MASK,
  STEP_EQUALIZE,
  STEP_OTSU,
} Step;

/* The reference, applied to plane 0 of @in, in the order of @steps. */
static CipImage
reference_output (GstSample * in, const Step * steps, guint n_steps)
{
  GstVideoInfo info;
  GstVideoFrame frame;
  CipImage src, a, b;
  CipMaskParams mask = { 0, 255, false };
  guint8 threshold;
  guint i;

  fail_unless (gst_video_info_from_caps (&info, gst_sample_get_caps (in)));
  fail_unless (gst_video_frame_map (&frame, &info, gst_sample_get_buffer (in),
          GST_MAP_READ));
  src.data = GST_VIDEO_FRAME_PLANE_DATA (&frame, 0);
  src.width = GST_VIDEO_FRAME_WIDTH (&frame);
  src.height = GST_VIDEO_FRAME_HEIGHT (&frame);
  src.stride = GST_VIDEO_FRAME_PLANE_STRIDE (&frame, 0);
  src.format = format_of (GST_VIDEO_INFO_FORMAT (&info));

  a = cip_test_image_new (src.width, src.height, CIP_FORMAT_GRAY8, 0);
  b = cip_test_image_new (src.width, src.height, CIP_FORMAT_GRAY8, 0);
  fail_unless_equals_int (cip_ref_gray (&src, &a, CIP_GRAY_BT601, NULL),
      CIP_OK);
  gst_video_frame_unmap (&frame);

  for (i = 0; i < n_steps; i++) {
    CipImage tmp;

    switch (steps[i]) {
      case STEP_GRAY:
        continue;               /* done above: plane 0 to gray */
      case STEP_MASK:
        fail_unless_equals_int (cip_ref_mask (&a, &b, &mask, NULL), CIP_OK);
        break;
      case STEP_EQUALIZE:
        fail_unless_equals_int (cip_ref_equalize (&a, &b, NULL), CIP_OK);
        break;
      case STEP_OTSU:
        fail_unless_equals_int (cip_ref_otsu (&a, &b, false, &threshold,
                NULL), CIP_OK);
        break;
    }
    tmp = a;
    a = b;
    b = tmp;
  }
  cip_test_image_free (&b);
  return a;
}

static void
assert_outputs (Run * run, const Step * steps, guint n_steps)
{
  guint i;

  fail_unless_equals_int (run->in->len, N_FRAMES);
  fail_unless_equals_int (run->out->len, N_FRAMES);
  for (i = 0; i < N_FRAMES; i++) {
    CipImage expected = reference_output (g_ptr_array_index (run->in, i),
        steps, n_steps);

    assert_plane_equals (g_ptr_array_index (run->out, i),
        &expected);
    cip_test_image_free (&expected);
  }
}

#define SOURCE(caps) \
  "videotestsrc pattern=ball num-buffers=" G_STRINGIFY (N_FRAMES) " ! " \
  caps " ! tee name=t ! queue ! appsink name=in sync=false wait-on-eos=false t. ! queue ! "
#define SINK " ! appsink name=out sync=false wait-on-eos=false"

GST_START_TEST (test_cudagray_launch)
{
  static const Step steps[] = { STEP_GRAY };
  Run *run = run_pipeline (SOURCE ("video/x-raw,format=BGRx,width=320,"
          "height=240") "cudagray backend=%s" SINK);

  assert_outputs (run, steps, G_N_ELEMENTS (steps));
  run_free (run);
}

GST_END_TEST;

GST_START_TEST (test_cudamask_launch)
{
  static const Step steps[] = { STEP_GRAY, STEP_MASK };
  Run *run = run_pipeline (SOURCE ("video/x-raw,format=GRAY8,width=321,"
          "height=239") "cudamask backend=%s" SINK);

  assert_outputs (run, steps, G_N_ELEMENTS (steps));
  run_free (run);
}

GST_END_TEST;

GST_START_TEST (test_cudaequalize_launch)
{
  static const Step steps[] = { STEP_GRAY, STEP_EQUALIZE };
  Run *run = run_pipeline (SOURCE ("video/x-raw,format=I420,width=322,"
          "height=242") "cudaequalize backend=%s" SINK);

  assert_outputs (run, steps, G_N_ELEMENTS (steps));
  run_free (run);
}

GST_END_TEST;

GST_START_TEST (test_cudaotsu_launch)
{
  static const Step steps[] = { STEP_GRAY, STEP_OTSU };
  Run *run = run_pipeline (SOURCE ("video/x-raw,format=GRAY8,width=640,"
          "height=360") "cudaotsu backend=%s post-messages=true" SINK);

  assert_outputs (run, steps, G_N_ELEMENTS (steps));
  fail_unless_equals_int (run->otsu_messages, N_FRAMES);
  run_free (run);
}

GST_END_TEST;

/* The four chained, the way the README shows them. */
GST_START_TEST (test_chain_of_four)
{
  static const Step steps[] = { STEP_GRAY, STEP_EQUALIZE, STEP_OTSU,
    STEP_MASK
  };
  Run *run = run_pipeline (SOURCE ("video/x-raw,format=RGBA,width=641,"
          "height=479") "cudagray backend=%s ! cudaequalize backend=%s ! "
      "cudaotsu backend=%s ! cudamask backend=%s" SINK);

  assert_outputs (run, steps, G_N_ELEMENTS (steps));
  run_free (run);
}

GST_END_TEST;

/* Type names must not collide with nvcodec's, and on a GPU our elements
 * share the CUDA context of nvcodec's. */
GST_START_TEST (test_beside_nvcodec)
{
  static const Step steps[] = { STEP_GRAY };
  GstPlugin *nvcodec = gst_plugin_load_by_name ("nvcodec");
  GstElementFactory *upload;
  Run *run;

  if (nvcodec == NULL) {
    GST_INFO ("nvcodec is not installed here");
    return;
  }
  gst_object_unref (nvcodec);

  upload = gst_element_factory_find ("cudaupload");
  if (upload == NULL) {
    /* No driver here, so nvcodec registered nothing: our elements still
     * work with it loaded. */
    run = run_pipeline (SOURCE ("video/x-raw,format=RGBA,width=64,height=48")
        "cudagray backend=%s" SINK);
  } else {
    gst_object_unref (upload);
    run = run_pipeline (SOURCE ("video/x-raw,format=RGBA,width=64,height=48")
        "cudaupload ! cudadownload ! video/x-raw,format=RGBA ! "
        "cudagray backend=%s" SINK);
  }
  assert_outputs (run, steps, G_N_ELEMENTS (steps));
  run_free (run);
}

GST_END_TEST;

static Suite *
pipelines_suite (void)
{
  Suite *s = suite_create ("pipelines");
  TCase *tc = tcase_create ("launch");

  tcase_set_timeout (tc, 120);
  suite_add_tcase (s, tc);
  tcase_add_test (tc, test_cudagray_launch);
  tcase_add_test (tc, test_cudamask_launch);
  tcase_add_test (tc, test_cudaequalize_launch);
  tcase_add_test (tc, test_cudaotsu_launch);
  tcase_add_test (tc, test_chain_of_four);
  tcase_add_test (tc, test_beside_nvcodec);
  return s;
}

CIP_TEST_ELEMENT_MAIN (pipelines);
