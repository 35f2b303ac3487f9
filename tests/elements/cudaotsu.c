/* gst-cuda-imgproc
 * Copyright (C) 2026 The gst-cuda-imgproc authors
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2 of the License, or (at your option) any later version.
 */

/* cudaotsu against OpenCV's THRESH_OTSU (expected.ini) and cip_ref_otsu:
 * the threshold property, the output, invert, and the per-frame bus
 * messages. */

#include <math.h>
#include <string.h>

#include "test-element.h"
#include "cip-ref.h"

static const gchar *images[] = {
  "coins", "camera", "moon", "phantom", "chelsea-gray-bt601",
};

static CipImage
load (const gchar * name)
{
  gchar *file = g_strdup_printf ("%s.pgm", name);
  CipImage image = cip_test_image_load (file);

  g_free (file);
  return image;
}

static guint
expected_int (const gchar * group, const gchar * key)
{
  GKeyFile *file = cip_test_expected ();
  gint value = cip_test_ini_int (file, group, key);

  g_key_file_free (file);
  return value;
}

static guint
get_threshold (GstElement * otsu)
{
  guint threshold = G_MAXUINT;

  g_object_get (otsu, "threshold", &threshold, NULL);
  return threshold;
}

/* How many pixels of plane 0 of @out (GRAY8 of @caps) are 255; fails if
 * any is neither 0 nor 255. */
static guint
count_255 (GstBuffer * out, GstCaps * caps)
{
  GstVideoFrame frame;
  CipImage plane;
  guint count = 0;
  gint x, y;

  cip_test_frame_map (&frame, out, caps, &plane);
  for (y = 0; y < plane.height; y++)
    for (x = 0; x < plane.width; x++) {
      guint8 v = ((const guint8 *) plane.data)[y * plane.stride + x];

      /* No check macro per pixel: each one costs a write to a pipe. */
      if (v != 0 && v != 255) {
        gst_video_frame_unmap (&frame);
        fail ("pixel %d,%d is %u", x, y, v);
      }
      count += v == 255;
    }
  gst_video_frame_unmap (&frame);
  return count;
}

/* Pushes @src through the cudaotsu of @h, checks that the output equals
 * cip_ref_otsu's and returns how many pixels are 255 and, in *@threshold,
 * the reference's threshold. */
static guint
push_and_check (GstHarness * h, const CipImage * src, gboolean invert,
    guint * threshold)
{
  CipImage expected = cip_test_image_new (src->width, src->height,
      CIP_FORMAT_GRAY8, 0);
  guint8 ref_threshold = 0;
  GstBuffer *out;
  GstCaps *caps;
  guint count;

  fail_unless_equals_int (cip_ref_otsu (src, &expected, invert,
          &ref_threshold, NULL), CIP_OK);
  out = cip_test_push_pull (h, cip_test_buffer_new (src));
  caps = cip_test_harness_output_caps (h);
  cip_test_assert_buffer_image (out, caps, &expected);
  count = count_255 (out, caps);
  *threshold = ref_threshold;

  gst_caps_unref (caps);
  gst_buffer_unref (out);
  cip_test_image_free (&expected);
  return count;
}

/* threshold is 0 before the first frame. */
GST_START_TEST (test_threshold_zero_before_first_frame)
{
  GstHarness *h = cip_test_harness_new ("cudaotsu", NULL);
  GstElement *otsu = cip_test_harness_element (h, "cudaotsu");

  fail_unless_equals_int (get_threshold (otsu), 0);
  gst_object_unref (otsu);
  gst_harness_teardown (h);
}

GST_END_TEST;

/* The threshold and the output are OpenCV's. */
GST_START_TEST (test_matches_opencv)
{
  const gchar *name = images[__i__];
  GstHarness *h = cip_test_harness_new ("cudaotsu", NULL);
  GstElement *otsu = cip_test_harness_element (h, "cudaotsu");
  CipImage src = load (name);
  guint threshold, ref_threshold, count;

  GST_INFO ("%s", name);
  gst_harness_set_src_caps (h, cip_test_caps_new (GST_VIDEO_FORMAT_GRAY8,
          src.width, src.height));
  count = push_and_check (h, &src, FALSE, &ref_threshold);
  threshold = get_threshold (otsu);
  fail_unless_equals_int (threshold, expected_int (name, "otsu-threshold"));
  fail_unless_equals_int (threshold, ref_threshold);
  fail_unless_equals_int (count, expected_int (name, "otsu-foreground-pixels"));

  gst_object_unref (otsu);
  cip_test_image_free (&src);
  gst_harness_teardown (h);
}

