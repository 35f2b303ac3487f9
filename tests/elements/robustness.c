/* gst-cuda-imgproc
 * Copyright (C) 2026 The gst-cuda-imgproc authors
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2 of the License, or (at your option) any later version.
 */

/* What every element survives: state walks in order and at random, frames
 * accounted for across EOS, flushes, GAP, segments and caps changes,
 * buffers, events and state changes from several threads at once, and
 * extreme sizes. */

#include <string.h>
#include <sys/resource.h>

#include "test-element.h"

typedef struct
{
  const gchar *name;
  /* Input formats it takes, none passed through; the first is the one
   * used where a single format is enough. */
  GstVideoFormat formats[4];
} ElementCase;

static const ElementCase elements[] = {
  {"cudagray", {GST_VIDEO_FORMAT_RGBA, GST_VIDEO_FORMAT_I420,
          GST_VIDEO_FORMAT_BGR, GST_VIDEO_FORMAT_NV12}},
  {"cudamask", {GST_VIDEO_FORMAT_GRAY8}},
  {"cudaequalize", {GST_VIDEO_FORMAT_GRAY8, GST_VIDEO_FORMAT_NV12,
          GST_VIDEO_FORMAT_I420}},
  {"cudaotsu", {GST_VIDEO_FORMAT_GRAY8}},
  {"cudablur", {GST_VIDEO_FORMAT_BGRx, GST_VIDEO_FORMAT_GRAY8,
          GST_VIDEO_FORMAT_ARGB}},
  {"cudamorph", {GST_VIDEO_FORMAT_GRAY8, GST_VIDEO_FORMAT_RGBA,
          GST_VIDEO_FORMAT_ABGR}},
  {"cudalabel", {GST_VIDEO_FORMAT_GRAY8}},
};

#define N_ELEMENTS G_N_ELEMENTS (elements)

/* A random frame of @format and what @element makes of it. */
static GstBuffer *
make_frame (const gchar * element, GstVideoFormat format, gint width,
    gint height, guint32 seed, CipImage * expected)
{
  CipImage src = cip_test_image_random (width, height,
      cip_test_plane0_format (format), seed);
  GstBuffer *in = cip_test_buffer_for_format (&src, format, (guint8) seed);

  *expected = cip_test_expected_default (element, &src);
  cip_test_image_free (&src);
  return in;
}

/* Fails unless @out is @expected, as a frame of the caps the harness's
 * sink pad has now. */
static void
check_output (GstHarness * h, GstBuffer * out, const CipImage * expected)
{
  GstCaps *caps = cip_test_harness_output_caps (h);

  cip_test_assert_buffer_image (out, caps, expected);
  gst_caps_unref (caps);
}

/* Pushes a random frame (caps set), pulls the one output and checks it. */
static void
push_and_check_frame (GstHarness * h, const gchar * element,
    GstVideoFormat format, gint width, gint height, guint32 seed)
{
  CipImage expected;
  GstBuffer *in = make_frame (element, format, width, height, seed,
      &expected);
  GstBuffer *out = cip_test_push_pull (h, in);

  check_output (h, out, &expected);
  gst_buffer_unref (out);
  cip_test_image_free (&expected);
}

/* Pushes a random frame with @pts and expects @expected from the push; an
 * output stays queued in the harness. */
static void
push_frame_returning (GstHarness * h, const ElementCase * c, gint width,
    gint height, GstClockTime pts, GstFlowReturn expected)
{
  CipImage src = cip_test_image_random (width, height,
      cip_test_plane0_format (c->formats[0]), (guint32) pts);
  GstBuffer *in = cip_test_buffer_for_format (&src, c->formats[0], 1);

  GST_BUFFER_PTS (in) = pts;
  GST_BUFFER_DURATION (in) = GST_SECOND / 30;
  fail_unless_equals_int (gst_harness_push (h, in), expected);
  cip_test_image_free (&src);
}

