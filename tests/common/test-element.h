/* gst-cuda-imgproc
 * Copyright (C) 2026 The gst-cuda-imgproc authors
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2 of the License, or (at your option) any later version.
 */

/* Helpers for element and pipeline tests (GstHarness, gst-check). */

#ifndef __CIP_TEST_ELEMENT_H__
#define __CIP_TEST_ELEMENT_H__

#include <gst/check/gstcheck.h>
#include <gst/check/gstharness.h>
#include <gst/video/video.h>

#include "test-util.h"

G_BEGIN_DECLS

/* main() of a gst-check test binary that runs on the backend named by
 * CIP_TEST_BACKEND, and skips (exit 77) when that is cuda and there is no
 * usable device.  The device is probed in a child process: CUDA set up
 * before a fork() does not work in the forked child, and gst-check runs
 * every test in one. */
#define CIP_TEST_ELEMENT_MAIN(name)                                     \
  int                                                                   \
  main (int argc, char **argv)                                          \
  {                                                                     \
    gst_check_init (&argc, &argv);                                      \
    if (!cip_test_have_required_elements ())                            \
      return CIP_TEST_SKIP;                                             \
    if (cip_test_backend_is_cuda () && !cip_test_probe_cuda_device ()) { \
      g_print ("no usable CUDA device: skipped\n");                     \
      return CIP_TEST_SKIP;                                             \
    }                                                                   \
    return gst_check_run_suite (name##_suite (), #name, __FILE__);      \
  }

/* Whether every element that CIP_TEST_REQUIRE names (separated by
 * spaces) can be made here; says which is missing when one is not. */
gboolean cip_test_have_required_elements (void);

/* cip_test_have_cuda_device(), asked in a child process so that this one
 * does not initialize CUDA (which a later fork() would inherit broken). */
gboolean cip_test_probe_cuda_device (void);

/* Seconds each test case may take: creating CUDA contexts is slow. */
#define CIP_TEST_TIMEOUT 120

/* The GStreamer format of a CipFormat (GRAY8, RGBA, RGBx...). */
GstVideoFormat cip_test_video_format (CipFormat format);

/* The CipFormat of the first plane of @format (GRAY8 for the YUV formats);
 * fails the test for a format no CipFormat describes. */
CipFormat cip_test_plane0_format (GstVideoFormat format);

/* "video/x-raw, format=@format, width=@width, height=@height,
 * framerate=30/1". */
GstCaps *cip_test_caps_new (GstVideoFormat format, gint width, gint height);

/* A harness around "@element backend=<the backend under test> @props"
 * (@props may be NULL), already PLAYING. */
GstHarness *cip_test_harness_new (const gchar * element, const gchar * props);

/* Sets the harness's source caps to cip_test_caps_new() of @format,
 * @width and @height, or of @image's format and size. */
void cip_test_harness_set_caps (GstHarness * h, GstVideoFormat format,
    gint width, gint height);
void cip_test_harness_set_image_caps (GstHarness * h, const CipImage * image);

/* The harnessed element itself (not the bin around it); transfer full. */
GstElement *cip_test_harness_element (GstHarness * h, const gchar * name);

/* Gives the harnessed element a bus, so that what it posts can be popped;
 * transfer full. */
GstBus *cip_test_harness_add_bus (GstHarness * h);
/* Tears down a harness given a bus by cip_test_harness_add_bus(). */
void cip_test_harness_teardown_with_bus (GstHarness * h, GstBus * bus);

/* The caps the harness's sink pad received last; transfer full. */
GstCaps *cip_test_harness_output_caps (GstHarness * h);

/* Pushes @in (transfer full), checks that the push returns GST_FLOW_OK and
 * returns the one buffer that came out; transfer full. */
GstBuffer *cip_test_push_pull (GstHarness * h, GstBuffer * in);

/* Pushes @in (transfer full) and fails the test unless the one buffer that
 * comes out is a frame of @expected's format and size holding its
 * pixels. */
void cip_test_push_pull_assert (GstHarness * h, GstBuffer * in,
    const CipImage * expected);

/* Fails the test unless a frame of @format, @width x @height, pushed into
 * @h is refused as GST_FLOW_NOT_NEGOTIATED with nothing coming out.  Sets
 * the source caps. */
void cip_test_assert_caps_refused (GstHarness * h, GstVideoFormat format,
    gint width, gint height);

/* Fails the test unless a 64x48 buffer of @format one byte too short for
 * its caps, pushed into @h (given @bus by cip_test_harness_add_bus()), is
 * GST_FLOW_ERROR with exactly one STREAM/FORMAT error on @bus and nothing
 * coming out.  Sets the source caps. */
void cip_test_assert_short_buffer_refused (GstHarness * h, GstBus * bus,
    GstVideoFormat format);

/* A random image of pad-less rows. */
CipImage cip_test_image_random (int width, int height, CipFormat format,
    guint32 seed);

/* A buffer in GStreamer's default layout for the image's format and size
 * (rows copied, no video meta). */
GstBuffer *cip_test_buffer_new (const CipImage * image);

/* A buffer that keeps @image's stride, its first row @offset bytes in;
 * when the stride or offset differ from GStreamer's default a GstVideoMeta
 * says so.  Padding bytes are copied too. */
GstBuffer *cip_test_buffer_new_strided (const CipImage * image, gsize offset);

/* Whether @format is 8-bit YUV in planes (NV12, NV21, NV16, NV61, NV24,
 * I420, YV12, Y42B, Y444). */
gboolean cip_test_format_is_planar_yuv (GstVideoFormat format);

/* A buffer of such a format in the default layout: @luma (GRAY8) as its
 * Y plane, the chroma planes filled with a pattern that depends on
 * @seed. */
GstBuffer *cip_test_buffer_new_yuv420 (const CipImage * luma,
    GstVideoFormat format, guint8 seed);

/* A buffer of the right kind for @format holding @image: packed formats
 * and GRAY8 through cip_test_buffer_new(), planar YUV through
 * cip_test_buffer_new_yuv420() (image is then the luma). */
GstBuffer *cip_test_buffer_for_format (const CipImage * image,
    GstVideoFormat format, guint8 seed);

/* Maps @buffer as a frame of @caps and describes its first plane as a
 * CipImage (GRAY8 for gray and YUV formats). */
void cip_test_frame_map (GstVideoFrame * frame, GstBuffer * buffer,
    GstCaps * caps, CipImage * plane0);

/* The FNV-1a hash and the MD5 of plane 0 of @buffer (a frame of @caps),
 * as cip_test_image_fnv1a() and cip_test_image_md5() compute them. */
guint32 cip_test_buffer_fnv1a (GstBuffer * buffer, GstCaps * caps);
gchar *cip_test_buffer_md5 (GstBuffer * buffer, GstCaps * caps);

/* Fails the test unless plane 0 of @buffer (a frame of @caps) holds the
 * pixels of @expected. */
void cip_test_assert_buffer_image (GstBuffer * buffer, GstCaps * caps,
    const CipImage * expected);

/* Fails the test unless plane @plane of @a and @b, both frames of @caps,
 * have the same pixels. */
void cip_test_assert_buffer_plane_equal (GstBuffer * a, GstBuffer * b,
    GstCaps * caps, guint plane);

/* What @element (cudagray, cudamask, cudaequalize or cudaotsu) makes of
 * @src (its input's first plane) with its default properties, by the
 * reference implementation: a GRAY8 image (cudaequalize of GRAY16: a
 * GRAY16 one), free with cip_test_image_free(). */
CipImage cip_test_expected_default (const gchar * element,
    const CipImage * src);

/* The oldest message of @type on @bus, dropping older ones of other types
 * but errors (as gst_bus_pop_filtered() does, but releasing each outside
 * the bus's lock: a dropped message may hold the last reference to a pad,
 * whose unlinking posts to the same bus).  The errors passed over are
 * posted again, for cip_test_bus_pop_errors() to count. */
GstMessage *cip_test_bus_pop_type (GstBus * bus, GstMessageType type);

/* Pops every error message on @bus; returns how many there were and, if
 * @first is set, the first one's error. */
guint cip_test_bus_pop_errors (GstBus * bus, GError ** first);

/* Pops every warning message on @bus, failing the test on one that is not
 * @domain and @code; returns how many there were. */
guint cip_test_bus_pop_warnings (GstBus * bus, GQuark domain, gint code);

/* Fails the test unless exactly one error message is on @bus, with @domain
 * and @code, whose text contains @text (if set). */
void cip_test_bus_assert_one_error (GstBus * bus, GQuark domain, gint code,
    const gchar * text);

/* Pops the element messages whose structure is named @name; returns them
 * oldest first (free with g_list_free_full (l, gst_message_unref)). */
GList *cip_test_bus_pop_element_messages (GstBus * bus, const gchar * name);

/* A uint64 field of the element's "stats" property. */
guint64 cip_test_element_stat (GstElement * element, const gchar * field);

G_END_DECLS

#endif /* __CIP_TEST_ELEMENT_H__ */