GST_END_TEST;

static void
record_threshold (GObject * otsu, GParamSpec * pspec, gpointer user_data)
{
  GArray *seen = user_data;
  guint threshold;

  g_object_get (otsu, "threshold", &threshold, NULL);
  g_array_append_val (seen, threshold);
}

/* notify::threshold comes once a frame, each time with that frame's
 * threshold (OpenCV's), in frame order. */
GST_START_TEST (test_threshold_notified)
{
  GstHarness *h = cip_test_harness_new ("cudaotsu", NULL);
  GstElement *otsu = cip_test_harness_element (h, "cudaotsu");
  GArray *seen = g_array_new (FALSE, FALSE, sizeof (guint));
  guint i;

  g_signal_connect (otsu, "notify::threshold", G_CALLBACK (record_threshold),
      seen);
  for (i = 0; i < G_N_ELEMENTS (images); i++) {
    CipImage src = load (images[i]);
    guint ref_threshold;

    gst_harness_set_src_caps (h, cip_test_caps_new (GST_VIDEO_FORMAT_GRAY8,
            src.width, src.height));
    push_and_check (h, &src, FALSE, &ref_threshold);
    fail_unless_equals_int (seen->len, i + 1);
    fail_unless_equals_int (g_array_index (seen, guint, i),
        expected_int (images[i], "otsu-threshold"));
    cip_test_image_free (&src);
  }

  g_array_unref (seen);
  gst_object_unref (otsu);
  gst_harness_teardown (h);
}

GST_END_TEST;

/* invert=true: the same threshold, the other pixels 255. */
GST_START_TEST (test_invert)
{
  const gchar *name = images[__i__];
  GstHarness *h = cip_test_harness_new ("cudaotsu", "invert=true");
  GstElement *otsu = cip_test_harness_element (h, "cudaotsu");
  CipImage src = load (name);
  guint ref_threshold, count;

  gst_harness_set_src_caps (h, cip_test_caps_new (GST_VIDEO_FORMAT_GRAY8,
          src.width, src.height));
  count = push_and_check (h, &src, TRUE, &ref_threshold);
  fail_unless_equals_int (get_threshold (otsu), expected_int (name,
          "otsu-threshold"));
  fail_unless_equals_int (count, src.width * src.height - expected_int (name,
          "otsu-foreground-pixels"));

  gst_object_unref (otsu);
  cip_test_image_free (&src);
  gst_harness_teardown (h);
}

GST_END_TEST;

/* invert can change in PLAYING between frames. */
GST_START_TEST (test_invert_change_between_frames)
{
  static const gboolean order[] = { FALSE, TRUE, TRUE, FALSE };
  GstHarness *h = cip_test_harness_new ("cudaotsu", NULL);
  GstElement *otsu = cip_test_harness_element (h, "cudaotsu");
  CipImage src = load ("coins");
  guint total = src.width * src.height;
  guint fg = expected_int ("coins", "otsu-foreground-pixels");
  guint i, ref_threshold;

  gst_harness_set_src_caps (h, cip_test_caps_new (GST_VIDEO_FORMAT_GRAY8,
          src.width, src.height));
  for (i = 0; i < G_N_ELEMENTS (order); i++) {
    g_object_set (otsu, "invert", order[i], NULL);
    fail_unless_equals_int (push_and_check (h, &src, order[i],
            &ref_threshold), order[i] ? total - fg : fg);
  }

  gst_object_unref (otsu);
  cip_test_image_free (&src);
  gst_harness_teardown (h);
}

GST_END_TEST;