/* The same, for a push that must succeed. */
static void
push_frame (GstHarness * h, const ElementCase * c, gint width, gint height,
    GstClockTime pts)
{
  push_frame_returning (h, c, width, height, pts, GST_FLOW_OK);
}

/* Pulls every event the harness's sink pad received so far; returns how
 * many were of @type. */
static guint
count_events (GstHarness * h, GstEventType type)
{
  GstEvent *event;
  guint count = 0;

  while ((event = gst_harness_try_pull_event (h))) {
    count += GST_EVENT_TYPE (event) == type;
    gst_event_unref (event);
  }
  return count;
}

/* Pulls every queued output buffer; returns how many there were. */
static guint
drain_outputs (GstHarness * h)
{
  GstBuffer *out;
  guint count = 0;

  while ((out = gst_harness_try_pull (h))) {
    gst_buffer_unref (out);
    count++;
  }
  return count;
}

/* What a pipeline does with contexts: keeps the one an element posts and
 * hands it back when the element asks for that type again, so that the
 * walks below make one CUDA context, not one per READY.  Only the thread
 * changing the element's state posts these: no lock. */
static GstBusSyncReply
share_context (GstBus * bus, GstMessage * message, gpointer user_data)
{
  GstContext **kept = user_data;
  const gchar *type;

  if (GST_MESSAGE_TYPE (message) == GST_MESSAGE_HAVE_CONTEXT) {
    GstContext *context;

    gst_message_parse_have_context (message, &context);
    if (*kept)
      gst_context_unref (*kept);
    *kept = context;
  } else if (GST_MESSAGE_TYPE (message) == GST_MESSAGE_NEED_CONTEXT &&
      *kept != NULL && gst_message_parse_context_type (message, &type) &&
      g_strcmp0 (type, gst_context_get_context_type (*kept)) == 0) {
    gst_element_set_context (GST_ELEMENT (GST_MESSAGE_SRC (message)), *kept);
  }
  return GST_BUS_PASS;
}

static void
free_kept_context (gpointer data)
{
  GstContext **kept = data;

  if (*kept)
    gst_context_unref (*kept);
  g_free (kept);
}

/* The element, made by itself on the backend under test, with a bus that
 * shares contexts as a pipeline would. */
static GstElement *
make_element (const gchar * name, GstBus * bus)
{
  GstElement *element = gst_element_factory_make (name, NULL);

  fail_unless (element != NULL, "no element %s", name);
  gst_object_ref_sink (element);
  gst_util_set_object_arg (G_OBJECT (element), "backend",
      cip_test_backend_name ());
  gst_bus_set_sync_handler (bus, share_context, g_new0 (GstContext *, 1),
      free_kept_context);
  gst_element_set_bus (element, bus);
  return element;
}

static void
set_state_and_check (GstElement * element, GstState state)
{
  GstState current = GST_STATE_VOID_PENDING;

  fail_unless_equals_int (gst_element_set_state (element, state),
      GST_STATE_CHANGE_SUCCESS);
  fail_unless_equals_int (gst_element_get_state (element, &current, NULL, 0),
      GST_STATE_CHANGE_SUCCESS);
  fail_unless_equals_int (current, state);
}

/* After the state changes, the same instance computes a right frame. */
static void
check_still_works (GstElement * element, const ElementCase * c)
{
  GstHarness *h = gst_harness_new_with_element (element, "sink", "src");

  gst_harness_set_sink_caps_str (h, "video/x-raw");
  cip_test_harness_set_caps (h, c->formats[0], 64, 48);
  push_and_check_frame (h, c->name, c->formats[0], 64, 48, 5);
  gst_harness_teardown (h);
}

static void
release_element (GstElement * element, GstBus * bus)
{
  fail_unless_equals_int (gst_element_set_state (element, GST_STATE_NULL),
      GST_STATE_CHANGE_SUCCESS);
  gst_bus_set_flushing (bus, TRUE);
  gst_element_set_bus (element, NULL);
  gst_object_unref (bus);
  gst_object_unref (element);
}

