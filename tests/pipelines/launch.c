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

#include <string.h>

#include <gst/app/gstappsink.h>
#include <gst/app/gstappsrc.h>

/* libgstcuda's headers where the build has it (HAVE_GST_CUDA; without it,
 * GStreamer 1.20, the cases that need CUDA memory are skipped by meson). */
#include "gstcudaimgproccompat.h"

#if CIP_TEST_HAVE_ANALYTICS
#include <gst/analytics/analytics.h>
#endif

#include "cip-ref.h"
#include "test-element.h"

#define N_FRAMES 6

typedef struct
{
  GPtrArray *in;                /* GstSample of the source frames */
  GPtrArray *out;               /* GstSample of the processed frames */
  guint otsu_messages;
  /* what the first N_FRAMES cudaotsu messages said, in bus order */
  guint otsu_thresholds[N_FRAMES];
  GstClockTime otsu_timestamps[N_FRAMES];
  /* Of the elements named x0, x1, x2: their "stats" counters, and the
   * CUDA context each answers a context query with. */
  guint64 uploads[3];
  guint64 downloads[3];
  GstCudaContext *context[3];
} Run;

/* The CUDA context @element holds, as its context query says. */
static GstCudaContext *
element_cuda_context (GstElement * element)
{
#if HAVE_GST_CUDA
  GstQuery *query = gst_query_new_context (GST_CUDA_CONTEXT_TYPE);
  GstPad *pad = gst_element_get_static_pad (element, "src");
  GstCudaContext *context = NULL;

  if (gst_pad_query (pad, query)) {
    GstContext *ctx = NULL;

    gst_query_parse_context (query, &ctx);
    if (ctx)
      gst_structure_get (gst_context_get_structure (ctx),
          GST_CUDA_CONTEXT_TYPE, GST_TYPE_CUDA_CONTEXT, &context, NULL);
  }
  gst_query_unref (query);
  gst_object_unref (pad);
  return context;
#else
  return NULL;
#endif
}

static void
read_named_elements (GstElement * pipeline, Run * run)
{
  guint i;

  for (i = 0; i < G_N_ELEMENTS (run->uploads); i++) {
    gchar *name = g_strdup_printf ("x%u", i);
    GstElement *element = gst_bin_get_by_name (GST_BIN (pipeline), name);

    g_free (name);
    if (element == NULL)
      continue;
    run->uploads[i] = cip_test_element_stat (element, "uploads");
    run->downloads[i] = cip_test_element_stat (element, "downloads");
    run->context[i] = element_cuda_context (element);
    gst_object_unref (element);
  }
}

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
    if (gst_message_has_name (msg, "cudaotsu")) {
      const GstStructure *st = gst_message_get_structure (msg);

      if (run->otsu_messages < N_FRAMES) {
        gst_structure_get_uint (st, "threshold",
            &run->otsu_thresholds[run->otsu_messages]);
        gst_structure_get_uint64 (st, "timestamp",
            &run->otsu_timestamps[run->otsu_messages]);
      }
      run->otsu_messages++;
    }
    gst_message_unref (msg);
  }
  fail_unless (msg != NULL, "%s did not reach EOS", launch);

  pull_all (pipeline, "in", run->in);
  pull_all (pipeline, "out", run->out);
  read_named_elements (pipeline, run);

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
  guint i;

  for (i = 0; i < G_N_ELEMENTS (run->context); i++)
    gst_clear_object (&run->context[i]);
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