/* A constant frame: threshold 0, all 0 if the value is 0, else all 255. */
GST_START_TEST (test_constant_frames)
{
  static const guint8 values[] = { 0, 1, 200, 255 };
  GstHarness *h = cip_test_harness_new ("cudaotsu", NULL);
  GstElement *otsu = cip_test_harness_element (h, "cudaotsu");
  CipImage src = cip_test_image_new (40, 30, CIP_FORMAT_GRAY8, 0);
  guint i, ref_threshold;

  gst_harness_set_src_caps (h, cip_test_caps_new (GST_VIDEO_FORMAT_GRAY8,
          40, 30));
  for (i = 0; i < G_N_ELEMENTS (values); i++) {
    memset (src.data, values[i], src.stride * src.height);
    fail_unless_equals_int (push_and_check (h, &src, FALSE, &ref_threshold),
        values[i] ? 40 * 30 : 0);
    fail_unless_equals_int (get_threshold (otsu), 0);
  }

  gst_object_unref (otsu);
  cip_test_image_free (&src);
  gst_harness_teardown (h);
}

GST_END_TEST;

/* post-messages=true: one "cudaotsu" element message per frame, in order,
 * with the frame's threshold and timestamps; behind a live source, and
 * behind one that is not (where the cuda backend pushes each frame one
 * frame later, and the last at the end of the stream). */
GST_START_TEST (test_post_messages)
{
  gboolean live = __i__ == 0;
  GstHarness *h = cip_test_harness_new ("cudaotsu", "post-messages=true");
  GstBus *bus = cip_test_harness_add_bus (h);
  CipImage frames[3];
  guint thresholds[3];
  GstSegment segment;
  GList *messages, *l;
  guint i;

  frames[0] = load ("camera");
  frames[1] = load ("moon");
  frames[2] = cip_test_image_random (512, 512, CIP_FORMAT_GRAY8, 3);

  gst_harness_set_live (h, live);
  gst_harness_set_src_caps (h, cip_test_caps_new (GST_VIDEO_FORMAT_GRAY8,
          512, 512));
  /* A segment where PTS, stream time and running time all differ. */
  gst_segment_init (&segment, GST_FORMAT_TIME);
  segment.start = 1 * GST_SECOND;
  segment.time = 10 * GST_SECOND;
  segment.base = 100 * GST_SECOND;
  fail_unless (gst_harness_push_event (h, gst_event_new_segment (&segment)));

  for (i = 0; i < G_N_ELEMENTS (frames); i++) {
    GstBuffer *in = cip_test_buffer_new (&frames[i]);
    CipImage expected = cip_test_image_new (512, 512, CIP_FORMAT_GRAY8, 0);
    guint8 t;
    GstBuffer *out;

    fail_unless_equals_int (cip_ref_otsu (&frames[i], &expected, FALSE, &t,
            NULL), CIP_OK);
    thresholds[i] = t;
    GST_BUFFER_PTS (in) = 2 * GST_SECOND + i * 40 * GST_MSECOND;
    GST_BUFFER_DURATION (in) = 40 * GST_MSECOND;
    if (live) {
      out = cip_test_push_pull (h, in);
      fail_unless_equals_uint64 (GST_BUFFER_PTS (out),
          2 * GST_SECOND + i * 40 * GST_MSECOND);
      gst_buffer_unref (out);
    } else {
      fail_unless_equals_int (gst_harness_push (h, in), GST_FLOW_OK);
    }
    cip_test_image_free (&expected);
  }
  if (!live) {
    fail_unless (gst_harness_push_event (h, gst_event_new_eos ()));
    for (i = 0; i < G_N_ELEMENTS (frames); i++) {
      GstBuffer *out = gst_harness_pull (h);

      fail_unless (out != NULL);
      fail_unless_equals_uint64 (GST_BUFFER_PTS (out),
          2 * GST_SECOND + i * 40 * GST_MSECOND);
      gst_buffer_unref (out);
    }
    fail_unless_equals_int (gst_harness_buffers_in_queue (h), 0);
  }
  fail_unless_equals_int (thresholds[0], expected_int ("camera",
          "otsu-threshold"));
  fail_unless_equals_int (thresholds[1], expected_int ("moon",
          "otsu-threshold"));

  messages = cip_test_bus_pop_element_messages (bus, "cudaotsu");
  fail_unless_equals_int (g_list_length (messages), G_N_ELEMENTS (frames));
  for (l = messages, i = 0; l; l = l->next, i++) {
    GstMessage *msg = l->data;
    const GstStructure *s = gst_message_get_structure (msg);
    GstClockTime pts = 2 * GST_SECOND + i * 40 * GST_MSECOND;
    guint threshold = 0;
    guint64 timestamp = 0, stream_time = 0, running_time = 0, duration = 0;
    gchar *src_name = gst_object_get_name (GST_MESSAGE_SRC (msg));

    fail_unless (g_str_has_prefix (src_name, "cudaotsu"), "posted by %s",
        src_name);
    g_free (src_name);
    fail_unless_equals_int (gst_structure_n_fields (s), 5);
    fail_unless (gst_structure_get (s, "threshold", G_TYPE_UINT, &threshold,
            "timestamp", G_TYPE_UINT64, &timestamp,
            "stream-time", G_TYPE_UINT64, &stream_time,
            "running-time", G_TYPE_UINT64, &running_time,
            "duration", G_TYPE_UINT64, &duration, NULL),
        "unexpected fields in %" GST_PTR_FORMAT, s);
    fail_unless_equals_int (threshold, thresholds[i]);
    fail_unless_equals_uint64 (timestamp, pts);
    fail_unless_equals_uint64 (stream_time, pts - 1 * GST_SECOND +
        10 * GST_SECOND);
    fail_unless_equals_uint64 (running_time, pts - 1 * GST_SECOND +
        100 * GST_SECOND);
    fail_unless_equals_uint64 (duration, 40 * GST_MSECOND);
  }
  g_list_free_full (messages, (GDestroyNotify) gst_message_unref);
  fail_unless_equals_int (cip_test_bus_pop_errors (bus, NULL), 0);

  for (i = 0; i < G_N_ELEMENTS (frames); i++)
    cip_test_image_free (&frames[i]);
  cip_test_harness_teardown_with_bus (h, bus);
}

