/* gst-cuda-imgproc
 * Copyright (C) 2026 The gst-cuda-imgproc authors
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2 of the License, or (at your option) any later version.
 */

#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif

#include <errno.h>
#include <string.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include "test-element.h"
#include "cip-ref.h"

gboolean
cip_test_probe_cuda_device (void)
{
  int status = 0;
  pid_t pid;

  /* With CK_FORK=no (as under compute-sanitizer, which does not follow a
   * child that only forked) nothing forks later: ask here. */
  if (g_strcmp0 (g_getenv ("CK_FORK"), "no") == 0)
    return cip_test_have_cuda_device ();

  pid = fork ();

  if (pid == 0)
    _exit (cip_test_have_cuda_device ()? 0 : 1);
  if (pid < 0 || waitpid (pid, &status, 0) != pid)
    g_error ("cannot probe for a CUDA device: %s", g_strerror (errno));
  return WIFEXITED (status) && WEXITSTATUS (status) == 0;
}

gboolean
cip_test_have_required_elements (void)
{
  gchar **names = g_strsplit (g_getenv ("CIP_TEST_REQUIRE") ?
      g_getenv ("CIP_TEST_REQUIRE") : "", " ", -1);
  gboolean all = TRUE;
  guint i;

  for (i = 0; names[i] && all; i++) {
    GstElementFactory *factory;

    if (*names[i] == '\0')
      continue;
    factory = gst_element_factory_find (names[i]);
    if (factory == NULL) {
      g_print ("this GStreamer installation has no %s element: skipped\n",
          names[i]);
      all = FALSE;
    }
    gst_clear_object (&factory);
  }
  g_strfreev (names);
  return all;
}

GstVideoFormat
cip_test_video_format (CipFormat format)
{
  switch (format) {
    case CIP_FORMAT_GRAY8:
      return GST_VIDEO_FORMAT_GRAY8;
    case CIP_FORMAT_RGBA:
      return GST_VIDEO_FORMAT_RGBA;
    case CIP_FORMAT_BGRA:
      return GST_VIDEO_FORMAT_BGRA;
    case CIP_FORMAT_RGBX:
      return GST_VIDEO_FORMAT_RGBx;
    case CIP_FORMAT_BGRX:
      return GST_VIDEO_FORMAT_BGRx;
    case CIP_FORMAT_ARGB:
      return GST_VIDEO_FORMAT_ARGB;
    case CIP_FORMAT_ABGR:
      return GST_VIDEO_FORMAT_ABGR;
    case CIP_FORMAT_RGB:
      return GST_VIDEO_FORMAT_RGB;
    case CIP_FORMAT_BGR:
      return GST_VIDEO_FORMAT_BGR;
    case CIP_FORMAT_GRAY16:
      return GST_VIDEO_FORMAT_GRAY16_LE;
    case CIP_FORMAT_YUYV:
      return GST_VIDEO_FORMAT_YUY2;
    case CIP_FORMAT_UYVY:
      return GST_VIDEO_FORMAT_UYVY;
    case CIP_FORMAT_GRAY16_BE:
      return GST_VIDEO_FORMAT_GRAY16_BE;
    case CIP_FORMAT_GRAY10_MSB:
      return GST_VIDEO_FORMAT_P010_10LE;
    case CIP_FORMAT_GRAY10_LSB:
      return GST_VIDEO_FORMAT_I420_10LE;
    case CIP_FORMAT_GRAY12_LSB:
      return GST_VIDEO_FORMAT_I420_12LE;
  }
  g_assert_not_reached ();
  return GST_VIDEO_FORMAT_UNKNOWN;
}

