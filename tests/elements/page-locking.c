/* gst-cuda-imgproc
 * Copyright (C) 2026 The gst-cuda-imgproc authors
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2 of the License, or (at your option) any later version.
 */

/* Pageable memory the element page-locks on its second copy
 * (docs/design.md), where that goes wrong: memory the driver will not
 * page-lock (mapped read-only) is copied the ordinary way, without an
 * error; memory freed while page-locked leaves no registration behind, so
 * that memory mapped again at the same address is page-locked anew and
 * its new bytes are read.  Every output equals the same frame's from
 * ordinary memory.  With the cpu backend nothing is page-locked and the
 * outputs still hold. */

#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "test-element.h"

/* Linux 4.17; older kernels take it as a hint, checked below */
#ifndef MAP_FIXED_NOREPLACE
#define MAP_FIXED_NOREPLACE 0x100000
#endif

#define WIDTH 64
#define HEIGHT 48

typedef struct
{
  gpointer data;
  gsize size;
  gboolean freed;
} Mapping;

static void
mapping_unmap (gpointer user_data)
{
  Mapping *mapping = user_data;

  fail_unless_equals_int (munmap (mapping->data, mapping->size), 0);
  mapping->freed = TRUE;
}

/* @size bytes of fresh pages, at @address where given (which must be
 * free), else anywhere; NULL where the system would not. */
static gpointer
map_pages (gpointer address, gsize size)
{
  gpointer data = mmap (address, size, PROT_READ | PROT_WRITE,
      MAP_PRIVATE | MAP_ANONYMOUS | (address ? MAP_FIXED_NOREPLACE : 0), -1,
      0);

  return data == MAP_FAILED ? NULL : data;
}

static void
fill_frame (guint8 * data, gsize size, guint seed)
{
  GRand *rand = g_rand_new_with_seed (seed);
  gsize k;

  for (k = 0; k < size; k++)
    data[k] = (guint8) g_rand_int (rand);
  g_rand_free (rand);
}

/* A frame of @mapping's pages (unmapped with the memory). */
static GstBuffer *
wrap_mapping (Mapping * mapping, gsize frame_size, gboolean read_only)
{
  GstBuffer *buffer = gst_buffer_new ();

  gst_buffer_append_memory (buffer, gst_memory_new_wrapped (read_only ?
          GST_MEMORY_FLAG_READONLY : 0, mapping->data, mapping->size, 0,
          frame_size, mapping, mapping_unmap));
  return buffer;
}

/* The output for @seed's frame from ordinary (malloc) memory. */
static GstBuffer *
expected_output (gsize frame_size, guint seed, GstCaps ** caps)
{
  GstHarness *h = cip_test_harness_new ("cudagray", "zero-copy=off");
  GstBuffer *in = gst_buffer_new_allocate (NULL, frame_size, NULL);
  GstBuffer *out;
  GstMapInfo map;

  cip_test_harness_set_caps (h, GST_VIDEO_FORMAT_RGBA, WIDTH, HEIGHT);
  gst_harness_set_sink_caps (h, cip_test_caps_new (GST_VIDEO_FORMAT_GRAY8,
          WIDTH, HEIGHT));
  fail_unless (gst_buffer_map (in, &map, GST_MAP_WRITE));
  fill_frame (map.data, map.size, seed);
  gst_buffer_unmap (in, &map);
  out = cip_test_push_pull (h, in);
  *caps = cip_test_harness_output_caps (h);
  gst_harness_teardown (h);
  return out;
}

/* Pushes @frame @times times through cudagray; each output must be
 * @expected, and no error posted.  Returns the memories the element
 * page-locked. */
static guint64
push_frame (GstBuffer * frame, guint times, GstBuffer * expected,
    GstCaps * caps)
{
  GstHarness *h = cip_test_harness_new ("cudagray", "zero-copy=off");
  GstElement *element = cip_test_harness_element (h, "cudagray");
  GstBus *bus = cip_test_harness_add_bus (h);
  guint64 page_locked;
  guint i;

  cip_test_harness_set_caps (h, GST_VIDEO_FORMAT_RGBA, WIDTH, HEIGHT);
  gst_harness_set_sink_caps (h, cip_test_caps_new (GST_VIDEO_FORMAT_GRAY8,
          WIDTH, HEIGHT));
  for (i = 0; i < times; i++) {
    GstBuffer *out = cip_test_push_pull (h, gst_buffer_ref (frame));

    cip_test_assert_buffer_plane_equal (expected, out, caps, 0);
    gst_buffer_unref (out);
  }
  fail_unless_equals_int (cip_test_bus_pop_errors (bus, NULL), 0);
  page_locked = cip_test_element_stat (element, "page-locked");
  gst_object_unref (element);
  cip_test_harness_teardown_with_bus (h, bus);
  return page_locked;
}