GST_END_TEST;

/* The cudaotsu messages posted as each output frame leaves, by the
 * frame's timestamp in seconds. */
typedef struct
{
  gint posted;                  /* atomic */
  gint posted_at_push[8];
} MessageRecord;

static GstBusSyncReply
count_message (GstBus * bus, GstMessage * msg, gpointer user_data)
{
  MessageRecord *record = user_data;

  if (GST_MESSAGE_TYPE (msg) == GST_MESSAGE_ELEMENT &&
      gst_message_has_name (msg, "cudaotsu"))
    g_atomic_int_inc (&record->posted);
  return GST_BUS_PASS;
}

static GstPadProbeReturn
record_messages_at_push (GstPad * pad, GstPadProbeInfo * info,
    gpointer user_data)
{
  MessageRecord *record = user_data;
  guint64 second = GST_BUFFER_PTS (GST_PAD_PROBE_INFO_BUFFER (info)) /
      GST_SECOND;

  fail_unless (second < G_N_ELEMENTS (record->posted_at_push));
  record->posted_at_push[second] = g_atomic_int_get (&record->posted);
  return GST_PAD_PROBE_OK;
}

/* Behind a source that is not live a frame's message comes with the
 * frame, never before the frame held ahead of it has gone; a flush drops
 * the held frame and its message, which never comes, not even when the
 * element stops. */