/* ---- States ---- */

/* GStreamer's generic walk: up one state at a time, down one at a
 * time, 20 times. */
GST_START_TEST (test_states_walk)
{
  static const GstState walk[] = {
    GST_STATE_READY, GST_STATE_PAUSED, GST_STATE_PLAYING, GST_STATE_PAUSED,
    GST_STATE_READY, GST_STATE_NULL,
  };
  const ElementCase *c = &elements[__i__];
  GstBus *bus = gst_bus_new ();
  GstElement *element = make_element (c->name, bus);
  guint cycle, i;

  for (cycle = 0; cycle < 20; cycle++)
    for (i = 0; i < G_N_ELEMENTS (walk); i++)
      set_state_and_check (element, walk[i]);
  fail_unless_equals_int (cip_test_bus_pop_errors (bus, NULL), 0);

  check_still_works (element, c);
  fail_unless_equals_int (cip_test_bus_pop_errors (bus, NULL), 0);
  release_element (element, bus);
}

GST_END_TEST;

/* 200 transitions to states drawn at random (fixed seed), jumps and
 * no-op changes included. */
GST_START_TEST (test_states_random_order)
{
  static const GstState states[] = {
    GST_STATE_NULL, GST_STATE_READY, GST_STATE_PAUSED, GST_STATE_PLAYING,
  };
  const ElementCase *c = &elements[__i__];
  GstBus *bus = gst_bus_new ();
  GstElement *element = make_element (c->name, bus);
  GRand *rand = g_rand_new_with_seed (2026 + __i__);
  guint i;

  for (i = 0; i < 200; i++)
    set_state_and_check (element,
        states[g_rand_int_range (rand, 0, G_N_ELEMENTS (states))]);
  fail_unless_equals_int (cip_test_bus_pop_errors (bus, NULL), 0);
  g_rand_free (rand);

  set_state_and_check (element, GST_STATE_NULL);
  check_still_works (element, c);
  fail_unless_equals_int (cip_test_bus_pop_errors (bus, NULL), 0);
  release_element (element, bus);
}

GST_END_TEST;

/* ---- Frames in = frames out ---- */

/* Every frame before EOS comes out, EOS follows them, and data after it
 * is refused. */
GST_START_TEST (test_eos_after_frames)
{
  const ElementCase *c = &elements[__i__];
  GstHarness *h = cip_test_harness_new (c->name, NULL);
  guint i;

  cip_test_harness_set_caps (h, c->formats[0], 64, 48);
  for (i = 0; i < 5; i++)
    push_frame (h, c, 64, 48, i * GST_SECOND / 30);
  fail_unless (gst_harness_push_event (h, gst_event_new_eos ()));
  fail_unless_equals_int (gst_harness_buffers_received (h), 5);
  fail_unless_equals_int (count_events (h, GST_EVENT_EOS), 1);
  fail_unless_equals_int (drain_outputs (h), 5);

  push_frame_returning (h, c, 64, 48, GST_SECOND, GST_FLOW_EOS);
  fail_unless_equals_int (gst_harness_buffers_received (h), 5);
  gst_harness_teardown (h);
}

GST_END_TEST;

/* A flushing seek: frames before it come out; a push while flushing is
 * refused with FLUSHING and produces nothing; after flush-stop and a new
 * segment every frame comes out again, with its timestamp. */