/* Read-only pages, which the driver does not page-lock for copies: the
 * frame is copied as pageable memory, every time, without an error. */
GST_START_TEST (test_read_only_memory_copied)
{
  gsize frame_size = WIDTH * HEIGHT * 4;
  Mapping mapping = { NULL, GST_ROUND_UP_N (frame_size, getpagesize ()) };
  GstBuffer *expected, *frame;
  GstCaps *caps;
  guint64 page_locked;

  expected = expected_output (frame_size, 11, &caps);
  mapping.data = map_pages (NULL, mapping.size);
  fail_unless (mapping.data != NULL);
  fill_frame (mapping.data, frame_size, 11);
  fail_unless_equals_int (mprotect (mapping.data, mapping.size, PROT_READ), 0);
  frame = wrap_mapping (&mapping, frame_size, TRUE);

  page_locked = push_frame (frame, 4, expected, caps);
  GST_INFO ("read-only memory: %" G_GUINT64_FORMAT " page-locked", page_locked);
  gst_buffer_unref (frame);
  fail_unless (mapping.freed);

  gst_buffer_unref (expected);
  gst_caps_unref (caps);
}

GST_END_TEST;

/* Memory page-locked, freed, and pages mapped again at its address with
 * other bytes: the second memory is page-locked in turn (a registration
 * left behind would make the driver refuse it) and its bytes are read. */
GST_START_TEST (test_memory_freed_and_mapped_again)
{
  gboolean cuda = cip_test_backend_is_cuda ();
  gsize frame_size = WIDTH * HEIGHT * 4;
  Mapping first = { NULL, GST_ROUND_UP_N (frame_size, getpagesize ()) };
  Mapping second = first;
  GstBuffer *expected[2], *frame;
  GstCaps *caps[2];

  expected[0] = expected_output (frame_size, 21, &caps[0]);
  expected[1] = expected_output (frame_size, 22, &caps[1]);

  first.data = map_pages (NULL, first.size);
  fail_unless (first.data != NULL);
  fill_frame (first.data, frame_size, 21);
  frame = wrap_mapping (&first, frame_size, FALSE);
  fail_unless_equals_uint64 (push_frame (frame, 3, expected[0], caps[0]),
      cuda ? 1 : 0);
  gst_buffer_unref (frame);
  fail_unless (first.freed, "the element kept the frame");

  second.data = map_pages (first.data, second.size);
  if (second.data && second.data != first.data) {
    fail_unless_equals_int (munmap (second.data, second.size), 0);
    second.data = NULL;
  }
  if (second.data == NULL) {
    /* another thread took the address in between: nothing to learn */
    GST_WARNING ("could not map pages at %p again", first.data);
  } else {
    fill_frame (second.data, frame_size, 22);
    frame = wrap_mapping (&second, frame_size, FALSE);
    fail_unless_equals_uint64 (push_frame (frame, 3, expected[1], caps[1]),
        cuda ? 1 : 0);
    gst_buffer_unref (frame);
    fail_unless (second.freed);
  }

  gst_buffer_unref (expected[0]);
  gst_buffer_unref (expected[1]);
  gst_caps_unref (caps[0]);
  gst_caps_unref (caps[1]);
}

GST_END_TEST;

static Suite *
page_locking_suite (void)
{
  Suite *s = suite_create ("page-locking");
  TCase *tc = tcase_create ("general");

  suite_add_tcase (s, tc);
  tcase_set_timeout (tc, CIP_TEST_TIMEOUT);
  tcase_add_test (tc, test_read_only_memory_copied);
  tcase_add_test (tc, test_memory_freed_and_mapped_again);
  return s;
}

CIP_TEST_ELEMENT_MAIN (page_locking)