CipFormat
cip_test_plane0_format (GstVideoFormat format)
{
  switch (format) {
    case GST_VIDEO_FORMAT_GRAY8:
    case GST_VIDEO_FORMAT_NV12:
    case GST_VIDEO_FORMAT_NV21:
    case GST_VIDEO_FORMAT_NV16:
    case GST_VIDEO_FORMAT_NV61:
    case GST_VIDEO_FORMAT_NV24:
    case GST_VIDEO_FORMAT_I420:
    case GST_VIDEO_FORMAT_YV12:
    case GST_VIDEO_FORMAT_Y42B:
    case GST_VIDEO_FORMAT_Y444:
      return CIP_FORMAT_GRAY8;
    case GST_VIDEO_FORMAT_RGBA:
      return CIP_FORMAT_RGBA;
    case GST_VIDEO_FORMAT_BGRA:
      return CIP_FORMAT_BGRA;
    case GST_VIDEO_FORMAT_RGBx:
      return CIP_FORMAT_RGBX;
    case GST_VIDEO_FORMAT_BGRx:
      return CIP_FORMAT_BGRX;
    case GST_VIDEO_FORMAT_ARGB:
      return CIP_FORMAT_ARGB;
    case GST_VIDEO_FORMAT_ABGR:
      return CIP_FORMAT_ABGR;
    case GST_VIDEO_FORMAT_RGB:
      return CIP_FORMAT_RGB;
    case GST_VIDEO_FORMAT_BGR:
      return CIP_FORMAT_BGR;
    case GST_VIDEO_FORMAT_GRAY16_LE:
      return CIP_FORMAT_GRAY16;
    case GST_VIDEO_FORMAT_YUY2:
      return CIP_FORMAT_YUYV;
    case GST_VIDEO_FORMAT_UYVY:
      return CIP_FORMAT_UYVY;
    case GST_VIDEO_FORMAT_GRAY16_BE:
      return CIP_FORMAT_GRAY16_BE;
    case GST_VIDEO_FORMAT_P010_10LE:
      return CIP_FORMAT_GRAY10_MSB;
    case GST_VIDEO_FORMAT_I420_10LE:
      return CIP_FORMAT_GRAY10_LSB;
    case GST_VIDEO_FORMAT_I420_12LE:
      return CIP_FORMAT_GRAY12_LSB;
    default:
      fail ("no CipFormat for %s", gst_video_format_to_string (format));
      return CIP_FORMAT_GRAY8;
  }
}

GstCaps *
cip_test_caps_new (GstVideoFormat format, gint width, gint height)
{
  return gst_caps_new_simple ("video/x-raw",
      "format", G_TYPE_STRING, gst_video_format_to_string (format),
      "width", G_TYPE_INT, width, "height", G_TYPE_INT, height,
      "framerate", GST_TYPE_FRACTION, 30, 1, NULL);
}

GstHarness *
cip_test_harness_new (const gchar * element, const gchar * props)
{
  gchar *launch = g_strdup_printf ("%s backend=%s %s", element,
      cip_test_backend_name (), props ? props : "");
  GstHarness *h = gst_harness_new_parse (launch);

  /* System memory out: the elements prefer CUDA memory where the peer
   * takes any caps, as the harness does. */
  gst_harness_set_sink_caps_str (h, "video/x-raw");
  g_free (launch);
  return h;
}

void
cip_test_harness_set_caps (GstHarness * h, GstVideoFormat format,
    gint width, gint height)
{
  gst_harness_set_src_caps (h, cip_test_caps_new (format, width, height));
}

void
cip_test_harness_set_image_caps (GstHarness * h, const CipImage * image)
{
  cip_test_harness_set_caps (h, cip_test_video_format (image->format),
      image->width, image->height);
}

GstElement *
cip_test_harness_element (GstHarness * h, const gchar * name)
{
  GstElement *element = gst_harness_find_element (h, name);

  fail_unless (element != NULL, "no %s in the harness", name);
  return element;
}

GstBus *
cip_test_harness_add_bus (GstHarness * h)
{
  GstBus *bus = gst_bus_new ();

  gst_element_set_bus (h->element, bus);
  return bus;
}

/* Messages hold their source element and the element holds its bus: the
 * bus is flushed and taken off before the harness goes. */
void
cip_test_harness_teardown_with_bus (GstHarness * h, GstBus * bus)
{
  gst_bus_set_flushing (bus, TRUE);
  gst_element_set_bus (h->element, NULL);
  gst_harness_teardown (h);
  gst_object_unref (bus);
}

GstCaps *
cip_test_harness_output_caps (GstHarness * h)
{
  GstCaps *caps = gst_pad_get_current_caps (h->sinkpad);

  fail_unless (caps != NULL, "no caps reached the harness's sink pad");
  return caps;
}

GstBuffer *
cip_test_push_pull (GstHarness * h, GstBuffer * in)
{
  GstBuffer *out;

  fail_unless_equals_int (gst_harness_push (h, in), GST_FLOW_OK);
  out = gst_harness_try_pull (h);
  fail_unless (out != NULL, "no output buffer for the pushed one");
  return out;
}

