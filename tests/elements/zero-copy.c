/* gst-cuda-imgproc
 * Copyright (C) 2026 The gst-cuda-imgproc authors
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2 of the License, or (at your option) any later version.
 */

/* zero-copy=on against zero-copy=off: the same frames in system memory
 * through each element give the same bytes, every plane; with the cuda
 * backend the element copies nothing with zero-copy on (the `stats`
 * counters), one upload and one download a frame with it off.  Inputs in
 * ordinary memory (page-locked by the element once) and from the pool
 * the element proposes (page-locked already); odd sizes.  With the cpu
 * backend the property is taken and changes nothing.  (Its default and
 * its refusal while running: tests/elements/cudaimgprocfilter.c.)  With
 * zero-copy off, pageable memory that comes back is page-locked for its
 * copies from its second frame on, and memory seen once is left
 * pageable: uploaded through the element's own page-locked staging
 * memory (the `staged` counter), byte for byte. */

#include "test-element.h"

#define N_FRAMES 3

static const struct
{
  const gchar *element;
  const gchar *props;
  GstVideoFormat in;
  GstVideoFormat out;
  gboolean copies_input;        /* reads its input again when done */
} cases[] = {
  {"cudagray", NULL, GST_VIDEO_FORMAT_RGBA, GST_VIDEO_FORMAT_GRAY8, FALSE},
  {"cudagray", NULL, GST_VIDEO_FORMAT_YUY2, GST_VIDEO_FORMAT_GRAY8, FALSE},
  {"cudagray", NULL, GST_VIDEO_FORMAT_P010_10LE, GST_VIDEO_FORMAT_GRAY16_LE,
      FALSE},
  {"cudagray", NULL, GST_VIDEO_FORMAT_RGBA, GST_VIDEO_FORMAT_NV12, FALSE},
  {"cudaequalize", NULL, GST_VIDEO_FORMAT_NV12, GST_VIDEO_FORMAT_NV12, FALSE},
  {"cudaequalize", NULL, GST_VIDEO_FORMAT_GRAY16_LE,
      GST_VIDEO_FORMAT_GRAY16_LE, FALSE},
  {"cudamask", "threshold=100", GST_VIDEO_FORMAT_GRAY8,
      GST_VIDEO_FORMAT_GRAY8, FALSE},
  {"cudaotsu", NULL, GST_VIDEO_FORMAT_GRAY8, GST_VIDEO_FORMAT_GRAY8, FALSE},
  {"cudablur", "sigma=1.5", GST_VIDEO_FORMAT_GRAY16_LE,
      GST_VIDEO_FORMAT_GRAY16_LE, FALSE},
  {"cudamorph", "operation=open shape=disk radius=2", GST_VIDEO_FORMAT_GRAY8,
      GST_VIDEO_FORMAT_GRAY8, FALSE},
  {"cudalabel", "mode=labels", GST_VIDEO_FORMAT_GRAY8,
      GST_VIDEO_FORMAT_GRAY16_LE, TRUE},
  {"cudalabel", NULL, GST_VIDEO_FORMAT_GRAY8, GST_VIDEO_FORMAT_RGBA, TRUE},
};

static const struct
{
  gint width, height;
} sizes[] = {
  {64, 48}, {33, 17},
};

typedef enum
{
  MEMORY_ORDINARY,              /* gst_buffer_new_allocate (): pageable */
  MEMORY_POOL,                  /* the pool the element proposes */
} Memory;

/* Frame @i of random bytes, every plane, in @memory. */
static GstBuffer *
make_frame (GstHarness * h, const GstVideoInfo * info, Memory memory, guint i)
{
  GstBuffer *buffer = memory == MEMORY_POOL ?
      gst_harness_create_buffer (h, GST_VIDEO_INFO_SIZE (info)) :
      gst_buffer_new_allocate (NULL, GST_VIDEO_INFO_SIZE (info), NULL);
  GRand *rand = g_rand_new_with_seed (1000 * i + 7);
  GstMapInfo map;
  gsize k;

  fail_unless (buffer != NULL);
  fail_unless (gst_buffer_map (buffer, &map, GST_MAP_WRITE));
  for (k = 0; k < map.size; k++)
    map.data[k] = (guint8) g_rand_int (rand);
  /* masks of mostly ones: cudalabel finds regions, cudamorph opens them */
  if (GST_VIDEO_INFO_FORMAT (info) == GST_VIDEO_FORMAT_GRAY8)
    for (k = 0; k < map.size; k++)
      map.data[k] = map.data[k] < 160 ? 255 : 0;
  gst_buffer_unmap (buffer, &map);
  g_rand_free (rand);
  return buffer;
}