/* When @out has @in's format, its planes past the first are @in's. */
static void
assert_chroma_passed (GstSample * in, GstSample * out)
{
  GstVideoInfo in_info, out_info;
  GstVideoFrame in_frame, out_frame;
  guint plane;

  fail_unless (gst_video_info_from_caps (&in_info, gst_sample_get_caps (in)));
  fail_unless (gst_video_info_from_caps (&out_info,
          gst_sample_get_caps (out)));
  if (GST_VIDEO_INFO_FORMAT (&in_info) != GST_VIDEO_INFO_FORMAT (&out_info))
    return;

  fail_unless (gst_video_frame_map (&in_frame, &in_info,
          gst_sample_get_buffer (in), GST_MAP_READ));
  fail_unless (gst_video_frame_map (&out_frame, &out_info,
          gst_sample_get_buffer (out), GST_MAP_READ));
  for (plane = 1; plane < GST_VIDEO_FRAME_N_PLANES (&in_frame); plane++) {
    guint comp, y, rows = 0, row_bytes = 0;

    for (comp = 0; comp < GST_VIDEO_FRAME_N_COMPONENTS (&in_frame); comp++)
      if (GST_VIDEO_FORMAT_INFO_PLANE (in_info.finfo, comp) == plane) {
        rows = GST_VIDEO_FRAME_COMP_HEIGHT (&in_frame, comp);
        row_bytes = GST_VIDEO_FRAME_COMP_WIDTH (&in_frame, comp) *
            GST_VIDEO_FRAME_COMP_PSTRIDE (&in_frame, comp);
        break;
      }
    for (y = 0; y < rows; y++)
      fail_unless (memcmp ((guint8 *) GST_VIDEO_FRAME_PLANE_DATA (&in_frame,
                  plane) + y * GST_VIDEO_FRAME_PLANE_STRIDE (&in_frame, plane),
              (guint8 *) GST_VIDEO_FRAME_PLANE_DATA (&out_frame,
                  plane) + y * GST_VIDEO_FRAME_PLANE_STRIDE (&out_frame,
                  plane), row_bytes) == 0, "plane %u row %u differs", plane,
          y);
  }
  gst_video_frame_unmap (&out_frame);
  gst_video_frame_unmap (&in_frame);
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
    assert_chroma_passed (g_ptr_array_index (run->in, i),
        g_ptr_array_index (run->out, i));
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

/* Every pixel of the RGBA frame of @sample has R, G and B within
 * @tolerance of @expected's gray value. */
static void
assert_rgba_is_gray (GstSample * sample, const CipImage * expected,
    gint tolerance)
{
  GstVideoInfo info;
  GstVideoFrame frame;
  gint x, y, c;

  fail_unless (gst_video_info_from_caps (&info, gst_sample_get_caps (sample)));
  fail_unless_equals_int (GST_VIDEO_INFO_FORMAT (&info),
      GST_VIDEO_FORMAT_RGBA);
  fail_unless (gst_video_frame_map (&frame, &info,
          gst_sample_get_buffer (sample), GST_MAP_READ));
  for (y = 0; y < expected->height; y++)
    for (x = 0; x < expected->width; x++) {
      const guint8 *rgba = (const guint8 *) GST_VIDEO_FRAME_PLANE_DATA
          (&frame, 0) + y * GST_VIDEO_FRAME_PLANE_STRIDE (&frame, 0) + 4 * x;
      gint want = ((const guint8 *) expected->data)[y * expected->stride + x];

      for (c = 0; c < 3; c++)
        fail_unless (ABS (rgba[c] - want) <= tolerance,
            "pixel (%d, %d): %u %u %u, want %d", x, y, rgba[0], rgba[1],
            rgba[2], want);
    }
  gst_video_frame_unmap (&frame);
}

/* A gray frame as I420 is gray to another converter: videoconvert gives
 * R = G = B = the mask. */
GST_START_TEST (test_gray_as_yuv_converts_to_gray)
{
  static const Step steps[] = { STEP_GRAY, STEP_OTSU };
  Run *run = run_pipeline (SOURCE ("video/x-raw,format=GRAY8,width=322,"
          "height=241") "cudaotsu backend=%s ! video/x-raw,format=I420 ! "
      "videoconvert ! video/x-raw,format=RGBA" SINK);
  guint i;

  fail_unless_equals_int (run->out->len, N_FRAMES);
  for (i = 0; i < N_FRAMES; i++) {
    CipImage expected = reference_output (g_ptr_array_index (run->in, i),
        steps, G_N_ELEMENTS (steps));

    assert_rgba_is_gray (g_ptr_array_index (run->out, i), &expected, 0);
    cip_test_image_free (&expected);
  }
  run_free (run);
}

GST_END_TEST;

/* Type names must not collide with nvcodec's: with nvcodec loaded our
 * elements run, behind its upload and download where it has them (with a
 * driver).  That the two share a context is test_chain_after_cudaupload's
 * check; without nvcodec there is nothing to check here. */
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

/* The caps features of the samples' caps. */
static gboolean
sample_is_cuda (GstSample * sample)
{
  GstCapsFeatures *features =
      gst_caps_get_features (gst_sample_get_caps (sample), 0);

  return gst_caps_features_contains (features, "memory:CUDAMemory");
}

typedef struct
{
  const gchar *element;
  const gchar *format;
  Step step;
} MemoryCase;

static const MemoryCase memory_cases[] = {
  {"cudagray", "RGBA", STEP_GRAY},
  {"cudagray", "NV12", STEP_GRAY},
  {"cudamask", "GRAY8", STEP_MASK},
  {"cudaequalize", "GRAY8", STEP_EQUALIZE},
  {"cudaequalize", "NV12", STEP_EQUALIZE},
  {"cudaequalize", "I420", STEP_EQUALIZE},
  {"cudaotsu", "GRAY8", STEP_OTSU},
};

/* Every element with system or CUDA memory on each pad: the right bytes,
 * the memory asked for, and host-device copies only where a pad carries
 * system memory.  CUDA input comes from nvcodec's cudaupload, or for
 * GRAY8 from cudagray. */
GST_START_TEST (test_memory_combinations)
{
  const MemoryCase *c = &memory_cases[__i__ / 4];
  gboolean in_cuda = (__i__ & 2) != 0, out_cuda = (__i__ & 1) != 0;
  const Step steps[] = { STEP_GRAY, c->step };
  gchar *source, *launch;
  Run *run;
  guint i;

  source = g_strdup_printf ("videotestsrc pattern=ball num-buffers=%d ! "
      "video/x-raw,format=%s,width=322,height=241 ! tee name=t ! queue ! "
      "appsink name=in sync=false wait-on-eos=false t. ! queue ! %s",
      N_FRAMES, c->format, !in_cuda ? "" : g_str_equal (c->format, "GRAY8") ?
      "cudagray backend=%s ! video/x-raw(memory:CUDAMemory) ! " :
      "cudaupload ! video/x-raw(memory:CUDAMemory) ! ");
  launch = g_strdup_printf ("%s%s name=x0 backend=%%s ! video/x-raw%s ! "
      "appsink name=out sync=false wait-on-eos=false", source, c->element,
      out_cuda ? "(memory:CUDAMemory)" : "");
  run = run_pipeline (launch);

  assert_outputs (run, steps, c->step == STEP_GRAY ? 1 : 2);
  for (i = 0; i < run->out->len; i++)
    fail_unless_equals_int (sample_is_cuda (g_ptr_array_index (run->out, i)),
        out_cuda);
  fail_unless_equals_uint64 (run->uploads[0], in_cuda ? 0 : N_FRAMES);
  fail_unless_equals_uint64 (run->downloads[0], out_cuda ? 0 : N_FRAMES);

  run_free (run);
  g_free (launch);
  g_free (source);
}

GST_END_TEST;

/* A chain of CUDA elements shares one context and copies each frame once
 * to the device and once back, whoever does it. */
GST_START_TEST (test_chain_stays_on_device)
{
  static const Step steps[] = { STEP_GRAY, STEP_EQUALIZE, STEP_OTSU };
  Run *run;

  run = run_pipeline (SOURCE ("video/x-raw,format=RGBA,width=1280,"
          "height=720") "cudagray name=x0 backend=%s ! cudaequalize name=x1 "
      "backend=%s ! cudaotsu name=x2 backend=%s ! video/x-raw" SINK);
  assert_outputs (run, steps, G_N_ELEMENTS (steps));
  fail_unless_equals_uint64 (run->uploads[0], N_FRAMES);
  fail_unless_equals_uint64 (run->downloads[0], 0);
  fail_unless_equals_uint64 (run->uploads[1], 0);
  fail_unless_equals_uint64 (run->downloads[1], 0);
  fail_unless_equals_uint64 (run->uploads[2], 0);
  fail_unless_equals_uint64 (run->downloads[2], N_FRAMES);
  fail_unless (run->context[0] != NULL);
  fail_unless (run->context[0] == run->context[1]);
  fail_unless (run->context[1] == run->context[2]);
  run_free (run);
}

GST_END_TEST;

/* A threshold that stays on the GPU (cudaotsu into another of ours, in
 * CUDA memory) is read back without holding the frame: every frame still
 * reports it, in order, with its own timestamp, before the end of the
 * stream. */
GST_START_TEST (test_otsu_reports_in_order_from_the_device)
{
  Run *run = run_pipeline ("videotestsrc pattern=snow num-buffers="
      G_STRINGIFY (N_FRAMES) " ! video/x-raw,format=RGBA,width=320,height=240 "
      "! tee name=t ! queue ! appsink name=in sync=false wait-on-eos=false "
      "t. ! queue ! cudagray name=x0 backend=%s ! cudaotsu name=x1 "
      "backend=%s post-messages=true ! cudamorph name=x2 backend=%s "
      "operation=dilate ! video/x-raw" SINK);
  guint i;

  fail_unless_equals_int (run->otsu_messages, N_FRAMES);
  fail_unless_equals_int (run->in->len, N_FRAMES);
  for (i = 0; i < N_FRAMES; i++) {
    GstSample *in = g_ptr_array_index (run->in, i);
    GstBuffer *buffer = gst_sample_get_buffer (in);
    GstVideoInfo info;
    GstVideoFrame frame;
    CipImage src, gray, mask;
    guint8 threshold;

    fail_unless_equals_uint64 (run->otsu_timestamps[i],
        GST_BUFFER_PTS (buffer));
    fail_unless (gst_video_info_from_caps (&info, gst_sample_get_caps (in)));
    fail_unless (gst_video_frame_map (&frame, &info, buffer, GST_MAP_READ));
    src.data = GST_VIDEO_FRAME_PLANE_DATA (&frame, 0);
    src.width = GST_VIDEO_FRAME_WIDTH (&frame);
    src.height = GST_VIDEO_FRAME_HEIGHT (&frame);
    src.stride = GST_VIDEO_FRAME_PLANE_STRIDE (&frame, 0);
    src.format = CIP_FORMAT_RGBA;
    gray = cip_test_image_new (src.width, src.height, CIP_FORMAT_GRAY8, 0);
    mask = cip_test_image_new (src.width, src.height, CIP_FORMAT_GRAY8, 0);
    fail_unless_equals_int (cip_ref_gray (&src, &gray, CIP_GRAY_BT601,
            NULL), CIP_OK);
    fail_unless_equals_int (cip_ref_otsu (&gray, &mask, false, &threshold,
            NULL), CIP_OK);
    fail_unless_equals_int (run->otsu_thresholds[i], threshold);
    gst_video_frame_unmap (&frame);
    cip_test_image_free (&gray);
    cip_test_image_free (&mask);
  }
  fail_unless_equals_uint64 (run->downloads[1], 0);
  run_free (run);
}

GST_END_TEST;

/* nvcodec's upload at the head, told to give CUDA memory: it makes the
 * one upload, our elements none. */
GST_START_TEST (test_chain_after_cudaupload)
{
  static const Step steps[] = { STEP_GRAY, STEP_EQUALIZE, STEP_OTSU };
  Run *run = run_pipeline (SOURCE ("video/x-raw,format=RGBA,width=1280,"
          "height=720") "cudaupload ! video/x-raw(memory:CUDAMemory) ! "
      "cudagray name=x0 backend=%s ! cudaequalize name=x1 backend=%s ! "
      "cudaotsu name=x2 backend=%s ! video/x-raw" SINK);

  assert_outputs (run, steps, G_N_ELEMENTS (steps));
  fail_unless_equals_uint64 (run->uploads[0] + run->uploads[1] +
      run->uploads[2], 0);
  fail_unless_equals_uint64 (run->downloads[0] + run->downloads[1] +
      run->downloads[2], N_FRAMES);
  fail_unless (run->context[0] == run->context[2]);
  run_free (run);
}

GST_END_TEST;

/* Between nvcodec's upload and download: our element neither uploads nor
 * downloads, and the frames nvcodec reads back are the ones it computed,
 * chroma untouched. */
GST_START_TEST (test_between_cudaupload_and_cudadownload)
{
  static const Step steps[] = { STEP_GRAY, STEP_EQUALIZE };
  Run *run = run_pipeline (SOURCE ("video/x-raw,format=NV12,width=1280,"
          "height=720") "cudaupload ! video/x-raw(memory:CUDAMemory) ! "
      "cudaequalize name=x0 backend=%s ! video/x-raw(memory:CUDAMemory) ! "
      "cudadownload ! video/x-raw,format=NV12" SINK);

  assert_outputs (run, steps, G_N_ELEMENTS (steps));
  fail_unless_equals_uint64 (run->uploads[0], 0);
  fail_unless_equals_uint64 (run->downloads[0], 0);
  run_free (run);
}

GST_END_TEST;

/* The masks leave the GPU through nvcodec's download, which takes no
 * GRAY8: as the luma of NV12. */
GST_START_TEST (test_gray_chain_into_cudadownload)
{
  static const Step steps[] = { STEP_GRAY, STEP_EQUALIZE, STEP_OTSU };
  Run *run = run_pipeline (SOURCE ("video/x-raw,format=RGBA,width=1280,"
          "height=720") "cudaupload ! video/x-raw(memory:CUDAMemory) ! "
      "cudagray name=x0 backend=%s ! cudaequalize name=x1 backend=%s ! "
      "cudaotsu name=x2 backend=%s ! video/x-raw(memory:CUDAMemory) ! "
      "cudadownload ! video/x-raw,format=NV12" SINK);

  assert_outputs (run, steps, G_N_ELEMENTS (steps));
  fail_unless_equals_uint64 (run->uploads[0] + run->uploads[1] +
      run->uploads[2] + run->downloads[0] + run->downloads[1] +
      run->downloads[2], 0);
  run_free (run);
}

GST_END_TEST;

/* nvcodec 1.24+'s converter on either side of our chain, in CUDA memory:
 * it converts the decoder-like NV12 frames to RGBA for cudagray, and our
 * equalized NV12 to I420 for the next element. */
GST_START_TEST (test_beside_cudaconvertscale)
{
  static const Step gray_steps[] = { STEP_GRAY, STEP_EQUALIZE, STEP_OTSU };
  static const Step equalize_steps[] = { STEP_GRAY, STEP_EQUALIZE };
  Run *run;

  /* Into ours: what cudaconvertscale made is read back beside our chain. */
  run = run_pipeline ("videotestsrc pattern=ball num-buffers="
      G_STRINGIFY (N_FRAMES) " ! video/x-raw,format=NV12,width=640,height=360 "
      "! cudaupload ! cudaconvertscale ! video/x-raw(memory:CUDAMemory),"
      "format=RGBA,width=480,height=270 ! tee name=t ! queue ! cudadownload ! "
      "video/x-raw,format=RGBA ! appsink name=in sync=false wait-on-eos=false "
      "t. ! queue ! cudagray name=x0 backend=%s ! cudaequalize name=x1 "
      "backend=%s ! cudaotsu name=x2 backend=%s ! video/x-raw" SINK);
  assert_outputs (run, gray_steps, G_N_ELEMENTS (gray_steps));
  fail_unless_equals_uint64 (run->uploads[0], 0);
  run_free (run);

  /* Out of ours: NV12 to I420 keeps every luma byte. */
  run = run_pipeline (SOURCE ("video/x-raw,format=NV12,width=640,height=360")
      "cudaupload ! cudaequalize name=x0 backend=%s ! "
      "video/x-raw(memory:CUDAMemory),format=NV12 ! cudaconvertscale ! "
      "video/x-raw(memory:CUDAMemory),format=I420 ! cudadownload ! "
      "video/x-raw,format=I420" SINK);
  assert_outputs (run, equalize_steps, G_N_ELEMENTS (equalize_steps));
  fail_unless_equals_uint64 (run->uploads[0] + run->downloads[0], 0);
  run_free (run);

  /* Masks into it, as gray YUV: its RGBA is the mask (within its
   * floating-point rounding). */
  run = run_pipeline (SOURCE ("video/x-raw,format=GRAY8,width=640,"
          "height=360") "cudaotsu name=x0 backend=%s ! "
      "video/x-raw(memory:CUDAMemory) ! cudaconvertscale ! "
      "video/x-raw(memory:CUDAMemory),format=RGBA ! cudadownload ! "
      "video/x-raw,format=RGBA" SINK);
  {
    static const Step otsu_steps[] = { STEP_GRAY, STEP_OTSU };
    guint i;

    fail_unless_equals_int (run->out->len, N_FRAMES);
    for (i = 0; i < N_FRAMES; i++) {
      CipImage expected = reference_output (g_ptr_array_index (run->in, i),
          otsu_steps, G_N_ELEMENTS (otsu_steps));

      assert_rgba_is_gray (g_ptr_array_index (run->out, i), &expected, 1);
      cip_test_image_free (&expected);
    }
  }
  fail_unless_equals_uint64 (run->downloads[0], 0);
  run_free (run);
}

GST_END_TEST;

/* Our device frames straight into nvcodec's JPEG encoder: one JPEG image
 * per frame. */
GST_START_TEST (test_into_nvjpegenc)
{
  Run *run = run_pipeline (SOURCE ("video/x-raw,format=I420,width=640,"
          "height=360") "cudaupload ! cudaequalize name=x0 backend=%s ! "
      "video/x-raw(memory:CUDAMemory) ! nvjpegenc" SINK);
  guint i;

  fail_unless_equals_int (run->out->len, N_FRAMES);
  for (i = 0; i < run->out->len; i++) {
    GstBuffer *jpeg = gst_sample_get_buffer (g_ptr_array_index (run->out, i));
    guint8 marker[2] = { 0, 0 };

    fail_unless (gst_buffer_get_size (jpeg) > 100);
    gst_buffer_extract (jpeg, 0, marker, 2);
    fail_unless (marker[0] == 0xff && marker[1] == 0xd8, "not a JPEG image");
  }
  fail_unless_equals_uint64 (run->uploads[0] + run->downloads[0], 0);
  run_free (run);

  /* Masks, which leave cudaotsu as the luma of I420 or NV12. */
  run = run_pipeline (SOURCE ("video/x-raw,format=RGBA,width=640,"
          "height=360") "cudaupload ! cudagray name=x0 backend=%s ! "
      "cudaotsu name=x1 backend=%s ! video/x-raw(memory:CUDAMemory) ! "
      "nvjpegenc" SINK);
  fail_unless_equals_int (run->out->len, N_FRAMES);
  fail_unless_equals_uint64 (run->downloads[1], 0);
  run_free (run);
}

GST_END_TEST;

/* Frames decoded by NVDEC go through the chain without leaving the GPU,
 * and equal the chain applied to the same frames in system memory. */
GST_START_TEST (test_h264_decode_chain)
{
  static const Step steps[] = { STEP_GRAY, STEP_EQUALIZE, STEP_OTSU };
  gchar *clip = cip_test_data_path ("clip.h264"), *launch;
  Run *run;

  launch = g_strdup_printf ("filesrc location=%s ! "
      "h264parse ! nvh264dec ! video/x-raw(memory:CUDAMemory) ! tee name=t ! "
      "queue ! cudadownload ! video/x-raw,format=NV12 ! "
      "appsink name=in sync=false wait-on-eos=false "
      "t. ! queue ! cudagray name=x0 backend=%%s ! cudaequalize name=x1 "
      "backend=%%s ! cudaotsu name=x2 backend=%%s ! cudadownload ! "
      "appsink name=out sync=false wait-on-eos=false", clip);
  run = run_pipeline (launch);
  fail_unless (run->out->len > 0);
  fail_unless_equals_int (run->in->len, run->out->len);
  {
    guint i;

    for (i = 0; i < run->out->len; i++) {
      CipImage expected = reference_output (g_ptr_array_index (run->in, i),
          steps, G_N_ELEMENTS (steps));

      assert_plane_equals (g_ptr_array_index (run->out, i), &expected);
      cip_test_image_free (&expected);
    }
  }
  /* Decoded on the device, downloaded by cudadownload. */
  fail_unless_equals_uint64 (run->uploads[0] + run->uploads[1] +
      run->uploads[2] + run->downloads[0] + run->downloads[1] +
      run->downloads[2], 0);
  run_free (run);
  g_free (launch);
  g_free (clip);
}

GST_END_TEST;

#if HAVE_GST_CUDA
static void
push_frames (GstAppSrc * src, GstBuffer * frame, guint n)
{
  guint i;

  for (i = 0; i < n; i++)
    fail_unless_equals_int (gst_app_src_push_buffer (src,
            gst_buffer_ref (frame)), GST_FLOW_OK);
  gst_app_src_end_of_stream (src);
}

/* A device frame of another CUDA context than the element's is not read
 * through its device pointer: the element copies it through the host and
 * still computes the right frame. */
GST_START_TEST (test_frame_of_another_context)
{
  GstCudaContext *other;
  GstAllocator *allocator;
  GstVideoInfo info;
  GstMemory *mem;
  GstBuffer *frame;
  GstVideoFrame vframe;
  GstElement *pipeline, *src, *sink, *gray;
  GstSample *sample;
  CipImage input, expected;
  guint i;

  /* The frame, in a context the pipeline never hears of. */
  fail_unless (gst_cuda_load_library ());
  gst_cuda_memory_init_once ();
  other = gst_cuda_context_new (0);
  fail_unless (other != NULL);
  allocator = gst_allocator_find (GST_CUDA_MEMORY_TYPE_NAME);
  gst_video_info_set_format (&info, GST_VIDEO_FORMAT_RGBA, 161, 97);
  mem = gst_cuda_imgproc_memory_alloc (allocator, other, NULL, &info);
  fail_unless (mem != NULL);
  frame = gst_buffer_new ();
  gst_buffer_append_memory (frame, mem);
  gst_buffer_add_video_meta_full (frame, GST_VIDEO_FRAME_FLAG_NONE,
      GST_VIDEO_FORMAT_RGBA, 161, 97, 1, GST_CUDA_MEMORY_CAST (mem)->info.offset,
      GST_CUDA_MEMORY_CAST (mem)->info.stride);

  input = cip_test_image_new (161, 97, CIP_FORMAT_RGBA, 0);
  cip_test_image_fill_random (&input, 97);
  fail_unless (gst_video_frame_map (&vframe, &info, frame, GST_MAP_WRITE));
  for (i = 0; i < 97; i++)
    memcpy ((guint8 *) GST_VIDEO_FRAME_PLANE_DATA (&vframe, 0) +
        i * GST_VIDEO_FRAME_PLANE_STRIDE (&vframe, 0),
        (guint8 *) input.data + i * input.stride, 161 * 4);
  gst_video_frame_unmap (&vframe);

  pipeline = gst_parse_launch ("appsrc name=src format=time "
      "caps=video/x-raw(memory:CUDAMemory),format=RGBA,width=161,height=97,"
      "framerate=30/1 ! cudagray name=x0 backend=cuda ! video/x-raw ! "
      "appsink name=out sync=false wait-on-eos=false", NULL);
  fail_unless (pipeline != NULL);
  src = gst_bin_get_by_name (GST_BIN (pipeline), "src");
  sink = gst_bin_get_by_name (GST_BIN (pipeline), "out");
  gray = gst_bin_get_by_name (GST_BIN (pipeline), "x0");
  gst_element_set_state (pipeline, GST_STATE_PLAYING);
  push_frames (GST_APP_SRC (src), frame, N_FRAMES);

  expected = cip_test_image_new (161, 97, CIP_FORMAT_GRAY8, 0);
  fail_unless_equals_int (cip_ref_gray (&input, &expected, CIP_GRAY_BT601,
          NULL), CIP_OK);
  for (i = 0; i < N_FRAMES; i++) {
    sample = gst_app_sink_pull_sample (GST_APP_SINK (sink));
    fail_unless (sample != NULL);
    assert_plane_equals (sample, &expected);
    gst_sample_unref (sample);
  }
  /* Copied in, not read in place. */
  fail_unless_equals_uint64 (cip_test_element_stat (gray, "uploads"),
      N_FRAMES);
  {
    GstCudaContext *own = element_cuda_context (gray);

    fail_unless (own != NULL && own != other);
    gst_object_unref (own);
  }

  gst_element_set_state (pipeline, GST_STATE_NULL);
  cip_test_image_free (&expected);
  cip_test_image_free (&input);
  gst_object_unref (gray);
  gst_object_unref (sink);
  gst_object_unref (src);
  gst_object_unref (pipeline);
  gst_buffer_unref (frame);
  gst_object_unref (allocator);
  gst_object_unref (other);
}

GST_END_TEST;
#endif

/* ---- Elements that move pixels drop the intensity frame ---- */

typedef struct
{
  const gchar *between;         /* what stands between the mask's maker and
                                 * cudalabel */
  gboolean keeps_intensity;
} GeometryCase;

static const GeometryCase geometry_cases[] = {
  {"queue", TRUE},
  {"videoconvert", TRUE},
  {"videoflip video-direction=horiz", FALSE},
  {"videoflip video-direction=vert", FALSE},
  {"videoflip video-direction=90r", FALSE},
  /* videocrop crops system memory only. */
  {"video/x-raw ! videocrop left=3 top=2", FALSE},
  /* Nearest neighbour: the scaled mask stays 0 and 255. */
  {"videoscale method=nearest-neighbour ! video/x-raw,width=200,height=150",
      FALSE},
};

/* Plays @pipeline (made from @launch) with @frame as its appsrc @src's
 * only buffer. */
static void
play_one_frame (GstElement * pipeline, GstElement * src,
    const CipImage * frame, const gchar * launch)
{
  fail_unless (pipeline != NULL, "%s", launch);
  fail_unless (gst_element_set_state (pipeline, GST_STATE_PLAYING) !=
      GST_STATE_CHANGE_FAILURE);
  fail_unless_equals_int (gst_app_src_push_buffer (GST_APP_SRC (src),
          cip_test_buffer_new (frame)), GST_FLOW_OK);
  gst_app_src_end_of_stream (GST_APP_SRC (src));
}

/* The `intensity_mean` column of the one cudalabel message of a run of
 * @launch on the coins image. */
static GArray *
label_means (const gchar * launch)
{
  GstElement *pipeline = gst_parse_launch (launch, NULL);
  GstElement *src = gst_bin_get_by_name (GST_BIN (pipeline), "src");
  GstBus *bus = gst_element_get_bus (pipeline);
  CipImage coins = cip_test_image_load ("coins.pgm");
  GArray *means = g_array_new (FALSE, FALSE, sizeof (gdouble));
  gboolean done = FALSE;
  guint messages = 0;

  play_one_frame (pipeline, src, &coins, launch);
  /* Every message popped, none dropped (see cip_test_bus_pop_type). */
  while (!done) {
    GstMessage *msg = gst_bus_timed_pop (bus, 30 * GST_SECOND);
    const GstStructure *s;

    fail_unless (msg != NULL, "%s: no EOS", launch);
    if (GST_MESSAGE_TYPE (msg) == GST_MESSAGE_ERROR) {
      GError *err = NULL;

      gst_message_parse_error (msg, &err, NULL);
      fail ("%s: %s", launch, err->message);
    }
    done = GST_MESSAGE_TYPE (msg) == GST_MESSAGE_EOS;
    s = gst_message_get_structure (msg);
    if (GST_MESSAGE_TYPE (msg) == GST_MESSAGE_ELEMENT &&
        gst_structure_has_name (s, "cudalabel")) {
      const GstStructure *table = gst_value_get_structure
          (gst_structure_get_value (s, "regionprops"));
      GBytes *column = g_value_get_boxed (gst_structure_get_value (table,
              "intensity_mean"));
      gsize size;
      const guint8 *data = g_bytes_get_data (column, &size);
      gsize i;

      for (i = 0; i < size / 8; i++) {
        guint64 bits = GST_READ_UINT64_LE (data + 8 * i);
        gdouble v;

        memcpy (&v, &bits, sizeof (v));
        g_array_append_val (means, v);
      }
      messages++;
    }
    gst_message_unref (msg);
  }
  fail_unless_equals_int (messages, 1);

  gst_element_set_state (pipeline, GST_STATE_NULL);
  gst_object_unref (bus);
  gst_object_unref (src);
  gst_object_unref (pipeline);
  cip_test_image_free (&coins);
  return means;
}

/* Through a mirror, a rotation, a crop or a scale the gray frame no longer
 * lies under the mask: cudalabel averages the mask itself (255 in every
 * region).  Elements that leave pixels where they are pass it on. */
GST_START_TEST (test_intensity_follows_geometry)
{
  const GeometryCase *c = &geometry_cases[__i__];
  const gchar *backend = cip_test_backend_name ();
  gchar *launch = g_strdup_printf ("appsrc name=src format=time "
      "caps=video/x-raw,format=GRAY8,width=384,height=303,framerate=1/1 ! "
      "cudaotsu backend=%s ! %s ! cudalabel backend=%s mode=passthrough "
      "post-messages=true properties=label,intensity_mean ! fakesink",
      backend, c->between, backend);
  GArray *means = label_means (launch);
  guint i, below_255 = 0;

  fail_unless (means->len > 10, "%s: %u regions", launch, means->len);
  for (i = 0; i < means->len; i++)
    below_255 += g_array_index (means, gdouble, i) < 255;
  if (c->keeps_intensity)
    fail_unless (below_255 == means->len, "%s: %u of %u regions averaged "
        "the mask", launch, means->len - below_255, means->len);
  else
    fail_unless (below_255 == 0, "%s: %u regions averaged a gray frame "
        "that moved", launch, below_255);

  g_array_unref (means);
  g_free (launch);
}

GST_END_TEST;

#if CIP_TEST_HAVE_ANALYTICS
/* ---- GStreamer's objectdetectionoverlay draws the regions (1.24+) ---- */

/* The RGBA frame cudalabel paints for the coins mask, with @between
 * after it, and its analytics meta's boxes (x, y, w, h) in @boxes. */
static GstSample *
overlay_run (const gchar * between, GArray * boxes)
{
  const gchar *backend = cip_test_backend_name ();
  gchar *launch = g_strdup_printf ("appsrc name=src format=time "
      "caps=video/x-raw,format=GRAY8,width=384,height=303,framerate=1/1 ! "
      "cudaotsu backend=%s ! cudamorph backend=%s operation=erode "
      "shape=disk radius=2 ! cudalabel backend=%s mode=color ! %s ! "
      "appsink name=sink caps=video/x-raw,format=RGBA", backend, backend,
      backend, between);
  GstElement *pipeline = gst_parse_launch (launch, NULL);
  GstElement *src = gst_bin_get_by_name (GST_BIN (pipeline), "src");
  GstElement *sink = gst_bin_get_by_name (GST_BIN (pipeline), "sink");
  CipImage coins = cip_test_image_load ("coins.pgm");
  GstAnalyticsRelationMeta *meta;
  GstAnalyticsODMtd od;
  gpointer state = NULL;
  GstSample *sample;

  play_one_frame (pipeline, src, &coins, launch);
  sample = gst_app_sink_try_pull_sample (GST_APP_SINK (sink),
      30 * GST_SECOND);
  fail_unless (sample != NULL, "%s: no frame", launch);
  meta = gst_buffer_get_analytics_relation_meta (gst_sample_get_buffer
      (sample));
  fail_unless (meta != NULL, "%s: no analytics meta", launch);
  while (gst_analytics_relation_meta_iterate (meta, &state,
          gst_analytics_od_mtd_get_mtd_type (), (GstAnalyticsMtd *) & od)) {
    gint box[4];
    gfloat confidence;

    fail_unless (gst_analytics_od_mtd_get_location (&od, &box[0], &box[1],
            &box[2], &box[3], &confidence));
    g_array_append_vals (boxes, box, 4);
  }

  gst_element_set_state (pipeline, GST_STATE_NULL);
  gst_object_unref (sink);
  gst_object_unref (src);
  gst_object_unref (pipeline);
  cip_test_image_free (&coins);
  g_free (launch);
  return sample;
}

/* Whether (x, y) is within @margin of the outline of box @b. */
static gboolean
near_outline (const gint * b, gint x, gint y, gint margin)
{
  gboolean in_x = x >= b[0] - margin && x <= b[0] + b[2] + margin;
  gboolean in_y = y >= b[1] - margin && y <= b[1] + b[3] + margin;

  return (in_x && (ABS (y - b[1]) <= margin ||
          ABS (y - (b[1] + b[3])) <= margin)) ||
      (in_y && (ABS (x - b[0]) <= margin || ABS (x - (b[0] + b[2])) <= margin));
}

/* objectdetectionoverlay draws the box of every region that cudalabel's
 * analytics meta holds, and nothing away from them. */
GST_START_TEST (test_objectdetectionoverlay_draws_regions)
{
  GArray *boxes = g_array_new (FALSE, FALSE, sizeof (gint));
  GArray *plain_boxes = g_array_new (FALSE, FALSE, sizeof (gint));
  GstSample *drawn = overlay_run ("videoconvert ! objectdetectionoverlay "
      "draw-labels=false ! videoconvert", boxes);
  GstSample *plain = overlay_run ("videoconvert", plain_boxes);
  GstVideoFrame a, b;
  GstVideoInfo info;
  guint n = boxes->len / 4, i, changed = 0, outlined = 0;
  gboolean *has_mark = g_new0 (gboolean, MAX (n, 1));
  gint x, y;

  fail_unless_equals_int (n, 77);
  fail_unless_equals_int (plain_boxes->len, boxes->len);
  fail_unless (gst_video_info_from_caps (&info, gst_sample_get_caps (drawn)));
  fail_unless (gst_video_frame_map (&a, &info, gst_sample_get_buffer (drawn),
          GST_MAP_READ));
  fail_unless (gst_video_frame_map (&b, &info, gst_sample_get_buffer (plain),
          GST_MAP_READ));
  for (y = 0; y < GST_VIDEO_INFO_HEIGHT (&info); y++)
    for (x = 0; x < GST_VIDEO_INFO_WIDTH (&info); x++) {
      const guint8 *pa = (const guint8 *) GST_VIDEO_FRAME_PLANE_DATA (&a, 0) +
          y * GST_VIDEO_FRAME_PLANE_STRIDE (&a, 0) + 4 * x;
      const guint8 *pb = (const guint8 *) GST_VIDEO_FRAME_PLANE_DATA (&b, 0) +
          y * GST_VIDEO_FRAME_PLANE_STRIDE (&b, 0) + 4 * x;
      gboolean near = FALSE;

      if (memcmp (pa, pb, 3) == 0)
        continue;
      changed++;
      for (i = 0; i < n; i++)
        if (near_outline (&g_array_index (boxes, gint, 4 * i), x, y, 3)) {
          has_mark[i] = near = TRUE;
        }
      fail_unless (near, "pixel %d,%d drawn away from every region", x, y);
    }
  for (i = 0; i < n; i++)
    outlined += has_mark[i];
  fail_unless (changed > 0);
  fail_unless_equals_int (outlined, n);

  gst_video_frame_unmap (&a);
  gst_video_frame_unmap (&b);
  gst_sample_unref (drawn);
  gst_sample_unref (plain);
  g_array_unref (boxes);
  g_array_unref (plain_boxes);
  g_free (has_mark);
}

GST_END_TEST;
#endif

static Suite *
pipelines_suite (void)
{
  Suite *s = suite_create ("pipelines");
  /* Each case is its own meson test (CK_RUN_CASE), which names the
   * elements it needs beyond GStreamer's base (CIP_TEST_REQUIRE) and
   * skips where they are missing. */
  TCase *launch = tcase_create ("launch");
  TCase *device = tcase_create ("device");
  TCase *nvcodec = tcase_create ("nvcodec");
  TCase *convertscale = tcase_create ("convertscale");
  TCase *nvjpeg = tcase_create ("nvjpeg");
  TCase *nvdec = tcase_create ("nvdec");
  TCase *geometry = tcase_create ("geometry");
  TCase *overlay = tcase_create ("overlay");
  TCase *cases[] = { launch, device, nvcodec, convertscale, nvjpeg, nvdec,
    geometry, overlay
  };
  guint i;

  for (i = 0; i < G_N_ELEMENTS (cases); i++) {
    tcase_set_timeout (cases[i], 120);
    suite_add_tcase (s, cases[i]);
  }
  tcase_add_test (launch, test_cudagray_launch);
  tcase_add_test (launch, test_cudamask_launch);
  tcase_add_test (launch, test_cudaequalize_launch);
  tcase_add_test (launch, test_cudaotsu_launch);
  tcase_add_test (launch, test_chain_of_four);
  tcase_add_test (launch, test_beside_nvcodec);
  tcase_add_test (launch, test_gray_as_yuv_converts_to_gray);
  tcase_add_test (device, test_chain_stays_on_device);
#if HAVE_GST_CUDA
  tcase_add_test (device, test_frame_of_another_context);
#endif
  tcase_add_test (device, test_otsu_reports_in_order_from_the_device);
  tcase_add_loop_test (nvcodec, test_memory_combinations, 0,
      4 * G_N_ELEMENTS (memory_cases));
  tcase_add_test (nvcodec, test_chain_after_cudaupload);
  tcase_add_test (nvcodec, test_between_cudaupload_and_cudadownload);
  tcase_add_test (nvcodec, test_gray_chain_into_cudadownload);
  tcase_add_test (convertscale, test_beside_cudaconvertscale);
  tcase_add_test (nvjpeg, test_into_nvjpegenc);
  tcase_add_test (nvdec, test_h264_decode_chain);
  tcase_add_loop_test (geometry, test_intensity_follows_geometry, 0,
      G_N_ELEMENTS (geometry_cases));
#if CIP_TEST_HAVE_ANALYTICS
  tcase_add_test (overlay, test_objectdetectionoverlay_draws_regions);
#endif
  return s;
}

CIP_TEST_ELEMENT_MAIN (pipelines);