void
cip_test_push_pull_assert (GstHarness * h, GstBuffer * in,
    const CipImage * expected)
{
  GstBuffer *out = cip_test_push_pull (h, in);
  GstCaps *caps = cip_test_harness_output_caps (h);
  GstVideoInfo info;

  fail_unless (gst_video_info_from_caps (&info, caps));
  fail_unless_equals_int (GST_VIDEO_INFO_FORMAT (&info),
      cip_test_video_format (expected->format));
  fail_unless_equals_int (GST_VIDEO_INFO_WIDTH (&info), expected->width);
  fail_unless_equals_int (GST_VIDEO_INFO_HEIGHT (&info), expected->height);
  cip_test_assert_buffer_image (out, caps, expected);
  gst_caps_unref (caps);
  gst_buffer_unref (out);
}

void
cip_test_assert_caps_refused (GstHarness * h, GstVideoFormat format,
    gint width, gint height)
{
  GstVideoInfo info;

  fail_unless (gst_video_info_set_format (&info, format, width, height));
  cip_test_harness_set_caps (h, format, width, height);
  fail_unless_equals_int (gst_harness_push (h,
          gst_buffer_new_allocate (NULL, GST_VIDEO_INFO_SIZE (&info),
              NULL)), GST_FLOW_NOT_NEGOTIATED);
  fail_unless_equals_int (gst_harness_buffers_received (h), 0);
}

void
cip_test_assert_short_buffer_refused (GstHarness * h, GstBus * bus,
    GstVideoFormat format)
{
  GstVideoInfo info;

  fail_unless (gst_video_info_set_format (&info, format, 64, 48));
  cip_test_harness_set_caps (h, format, 64, 48);
  fail_unless_equals_int (gst_harness_push (h,
          gst_buffer_new_allocate (NULL, GST_VIDEO_INFO_SIZE (&info) - 1,
              NULL)), GST_FLOW_ERROR);
  cip_test_bus_assert_one_error (bus, GST_STREAM_ERROR,
      GST_STREAM_ERROR_FORMAT, NULL);
  fail_unless_equals_int (gst_harness_buffers_received (h), 0);
}

CipImage
cip_test_image_random (int width, int height, CipFormat format, guint32 seed)
{
  CipImage image = cip_test_image_new (width, height, format, 0);

  cip_test_image_fill_random (&image, seed);
  return image;
}

static gsize
row_bytes (const CipImage * image)
{
  return (gsize) image->width * cip_format_bytes_per_pixel (image->format);
}

GstBuffer *
cip_test_buffer_new (const CipImage * image)
{
  GstVideoInfo info;
  GstVideoFrame frame;
  GstBuffer *buffer;
  guint8 *dst;
  gint stride, y;

  fail_unless (gst_video_info_set_format (&info,
          cip_test_video_format (image->format), image->width, image->height));
  buffer = gst_buffer_new_allocate (NULL, GST_VIDEO_INFO_SIZE (&info), NULL);
  /* Padding bytes get a value no operation should depend on. */
  gst_buffer_memset (buffer, 0, 0xa5, GST_VIDEO_INFO_SIZE (&info));
  fail_unless (gst_video_frame_map (&frame, &info, buffer, GST_MAP_WRITE));
  dst = GST_VIDEO_FRAME_PLANE_DATA (&frame, 0);
  stride = GST_VIDEO_FRAME_PLANE_STRIDE (&frame, 0);
  for (y = 0; y < image->height; y++)
    memcpy (dst + (gsize) y * stride,
        (const guint8 *) image->data + y * image->stride, row_bytes (image));
  gst_video_frame_unmap (&frame);
  return buffer;
}

GstBuffer *
cip_test_buffer_new_strided (const CipImage * image, gsize offset)
{
  GstVideoFormat format = cip_test_video_format (image->format);
  gsize size = offset + image->stride * image->height;
  GstVideoInfo info;
  GstBuffer *buffer;

  fail_unless (gst_video_info_set_format (&info, format, image->width,
          image->height));
  buffer = gst_buffer_new_allocate (NULL, size, NULL);
  gst_buffer_memset (buffer, 0, 0x5a, offset);
  gst_buffer_fill (buffer, offset, image->data, image->stride * image->height);

  if (offset != 0 ||
      image->stride != (gsize) GST_VIDEO_INFO_PLANE_STRIDE (&info, 0)) {
    gsize offsets[GST_VIDEO_MAX_PLANES] = { offset, };
    gint strides[GST_VIDEO_MAX_PLANES] = { (gint) image->stride, };

    gst_buffer_add_video_meta_full (buffer, GST_VIDEO_FRAME_FLAG_NONE,
        format, image->width, image->height, 1, offsets, strides);
  }
  return buffer;
}