/* The outputs of N_FRAMES frames through the element with @zero_copy, in
 * @memory; with the element's copies counted in @uploads and
 * @downloads. */
static GstBuffer **
run (guint c, gint width, gint height, const gchar * zero_copy,
    Memory memory, guint64 * uploads, guint64 * downloads, GstCaps ** out_caps)
{
  gchar *props = g_strdup_printf ("zero-copy=%s %s", zero_copy,
      cases[c].props ? cases[c].props : "");
  GstHarness *h = cip_test_harness_new (cases[c].element, props);
  GstElement *element = cip_test_harness_element (h, cases[c].element);
  GstBuffer **out = g_new0 (GstBuffer *, N_FRAMES);
  GstVideoInfo info;
  guint i;

  gst_video_info_set_format (&info, cases[c].in, width, height);
  cip_test_harness_set_caps (h, cases[c].in, width, height);
  gst_harness_set_sink_caps (h, cip_test_caps_new (cases[c].out, width,
          height));
  for (i = 0; i < N_FRAMES; i++)
    out[i] = cip_test_push_pull (h, make_frame (h, &info, memory, i));
  *out_caps = cip_test_harness_output_caps (h);
  *uploads = cip_test_element_stat (element, "uploads");
  *downloads = cip_test_element_stat (element, "downloads");
  gst_object_unref (element);
  gst_harness_teardown (h);
  g_free (props);
  return out;
}

static void
check_case (guint c, Memory memory)
{
  gboolean cuda = cip_test_backend_is_cuda ();
  guint s, i, p;

  for (s = 0; s < G_N_ELEMENTS (sizes); s++) {
    gint width = sizes[s].width, height = sizes[s].height;
    guint64 up_off, down_off, up_on, down_on;
    GstCaps *caps_off, *caps_on;
    GstBuffer **off = run (c, width, height, "off", memory, &up_off,
        &down_off, &caps_off);
    GstBuffer **on = run (c, width, height, "on", memory, &up_on, &down_on,
        &caps_on);
    GstVideoInfo info;

    GST_INFO ("%s %s %dx%d: off %" G_GUINT64_FORMAT "/%" G_GUINT64_FORMAT
        " copies, on %" G_GUINT64_FORMAT "/%" G_GUINT64_FORMAT,
        cases[c].element, gst_video_format_to_string (cases[c].in), width,
        height, up_off, down_off, up_on, down_on);
    fail_unless (gst_caps_is_equal (caps_off, caps_on));
    fail_unless (gst_video_info_from_caps (&info, caps_on));
    for (i = 0; i < N_FRAMES; i++)
      for (p = 0; p < GST_VIDEO_INFO_N_PLANES (&info); p++)
        cip_test_assert_buffer_plane_equal (off[i], on[i], caps_on, p);

    fail_unless_equals_uint64 (up_off, cuda ? N_FRAMES : 0);
    fail_unless_equals_uint64 (down_off, cuda ? N_FRAMES : 0);
    fail_unless_equals_uint64 (up_on, cuda && cases[c].copies_input ?
        N_FRAMES : 0);
    fail_unless_equals_uint64 (down_on, 0);

    for (i = 0; i < N_FRAMES; i++) {
      gst_buffer_unref (off[i]);
      gst_buffer_unref (on[i]);
    }
    g_free (off);
    g_free (on);
    gst_caps_unref (caps_off);
    gst_caps_unref (caps_on);
  }
}

GST_START_TEST (test_ordinary_memory_in_place)
{
  check_case (__i__, MEMORY_ORDINARY);
}

GST_END_TEST;

GST_START_TEST (test_pool_memory_in_place)
{
  check_case (__i__, MEMORY_POOL);
}

GST_END_TEST;

/* One pageable frame pushed again and again (imagefreeze, an
 * application's ring of frames) through cudagray with zero-copy off: the
 * same gray every time; with the cuda backend its memory is page-locked
 * from the second frame on, and a frame pushed once stays pageable. */