GST_START_TEST (test_flush_drops_held_frame_message)
{
  GstHarness *h = cip_test_harness_new ("cudaotsu", "post-messages=true");
  GstBus *bus = cip_test_harness_add_bus (h);
  MessageRecord record = { 0 };
  CipImage frame = cip_test_image_random (256, 128, CIP_FORMAT_GRAY8, 9);
  guint held = cip_test_backend_is_cuda ()? 1 : 0;
  GstSegment segment;
  guint i;

  gst_bus_set_sync_handler (bus, count_message, &record, NULL);
  gst_pad_add_probe (h->sinkpad, GST_PAD_PROBE_TYPE_BUFFER,
      record_messages_at_push, &record, NULL);
  gst_harness_set_live (h, FALSE);
  gst_harness_set_src_caps (h, cip_test_caps_new (GST_VIDEO_FORMAT_GRAY8,
          256, 128));
  for (i = 0; i < 6; i++) {
    GstBuffer *in = cip_test_buffer_new (&frame);

    GST_BUFFER_PTS (in) = i * GST_SECOND;
    fail_unless_equals_int (gst_harness_push (h, in), GST_FLOW_OK);
    /* time for the frame's work to end on the GPU, while it is held */
    g_usleep (20000);
  }
  fail_unless_equals_int (gst_harness_buffers_received (h), 6 - held);
  for (i = 0; i < 6 - held; i++)
    fail_unless_equals_int (record.posted_at_push[i], i + 1);

  fail_unless (gst_harness_push_event (h, gst_event_new_flush_start ()));
  fail_unless (gst_harness_push_event (h, gst_event_new_flush_stop (TRUE)));
  gst_segment_init (&segment, GST_FORMAT_TIME);
  fail_unless (gst_harness_push_event (h, gst_event_new_segment (&segment)));
  fail_unless_equals_int (g_atomic_int_get (&record.posted), 6 - held);

  fail_unless_equals_int (gst_element_set_state (h->element,
          GST_STATE_NULL), GST_STATE_CHANGE_SUCCESS);
  fail_unless_equals_int (g_atomic_int_get (&record.posted), 6 - held);
  gst_bus_set_sync_handler (bus, NULL, NULL, NULL);
  fail_unless_equals_int (cip_test_bus_pop_errors (bus, NULL), 0);
  cip_test_image_free (&frame);
  cip_test_harness_teardown_with_bus (h, bus);
}

GST_END_TEST;

/* post-messages=false (the default): no element message at all. */
GST_START_TEST (test_no_messages_by_default)
{
  GstHarness *h = cip_test_harness_new ("cudaotsu", NULL);
  GstElement *otsu = cip_test_harness_element (h, "cudaotsu");
  GstBus *bus = cip_test_harness_add_bus (h);
  CipImage src = load ("coins");
  gboolean post = TRUE;
  GstMessage *msg;
  guint i;

  g_object_get (otsu, "post-messages", &post, NULL);
  fail_if (post);
  gst_harness_set_src_caps (h, cip_test_caps_new (GST_VIDEO_FORMAT_GRAY8,
          src.width, src.height));
  for (i = 0; i < 3; i++) {
    GstBuffer *in = cip_test_buffer_new (&src);

    GST_BUFFER_PTS (in) = i * GST_SECOND;
    fail_unless_equals_int (gst_harness_push (h, in), GST_FLOW_OK);
  }
  fail_unless_equals_int (gst_harness_buffers_received (h), 3);
  /* The frames were processed: the threshold is coins'. */
  fail_unless_equals_int (get_threshold (otsu), expected_int ("coins",
          "otsu-threshold"));
  msg = cip_test_bus_pop_type (bus, GST_MESSAGE_ELEMENT);
  fail_unless (msg == NULL, "unexpected %" GST_PTR_FORMAT, msg);

  gst_object_unref (otsu);
  cip_test_image_free (&src);
  cip_test_harness_teardown_with_bus (h, bus);
}

GST_END_TEST;

/* A stream whose segment is not in TIME (an appsrc left in bytes): the
 * message leaves running-time and stream-time out, with no CRITICAL (the
 * check fixture fails on one). */
GST_START_TEST (test_messages_without_time_segment)
{
  GstHarness *h = cip_test_harness_new ("cudaotsu", "post-messages=true");
  GstBus *bus = cip_test_harness_add_bus (h);
  CipImage frame = load ("camera");
  GstSegment segment;
  GList *messages;
  const GstStructure *s;
  guint threshold = 0;

  gst_harness_set_src_caps (h, cip_test_caps_new (GST_VIDEO_FORMAT_GRAY8,
          frame.width, frame.height));
  gst_segment_init (&segment, GST_FORMAT_BYTES);
  fail_unless (gst_harness_push_event (h, gst_event_new_segment (&segment)));
  gst_buffer_unref (cip_test_push_pull (h, cip_test_buffer_new (&frame)));

  messages = cip_test_bus_pop_element_messages (bus, "cudaotsu");
  fail_unless_equals_int (g_list_length (messages), 1);
  s = gst_message_get_structure (messages->data);
  fail_unless (gst_structure_get_uint (s, "threshold", &threshold));
  fail_unless (threshold > 0);
  fail_unless (gst_structure_has_field (s, "timestamp"));
  fail_unless (gst_structure_has_field (s, "duration"));
  fail_if (gst_structure_has_field (s, "running-time"));
  fail_if (gst_structure_has_field (s, "stream-time"));
  g_list_free_full (messages, (GDestroyNotify) gst_message_unref);

  cip_test_image_free (&frame);
  cip_test_harness_teardown_with_bus (h, bus);
}