GST_START_TEST (test_flush_seek)
{
  const ElementCase *c = &elements[__i__];
  GstHarness *h = cip_test_harness_new (c->name, NULL);
  GstSegment segment;
  GstBuffer *out;
  guint i;

  cip_test_harness_set_caps (h, c->formats[0], 64, 48);
  for (i = 0; i < 3; i++)
    push_frame (h, c, 64, 48, i * GST_SECOND / 30);
  fail_unless_equals_int (drain_outputs (h), 3);

  fail_unless (gst_harness_push_event (h, gst_event_new_flush_start ()));
  push_frame_returning (h, c, 64, 48, GST_SECOND, GST_FLOW_FLUSHING);
  fail_unless (gst_harness_push_event (h, gst_event_new_flush_stop (TRUE)));
  gst_segment_init (&segment, GST_FORMAT_TIME);
  segment.start = segment.time = 10 * GST_SECOND;
  fail_unless (gst_harness_push_event (h, gst_event_new_segment (&segment)));

  for (i = 0; i < 4; i++)
    push_frame (h, c, 64, 48, 10 * GST_SECOND + i * GST_SECOND / 30);
  fail_unless_equals_int (gst_harness_buffers_received (h), 7);
  for (i = 0; i < 4; i++) {
    out = gst_harness_pull (h);
    fail_unless_equals_uint64 (GST_BUFFER_PTS (out),
        10 * GST_SECOND + i * GST_SECOND / 30);
    gst_buffer_unref (out);
  }
  fail_unless_equals_int (count_events (h, GST_EVENT_FLUSH_STOP), 1);
  gst_harness_teardown (h);
}

GST_END_TEST;

/* GAP events pass downstream between frames, and take no frame's
 * place. */
GST_START_TEST (test_gap_events)
{
  const ElementCase *c = &elements[__i__];
  GstHarness *h = cip_test_harness_new (c->name, NULL);
  guint i;

  cip_test_harness_set_caps (h, c->formats[0], 64, 48);
  for (i = 0; i < 6; i += 2) {
    push_frame (h, c, 64, 48, i * GST_SECOND / 30);
    fail_unless (gst_harness_push_event (h,
            gst_event_new_gap ((i + 1) * GST_SECOND / 30, GST_SECOND / 30)));
  }
  fail_unless_equals_int (gst_harness_buffers_received (h), 3);
  fail_unless_equals_int (count_events (h, GST_EVENT_GAP), 3);
  fail_unless_equals_int (drain_outputs (h), 3);
  gst_harness_teardown (h);
}

GST_END_TEST;

/* Buffers flagged GAP that hold a whole frame: the elements are not
 * gap-aware, so GstBaseTransform has them computed like any other frame
 * and clears the flag on the output (the pixels are real).  One output
 * each, right. */
GST_START_TEST (test_gap_flagged_buffers)
{
  const ElementCase *c = &elements[__i__];
  GstHarness *h = cip_test_harness_new (c->name, NULL);
  guint i;

  cip_test_harness_set_caps (h, c->formats[0], 64, 48);
  for (i = 0; i < 4; i++) {
    CipImage expected;
    GstBuffer *in = make_frame (c->name, c->formats[0], 64, 48, 40 + i,
        &expected);
    GstBuffer *out;

    if (i % 2 == 0)
      GST_BUFFER_FLAG_SET (in, GST_BUFFER_FLAG_GAP);
    out = cip_test_push_pull (h, in);
    check_output (h, out, &expected);
    fail_if (GST_BUFFER_FLAG_IS_SET (out, GST_BUFFER_FLAG_GAP));
    gst_buffer_unref (out);
    cip_test_image_free (&expected);
  }
  fail_unless_equals_int (gst_harness_buffers_received (h), 4);
  gst_harness_teardown (h);
}

GST_END_TEST;

/* 64x48, 33x17, 64x48 again: one right output per input, the output caps
 * following. */