/* The chroma pattern of cip_test_buffer_new_yuv420(). */
static guint8
chroma_byte (guint plane, gint x, gint y, guint8 seed)
{
  return (guint8) (x * 7 + y * 13 + plane * 101 + seed * 31 + 1);
}

gboolean
cip_test_format_is_planar_yuv (GstVideoFormat format)
{
  const GstVideoFormatInfo *finfo = gst_video_format_get_info (format);

  return GST_VIDEO_FORMAT_INFO_IS_YUV (finfo) &&
      GST_VIDEO_FORMAT_INFO_N_PLANES (finfo) > 1 &&
      GST_VIDEO_FORMAT_INFO_DEPTH (finfo, 0) == 8;
}

GstBuffer *
cip_test_buffer_new_yuv420 (const CipImage * luma, GstVideoFormat format,
    guint8 seed)
{
  GstVideoInfo info;
  GstVideoFrame frame;
  GstBuffer *buffer;
  guint plane;
  gint x, y;

  fail_unless (luma->format == CIP_FORMAT_GRAY8);
  fail_unless (cip_test_format_is_planar_yuv (format));
  fail_unless (gst_video_info_set_format (&info, format, luma->width,
          luma->height));
  buffer = gst_buffer_new_allocate (NULL, GST_VIDEO_INFO_SIZE (&info), NULL);
  gst_buffer_memset (buffer, 0, 0xa5, GST_VIDEO_INFO_SIZE (&info));
  fail_unless (gst_video_frame_map (&frame, &info, buffer, GST_MAP_WRITE));

  for (y = 0; y < luma->height; y++)
    memcpy ((guint8 *) GST_VIDEO_FRAME_PLANE_DATA (&frame, 0) +
        (gsize) y * GST_VIDEO_FRAME_PLANE_STRIDE (&frame, 0),
        (const guint8 *) luma->data + y * luma->stride, luma->width);

  for (plane = 1; plane < GST_VIDEO_FRAME_N_PLANES (&frame); plane++) {
    guint8 *data = GST_VIDEO_FRAME_PLANE_DATA (&frame, plane);
    gint stride = GST_VIDEO_FRAME_PLANE_STRIDE (&frame, plane);
    /* Bytes per row: NV12's UV plane interleaves two components. */
    gint width = GST_VIDEO_FRAME_COMP_WIDTH (&frame, plane) *
        GST_VIDEO_FRAME_COMP_PSTRIDE (&frame, plane);
    gint height = GST_VIDEO_FRAME_COMP_HEIGHT (&frame, plane);

    for (y = 0; y < height; y++)
      for (x = 0; x < width; x++)
        data[(gsize) y * stride + x] = chroma_byte (plane, x, y, seed);
  }
  gst_video_frame_unmap (&frame);
  return buffer;
}

GstBuffer *
cip_test_buffer_for_format (const CipImage * image, GstVideoFormat format,
    guint8 seed)
{
  if (cip_test_format_is_planar_yuv (format))
    return cip_test_buffer_new_yuv420 (image, format, seed);
  fail_unless_equals_int (cip_test_video_format (image->format), format);
  return cip_test_buffer_new (image);
}

void
cip_test_frame_map (GstVideoFrame * frame, GstBuffer * buffer,
    GstCaps * caps, CipImage * plane0)
{
  GstVideoInfo info;

  fail_unless (gst_video_info_from_caps (&info, caps),
      "cannot parse %" GST_PTR_FORMAT, caps);
  fail_unless (gst_video_frame_map (frame, &info, buffer, GST_MAP_READ),
      "buffer of %" G_GSIZE_FORMAT " bytes is no frame of %" GST_PTR_FORMAT,
      gst_buffer_get_size (buffer), caps);
  plane0->data = GST_VIDEO_FRAME_PLANE_DATA (frame, 0);
  plane0->width = GST_VIDEO_FRAME_COMP_WIDTH (frame, 0);
  plane0->height = GST_VIDEO_FRAME_COMP_HEIGHT (frame, 0);
  plane0->stride = GST_VIDEO_FRAME_PLANE_STRIDE (frame, 0);
  plane0->format = cip_test_plane0_format (GST_VIDEO_FRAME_FORMAT (frame));
}