GST_END_TEST;

static const char *otsu16_images[] = {
  "otsu16-camera", "otsu16-coins-12bit", "otsu16-bimodal",
  "otsu16-full-range", "otsu16-three-levels", "otsu16-two-levels",
  "otsu16-flat",
};

/* GRAY16_LE in: scikit-image's threshold (expected-otsu16.ini) in 16-bit
 * units as the property, and the GRAY8 mask of the pixels above it. */
GST_START_TEST (test_gray16_skimage)
{
  const char *name = otsu16_images[__i__];
  gchar *file = g_strdup_printf ("%s.pgm", name);
  gchar *path = cip_test_data_path ("expected-otsu16.ini");
  GKeyFile *ini = g_key_file_new ();
  GstHarness *h = cip_test_harness_new ("cudaotsu", NULL);
  GstElement *otsu = cip_test_harness_element (h, "cudaotsu");
  CipImage src = cip_test_image_load (file);
  CipImage expected = cip_test_image_new (src.width, src.height,
      CIP_FORMAT_GRAY8, 0);
  CipMaskParams params = { 0, 255, false };
  GstBuffer *out;
  GstCaps *caps;
  guint threshold;

  fail_unless (g_key_file_load_from_file (ini, path, G_KEY_FILE_NONE, NULL));
  params.threshold = cip_test_ini_int (ini, name, "otsu-threshold");
  fail_unless_equals_int (cip_ref_mask (&src, &expected, &params, NULL),
      CIP_OK);
  cip_test_harness_set_image_caps (h, &src);
  out = cip_test_push_pull (h, cip_test_buffer_new (&src));
  caps = cip_test_harness_output_caps (h);
  cip_test_assert_buffer_image (out, caps, &expected);
  g_object_get (otsu, "threshold", &threshold, NULL);
  fail_unless_equals_int (threshold, params.threshold);

  gst_caps_unref (caps);
  gst_buffer_unref (out);
  gst_object_unref (otsu);
  cip_test_image_free (&expected);
  cip_test_image_free (&src);
  gst_harness_teardown (h);
  g_key_file_free (ini);
  g_free (path);
  g_free (file);
}

GST_END_TEST;

/* Otsu's threshold of a histogram, written out on its own: the first
 * level t of the largest between-class variance n1 n2 (m1 - m2)^2. */
static guint
otsu_of_counts (const guint32 * counts)
{
  gdouble n = 0, s = 0, n1 = 0, s1 = 0, best = -1;
  guint i, at = 0;

  for (i = 0; i < 256; i++) {
    n += counts[i];
    s += (gdouble) i *counts[i];
  }
  for (i = 0; i < 255; i++) {
    gdouble m1, m2, v;

    n1 += counts[i];
    s1 += (gdouble) i *counts[i];
    if (n1 == 0 || n1 == n)
      continue;
    m1 = s1 / n1;
    m2 = (s - s1) / (n - n1);
    v = n1 * (n - n1) * (m1 - m2) * (m1 - m2);
    if (v > best) {
      best = v;
      at = i;
    }
  }
  return at;
}

/* temporal-smoothing: frames of two images in turn, each thresholded at
 * the Otsu threshold of the histogram smoothed over the frames before it
 * (each bin s × previous + (1 − s) × count, rounded half to even), as its
 * message says; a DISCONT frame starts over. */