GST_START_TEST (test_caps_change_sizes)
{
  static const gint sizes[][2] = { {64, 48}, {33, 17}, {64, 48} };
  const ElementCase *c = &elements[__i__];
  GstHarness *h = cip_test_harness_new (c->name, NULL);
  guint s, i;

  for (s = 0; s < G_N_ELEMENTS (sizes); s++) {
    GstVideoInfo info;
    GstCaps *caps;

    cip_test_harness_set_caps (h, c->formats[0], sizes[s][0], sizes[s][1]);
    for (i = 0; i < 2; i++)
      push_and_check_frame (h, c->name, c->formats[0], sizes[s][0],
          sizes[s][1], s * 10 + i);
    caps = cip_test_harness_output_caps (h);
    fail_unless (gst_video_info_from_caps (&info, caps));
    fail_unless_equals_int (GST_VIDEO_INFO_WIDTH (&info), sizes[s][0]);
    fail_unless_equals_int (GST_VIDEO_INFO_HEIGHT (&info), sizes[s][1]);
    gst_caps_unref (caps);
  }
  fail_unless_equals_int (gst_harness_buffers_received (h), 6);
  gst_harness_teardown (h);
}

GST_END_TEST;

/* The elements that take several formats, through each of them and back
 * to the first. */
GST_START_TEST (test_caps_change_formats)
{
  const ElementCase *c = &elements[__i__];
  GstHarness *h = cip_test_harness_new (c->name, NULL);
  guint n = 0, i, expected_frames = 0;

  while (n < G_N_ELEMENTS (c->formats) &&
      c->formats[n] != GST_VIDEO_FORMAT_UNKNOWN)
    n++;
  for (i = 0; i <= n; i++) {
    GstVideoFormat format = c->formats[i % n];

    cip_test_harness_set_caps (h, format, 31, 19);
    push_and_check_frame (h, c->name, format, 31, 19, i);
    push_and_check_frame (h, c->name, format, 31, 19, i + 50);
    expected_frames += 2;
  }
  fail_unless_equals_int (gst_harness_buffers_received (h), expected_frames);
  gst_harness_teardown (h);
}

GST_END_TEST;

/* New segments mid-stream (another start, rate and base) pass downstream
 * in order, and every frame comes out with its timestamps. */
GST_START_TEST (test_segment_events)
{
  const ElementCase *c = &elements[__i__];
  GstHarness *h = cip_test_harness_new (c->name, NULL);
  GstEvent *event;
  guint s, i, segments = 0;

  cip_test_harness_set_caps (h, c->formats[0], 40, 30);
  for (s = 0; s < 3; s++) {
    GstSegment segment;

    gst_segment_init (&segment, GST_FORMAT_TIME);
    segment.start = segment.time = s * GST_SECOND;
    segment.base = s * 2 * GST_SECOND;
    segment.rate = s == 1 ? 2.0 : 1.0;
    fail_unless (gst_harness_push_event (h, gst_event_new_segment (&segment)));
    for (i = 0; i < 2; i++)
      push_frame (h, c, 40, 30, s * GST_SECOND + i * GST_SECOND / 30);
  }
  fail_unless_equals_int (gst_harness_buffers_received (h), 6);
  for (s = 0; s < 3; s++)
    for (i = 0; i < 2; i++) {
      GstBuffer *out = gst_harness_pull (h);

      fail_unless_equals_uint64 (GST_BUFFER_PTS (out),
          s * GST_SECOND + i * GST_SECOND / 30);
      fail_unless_equals_uint64 (GST_BUFFER_DURATION (out), GST_SECOND / 30);
      gst_buffer_unref (out);
    }

  /* The harness's own segment, then ours, in order. */
  while ((event = gst_harness_try_pull_event (h))) {
    if (GST_EVENT_TYPE (event) == GST_EVENT_SEGMENT) {
      const GstSegment *seg;

      gst_event_parse_segment (event, &seg);
      if (segments > 0) {
        fail_unless_equals_uint64 (seg->start, (segments - 1) * GST_SECOND);
        fail_unless_equals_float (seg->rate, segments == 2 ? 2.0 : 1.0);
      }
      segments++;
    }
    gst_event_unref (event);
  }
  fail_unless_equals_int (segments, 4);
  gst_harness_teardown (h);
}

GST_END_TEST;