guint32
cip_test_buffer_fnv1a (GstBuffer * buffer, GstCaps * caps)
{
  GstVideoFrame frame;
  CipImage plane;
  guint32 hash;

  cip_test_frame_map (&frame, buffer, caps, &plane);
  hash = cip_test_image_fnv1a (&plane);
  gst_video_frame_unmap (&frame);
  return hash;
}

gchar *
cip_test_buffer_md5 (GstBuffer * buffer, GstCaps * caps)
{
  GstVideoFrame frame;
  CipImage plane;
  gchar *md5;

  cip_test_frame_map (&frame, buffer, caps, &plane);
  md5 = cip_test_image_md5 (&plane);
  gst_video_frame_unmap (&frame);
  return md5;
}

void
cip_test_assert_buffer_image (GstBuffer * buffer, GstCaps * caps,
    const CipImage * expected)
{
  GstVideoFrame frame;
  CipImage actual;
  gchar *where = NULL;
  gboolean equal;

  cip_test_frame_map (&frame, buffer, caps, &actual);
  fail_unless_equals_int (actual.width, expected->width);
  fail_unless_equals_int (actual.height, expected->height);
  fail_unless_equals_int (actual.format, expected->format);
  equal = cip_test_images_equal (&actual, expected, &where);
  gst_video_frame_unmap (&frame);
  fail_unless (equal, "output differs from the expected image: %s", where);
  g_free (where);
}

void
cip_test_assert_buffer_plane_equal (GstBuffer * a, GstBuffer * b,
    GstCaps * caps, guint plane)
{
  GstVideoFrame fa, fb;
  CipImage unused;
  gint y, rows, width;

  cip_test_frame_map (&fa, a, caps, &unused);
  cip_test_frame_map (&fb, b, caps, &unused);
  fail_unless (plane < GST_VIDEO_FRAME_N_PLANES (&fa));
  /* The components of @plane: one for I420's U and V, two for NV12's UV. */
  width = GST_VIDEO_FRAME_COMP_WIDTH (&fa, plane) *
      GST_VIDEO_FRAME_COMP_PSTRIDE (&fa, plane);
  rows = GST_VIDEO_FRAME_COMP_HEIGHT (&fa, plane);
  for (y = 0; y < rows; y++) {
    const guint8 *ra = (const guint8 *) GST_VIDEO_FRAME_PLANE_DATA (&fa,
        plane) + (gsize) y * GST_VIDEO_FRAME_PLANE_STRIDE (&fa, plane);
    const guint8 *rb = (const guint8 *) GST_VIDEO_FRAME_PLANE_DATA (&fb,
        plane) + (gsize) y * GST_VIDEO_FRAME_PLANE_STRIDE (&fb, plane);

    if (memcmp (ra, rb, width) != 0) {
      gst_video_frame_unmap (&fa);
      gst_video_frame_unmap (&fb);
      fail ("plane %u differs in row %d", plane, y);
    }
  }
  gst_video_frame_unmap (&fa);
  gst_video_frame_unmap (&fb);
}

CipImage
cip_test_expected_default (const gchar * element, const CipImage * src)
{
  CipFormat format = g_str_equal (element, "cudablur") ||
      g_str_equal (element, "cudamorph") ||
      (g_str_equal (element, "cudaequalize") &&
      src->format == CIP_FORMAT_GRAY16) ? src->format :
      g_str_equal (element, "cudalabel") ? CIP_FORMAT_RGBA : CIP_FORMAT_GRAY8;
  CipImage dst = cip_test_image_new (src->width, src->height, format, 0);
  CipStatus status;

  if (g_str_equal (element, "cudablur")) {
    status = cip_ref_blur (src, &dst, 1.0, NULL);
  } else if (g_str_equal (element, "cudamorph")) {
    status = cip_ref_morph (src, &dst, CIP_MORPH_ERODE, CIP_SHAPE_DISK, 1,
        NULL);
  } else if (g_str_equal (element, "cudalabel")) {
    CipLabelParams params = { 8, 0 };
    CipRegion *regions = g_new (CipRegion, (gsize) src->width * src->height);
    uint32_t count;
    CipRegionTable table = { regions, (uint32_t) src->width * src->height,
      &count
    };

    status = cip_ref_label (src, NULL, &params, &dst, &table, NULL);
    g_free (regions);
  } else if (g_str_equal (element, "cudagray")) {
    status = cip_ref_gray (src, &dst, CIP_GRAY_BT601, NULL);
  } else if (g_str_equal (element, "cudamask")) {
    CipMaskParams params = { 0, 255, false };

    status = cip_ref_mask (src, &dst, &params, NULL);
  } else if (g_str_equal (element, "cudaequalize")) {
    status = cip_ref_equalize (src, &dst, NULL);
  } else if (g_str_equal (element, "cudaotsu")) {
    guint8 threshold;

    status = cip_ref_otsu (src, &dst, false, &threshold, NULL);
  } else {
    fail ("unknown element %s", element);
    status = CIP_ERROR_INVALID_ARGUMENT;
  }
  fail_unless_equals_int (status, CIP_OK);
  return dst;
}