GST_START_TEST (test_temporal_smoothing)
{
  static const gchar *turns[] = { "camera", "moon", "moon", "camera",
    "moon", "camera", "camera"
  };
  GstHarness *h = cip_test_harness_new ("cudaotsu",
      "post-messages=true temporal-smoothing=0.6");
  GstBus *bus = cip_test_harness_add_bus (h);
  gdouble history[256] = { 0 };
  guint expected[G_N_ELEMENTS (turns)], alone[G_N_ELEMENTS (turns)];
  guint i, differs = 0;
  GList *messages, *l;

  gst_harness_set_src_caps (h, cip_test_caps_new (GST_VIDEO_FORMAT_GRAY8,
          512, 512));
  for (i = 0; i < G_N_ELEMENTS (turns); i++) {
    gboolean restart = i == 0 || i == G_N_ELEMENTS (turns) - 1;
    CipImage src = load (turns[i]);
    GstBuffer *in = cip_test_buffer_new (&src), *out;
    guint32 hist[256] = { 0 }, counts[256];
    guint b;
    gint x, y;

    for (y = 0; y < src.height; y++)
      for (x = 0; x < src.width; x++)
        hist[((const guint8 *) src.data)[y * src.stride + x]]++;
    for (b = 0; b < 256; b++) {
      /* volatile: each product rounded, as defined (no FMA) */
      volatile gdouble kept = 0.6 * history[b];
      volatile gdouble added = (1.0 - 0.6) * hist[b];

      history[b] = restart ? (gdouble) hist[b] : kept + added;
      counts[b] = (guint32) nearbyint (history[b]);
    }
    expected[i] = otsu_of_counts (counts);
    alone[i] = otsu_of_counts (hist);
    if (expected[i] != alone[i])
      differs++;

    if (restart && i > 0)
      GST_BUFFER_FLAG_SET (in, GST_BUFFER_FLAG_DISCONT);
    out = cip_test_push_pull (h, in);
    gst_buffer_unref (out);
    cip_test_image_free (&src);
  }
  fail_unless (gst_harness_push_event (h, gst_event_new_eos ()));
  /* the per-frame thresholds are OpenCV's */
  fail_unless_equals_int (alone[0], expected_int ("camera", "otsu-threshold"));
  fail_unless_equals_int (alone[1], expected_int ("moon", "otsu-threshold"));
  fail_unless (differs >= 3, "smoothing changed only %u thresholds", differs);

  messages = cip_test_bus_pop_element_messages (bus, "cudaotsu");
  fail_unless_equals_int (g_list_length (messages), G_N_ELEMENTS (turns));
  for (l = messages, i = 0; l; l = l->next, i++) {
    guint threshold = 0;

    fail_unless (gst_structure_get_uint (gst_message_get_structure (l->data),
            "threshold", &threshold));
    fail_unless_equals_int (threshold, expected[i]);
  }
  g_list_free_full (messages, (GDestroyNotify) gst_message_unref);
  cip_test_harness_teardown_with_bus (h, bus);
}

GST_END_TEST;

static Suite *
cudaotsu_suite (void)
{
  Suite *s = suite_create ("cudaotsu");
  TCase *tc = tcase_create ("general");

  suite_add_tcase (s, tc);
  tcase_set_timeout (tc, CIP_TEST_TIMEOUT);
  tcase_add_loop_test (tc, test_gray16_skimage, 0,
      G_N_ELEMENTS (otsu16_images));
  tcase_add_test (tc, test_threshold_zero_before_first_frame);
  tcase_add_loop_test (tc, test_matches_opencv, 0, G_N_ELEMENTS (images));
  tcase_add_test (tc, test_threshold_notified);
  tcase_add_loop_test (tc, test_invert, 0, G_N_ELEMENTS (images));
  tcase_add_test (tc, test_invert_change_between_frames);
  tcase_add_test (tc, test_constant_frames);
  tcase_add_loop_test (tc, test_post_messages, 0, 2);
  tcase_add_test (tc, test_flush_drops_held_frame_message);
  tcase_add_test (tc, test_no_messages_by_default);
  tcase_add_test (tc, test_messages_without_time_segment);
  tcase_add_test (tc, test_temporal_smoothing);

  return s;
}

CIP_TEST_ELEMENT_MAIN (cudaotsu)