/* A reversed TIME segment without a stop has no running time: the
 * messages of cudaotsu and cudalabel leave the field out (GStreamer's
 * gst_segment_to_running_time() would be a CRITICAL there, which fails
 * the test), keep their stream time, and frames go on. */
GST_START_TEST (test_reversed_segment_messages)
{
  static const gchar *const names[] = { "cudaotsu", "cudalabel" };
  GstHarness *h = cip_test_harness_new (names[__i__], "post-messages=true");
  GstBus *bus = cip_test_harness_add_bus (h);
  const ElementCase *c = NULL;
  GstSegment segment;
  GList *messages, *l;
  guint i;

  for (i = 0; i < N_ELEMENTS; i++)
    if (g_str_equal (elements[i].name, names[__i__]))
      c = &elements[i];
  fail_unless (c != NULL);
  cip_test_harness_set_caps (h, c->formats[0], 40, 30);
  gst_segment_init (&segment, GST_FORMAT_TIME);
  segment.rate = -1.0;
  segment.start = 0;
  segment.stop = GST_CLOCK_TIME_NONE;
  fail_unless (gst_harness_push_event (h, gst_event_new_segment (&segment)));
  for (i = 0; i < 2; i++)
    push_frame (h, c, 40, 30, (2 - i) * GST_SECOND / 30);
  for (i = 0; i < 2; i++)
    gst_buffer_unref (gst_harness_pull (h));

  messages = cip_test_bus_pop_element_messages (bus, names[__i__]);
  fail_unless_equals_int (g_list_length (messages), 2);
  for (l = messages; l; l = l->next) {
    const GstStructure *st = gst_message_get_structure (l->data);

    fail_unless (gst_structure_has_field (st, "stream-time"));
    fail_if (gst_structure_has_field (st, "running-time"));
  }
  g_list_free_full (messages, (GDestroyNotify) gst_message_unref);
  cip_test_harness_teardown_with_bus (h, bus);
}

GST_END_TEST;

/* ---- Several threads at once ---- */

typedef struct
{
  GstSegment segment;
  guint n;
} EventCycle;

/* flush-start, flush-stop, a segment, a GAP event, over and over. */
static GstEvent *
next_stress_event (GstHarness * h, gpointer data)
{
  EventCycle *cycle = data;

  switch (cycle->n++ % 4) {
    case 0:
      return gst_event_new_flush_start ();
    case 1:
      return gst_event_new_flush_stop (TRUE);
    case 2:
      return gst_event_new_segment (&cycle->segment);
    default:
      return gst_event_new_gap (0, GST_SECOND / 30);
  }
}

/* One thread pushing the same frame, one pushing flushes, segments and
 * GAP events, one taking the element NULL and back to PLAYING, for a
 * second.  No crash, no error, and every frame that came out is the
 * right one (none half computed); afterwards the element still works. */