GST_START_TEST (test_recurring_memory_page_locked)
{
  GstHarness *h = cip_test_harness_new ("cudagray", "zero-copy=off");
  GstElement *element = cip_test_harness_element (h, "cudagray");
  gboolean cuda = cip_test_backend_is_cuda ();
  GstBuffer *first = NULL, *frame, *once, *out;
  GstCaps *caps = NULL;
  GstVideoInfo info;
  guint i;

  gst_video_info_set_format (&info, GST_VIDEO_FORMAT_RGBA, 64, 48);
  cip_test_harness_set_caps (h, GST_VIDEO_FORMAT_RGBA, 64, 48);
  gst_harness_set_sink_caps (h, cip_test_caps_new (GST_VIDEO_FORMAT_GRAY8,
          64, 48));
  frame = make_frame (h, &info, MEMORY_ORDINARY, 0);
  once = make_frame (h, &info, MEMORY_ORDINARY, 1);
  for (i = 0; i < 4; i++) {
    out = cip_test_push_pull (h, gst_buffer_ref (frame));
    fail_unless_equals_uint64 (cip_test_element_stat (element, "page-locked"),
        cuda && i > 0 ? 1 : 0);
    /* staged the first time only: page-locked from then on */
    fail_unless_equals_uint64 (cip_test_element_stat (element, "staged"),
        cuda ? 1 : 0);
    if (first) {
      cip_test_assert_buffer_plane_equal (first, out, caps, 0);
    } else {
      first = gst_buffer_ref (out);
      caps = cip_test_harness_output_caps (h);
    }
    gst_buffer_unref (out);
  }
  gst_buffer_unref (cip_test_push_pull (h, gst_buffer_ref (once)));
  fail_unless_equals_uint64 (cip_test_element_stat (element, "page-locked"),
      cuda ? 1 : 0);
  fail_unless_equals_uint64 (cip_test_element_stat (element, "staged"),
      cuda ? 2 : 0);

  gst_caps_unref (caps);
  gst_buffer_unref (first);
  gst_buffer_unref (once);
  gst_buffer_unref (frame);
  gst_object_unref (element);
  gst_harness_teardown (h);
}

GST_END_TEST;

/* Pageable frames each pushed once (a new allocation a frame, as most
 * sources make them) through cudagray with zero-copy off: the gray of
 * every one, odd widths and padded rows starting off the memory's start,
 * one frame of a few staging chunks; with the cuda backend each is
 * uploaded through the element's staging memory, none page-locked. */
static const struct
{
  gint width, height;
  gsize pad, offset;
} once_sizes[] = {
  {33, 17, 12, 5},
  {1001, 701, 40, 3},           /* 2.8 MB: three chunks */
};

GST_START_TEST (test_pageable_once_staged)
{
  gint width = once_sizes[__i__].width, height = once_sizes[__i__].height;
  GstHarness *h = cip_test_harness_new ("cudagray", "zero-copy=off");
  GstElement *element = cip_test_harness_element (h, "cudagray");
  gboolean cuda = cip_test_backend_is_cuda ();
  guint i;

  cip_test_harness_set_caps (h, GST_VIDEO_FORMAT_RGBA, width, height);
  gst_harness_set_sink_caps (h, cip_test_caps_new (GST_VIDEO_FORMAT_GRAY8,
          width, height));
  for (i = 0; i < 4; i++) {
    CipImage image = cip_test_image_random (width, height, CIP_FORMAT_RGBA,
        100 + i);
    CipImage padded = cip_test_image_copy (&image, once_sizes[__i__].pad);
    CipImage expected = cip_test_expected_default ("cudagray", &image);

    cip_test_push_pull_assert (h, cip_test_buffer_new_strided (&padded,
            once_sizes[__i__].offset), &expected);
    cip_test_image_free (&expected);
    cip_test_image_free (&padded);
    cip_test_image_free (&image);
  }
  fail_unless_equals_uint64 (cip_test_element_stat (element, "staged"),
      cuda ? 4 : 0);
  fail_unless_equals_uint64 (cip_test_element_stat (element, "uploads"),
      cuda ? 4 : 0);
  fail_unless_equals_uint64 (cip_test_element_stat (element, "page-locked"), 0);

  gst_object_unref (element);
  gst_harness_teardown (h);
}

GST_END_TEST;

static Suite *
zero_copy_suite (void)
{
  Suite *s = suite_create ("zero-copy");
  TCase *tc = tcase_create ("general");

  suite_add_tcase (s, tc);
  tcase_set_timeout (tc, CIP_TEST_TIMEOUT);
  tcase_add_loop_test (tc, test_ordinary_memory_in_place, 0,
      G_N_ELEMENTS (cases));
  tcase_add_loop_test (tc, test_pool_memory_in_place, 0, G_N_ELEMENTS (cases));
  tcase_add_test (tc, test_recurring_memory_page_locked);
  tcase_add_loop_test (tc, test_pageable_once_staged, 0,
      G_N_ELEMENTS (once_sizes));
  return s;
}

CIP_TEST_ELEMENT_MAIN (zero_copy)