GstMessage *
cip_test_bus_pop_type (GstBus * bus, GstMessageType type)
{
  GQueue errors = G_QUEUE_INIT;
  GstMessage *msg, *error;

  while ((msg = gst_bus_pop (bus)) != NULL) {
    if (GST_MESSAGE_TYPE (msg) & type)
      break;
    if (GST_MESSAGE_TYPE (msg) == GST_MESSAGE_ERROR)
      g_queue_push_tail (&errors, msg);
    else
      gst_message_unref (msg);
  }
  /* Errors stay for cip_test_bus_pop_errors(), behind what is left. */
  while ((error = g_queue_pop_head (&errors)))
    gst_bus_post (bus, error);
  return msg;
}

guint
cip_test_bus_pop_errors (GstBus * bus, GError ** first)
{
  GstMessage *msg;
  guint count = 0;

  while ((msg = cip_test_bus_pop_type (bus, GST_MESSAGE_ERROR))) {
    GError *err = NULL;
    gchar *debug = NULL;

    gst_message_parse_error (msg, &err, &debug);
    GST_INFO ("error from %s: %s (%s)", GST_MESSAGE_SRC_NAME (msg),
        err->message, GST_STR_NULL (debug));
    if (count == 0 && first)
      *first = err;
    else
      g_error_free (err);
    g_free (debug);
    gst_message_unref (msg);
    count++;
  }
  return count;
}

guint
cip_test_bus_pop_warnings (GstBus * bus, GQuark domain, gint code)
{
  GstMessage *msg;
  guint count = 0;

  while ((msg = cip_test_bus_pop_type (bus, GST_MESSAGE_WARNING))) {
    GError *err = NULL;

    gst_message_parse_warning (msg, &err, NULL);
    fail_unless (g_error_matches (err, domain, code),
        "warning %s %d (%s), expected %s %d", g_quark_to_string (err->domain),
        err->code, err->message, g_quark_to_string (domain), code);
    g_error_free (err);
    gst_message_unref (msg);
    count++;
  }
  return count;
}

void
cip_test_bus_assert_one_error (GstBus * bus, GQuark domain, gint code,
    const gchar * text)
{
  GError *err = NULL;
  guint count = cip_test_bus_pop_errors (bus, &err);

  fail_unless_equals_int (count, 1);
  fail_unless (g_error_matches (err, domain, code),
      "error %s %d (%s), expected %s %d", g_quark_to_string (err->domain),
      err->code, err->message, g_quark_to_string (domain), code);
  if (text)
    fail_unless (strstr (err->message, text) != NULL,
        "error text '%s' does not mention '%s'", err->message, text);
  g_error_free (err);
}

GList *
cip_test_bus_pop_element_messages (GstBus * bus, const gchar * name)
{
  GList *list = NULL;
  GstMessage *msg;

  while ((msg = cip_test_bus_pop_type (bus, GST_MESSAGE_ELEMENT))) {
    if (gst_message_has_name (msg, name))
      list = g_list_prepend (list, msg);
    else
      gst_message_unref (msg);
  }
  return g_list_reverse (list);
}

/* The element's "stats" property. */
guint64
cip_test_element_stat (GstElement * element, const gchar * field)
{
  GstStructure *stats = NULL;
  guint64 value = 0;

  g_object_get (element, "stats", &stats, NULL);
  fail_unless (stats != NULL);
  fail_unless (gst_structure_get_uint64 (stats, field, &value),
      "no %s in %" GST_PTR_FORMAT, field, stats);
  gst_structure_free (stats);
  return value;
}