GST_START_TEST (test_stress_threads)
{
  const ElementCase *c = &elements[__i__];
  GstHarness *h = cip_test_harness_new (c->name, NULL);
  GstBus *bus = cip_test_harness_add_bus (h);
  GstCaps *caps = cip_test_caps_new (c->formats[0], 64, 48);
  EventCycle cycle = { {0,}, 0 };
  GstHarnessThread *pusher, *events, *states;
  GstBuffer *in, *out;
  CipImage expected;
  guint pushed, received, checked = 0, i;

  /* Buffers pushed between a flush-stop and the next segment, or while
   * the state thread relinks the pads (which resends the sticky events,
   * racing with the event thread's segments), are this test's doing, not
   * the element's. */
  gst_check_add_log_filter ("GStreamer", G_LOG_LEVEL_WARNING,
      g_regex_new ("Got data flow before (segment|stream-start) event|"
          "Sticky event misordering", 0, 0, NULL), NULL, NULL, NULL);

  gst_segment_init (&cycle.segment, GST_FORMAT_TIME);
  in = make_frame (c->name, c->formats[0], 64, 48, 77, &expected);

  pusher = gst_harness_stress_push_buffer_start_full (h, caps,
      &cycle.segment, in, 50);
  /* Its caps and segment must be in before the first flush. */
  for (i = 0; i < 2000 && gst_harness_buffers_received (h) == 0; i++)
    g_usleep (1000);
  fail_unless (gst_harness_buffers_received (h) > 0, "no frame came out");
  events = gst_harness_stress_push_event_with_cb_start_full (h,
      next_stress_event, &cycle, NULL, 500);
  states = gst_harness_stress_statechange_start_full (h, 5000);
  g_usleep (G_USEC_PER_SEC);
  gst_harness_stress_thread_stop (states);
  gst_harness_stress_thread_stop (events);
  pushed = gst_harness_stress_thread_stop (pusher);

  received = gst_harness_buffers_received (h);
  GST_INFO ("%s: %u pushed, %u out, %u events", c->name, pushed, received,
      cycle.n);
  fail_unless (received > 0, "no frame came out");
  fail_unless (received <= pushed);
  while ((out = gst_harness_try_pull (h))) {
    check_output (h, out, &expected);
    gst_buffer_unref (out);
    checked++;
  }
  fail_unless_equals_int (checked, received);
  fail_unless_equals_int (cip_test_bus_pop_errors (bus, NULL), 0);

  /* The element, taken through NULL again, computes the next frame
   * right: the flush the event thread may have left is ended, the
   * harness's sticky events go again with its caps. */
  fail_unless_equals_int (gst_element_set_state (h->element,
          GST_STATE_NULL), GST_STATE_CHANGE_SUCCESS);
  fail_unless_equals_int (gst_element_set_state (h->element,
          GST_STATE_PLAYING), GST_STATE_CHANGE_SUCCESS);
  gst_harness_push_event (h, gst_event_new_flush_stop (TRUE));
  gst_harness_set_src_caps (h, gst_caps_ref (caps));
  out = cip_test_push_pull (h, gst_buffer_ref (in));
  check_output (h, out, &expected);
  gst_buffer_unref (out);
  fail_unless_equals_int (cip_test_bus_pop_errors (bus, NULL), 0);

  gst_buffer_unref (in);
  gst_caps_unref (caps);
  cip_test_image_free (&expected);
  cip_test_harness_teardown_with_bus (h, bus);
  gst_check_clear_log_filter ();
}

GST_END_TEST;

/* ---- Extreme sizes ---- */

static const gint extreme_sizes[][2] = {
  {1, 1}, {CIP_MAX_DIMENSION, 1}, {1, CIP_MAX_DIMENSION},
};

/* The smallest frame and the longest rows and columns are valid, and
 * computed right. */
GST_START_TEST (test_extreme_sizes)
{
  const ElementCase *c = &elements[__i__ / G_N_ELEMENTS (extreme_sizes)];
  const gint *size = extreme_sizes[__i__ % G_N_ELEMENTS (extreme_sizes)];
  GstHarness *h = cip_test_harness_new (c->name, NULL);

  GST_INFO ("%s %dx%d", c->name, size[0], size[1]);
  cip_test_harness_set_caps (h, c->formats[0], size[0], size[1]);
  push_and_check_frame (h, c->name, c->formats[0], size[0], size[1], __i__);
  fail_unless_equals_int (gst_harness_buffers_received (h), 1);
  gst_harness_teardown (h);
}

GST_END_TEST;

/* One past the maximum, either way: refused at caps time, nothing
 * computed. */
GST_START_TEST (test_max_plus_one_refused)
{
  const ElementCase *c = &elements[__i__ / 2];
  gint width = __i__ % 2 ? 1 : CIP_MAX_DIMENSION + 1;
  gint height = __i__ % 2 ? CIP_MAX_DIMENSION + 1 : 1;
  GstHarness *h = cip_test_harness_new (c->name, NULL);

  cip_test_assert_caps_refused (h, c->formats[0], width, height);
  gst_harness_teardown (h);
}

GST_END_TEST;

static glong
max_rss_kib (void)
{
  struct rusage usage;

  fail_unless (getrusage (RUSAGE_SELF, &usage) == 0);
  return usage.ru_maxrss;
}

/* Caps of 16384x16384, a buffer of 64 bytes: STREAM/FORMAT error and
 * GST_FLOW_ERROR, nothing pushed.  GstBaseTransform allocates the output
 * frame before transform() sees the input, so that one frame (256 MiB to
 * 1 GiB here, touched where malloc perturbs fresh memory, as meson test
 * does) is the most the process may grow by. */
GST_START_TEST (test_huge_caps_tiny_buffer)
{
  const ElementCase *c = &elements[__i__];
  GstHarness *h = cip_test_harness_new (c->name, NULL);
  GstBus *bus = cip_test_harness_add_bus (h);
  glong rss_before = max_rss_kib (), grown;
  GstVideoInfo out_info;
  GstCaps *out_caps;

  cip_test_harness_set_caps (h, c->formats[0], CIP_MAX_DIMENSION,
      CIP_MAX_DIMENSION);
  fail_unless_equals_int (gst_harness_push (h,
          gst_buffer_new_allocate (NULL, 64, NULL)), GST_FLOW_ERROR);
  cip_test_bus_assert_one_error (bus, GST_STREAM_ERROR,
      GST_STREAM_ERROR_FORMAT, "16384x16384");
  fail_unless_equals_int (gst_harness_buffers_received (h), 0);

  out_caps = cip_test_harness_output_caps (h);
  fail_unless (gst_video_info_from_caps (&out_info, out_caps));
  gst_caps_unref (out_caps);
  grown = max_rss_kib () - rss_before;
  GST_INFO ("%s: peak memory grew by %ld KiB", c->name, grown);
  fail_unless (grown < (glong) (GST_VIDEO_INFO_SIZE (&out_info) / 1024) +
      64 * 1024, "peak memory grew by %ld KiB", grown);
  cip_test_harness_teardown_with_bus (h, bus);
}

GST_END_TEST;

static Suite *
robustness_suite (void)
{
  Suite *s = suite_create ("robustness");
  TCase *tc = tcase_create ("general");

  suite_add_tcase (s, tc);
  tcase_set_timeout (tc, CIP_TEST_TIMEOUT);
  tcase_add_loop_test (tc, test_states_walk, 0, N_ELEMENTS);
  tcase_add_loop_test (tc, test_states_random_order, 0, N_ELEMENTS);
  tcase_add_loop_test (tc, test_eos_after_frames, 0, N_ELEMENTS);
  tcase_add_loop_test (tc, test_flush_seek, 0, N_ELEMENTS);
  tcase_add_loop_test (tc, test_gap_events, 0, N_ELEMENTS);
  tcase_add_loop_test (tc, test_gap_flagged_buffers, 0, N_ELEMENTS);
  tcase_add_loop_test (tc, test_caps_change_sizes, 0, N_ELEMENTS);
  tcase_add_loop_test (tc, test_caps_change_formats, 0, N_ELEMENTS);
  tcase_add_loop_test (tc, test_segment_events, 0, N_ELEMENTS);
  tcase_add_loop_test (tc, test_reversed_segment_messages, 0, 2);
  tcase_add_loop_test (tc, test_stress_threads, 0, N_ELEMENTS);
  tcase_add_loop_test (tc, test_extreme_sizes, 0,
      N_ELEMENTS * G_N_ELEMENTS (extreme_sizes));
  tcase_add_loop_test (tc, test_max_plus_one_refused, 0, N_ELEMENTS * 2);
  tcase_add_loop_test (tc, test_huge_caps_tiny_buffer, 0, N_ELEMENTS);

  return s;
}

CIP_TEST_ELEMENT_MAIN (robustness)
