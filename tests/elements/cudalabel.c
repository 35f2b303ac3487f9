/* gst-cuda-imgproc
 * Copyright (C) 2026 The gst-cuda-imgproc authors
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2 of the License, or (at your option) any later version.
 */

/* cudalabel against OpenCV's connectedComponentsWithStats and
 * scikit-image's label, label2rgb and regionprops (expected-label.ini) and
 * cip_ref_label: the output of each mode, the region metas, the mean
 * intensity of the gray frame cudaotsu attaches, the bus messages, tables
 * that grow, label ids past 65535, edge cases, and what it refuses. */

#define _GNU_SOURCE             /* memfd_create() */
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include <math.h>

#include <gst/allocators/gstfdmemory.h>

#include "test-element.h"
#include "gstcudaimgprocregions.h"

#if CIP_TEST_HAVE_ANALYTICS
#include <gst/analytics/analytics.h>
#endif
#include "cip-ref.h"

/* What a GstVideoRegionOfInterestMeta of cudalabel, or a region of its
 * message, says. */
typedef struct
{
  guint label, area, x, y, width, height;
  gdouble centroid_x, centroid_y, mean;
} Region;

/* The nicks of the mode enum, in the order of their values. */
static const gchar *modes[] = { "color", "labels", "passthrough" };

enum
{
  MODE_COLOR,
  MODE_LABELS,
  MODE_PASSTHROUGH,
};

/* scikit-image 0.19's label2rgb colours through img_as_ubyte
 * (docs/design.md), for ids 1, 2, ... in turn. */
static const guint8 palette[10][3] = {
  {255, 0, 0}, {0, 0, 255}, {255, 255, 0}, {255, 0, 255}, {0, 128, 0},
  {75, 0, 130}, {255, 140, 0}, {0, 255, 255}, {255, 192, 203},
  {154, 205, 50},
};

/* ---- expected-label.ini ---- */

/* ---- Regions ---- */

static guint64
double_bits (gdouble value)
{
  guint64 bits;

  memcpy (&bits, &value, sizeof (bits));
  return bits;
}

static Region
region_from_cip (const CipRegion * r)
{
  Region region = {
    r->label, r->area, r->left, r->top, r->width, r->height,
    (gdouble) r->sum_x / r->area, (gdouble) r->sum_y / r->area,
    (gdouble) r->sum_intensity / r->area,
  };

  return region;
}

static gboolean
regions_equal (const Region * a, const Region * b)
{
  return a->label == b->label && a->area == b->area && a->x == b->x &&
      a->y == b->y && a->width == b->width && a->height == b->height &&
      a->centroid_x == b->centroid_x && a->centroid_y == b->centroid_y &&
      a->mean == b->mean;
}

static gchar *
region_to_string (const Region * r)
{
  return g_strdup_printf ("label %u area %u box %u,%u %ux%u centroid "
      "%.17g,%.17g mean %.17g", r->label, r->area, r->x, r->y, r->width,
      r->height, r->centroid_x, r->centroid_y, r->mean);
}

/* Fails unless @got and @expected, @n regions each, are the same. */
static void
assert_regions_equal (const Region * got, const Region * expected, guint n,
    const gchar * what)
{
  guint i;

  /* No check macro per region: each one costs a write to a pipe. */
  for (i = 0; i < n; i++)
    if (!regions_equal (&got[i], &expected[i])) {
      gchar *g = region_to_string (&got[i]);
      gchar *e = region_to_string (&expected[i]);

      fail ("%s: region %u is %s, expected %s", what, i + 1, g, e);
      g_free (g);
      g_free (e);
    }
}

/* The fields of a region-stats or region structure. */
static void
region_from_structure (const GstStructure * s, Region * r)
{
  if (!gst_structure_get (s, "label", G_TYPE_UINT, &r->label,
          "area", G_TYPE_UINT, &r->area,
          "centroid-x", G_TYPE_DOUBLE, &r->centroid_x,
          "centroid-y", G_TYPE_DOUBLE, &r->centroid_y,
          "mean-intensity", G_TYPE_DOUBLE, &r->mean, NULL))
    fail ("missing or mistyped fields in %" GST_PTR_FORMAT, s);
}

/* The region metas of @buffer by label, checking that there are @n, one
 * per label 1..@n, each with its region-stats. */
static Region *
buffer_regions (GstBuffer * buffer, guint n)
{
  GQuark roi_type = g_quark_from_static_string ("cudalabel-region");
  Region *regions = g_new0 (Region, MAX (n, 1));
  gboolean *seen = g_new0 (gboolean, MAX (n, 1));
  gpointer state = NULL;
  GstMeta *meta;
  guint count = 0;

  while ((meta = gst_buffer_iterate_meta_filtered (buffer, &state,
              GST_VIDEO_REGION_OF_INTEREST_META_API_TYPE))) {
    GstVideoRegionOfInterestMeta *roi = (GstVideoRegionOfInterestMeta *) meta;
    GstStructure *s;
    Region r;

    count++;
    if (roi->roi_type != roi_type)
      fail ("roi type %s", g_quark_to_string (roi->roi_type));
    s = gst_video_region_of_interest_meta_get_param (roi, "region-stats");
    if (s == NULL)
      fail ("roi %d has no region-stats", roi->id);
    if (gst_structure_n_fields (s) != 5)
      fail ("unexpected fields in %" GST_PTR_FORMAT, s);
    region_from_structure (s, &r);
    r.x = roi->x;
    r.y = roi->y;
    r.width = roi->w;
    r.height = roi->h;
    if (roi->id < 1 || (guint) roi->id > n || (guint) roi->id != r.label)
      fail ("roi id %d, label %u, of %u regions", roi->id, r.label, n);
    if (seen[r.label - 1])
      fail ("label %u twice", r.label);
    seen[r.label - 1] = TRUE;
    regions[r.label - 1] = r;
  }
  fail_unless_equals_int (count, n);
  g_free (seen);
  return regions;
}

/* The frame's region table: the structure of its CudaImgprocRegions
 * custom meta (found by name, as an application finds it), or NULL. */
static const GstStructure *
regions_table (GstBuffer * buffer)
{
  GstCustomMeta *meta = gst_buffer_get_custom_meta (buffer,
      "CudaImgprocRegions");

  return meta ? gst_custom_meta_get_structure (meta) : NULL;
}

/* The regions a table holds: the length of its label column. */
static guint
table_regions (const GstStructure * table)
{
  const GValue *v = gst_structure_get_value (table, "label");

  fail_unless (v != NULL, "the table has no label column");
  return g_bytes_get_size (g_value_get_boxed (v)) / sizeof (gdouble);
}

/* Value @i of a column of little-endian float64. */
static gdouble
column_value (GBytes * column, guint i)
{
  const guint8 *data = g_bytes_get_data (column, NULL);
  guint64 bits = GST_READ_UINT64_LE (data + 8 * (gsize) i);
  gdouble v;

  memcpy (&v, &bits, sizeof (v));
  return v;
}

/* A harness of cudalabel with @props and a ROI meta per region, however
 * many, which the tests read (the default depends on the version). */
static GstHarness *
label_harness_new (const gchar * props)
{
  /* An ROI meta for every region, and no analytics meta: its relation
   * matrix would take the square of the regions in bytes (17 GB for the
   * 131,072 of test_more_than_65535_regions). */
  gchar *all = g_strdup_printf ("roi-meta=true analytics-meta=false "
      "max-region-metas=%d %s", G_MAXINT32, props ? props : "");
  GstHarness *h = cip_test_harness_new ("cudalabel", all);

  g_free (all);
  return h;
}

static guint
get_n_regions (GstElement * label)
{
  guint n = G_MAXUINT;

  g_object_get (label, "n-regions", &n, NULL);
  return n;
}

/* ---- The reference ---- */

typedef struct
{
  CipImage image;               /* the label image, or a copy of the mask */
  Region *regions;
  guint count;
} Labelled;

/* cip_ref_label of @mask, its output as @mode makes it. */
static Labelled
reference_label (const CipImage * mask, const CipImage * intensity,
    gint mode, gint connectivity, guint min_area)
{
  CipLabelParams params = { connectivity, min_area };
  guint capacity = (guint) mask->width * mask->height;
  CipRegion *table = g_new (CipRegion, capacity);
  uint32_t count = G_MAXUINT32;
  CipRegionTable t = { table, capacity, &count };
  Labelled result;
  guint i;

  if (mode == MODE_PASSTHROUGH) {
    result.image = cip_test_image_copy (mask, 0);
    fail_unless_equals_int (cip_ref_label (mask, intensity, &params, NULL,
            &t, NULL), CIP_OK);
  } else {
    result.image = cip_test_image_new (mask->width, mask->height,
        mode == MODE_COLOR ? CIP_FORMAT_RGBA : CIP_FORMAT_GRAY16, 0);
    fail_unless_equals_int (cip_ref_label (mask, intensity, &params,
            &result.image, &t, NULL), CIP_OK);
  }
  fail_unless (count <= capacity);
  result.count = count;
  result.regions = g_new (Region, MAX (count, 1));
  for (i = 0; i < count; i++)
    result.regions[i] = region_from_cip (&table[i]);
  g_free (table);
  return result;
}

static void
labelled_clear (Labelled * l)
{
  cip_test_image_free (&l->image);
  g_clear_pointer (&l->regions, g_free);
}

/* ---- Frames ---- */

static void
set_mask_caps (GstHarness * h, gint width, gint height)
{
  cip_test_harness_set_caps (h, GST_VIDEO_FORMAT_GRAY8, width, height);
}

/* Maps plane 0 of @out, checking the format @caps give it. */
static void
map_output (GstVideoFrame * frame, GstBuffer * out, GstCaps * caps,
    CipFormat format, CipImage * plane)
{
  GstVideoInfo info;

  fail_unless (gst_video_info_from_caps (&info, caps));
  fail_unless_equals_int (GST_VIDEO_INFO_FORMAT (&info),
      cip_test_video_format (format));
  fail_unless (gst_video_frame_map (frame, &info, out, GST_MAP_READ));
  plane->data = GST_VIDEO_FRAME_PLANE_DATA (frame, 0);
  plane->width = GST_VIDEO_FRAME_WIDTH (frame);
  plane->height = GST_VIDEO_FRAME_HEIGHT (frame);
  plane->stride = GST_VIDEO_FRAME_PLANE_STRIDE (frame, 0);
  plane->format = format;
}

/* Fails unless @out, the last output of @h, holds @expected's pixels. */
static void
assert_output_image (GstHarness * h, GstBuffer * out, const CipImage * expected)
{
  GstCaps *caps = cip_test_harness_output_caps (h);
  GstVideoFrame frame;
  CipImage actual;
  gchar *where = NULL;
  gboolean equal;

  map_output (&frame, out, caps, expected->format, &actual);
  fail_unless_equals_int (actual.width, expected->width);
  fail_unless_equals_int (actual.height, expected->height);
  equal = cip_test_images_equal (&actual, expected, &where);
  gst_video_frame_unmap (&frame);
  gst_caps_unref (caps);
  fail_unless (equal, "output differs from the reference: %s", where);
  g_free (where);
}

/* Pushes @in (a frame of @mask) through the cudalabel of @h, set to
 * @connectivity and @min_area, and checks the output image, the metas and
 * n-regions against cip_ref_label.  Returns the output; the reference's
 * figures in @ref, if set. */
static GstBuffer *
push_and_check (GstHarness * h, GstBuffer * in, const CipImage * mask,
    gint mode, gint connectivity, guint min_area, Labelled * ref)
{
  GstElement *label = cip_test_harness_element (h, "cudalabel");
  Labelled expected = reference_label (mask, NULL, mode, connectivity,
      min_area);
  GstBuffer *out;
  Region *regions;

  g_object_set (label, "connectivity", connectivity, "min-area", min_area,
      NULL);
  out = cip_test_push_pull (h, in);
  assert_output_image (h, out, &expected.image);
  fail_unless_equals_int (get_n_regions (label), expected.count);
  regions = buffer_regions (out, expected.count);
  assert_regions_equal (regions, expected.regions, expected.count, "metas");
  g_free (regions);
  gst_object_unref (label);
  if (ref)
    *ref = expected;
  else
    labelled_clear (&expected);
  return out;
}

/* ---- Sums of expected-label.ini ---- */

/* labels-sum (mode=labels) or color-sum (mode=color) of plane 0 of @out:
 * sum over the pixels in raster order of value * (index + 1). */
static guint64
output_sum (GstHarness * h, GstBuffer * out, gint mode)
{
  GstCaps *caps = cip_test_harness_output_caps (h);
  GstVideoFrame frame;
  CipImage plane;
  guint64 sum = 0, index = 1;
  gint x, y;

  map_output (&frame, out, caps, mode == MODE_COLOR ? CIP_FORMAT_RGBA :
      CIP_FORMAT_GRAY16, &plane);
  for (y = 0; y < plane.height; y++) {
    const guint8 *row = (const guint8 *) plane.data + y * plane.stride;

    for (x = 0; x < plane.width; x++, index++) {
      guint64 v;

      if (mode == MODE_COLOR)
        v = (guint64) row[4 * x] << 16 | row[4 * x + 1] << 8 | row[4 * x + 2];
      else
        v = GST_READ_UINT16_LE (row + 2 * x);
      sum += v * index;
    }
  }
  gst_video_frame_unmap (&frame);
  gst_caps_unref (caps);
  return sum;
}

/* Fails unless the count, boxes, centroids and means (by @means_key) of
 * @regions are those of [@group]. */
static void
assert_sums (const Region * regions, guint n, GKeyFile * ini,
    const gchar * group, const gchar * means_key)
{
  guint64 boxes = 0, cx = 0, cy = 0, means = 0;
  guint i;

  fail_unless_equals_int (n, cip_test_ini_uint64 (ini, group, "count"));
  for (i = 0; i < n; i++) {
    const Region *r = &regions[i];
    guint64 weight = i + 1;

    boxes += weight * (r->area + r->x * G_GUINT64_CONSTANT (0x10001) +
        r->y * G_GUINT64_CONSTANT (0x100000001) +
        r->width * G_GUINT64_CONSTANT (0x1000000000001) +
        r->height * G_GUINT64_CONSTANT (0x9e3779b97f4a7c15));
    cx += weight * double_bits (r->centroid_x);
    cy += weight * double_bits (r->centroid_y);
    means += weight * double_bits (r->mean);
  }
  fail_unless_equals_uint64 (boxes, cip_test_ini_uint64 (ini, group,
          "boxes-sum"));
  fail_unless_equals_uint64 (cx, cip_test_ini_uint64 (ini, group,
          "centroids-x-sum"));
  fail_unless_equals_uint64 (cy, cip_test_ini_uint64 (ini, group,
          "centroids-y-sum"));
  fail_unless_equals_uint64 (means, cip_test_ini_uint64 (ini, group,
          means_key));
}

/* Fails unless @regions are the lists of [@group], means included when
 * @with_means (they are those of coins). */
static void
assert_lists (const Region * regions, guint n, GKeyFile * ini,
    const gchar * group, gboolean with_means)
{
  gint *areas = cip_test_ini_ints (ini, group, "areas", n);
  gint *lefts = cip_test_ini_ints (ini, group, "lefts", n);
  gint *tops = cip_test_ini_ints (ini, group, "tops", n);
  gint *widths = cip_test_ini_ints (ini, group, "widths", n);
  gint *heights = cip_test_ini_ints (ini, group, "heights", n);
  gdouble *cx = cip_test_ini_doubles (ini, group, "centroids-x", n);
  gdouble *cy = cip_test_ini_doubles (ini, group, "centroids-y", n);
  gdouble *means = cip_test_ini_doubles (ini, group, "means", n);
  Region *expected = g_new (Region, MAX (n, 1));
  guint i;

  for (i = 0; i < n; i++) {
    Region r = { i + 1, areas[i], lefts[i], tops[i], widths[i], heights[i],
      cx[i], cy[i], with_means ? means[i] : regions[i].mean
    };

    expected[i] = r;
  }
  assert_regions_equal (regions, expected, n, group);
  g_free (expected);
  g_free (areas);
  g_free (lefts);
  g_free (tops);
  g_free (widths);
  g_free (heights);
  g_free (cx);
  g_free (cy);
  g_free (means);
}

/* ---- The coins mask against OpenCV and scikit-image ---- */

/* mode=labels: the label image is cip_ref_label's and scikit-image's
 * labels; one meta per region with OpenCV's box, area and centroid; with
 * no intensity meta, each region's mean is the mask's value, 255. */
GST_START_TEST (test_coins_labels)
{
  GKeyFile *ini = cip_test_expected_file ("expected-label.ini");
  CipImage mask = cip_test_image_load ("label-coins-mask.pgm");
  GstHarness *h = label_harness_new ("mode=labels");
  GstElement *label = cip_test_harness_element (h, "cudalabel");
  GstBuffer *out;
  Region *regions;
  Labelled ref;
  guint i;

  fail_unless_equals_int (get_n_regions (label), 0);
  set_mask_caps (h, mask.width, mask.height);
  out = push_and_check (h, cip_test_buffer_new (&mask), &mask, MODE_LABELS,
      8, 0, &ref);
  fail_unless_equals_int (ref.count, 77);
  fail_unless_equals_int (get_n_regions (label), 77);
  fail_unless_equals_uint64 (output_sum (h, out, MODE_LABELS),
      cip_test_ini_uint64 (ini, "label-coins-8-0", "labels-sum"));

  regions = buffer_regions (out, 77);
  assert_lists (regions, 77, ini, "label-coins-8-0", FALSE);
  assert_sums (regions, 77, ini, "label-coins-8-0", "mask-means-sum");
  for (i = 0; i < 77; i++)
    if (regions[i].mean != 255.0)
      fail ("region %u: mean %g", i + 1, regions[i].mean);

  g_free (regions);
  gst_buffer_unref (out);
  labelled_clear (&ref);
  gst_object_unref (label);
  gst_harness_teardown (h);
  cip_test_image_free (&mask);
  g_key_file_free (ini);
}

GST_END_TEST;

/* The seed chain cudaotsu ! cudamorph ! cudalabel on coins: cudaotsu
 * attaches coins to its mask, cudamorph passes it on, and the table is
 * OpenCV's and scikit-image's to the bit, mean_intensity of coins
 * included; for every connectivity and min-area of the ini, set between
 * frames. */
GST_START_TEST (test_mean_intensity_end_to_end)
{
  static const struct
  {
    gint connectivity;
    guint min_area;
  } groups[] = {
    {8, 0}, {8, 50}, {8, 500}, {4, 0}, {4, 50}, {4, 500}, {8, 0},
  };
  const gchar *backend = cip_test_backend_name ();
  gchar *launch = g_strdup_printf ("cudaotsu backend=%s ! "
      "cudamorph backend=%s operation=erode shape=disk radius=2 ! "
      "cudalabel backend=%s mode=labels roi-meta=true", backend, backend,
      backend);
  GstHarness *h = gst_harness_new_parse (launch);
  GstElement *label = cip_test_harness_element (h, "cudalabel");
  GKeyFile *ini = cip_test_expected_file ("expected-label.ini");
  CipImage coins = cip_test_image_load ("coins.pgm");
  CipImage mask = cip_test_image_load ("label-coins-mask.pgm");
  guint i;

  gst_harness_set_sink_caps_str (h, "video/x-raw");
  set_mask_caps (h, coins.width, coins.height);
  for (i = 0; i < G_N_ELEMENTS (groups); i++) {
    gchar *group = g_strdup_printf ("label-coins-%d-%u",
        groups[i].connectivity, groups[i].min_area);
    Labelled ref = reference_label (&mask, &coins, MODE_LABELS,
        groups[i].connectivity, groups[i].min_area);
    GstBuffer *out;
    Region *regions;
    guint n;

    GST_INFO ("%s", group);
    g_object_set (label, "connectivity", groups[i].connectivity,
        "min-area", groups[i].min_area, NULL);
    out = cip_test_push_pull (h, cip_test_buffer_new (&coins));
    n = get_n_regions (label);
    fail_unless_equals_int (n, cip_test_ini_uint64 (ini, group, "count"));
    assert_output_image (h, out, &ref.image);
    fail_unless_equals_uint64 (output_sum (h, out, MODE_LABELS),
        cip_test_ini_uint64 (ini, group, "labels-sum"));
    regions = buffer_regions (out, n);
    assert_regions_equal (regions, ref.regions, n, group);
    assert_sums (regions, n, ini, group, "means-sum");
    if (groups[i].min_area == 0)
      assert_lists (regions, n, ini, group, TRUE);

    g_free (regions);
    gst_buffer_unref (out);
    labelled_clear (&ref);
    g_free (group);
  }

  gst_object_unref (label);
  gst_harness_teardown (h);
  cip_test_image_free (&mask);
  cip_test_image_free (&coins);
  g_key_file_free (ini);
  g_free (launch);
}

GST_END_TEST;

/* mode=color: cip_ref_label's RGBA, scikit-image's label2rgb
 * (color-sum), and the palette of docs/design.md on the first pixel of
 * each of the first regions; background black, alpha 255. */
GST_START_TEST (test_coins_color)
{
  GKeyFile *ini = cip_test_expected_file ("expected-label.ini");
  CipImage mask = cip_test_image_load ("label-coins-mask.pgm");
  GstHarness *h = label_harness_new (NULL);
  Labelled ids = reference_label (&mask, NULL, MODE_LABELS, 8, 0);
  gboolean *seen = g_new0 (gboolean, ids.count + 1);
  gboolean background_seen = FALSE;
  GstCaps *caps;
  GstBuffer *out;
  GstVideoFrame frame;
  CipImage plane;
  guint i, checked = 0;
  gint x, y;

  for (i = 0; i < 10; i++) {
    guint8 rgb[3];

    cip_label_color (i + 1, &rgb[0], &rgb[1], &rgb[2]);
    fail_unless (memcmp (rgb, palette[i], 3) == 0, "cip_label_color (%u)",
        i + 1);
  }

  set_mask_caps (h, mask.width, mask.height);
  out = push_and_check (h, cip_test_buffer_new (&mask), &mask, MODE_COLOR,
      8, 0, NULL);
  fail_unless_equals_uint64 (output_sum (h, out, MODE_COLOR),
      cip_test_ini_uint64 (ini, "label-coins-8-0", "color-sum"));

  caps = cip_test_harness_output_caps (h);
  map_output (&frame, out, caps, CIP_FORMAT_RGBA, &plane);
  for (y = 0; y < mask.height; y++)
    for (x = 0; x < mask.width; x++) {
      guint id = ((const guint16 *) ((const guint8 *) ids.image.data +
              y * ids.image.stride))[x];
      const guint8 *px = (const guint8 *) plane.data + y * plane.stride + 4 * x;
      static const guint8 black[4] = { 0, 0, 0, 255 };

      if (id == 0 && !background_seen) {
        background_seen = TRUE;
        if (memcmp (px, black, 4) != 0)
          fail ("background %d,%d is %u,%u,%u,%u", x, y, px[0], px[1],
              px[2], px[3]);
      }
      if (id == 0 || id > 25 || seen[id])
        continue;
      seen[id] = TRUE;
      checked++;
      if (memcmp (px, palette[(id - 1) % 10], 3) != 0 || px[3] != 255)
        fail ("label %u at %d,%d is %u,%u,%u,%u", id, x, y, px[0], px[1],
            px[2], px[3]);
    }
  gst_video_frame_unmap (&frame);
  fail_unless (background_seen);
  fail_unless_equals_int (checked, 25);

  gst_caps_unref (caps);
  gst_buffer_unref (out);
  g_free (seen);
  labelled_clear (&ids);
  gst_harness_teardown (h);
  cip_test_image_free (&mask);
  g_key_file_free (ini);
}

GST_END_TEST;

/* mode=passthrough: the mask itself comes out, GRAY8, with its metas. */
GST_START_TEST (test_passthrough)
{
  GKeyFile *ini = cip_test_expected_file ("expected-label.ini");
  CipImage mask = cip_test_image_load ("label-coins-mask.pgm");
  GstHarness *h = label_harness_new ("mode=passthrough");
  GstBuffer *out;
  Region *regions;
  guint i;

  set_mask_caps (h, mask.width, mask.height);
  for (i = 0; i < 2; i++) {
    out = push_and_check (h, i ? cip_test_buffer_new_strided (&mask, 64) :
        cip_test_buffer_new (&mask), &mask, MODE_PASSTHROUGH, 8, 0, NULL);
    regions = buffer_regions (out, 77);
    assert_lists (regions, 77, ini, "label-coins-8-0", FALSE);
    g_free (regions);
    gst_buffer_unref (out);
  }

  gst_harness_teardown (h);
  cip_test_image_free (&mask);
  g_key_file_free (ini);
}

GST_END_TEST;

/* min-area and connectivity, changed in PLAYING between frames: every
 * group of the coins mask in the ini, its means those of the mask. */
GST_START_TEST (test_min_area_and_connectivity)
{
  static const struct
  {
    gint connectivity;
    guint min_area;
  } groups[] = {
    {8, 50}, {4, 0}, {8, 0}, {4, 500}, {4, 50}, {8, 500}, {8, 1},
  };
  GKeyFile *ini = cip_test_expected_file ("expected-label.ini");
  CipImage mask = cip_test_image_load ("label-coins-mask.pgm");
  GstHarness *h = label_harness_new ("mode=labels");
  guint i;

  set_mask_caps (h, mask.width, mask.height);
  for (i = 0; i < G_N_ELEMENTS (groups); i++) {
    /* min-area 1 keeps every region, as 0 does. */
    gchar *group = g_strdup_printf ("label-coins-%d-%u",
        groups[i].connectivity, groups[i].min_area == 1 ? 0 :
        groups[i].min_area);
    GstBuffer *out;
    Region *regions;
    Labelled ref;

    GST_INFO ("%s", group);
    out = push_and_check (h, cip_test_buffer_new (&mask), &mask,
        MODE_LABELS, groups[i].connectivity, groups[i].min_area, &ref);
    fail_unless_equals_uint64 (output_sum (h, out, MODE_LABELS),
        cip_test_ini_uint64 (ini, group, "labels-sum"));
    regions = buffer_regions (out, ref.count);
    assert_sums (regions, ref.count, ini, group, "mask-means-sum");
    if (groups[i].min_area <= 1)
      assert_lists (regions, ref.count, ini, group, FALSE);

    g_free (regions);
    labelled_clear (&ref);
    gst_buffer_unref (out);
    g_free (group);
  }
  fail_unless_equals_int (cip_test_ini_uint64 (ini, "label-coins-8-50",
          "count"), 32);
  fail_unless_equals_int (cip_test_ini_uint64 (ini, "label-coins-4-0",
          "count"), 141);

  gst_harness_teardown (h);
  cip_test_image_free (&mask);
  g_key_file_free (ini);
}

GST_END_TEST;

/* ---- Messages ---- */

/* post-messages=true: one cudalabel message per frame, in order, with its
 * timestamps, n-regions and the same table as the frame's metas. */
GST_START_TEST (test_post_messages)
{
  GstHarness *h = label_harness_new ("mode=labels post-messages=true");
  GstBus *bus = cip_test_harness_add_bus (h);
  CipImage mask = cip_test_image_load ("label-coins-mask.pgm");
  CipImage frames[3];
  Region *metas[3];
  guint counts[3];
  GstSegment segment;
  GList *messages, *l;
  guint i, k;
  gint x, y;

  frames[0] = cip_test_image_copy (&mask, 0);
  frames[1] = cip_test_image_copy (&mask, 0);
  memset (frames[1].data, 0, frames[1].stride * frames[1].height);
  frames[2] = cip_test_image_random (mask.width, mask.height,
      CIP_FORMAT_GRAY8, 5);
  for (y = 0; y < mask.height; y++)
    for (x = 0; x < mask.width; x++) {
      guint8 *p = (guint8 *) frames[2].data + y * frames[2].stride + x;

      *p = *p < 40 ? *p + 1 : 0;
    }

  set_mask_caps (h, mask.width, mask.height);
  gst_segment_init (&segment, GST_FORMAT_TIME);
  segment.start = 1 * GST_SECOND;
  segment.time = 10 * GST_SECOND;
  segment.base = 100 * GST_SECOND;
  fail_unless (gst_harness_push_event (h, gst_event_new_segment (&segment)));

  for (i = 0; i < G_N_ELEMENTS (frames); i++) {
    GstBuffer *in = cip_test_buffer_new (&frames[i]);
    GstBuffer *out;
    Labelled ref;

    GST_BUFFER_PTS (in) = 2 * GST_SECOND + i * 40 * GST_MSECOND;
    GST_BUFFER_DURATION (in) = 40 * GST_MSECOND;
    out = push_and_check (h, in, &frames[i], MODE_LABELS, 8, 0, &ref);
    fail_unless_equals_uint64 (GST_BUFFER_PTS (out),
        2 * GST_SECOND + i * 40 * GST_MSECOND);
    counts[i] = ref.count;
    metas[i] = buffer_regions (out, ref.count);
    labelled_clear (&ref);
    gst_buffer_unref (out);
  }
  fail_unless_equals_int (counts[0], 77);
  fail_unless_equals_int (counts[1], 0);
  fail_unless (counts[2] > 1000, "%u regions", counts[2]);

  messages = cip_test_bus_pop_element_messages (bus, "cudalabel");
  fail_unless_equals_int (g_list_length (messages), G_N_ELEMENTS (frames));
  for (l = messages, i = 0; l; l = l->next, i++) {
    GstMessage *msg = l->data;
    const GstStructure *s = gst_message_get_structure (msg);
    GstClockTime pts = 2 * GST_SECOND + i * 40 * GST_MSECOND;
    guint64 timestamp = 0, stream_time = 0, running_time = 0, duration = 0;
    gchar *src_name = gst_object_get_name (GST_MESSAGE_SRC (msg));
    static const gchar *default_columns[] = { "label", "area", "bbox-0",
      "bbox-1", "bbox-2", "bbox-3", "centroid-0", "centroid-1",
      "intensity_mean"
    };
    GBytes *columns[G_N_ELEMENTS (default_columns)];
    GstStructure *table = NULL;
    guint n = G_MAXUINT, dropped = G_MAXUINT;

    fail_unless (g_str_has_prefix (src_name, "cudalabel"), "posted by %s",
        src_name);
    g_free (src_name);
    fail_unless_equals_int (gst_structure_n_fields (s), 7);
    fail_unless (gst_structure_get (s, "timestamp", G_TYPE_UINT64, &timestamp,
            "stream-time", G_TYPE_UINT64, &stream_time,
            "running-time", G_TYPE_UINT64, &running_time,
            "duration", G_TYPE_UINT64, &duration,
            "n-regions", G_TYPE_UINT, &n,
            "n-dropped", G_TYPE_UINT, &dropped,
            "regionprops", GST_TYPE_STRUCTURE, &table, NULL),
        "unexpected fields in %" GST_PTR_FORMAT, s);
    fail_unless_equals_uint64 (timestamp, pts);
    fail_unless_equals_uint64 (stream_time, pts - 1 * GST_SECOND +
        10 * GST_SECOND);
    fail_unless_equals_uint64 (running_time, pts - 1 * GST_SECOND +
        100 * GST_SECOND);
    fail_unless_equals_uint64 (duration, 40 * GST_MSECOND);
    fail_unless_equals_int (n, counts[i]);
    fail_unless_equals_int (dropped, 0);

    /* The default columns, region by region as the metas say. */
    fail_unless_equals_int (gst_structure_n_fields (table),
        G_N_ELEMENTS (default_columns));
    for (k = 0; k < G_N_ELEMENTS (default_columns); k++) {
      const GValue *v = gst_structure_get_value (table, default_columns[k]);

      fail_unless (v && G_VALUE_HOLDS (v, G_TYPE_BYTES), "no %s in %"
          GST_PTR_FORMAT, default_columns[k], table);
      columns[k] = g_value_get_boxed (v);
      fail_unless_equals_int (g_bytes_get_size (columns[k]), 8 * n);
    }
    for (k = 0; k < n; k++) {
      Region r = { column_value (columns[0], k), column_value (columns[1], k),
        column_value (columns[3], k), column_value (columns[2], k),
        column_value (columns[5], k) - column_value (columns[3], k),
        column_value (columns[4], k) - column_value (columns[2], k),
        column_value (columns[7], k), column_value (columns[6], k),
        column_value (columns[8], k)
      };

      assert_regions_equal (&r, &metas[i][k], 1, "message");
    }
    gst_structure_free (table);
  }
  g_list_free_full (messages, (GDestroyNotify) gst_message_unref);
  fail_unless_equals_int (cip_test_bus_pop_errors (bus, NULL), 0);

  for (i = 0; i < G_N_ELEMENTS (frames); i++) {
    cip_test_image_free (&frames[i]);
    g_free (metas[i]);
  }
  cip_test_image_free (&mask);
  cip_test_harness_teardown_with_bus (h, bus);
}

GST_END_TEST;

/* post-messages=false (the default): no element message. */
GST_START_TEST (test_no_messages_by_default)
{
  GstHarness *h = label_harness_new (NULL);
  GstBus *bus = cip_test_harness_add_bus (h);
  CipImage mask = cip_test_image_load ("label-coins-mask.pgm");
  GstMessage *msg;

  set_mask_caps (h, mask.width, mask.height);
  gst_buffer_unref (push_and_check (h, cip_test_buffer_new (&mask), &mask,
          MODE_COLOR, 8, 0, NULL));
  msg = cip_test_bus_pop_type (bus, GST_MESSAGE_ELEMENT);
  fail_unless (msg == NULL, "unexpected %" GST_PTR_FORMAT, msg);

  cip_test_image_free (&mask);
  cip_test_harness_teardown_with_bus (h, bus);
}

GST_END_TEST;

/* ---- Large tables ---- */

/* A mask of isolated pixels, one every second column and row of the
 * first @rows pairs of rows, each its own value. */
static CipImage
dots_mask (gint width, gint height, gint rows)
{
  CipImage mask = cip_test_image_new (width, height, CIP_FORMAT_GRAY8, 3);
  gint x, y;

  for (y = 0; y < MIN (height, 2 * rows); y += 2)
    for (x = 0; x < width; x += 2)
      ((guint8 *) mask.data)[y * mask.stride + x] = 1 + (x / 2 + y / 2) % 255;
  return mask;
}

/* Fails unless @regions are those of dots_mask (@width, ...). */
static void
assert_dots (const Region * regions, guint n, gint width)
{
  guint per_row = (width + 1) / 2, k;

  for (k = 0; k < n; k++) {
    guint x = 2 * (k % per_row), y = 2 * (k / per_row);
    Region expected = { k + 1, 1, x, y, 1, 1, x, y, 1 + (x / 2 + y / 2) % 255
    };

    assert_regions_equal (&regions[k], &expected, 1, "dots");
  }
}

/* More regions than the table first holds: it grows, the frame is
 * labelled again, and later frames, smaller ones too, are right. */
GST_START_TEST (test_table_grows)
{
  static const struct
  {
    gint width, height, rows;
    guint count;
  } frames[] = {
    {400, 300, 8, 1600}, {400, 300, 150, 30000}, {400, 300, 1, 200},
    {400, 300, 150, 30000}, {41, 29, 15, 315}, {41, 29, 0, 0},
  };
  GstHarness *h = label_harness_new ("mode=labels");
  guint i;

  for (i = 0; i < G_N_ELEMENTS (frames); i++) {
    CipImage mask = dots_mask (frames[i].width, frames[i].height,
        frames[i].rows);
    GstBuffer *out;
    Region *regions;
    Labelled ref;

    GST_INFO ("%dx%d, %u regions", frames[i].width, frames[i].height,
        frames[i].count);
    if (i == 0 || frames[i].width != frames[i - 1].width)
      set_mask_caps (h, frames[i].width, frames[i].height);
    out = push_and_check (h, cip_test_buffer_new_strided (&mask, 0), &mask,
        MODE_LABELS, 8, 0, &ref);
    fail_unless_equals_int (ref.count, frames[i].count);
    regions = buffer_regions (out, frames[i].count);
    assert_dots (regions, frames[i].count, frames[i].width);

    g_free (regions);
    labelled_clear (&ref);
    gst_buffer_unref (out);
    cip_test_image_free (&mask);
  }
  gst_harness_teardown (h);
}

GST_END_TEST;

/* @mask in GStreamer's GRAY8 layout, in a memfd memory that is mapped
 * into the process only while a map of it lasts, as dmabufs are. */
static GstBuffer *
memfd_buffer_new (const CipImage * mask)
{
  gsize stride = GST_ROUND_UP_4 (mask->width), size = stride * mask->height;
  GstAllocator *allocator = gst_fd_allocator_new ();
  GstBuffer *buffer = gst_buffer_new ();
  guint8 *rows = g_malloc0 (size);
  gint fd = memfd_create ("cudalabel-mask", MFD_CLOEXEC);
  gint y;

  fail_unless (fd >= 0);
  for (y = 0; y < mask->height; y++)
    memcpy (rows + y * stride, (guint8 *) mask->data + y * mask->stride,
        mask->width);
  fail_unless_equals_int (write (fd, rows, size), size);
  g_free (rows);
  gst_buffer_append_memory (buffer, gst_fd_allocator_alloc (allocator, fd,
          size, GST_FD_MEMORY_FLAG_NONE));
  gst_object_unref (allocator);
  return buffer;
}

/* A table that has to grow, of a frame whose memory is unmapped from the
 * process once the element is done reading it: the regions are all read
 * while it is mapped. */
GST_START_TEST (test_table_grows_from_unmapped_memory)
{
  GstHarness *h = label_harness_new ("mode=labels");
  CipImage mask = dots_mask (400, 300, 150);
  GstBuffer *out;
  Labelled ref;

  set_mask_caps (h, 400, 300);
  out = push_and_check (h, memfd_buffer_new (&mask), &mask, MODE_LABELS, 8, 0,
      &ref);
  fail_unless_equals_int (ref.count, 30000);
  labelled_clear (&ref);
  gst_buffer_unref (out);
  cip_test_image_free (&mask);
  gst_harness_teardown (h);
}

GST_END_TEST;

/* Behind a source that is not live, the cuda backend holds each frame
 * until the next one's work is queued: a frame comes out one push later
 * (at once on the cpu backend), before new caps, or at the end of the
 * stream, with the reference's pixels and regions, a table that had to
 * grow included.  A flush drops the held frame. */
GST_START_TEST (test_held_frames)
{
  static const struct
  {
    gint width, height, rows;
  } frames[] = {
    {400, 300, 8}, {400, 300, 150}, {400, 300, 1}, {41, 29, 15}, {41, 29, 0},
  };
  GstHarness *h = label_harness_new ("mode=labels");
  gboolean held = cip_test_backend_is_cuda ();
  Labelled expected[G_N_ELEMENTS (frames)];
  guint i, out_now;

  gst_harness_set_live (h, FALSE);
  for (i = 0; i < G_N_ELEMENTS (frames); i++) {
    CipImage mask = dots_mask (frames[i].width, frames[i].height,
        frames[i].rows);

    expected[i] = reference_label (&mask, NULL, MODE_LABELS, 8, 0);
    if (i == 0 || frames[i].width != frames[i - 1].width) {
      set_mask_caps (h, frames[i].width, frames[i].height);
      /* new caps: nothing is held */
      fail_unless_equals_int (gst_harness_buffers_in_queue (h), i);
    }
    fail_unless_equals_int (gst_harness_push (h,
            cip_test_buffer_new_strided (&mask, 0)), GST_FLOW_OK);
    out_now = held ? i : i + 1;
    fail_unless_equals_int (gst_harness_buffers_in_queue (h), out_now);
    cip_test_image_free (&mask);
  }
  fail_unless (gst_harness_push_event (h, gst_event_new_eos ()));
  fail_unless_equals_int (gst_harness_buffers_in_queue (h),
      G_N_ELEMENTS (frames));

  for (i = 0; i < G_N_ELEMENTS (frames); i++) {
    GstBuffer *out = gst_harness_pull (h);
    GstCaps *caps = cip_test_caps_new (GST_VIDEO_FORMAT_GRAY16_LE,
        frames[i].width, frames[i].height);
    const GstStructure *table = regions_table (out);
    Region *regions = buffer_regions (out, expected[i].count);

    GstVideoFrame frame;
    CipImage image;
    gchar *where = NULL;

    map_output (&frame, out, caps, CIP_FORMAT_GRAY16, &image);
    fail_unless (cip_test_images_equal (&image, &expected[i].image, &where),
        "frame %u differs from the reference: %s", i, where);
    gst_video_frame_unmap (&frame);
    fail_unless (table != NULL);
    fail_unless_equals_int (table_regions (table), expected[i].count);
    assert_regions_equal (regions, expected[i].regions, expected[i].count,
        "held frame");
    g_free (regions);
    gst_caps_unref (caps);
    gst_buffer_unref (out);
    labelled_clear (&expected[i]);
  }
  gst_harness_teardown (h);
}

GST_END_TEST;

/* A flush drops the frame the cuda backend holds; nothing comes out of
 * it, and the frames after the flush do. */
GST_START_TEST (test_flush_drops_held_frame)
{
  GstHarness *h = label_harness_new ("mode=labels");
  CipImage mask = dots_mask (64, 48, 4);
  Labelled expected = reference_label (&mask, NULL, MODE_LABELS, 8, 0);
  gboolean held = cip_test_backend_is_cuda ();
  GstSegment segment;
  GstBuffer *out;
  Region *regions;

  gst_harness_set_live (h, FALSE);
  set_mask_caps (h, 64, 48);
  fail_unless_equals_int (gst_harness_push (h,
          cip_test_buffer_new_strided (&mask, 0)), GST_FLOW_OK);
  fail_unless (gst_harness_push_event (h, gst_event_new_flush_start ()));
  fail_unless (gst_harness_push_event (h, gst_event_new_flush_stop (TRUE)));
  fail_unless_equals_int (gst_harness_buffers_in_queue (h), held ? 0 : 1);
  if (!held)
    gst_buffer_unref (gst_harness_pull (h));

  gst_segment_init (&segment, GST_FORMAT_TIME);
  fail_unless (gst_harness_push_event (h, gst_event_new_segment (&segment)));
  fail_unless_equals_int (gst_harness_push (h,
          cip_test_buffer_new_strided (&mask, 0)), GST_FLOW_OK);
  fail_unless (gst_harness_push_event (h, gst_event_new_eos ()));
  fail_unless_equals_int (gst_harness_buffers_in_queue (h), 1);
  out = gst_harness_pull (h);
  regions = buffer_regions (out, expected.count);
  assert_regions_equal (regions, expected.regions, expected.count, "after");

  g_free (regions);
  gst_buffer_unref (out);
  labelled_clear (&expected);
  cip_test_image_free (&mask);
  gst_harness_teardown (h);
}

GST_END_TEST;

/* A 512x512 checkerboard has 131072 regions with 4-connectivity: label
 * ids past 65535 are written as 65535 with one STREAM/FORMAT warning, the
 * count and the metas stay exact.  mode=color has no such limit; with
 * 8-connectivity the board is one region. */
GST_START_TEST (test_more_than_65535_regions)
{
  gint mode = __i__ ? MODE_COLOR : MODE_LABELS;
  GstHarness *h = label_harness_new (mode == MODE_COLOR ?
      "mode=color max-regions=131072" : "mode=labels max-regions=131072");
  GstBus *bus = cip_test_harness_add_bus (h);
  CipImage board = cip_test_image_new (512, 512, CIP_FORMAT_GRAY8, 0);
  GstCaps *caps;
  guint frame, k;
  gint x, y;

  for (y = 0; y < 512; y++)
    for (x = 0; x < 512; x++)
      ((guint8 *) board.data)[y * board.stride + x] = (x + y) % 2 ? 0 : 255;

  set_mask_caps (h, 512, 512);
  for (frame = 0; frame < 2; frame++) {
    GstBuffer *out;
    GstVideoFrame vframe;
    CipImage plane;
    Region *regions;

    out = push_and_check (h, cip_test_buffer_new (&board), &board, mode, 4,
        0, NULL);
    regions = buffer_regions (out, 131072);
    for (k = 0; k < 131072; k += 997) {
      guint ry = k / 256, rx = 2 * (k % 256) + ry % 2;
      Region expected = { k + 1, 1, rx, ry, 1, 1, rx, ry, 255 };

      assert_regions_equal (&regions[k], &expected, 1, "board");
    }
    g_free (regions);

    if (mode == MODE_LABELS) {
      caps = cip_test_harness_output_caps (h);
      map_output (&vframe, out, caps, CIP_FORMAT_GRAY16, &plane);
      for (y = 0; y < 512; y++)
        for (x = 0; x < 512; x++) {
          guint id = GST_READ_UINT16_LE ((const guint8 *) plane.data +
              y * plane.stride + 2 * x);
          guint k1 = (y * 512 + x) / 2 + 1;
          guint want = (x + y) % 2 ? 0 : MIN (k1, 65535);

          if (id != want)
            fail ("%d,%d is %u, expected %u", x, y, id, want);
        }
      gst_video_frame_unmap (&vframe);
      gst_caps_unref (caps);
    }
    gst_buffer_unref (out);
  }

  fail_unless_equals_int (cip_test_bus_pop_warnings (bus, GST_STREAM_ERROR,
          GST_STREAM_ERROR_FORMAT), mode == MODE_LABELS ? 1 : 0);

  /* Corners connect the board into one region. */
  gst_buffer_unref (push_and_check (h, cip_test_buffer_new (&board), &board,
          mode, 8, 0, NULL));
  fail_unless (cip_test_bus_pop_type (bus, GST_MESSAGE_WARNING) == NULL);
  fail_unless_equals_int (cip_test_bus_pop_errors (bus, NULL), 0);

  cip_test_image_free (&board);
  cip_test_harness_teardown_with_bus (h, bus);
}

GST_END_TEST;

/* ---- Edge cases ---- */

static const gint odd_sizes[][2] = {
  {1, 1}, {3, 1}, {1, 7}, {2, 3}, {33, 17}, {127, 129}, {641, 479},
};

/* An empty frame has no region; a full one is one region covering it,
 * its centroid the centre; at every odd size, in every mode. */
GST_START_TEST (test_empty_and_full_frames)
{
  const gint *size = odd_sizes[__i__ / G_N_ELEMENTS (modes)];
  gint mode = __i__ % G_N_ELEMENTS (modes);
  gchar *props = g_strdup_printf ("mode=%s", modes[mode]);
  GstHarness *h = label_harness_new (props);
  GstElement *label = cip_test_harness_element (h, "cudalabel");
  CipImage mask = cip_test_image_new (size[0], size[1], CIP_FORMAT_GRAY8, 5);
  guint8 value;
  gint connectivity;

  GST_INFO ("%dx%d %s", size[0], size[1], modes[mode]);
  set_mask_caps (h, size[0], size[1]);
  for (connectivity = 4; connectivity <= 8; connectivity += 4)
    for (value = 0; value < 2; value++) {
      GstBuffer *out;
      Region *regions;

      memset (mask.data, value ? 7 : 0, mask.stride * mask.height);
      /* The padding is not part of the frame. */
      if (!value)
        memset ((guint8 *) mask.data + mask.width, 9, 5);
      out = push_and_check (h, cip_test_buffer_new_strided (&mask, 64),
          &mask, mode, connectivity, 0, NULL);
      fail_unless_equals_int (get_n_regions (label), value);
      regions = buffer_regions (out, value);
      if (value) {
        Region whole = { 1, size[0] * size[1], 0, 0, size[0], size[1],
          (size[0] - 1) / 2.0, (size[1] - 1) / 2.0, 7.0
        };

        assert_regions_equal (regions, &whole, 1, "full frame");
      }
      g_free (regions);
      gst_buffer_unref (out);
    }

  cip_test_image_free (&mask);
  gst_object_unref (label);
  gst_harness_teardown (h);
  g_free (props);
}

GST_END_TEST;

/* Random masks of odd sizes (any non-zero byte is foreground), in
 * GStreamer's default layout and in padded rows starting 64 bytes in:
 * output and table as cip_ref_label's, in every mode. */
GST_START_TEST (test_odd_sizes_and_strides)
{
  const gint *size = odd_sizes[__i__ / G_N_ELEMENTS (modes)];
  gint mode = __i__ % G_N_ELEMENTS (modes);
  gchar *props = g_strdup_printf ("mode=%s", modes[mode]);
  GstHarness *h = label_harness_new (props);
  CipImage mask = cip_test_image_new (size[0], size[1], CIP_FORMAT_GRAY8, 13);
  guint8 *p;
  gint connectivity;
  gsize i;

  GST_INFO ("%dx%d %s", size[0], size[1], modes[mode]);
  cip_test_image_fill_random (&mask, 40 + __i__);
  for (p = mask.data, i = 0; i < mask.stride * mask.height; i++)
    p[i] = p[i] % 5 < 2 ? 0 : p[i];
  set_mask_caps (h, size[0], size[1]);
  for (connectivity = 4; connectivity <= 8; connectivity += 4) {
    gst_buffer_unref (push_and_check (h, cip_test_buffer_new (&mask), &mask,
            mode, connectivity, 0, NULL));
    gst_buffer_unref (push_and_check (h, cip_test_buffer_new_strided (&mask,
                64), &mask, mode, connectivity, 3, NULL));
  }

  cip_test_image_free (&mask);
  gst_harness_teardown (h);
  g_free (props);
}

GST_END_TEST;

/* ---- Negotiation, malformed input and properties ---- */

/* Only GRAY8 masks are taken. */
GST_START_TEST (test_refuses_other_formats)
{
  GstVideoFormat format = __i__ ? GST_VIDEO_FORMAT_GRAY16_LE :
      GST_VIDEO_FORMAT_RGBA;
  GstHarness *h = label_harness_new (NULL);

  cip_test_assert_caps_refused (h, format, 16, 8);
  gst_harness_teardown (h);
}

GST_END_TEST;

/* A buffer too small for its caps is a STREAM/FORMAT error, nothing is
 * pushed and n-regions stays as it was. */
GST_START_TEST (test_short_buffer_is_an_error)
{
  GstHarness *h = label_harness_new ("post-messages=true");
  GstElement *label = cip_test_harness_element (h, "cudalabel");
  GstBus *bus = cip_test_harness_add_bus (h);

  cip_test_assert_short_buffer_refused (h, bus, GST_VIDEO_FORMAT_GRAY8);
  fail_unless_equals_int (get_n_regions (label), 0);
  fail_unless (cip_test_bus_pop_type (bus, GST_MESSAGE_ELEMENT) == NULL);

  gst_object_unref (label);
  cip_test_harness_teardown_with_bus (h, bus);
}

GST_END_TEST;

/* The enums' nicks and values, the defaults, the ranges and the flags. */
GST_START_TEST (test_property_specs)
{
  static const gchar *connectivities[] = { "4", "8" };
  GstElement *label = gst_element_factory_make ("cudalabel", NULL);
  GObjectClass *klass;
  GParamSpec *spec;
  GEnumClass *enum_class;
  gint mode = -1, connectivity = -1;
  guint min_area = 1, n = 1, i;
  gboolean post = TRUE;

  fail_unless (label != NULL);
  klass = G_OBJECT_GET_CLASS (label);
  g_object_get (label, "mode", &mode, "connectivity", &connectivity,
      "min-area", &min_area, "post-messages", &post, "n-regions", &n, NULL);
  fail_unless_equals_int (mode, MODE_COLOR);
  fail_unless_equals_int (connectivity, 8);
  fail_unless_equals_int (min_area, 0);
  fail_if (post);
  fail_unless_equals_int (n, 0);

  enum_class = g_type_class_ref (G_PARAM_SPEC_VALUE_TYPE
      (g_object_class_find_property (klass, "mode")));
  fail_unless_equals_int (enum_class->n_values, G_N_ELEMENTS (modes));
  for (i = 0; i < G_N_ELEMENTS (modes); i++)
    fail_unless_equals_int (g_enum_get_value_by_nick (enum_class,
            modes[i])->value, i);
  g_type_class_unref (enum_class);

  enum_class = g_type_class_ref (G_PARAM_SPEC_VALUE_TYPE
      (g_object_class_find_property (klass, "connectivity")));
  fail_unless_equals_int (enum_class->n_values, 2);
  for (i = 0; i < G_N_ELEMENTS (connectivities); i++)
    fail_unless_equals_int (g_enum_get_value_by_nick (enum_class,
            connectivities[i])->value, 4 + 4 * i);
  g_type_class_unref (enum_class);

  spec = g_object_class_find_property (klass, "min-area");
  fail_unless_equals_int (G_PARAM_SPEC_UINT (spec)->maximum, G_MAXUINT);
  fail_unless (spec->flags & GST_PARAM_MUTABLE_PLAYING);
  fail_unless (spec->flags & GST_PARAM_CONTROLLABLE);
  fail_unless (g_object_class_find_property (klass,
          "connectivity")->flags & GST_PARAM_MUTABLE_PLAYING);
  fail_unless (g_object_class_find_property (klass,
          "post-messages")->flags & GST_PARAM_MUTABLE_PLAYING);
  spec = g_object_class_find_property (klass, "n-regions");
  fail_unless ((spec->flags & G_PARAM_READWRITE) == G_PARAM_READABLE);

  /* Regions get GStreamer's analytics meta where it has one (1.24+), and
   * a ROI meta otherwise. */
  {
    gboolean roi, analytics;

    g_object_get (label, "roi-meta", &roi, "analytics-meta", &analytics, NULL);
    fail_unless (roi == !analytics);
    fail_unless_equals_int (analytics, CIP_TEST_HAVE_ANALYTICS);
  }

  gst_object_unref (label);
}

GST_END_TEST;

/* ---- The region table against scikit-image's regionprops_table ---- */

#define ALL_PROPERTIES "label,area,area_bbox,axis_major_length," \
  "axis_minor_length,bbox,centroid,eccentricity,equivalent_diameter_area," \
  "extent,intensity_max,intensity_mean,intensity_min,orientation," \
  "perimeter,euler_number,area_convex,area_filled,feret_diameter_max," \
  "solidity"

/* Every column of [@group] of expected-regionprops.ini (or
 * expected-regionprops16.ini: its other keys, count and threshold, are no
 * columns), and no other, in @table: within @tolerance of scikit-image's
 * value, relative, or @tolerance absolute where it is below 1 (1e-6 for
 * an eccentricity or an orientation near 0, which rounding moves by the
 * square root of the last bit; 0 for the bit). */
static void
assert_table_is_skimage (const GstStructure * table, GKeyFile * ini,
    const gchar * group, gdouble tolerance)
{
  gsize n_keys, k;
  gchar **keys = g_key_file_get_keys (ini, group, &n_keys, NULL);
  guint n = cip_test_ini_uint64 (ini, group, "count"), i;
  guint n_columns = 0;

  fail_unless (keys != NULL, "no [%s]", group);
  /* the message's, or the frame's meta's */
  fail_unless (gst_structure_has_name (table, "regionprops") ||
      gst_structure_has_name (table, "CudaImgprocRegions"));
  for (k = 0; k < n_keys; k++)
    if (!g_str_equal (keys[k], "count") && !g_str_equal (keys[k], "threshold"))
      n_columns++;
  fail_unless_equals_int (gst_structure_n_fields (table), n_columns);
  for (k = 0; k < n_keys; k++) {
    const GValue *v;
    gdouble *want;
    GBytes *column;

    if (g_str_equal (keys[k], "count") || g_str_equal (keys[k], "threshold"))
      continue;
    v = gst_structure_get_value (table, keys[k]);
    fail_unless (v != NULL && G_VALUE_HOLDS (v, G_TYPE_BYTES),
        "[%s] no column %s in %" GST_PTR_FORMAT, group, keys[k], table);
    column = g_value_get_boxed (v);
    fail_unless_equals_int (g_bytes_get_size (column), 8 * n);
    want = cip_test_ini_doubles (ini, group, keys[k], n);
    for (i = 0; i < n; i++) {
      gdouble got = column_value (column, i);

      if (fabs (got - want[i]) > tolerance * MAX (fabs (want[i]), 1.0))
        fail ("[%s] %s of region %u is %.17g, scikit-image %.17g", group,
            keys[k], i + 1, got, want[i]);
    }
    g_free (want);
  }
  g_strfreev (keys);
}

/* The message's table, from a pipeline that makes the coins mask with
 * its gray frame attached; and a random mask as its own intensity. */
GST_START_TEST (test_regionprops_table)
{
  const gchar *backend = cip_test_backend_name ();
  gint connectivity = __i__ ? 4 : 8;
  gchar *launch = g_strdup_printf ("cudaotsu backend=%s ! "
      "cudamorph backend=%s operation=erode shape=disk radius=2 ! "
      "cudalabel backend=%s mode=labels post-messages=true "
      "connectivity=%d properties=" ALL_PROPERTIES, backend, backend,
      backend, connectivity);
  GstHarness *h = gst_harness_new_parse (launch);
  GstBus *bus = cip_test_harness_add_bus (h);
  GKeyFile *ini = cip_test_expected_file ("expected-regionprops.ini");
  CipImage coins = cip_test_image_load ("coins.pgm");
  GList *messages;
  gchar *group;

  gst_harness_set_sink_caps_str (h, "video/x-raw");
  set_mask_caps (h, coins.width, coins.height);
  gst_buffer_unref (cip_test_push_pull (h, cip_test_buffer_new (&coins)));
  messages = cip_test_bus_pop_element_messages (bus, "cudalabel");
  fail_unless_equals_int (g_list_length (messages), 1);
  group = g_strdup_printf ("regionprops-coins-%d", connectivity);
  assert_table_is_skimage (gst_value_get_structure (gst_structure_get_value
          (gst_message_get_structure (messages->data), "regionprops")), ini,
      group, 1e-6);
  g_free (group);
  g_list_free_full (messages, (GDestroyNotify) gst_message_unref);

  cip_test_harness_teardown_with_bus (h, bus);
  cip_test_image_free (&coins);
  g_key_file_free (ini);
  g_free (launch);
}

GST_END_TEST;

/* The table cudalabel gives @mask (its own intensity) is [@name-C] of
 * expected-regionprops.ini at @connectivity C, every region in it. */
static void
assert_mask_regionprops (const CipImage * mask, gint connectivity,
    const gchar * name)
{
  GstHarness *h = label_harness_new ("mode=labels properties=" ALL_PROPERTIES);
  GKeyFile *ini = cip_test_expected_file ("expected-regionprops.ini");
  gchar *group = g_strdup_printf ("%s-%d", name, connectivity);
  const GstStructure *table;
  GstBuffer *out;

  set_mask_caps (h, mask->width, mask->height);
  out = push_and_check (h, cip_test_buffer_new (mask), mask, MODE_LABELS,
      connectivity, 0, NULL);
  table = regions_table (out);
  fail_unless (table != NULL);
  fail_unless_equals_int (table_regions (table),
      cip_test_ini_uint64 (ini, group, "count"));
  assert_table_is_skimage (table, ini, group, 1e-6);

  g_free (group);
  gst_buffer_unref (out);
  g_key_file_free (ini);
  gst_harness_teardown (h);
}

GST_START_TEST (test_regionprops_random)
{
  CipImage mask = cip_test_image_new (97, 61, CIP_FORMAT_GRAY8, 0);
  guint8 *bytes = g_malloc (97 * 61);
  gint x, y;

  /* make-label-data.py's random_case (97, 61, 7, 128), as 0 and 255. */
  cip_test_fill_bytes (bytes, 97 * 61, 7);
  for (y = 0; y < mask.height; y++)
    for (x = 0; x < mask.width; x++)
      ((guint8 *) mask.data)[y * mask.stride + x] =
          bytes[y * 97 + x] < 128 ? 255 : 0;
  g_free (bytes);
  assert_mask_regionprops (&mask, __i__ ? 4 : 8,
      "regionprops-random-97-61-7-128");
  cip_test_image_free (&mask);
}

GST_END_TEST;

/* make-regionprops-data.py's nested_case (83, 67): rings in rings (holes
 * holding regions holding holes), cut by diagonals. */
GST_START_TEST (test_regionprops_nested)
{
  CipImage mask = cip_test_image_new (83, 67, CIP_FORMAT_GRAY8, 0);
  gint x, y;

  for (y = 0; y < mask.height; y++)
    for (x = 0; x < mask.width; x++) {
      gboolean ring = MAX (ABS (x - 41), ABS (y - 33)) / 2 % 2 == 0;
      gboolean cut = (x + 2 * y) % 11 == 0;

      ((guint8 *) mask.data)[y * mask.stride + x] = ring != cut ? 255 : 0;
    }
  assert_mask_regionprops (&mask, __i__ ? 4 : 8, "regionprops-nested-83-67");
  cip_test_image_free (&mask);
}

GST_END_TEST;

/* The frames of expected-regionprops16.ini, in turn through cudaotsu and
 * through cudamask at the same threshold. */
static const gchar *frames16[] = { "camera", "coins-12bit", "full-range",
  "bright"
};

/* A 16-bit camera's frame (GRAY16_LE) made a mask by cudaotsu, or by
 * cudamask at the same threshold: the intensity columns are scikit-image's
 * regionprops_table of the uint16 frame, to the bit, at both
 * connectivities, set between frames. */
GST_START_TEST (test_regionprops_16bit)
{
  const gchar *backend = cip_test_backend_name ();
  const gchar *name = frames16[__i__ / 2];
  gboolean otsu = __i__ % 2 == 0;
  GKeyFile *ini = cip_test_expected_file ("expected-regionprops16.ini");
  gchar *group = g_strdup_printf ("regionprops16-%s-8", name);
  gchar *file = g_str_equal (name, "bright") ?
      g_strdup ("regionprops16-bright.pgm") :
      g_strdup_printf ("otsu16-%s.pgm", name);
  gchar *maker = otsu ? g_strdup ("cudaotsu") :
      g_strdup_printf ("cudamask threshold=%" G_GUINT64_FORMAT,
      cip_test_ini_uint64 (ini, group, "threshold"));
  gchar *launch = g_strdup_printf ("%s backend=%s ! cudalabel backend=%s "
      "properties=label,area,intensity_mean,intensity_min,intensity_max "
      "post-messages=true", maker, backend, backend);
  GstHarness *h = gst_harness_new_parse (launch);
  GstElement *label = cip_test_harness_element (h, "cudalabel");
  GstBus *bus = cip_test_harness_add_bus (h);
  CipImage frame = cip_test_image_load (file);
  gint connectivity;

  fail_unless_equals_int (frame.format, CIP_FORMAT_GRAY16);
  gst_harness_set_sink_caps_str (h, "video/x-raw");
  cip_test_harness_set_caps (h, GST_VIDEO_FORMAT_GRAY16_LE, frame.width,
      frame.height);
  for (connectivity = 8; connectivity >= 4; connectivity -= 4) {
    const GstStructure *s;
    GList *messages;

    g_free (group);
    group = g_strdup_printf ("regionprops16-%s-%d", name, connectivity);
    GST_INFO ("%s through %s", group, maker);
    g_object_set (label, "connectivity", connectivity, NULL);
    gst_buffer_unref (cip_test_push_pull (h, cip_test_buffer_new (&frame)));
    fail_unless_equals_int (get_n_regions (label),
        cip_test_ini_uint64 (ini, group, "count"));
    messages = cip_test_bus_pop_element_messages (bus, "cudalabel");
    fail_unless_equals_int (g_list_length (messages), 1);
    s = gst_message_get_structure (messages->data);
    assert_table_is_skimage (gst_value_get_structure (gst_structure_get_value
            (s, "regionprops")), ini, group, 0);
    g_list_free_full (messages, (GDestroyNotify) gst_message_unref);
  }

  gst_object_unref (label);
  cip_test_harness_teardown_with_bus (h, bus);
  cip_test_image_free (&frame);
  g_key_file_free (ini);
  g_free (launch);
  g_free (maker);
  g_free (file);
  g_free (group);
}

GST_END_TEST;

/* A property not asked for is not in the table; an unknown name leaves
 * the property as it was. */
GST_START_TEST (test_properties_property)
{
  GstElement *label = gst_element_factory_make ("cudalabel", NULL);
  gchar *value = NULL;

  g_object_set (label, "properties", " area , orientation,bbox", NULL);
  g_object_get (label, "properties", &value, NULL);
  fail_unless_equals_string (value, "area,orientation,bbox");
  g_free (value);
  g_object_set (label, "properties", "area,perimeter_crofton", NULL);
  g_object_get (label, "properties", &value, NULL);
  fail_unless_equals_string (value, "area,orientation,bbox");
  g_free (value);
  g_object_set (label, "properties", "area,area", NULL);
  g_object_get (label, "properties", &value, NULL);
  fail_unless_equals_string (value, "area,orientation,bbox");
  g_free (value);
  gst_object_unref (label);
}

GST_END_TEST;

/* The frame's CudaImgprocRegions custom meta holds exactly the message's
 * regionprops structure: the same columns, the same bytes. */
GST_START_TEST (test_custom_meta_is_the_message_table)
{
  GstHarness *h = label_harness_new ("post-messages=true "
      "properties=label,area,bbox,centroid,orientation,perimeter");
  GstBus *bus = cip_test_harness_add_bus (h);
  CipImage mask = cip_test_image_new (61, 47, CIP_FORMAT_GRAY8, 0);
  const GstStructure *table, *message_table;
  GstBuffer *out;
  GList *messages;
  gint i, x, y;

  for (y = 0; y < mask.height; y++)
    for (x = 0; x < mask.width; x++)
      ((guint8 *) mask.data)[y * mask.stride + x] =
          (x / 4) % 2 == 0 && (y / 3) % 2 == 0 ? 255 : 0;
  set_mask_caps (h, mask.width, mask.height);
  out = cip_test_push_pull (h, cip_test_buffer_new (&mask));
  table = regions_table (out);
  fail_unless (table != NULL);
  fail_unless (table_regions (table) > 10);

  messages = cip_test_bus_pop_element_messages (bus, "cudalabel");
  fail_unless_equals_int (g_list_length (messages), 1);
  message_table = gst_value_get_structure (gst_structure_get_value
      (gst_message_get_structure (messages->data), "regionprops"));
  fail_unless_equals_int (gst_structure_n_fields (table),
      gst_structure_n_fields (message_table));
  for (i = 0; i < (gint) gst_structure_n_fields (message_table); i++) {
    const gchar *name = gst_structure_nth_field_name (message_table, i);
    const GValue *ours = gst_structure_get_value (table, name);

    fail_unless (ours != NULL, "the meta has no %s", name);
    fail_unless (g_bytes_equal (g_value_get_boxed (ours),
            g_value_get_boxed (gst_structure_get_value (message_table,
                    name))), "%s differs", name);
  }
  g_list_free_full (messages, (GDestroyNotify) gst_message_unref);
  gst_buffer_unref (out);
  cip_test_image_free (&mask);
  cip_test_harness_teardown_with_bus (h, bus);
}

GST_END_TEST;

/* Each frame's table stays its own however long the application keeps it:
 * past the element's life, and with more frames kept than the element
 * lends column memory for (their columns then copied). */
GST_START_TEST (test_tables_outlive_the_element)
{
  GstHarness *h = label_harness_new ("properties=label,area,bbox");
  CipImage mask = cip_test_image_new (64, 8, CIP_FORMAT_GRAY8, 0);
  GstBuffer *out[40];
  guint k, i;
  gint x, y;

  set_mask_caps (h, mask.width, mask.height);
  /* frame k: 1 + k % 16 stripes two pixels wide, four apart */
  for (k = 0; k < G_N_ELEMENTS (out); k++) {
    for (y = 0; y < mask.height; y++)
      for (x = 0; x < mask.width; x++)
        ((guint8 *) mask.data)[y * mask.stride + x] =
            x % 4 < 2 && x / 4 <= (gint) (k % 16) ? 255 : 0;
    out[k] = cip_test_push_pull (h, cip_test_buffer_new (&mask));
  }
  gst_harness_teardown (h);

  for (k = 0; k < G_N_ELEMENTS (out); k++) {
    const GstStructure *table = regions_table (out[k]);
    guint n = 1 + k % 16;

    fail_unless (table != NULL);
    fail_unless_equals_int (table_regions (table), n);
    for (i = 0; i < n; i++) {
      GBytes *label = g_value_get_boxed (gst_structure_get_value (table,
              "label"));
      GBytes *area = g_value_get_boxed (gst_structure_get_value (table,
              "area"));
      GBytes *left = g_value_get_boxed (gst_structure_get_value (table,
              "bbox-1"));

      fail_unless_equals_float (column_value (label, i), i + 1);
      fail_unless_equals_float (column_value (area, i), 2 * mask.height);
      fail_unless_equals_float (column_value (left, i), 4 * i);
    }
    gst_buffer_unref (out[k]);
  }
  cip_test_image_free (&mask);
}

GST_END_TEST;

/* An unknown name keeps the element from starting: one RESOURCE/SETTINGS
 * error names it and lists every valid name. */
GST_START_TEST (test_unknown_property_name_refused_at_start)
{
  GstElement *pipeline = gst_pipeline_new (NULL);
  GstElement *label = gst_element_factory_make ("cudalabel", NULL);
  GstBus *bus = gst_element_get_bus (pipeline);
  GError *err = NULL;
  gint prop;

  gst_util_set_object_arg (G_OBJECT (label), "backend",
      cip_test_backend_name ());
  g_object_set (label, "properties", "area,centroids", NULL);
  gst_bin_add (GST_BIN (pipeline), label);
  fail_unless_equals_int (gst_element_set_state (pipeline, GST_STATE_PLAYING),
      GST_STATE_CHANGE_FAILURE);
  fail_unless_equals_int (cip_test_bus_pop_errors (bus, &err), 1);
  fail_unless (g_error_matches (err, GST_RESOURCE_ERROR,
          GST_RESOURCE_ERROR_SETTINGS), "error %s", err->message);
  fail_unless (strstr (err->message, "'centroids'") != NULL, "%s",
      err->message);
  for (prop = 0; prop < CIP_N_PROPS; prop++)
    fail_unless (strstr (err->message, cip_region_property_name (prop)),
        "'%s' does not list %s", err->message, cip_region_property_name (prop));
  g_error_free (err);
  gst_element_set_state (pipeline, GST_STATE_NULL);
  gst_object_unref (bus);
  gst_object_unref (pipeline);
}

GST_END_TEST;

/* Set while running, an unknown name is one warning; the table keeps its
 * columns and frames go on. */
GST_START_TEST (test_unknown_property_name_while_running)
{
  GstHarness *h = label_harness_new ("properties=area,bbox");
  GstElement *label = cip_test_harness_element (h, "cudalabel");
  GstBus *bus = cip_test_harness_add_bus (h);
  CipImage mask = cip_test_image_new (32, 24, CIP_FORMAT_GRAY8, 255);
  gchar *value = NULL;

  cip_test_harness_set_image_caps (h, &mask);
  gst_buffer_unref (cip_test_push_pull (h, cip_test_buffer_new (&mask)));
  g_object_set (label, "properties", "area,perimeter_crofton", NULL);
  g_object_get (label, "properties", &value, NULL);
  fail_unless_equals_string (value, "area,bbox");
  g_free (value);
  fail_unless_equals_int (cip_test_bus_pop_warnings (bus, GST_RESOURCE_ERROR,
          GST_RESOURCE_ERROR_SETTINGS), 1);
  gst_buffer_unref (cip_test_push_pull (h, cip_test_buffer_new (&mask)));
  fail_unless_equals_int (cip_test_bus_pop_errors (bus, NULL), 0);
  cip_test_image_free (&mask);
  gst_object_unref (label);
  cip_test_harness_teardown_with_bus (h, bus);
}

GST_END_TEST;

/* gst-inspect's blurb lists every name the element takes. */
GST_START_TEST (test_properties_blurb_lists_names)
{
  GstElement *label = gst_element_factory_make ("cudalabel", NULL);
  GParamSpec *pspec = g_object_class_find_property (G_OBJECT_GET_CLASS
      (label), "properties");
  const gchar *blurb = g_param_spec_get_blurb (pspec);
  gint prop;

  for (prop = 0; prop < CIP_N_PROPS; prop++) {
    gchar *listed = g_strdup_printf (" %s,", cip_region_property_name (prop));
    gchar *last = g_strdup_printf (" %s ", cip_region_property_name (prop));

    fail_unless (strstr (blurb, listed) || strstr (blurb, last),
        "the blurb '%s' does not list %s", blurb,
        cip_region_property_name (prop));
    g_free (listed);
    g_free (last);
  }
  gst_object_unref (label);
}

GST_END_TEST;

/* More regions than max-regions: the table holds the first ones, says
 * how many were left out, warns once; the label image holds them all. */
GST_START_TEST (test_max_regions)
{
  GstHarness *h = label_harness_new ("mode=labels connectivity=4 "
      "max-regions=1000 post-messages=true");
  GstBus *bus = cip_test_harness_add_bus (h);
  CipImage board = cip_test_image_new (256, 256, CIP_FORMAT_GRAY8, 0);
  const GstStructure *table;
  GstMessage *msg;
  guint frame, messages = 0, warnings = 0;
  gint x, y;

  for (y = 0; y < 256; y++)
    for (x = 0; x < 256; x++)
      ((guint8 *) board.data)[y * board.stride + x] = (x + y) % 2 ? 0 : 255;
  set_mask_caps (h, 256, 256);
  for (frame = 0; frame < 3; frame++) {
    GstBuffer *out = cip_test_push_pull (h, cip_test_buffer_new (&board));
    GBytes *labels;
    const GValue *v;

    table = regions_table (out);
    fail_unless (table != NULL);
    fail_unless_equals_int (table_regions (table), 1000);
    v = gst_structure_get_value (table, "label");
    labels = g_value_get_boxed (v);
    fail_unless_equals_int (g_bytes_get_size (labels), 8 * 1000);
    fail_unless_equals_float (column_value (labels, 999), 1000.0);
    g_free (buffer_regions (out, 1000));
    gst_buffer_unref (out);
  }

  /* Popped together: popping one type drops the others. */
  while ((msg = gst_bus_pop (bus))) {
    const GstStructure *s = gst_message_get_structure (msg);
    guint n = 0, dropped = 0;
    GError *err = NULL;

    if (GST_MESSAGE_TYPE (msg) == GST_MESSAGE_ELEMENT &&
        gst_message_has_name (msg, "cudalabel")) {
      fail_unless (gst_structure_get (s, "n-regions", G_TYPE_UINT, &n,
              "n-dropped", G_TYPE_UINT, &dropped, NULL));
      fail_unless_equals_int (n, 32768);
      fail_unless_equals_int (dropped, 32768 - 1000);
      messages++;
    } else if (GST_MESSAGE_TYPE (msg) == GST_MESSAGE_WARNING) {
      gst_message_parse_warning (msg, &err, NULL);
      fail_unless (g_error_matches (err, GST_STREAM_ERROR,
              GST_STREAM_ERROR_FAILED), "warning %s", err->message);
      g_error_free (err);
      warnings++;
    }
    gst_message_unref (msg);
  }
  fail_unless_equals_int (messages, 3);
  fail_unless_equals_int (warnings, 1);

  cip_test_image_free (&board);
  cip_test_harness_teardown_with_bus (h, bus);
}

GST_END_TEST;

/* Takes the harness's element through NULL and back to PLAYING, and
 * sends its caps again (they went with the pads' sticky events). */
static void
restart (GstHarness * h, gint width, gint height)
{
  fail_unless_equals_int (gst_element_set_state (h->element,
          GST_STATE_NULL), GST_STATE_CHANGE_SUCCESS);
  fail_unless_equals_int (gst_element_set_state (h->element,
          GST_STATE_PLAYING), GST_STATE_CHANGE_SUCCESS);
  set_mask_caps (h, width, height);
}

/* A mask of isolated pixels, one at every even column of every even row:
 * (@width + 1) / 2 * (@height + 1) / 2 regions, with either connectivity,
 * numbered in raster order. */
static CipImage
isolated_pixels (gint width, gint height)
{
  CipImage mask = cip_test_image_new (width, height, CIP_FORMAT_GRAY8, 0);
  gint x, y;

  for (y = 0; y < height; y++)
    for (x = 0; x < width; x++)
      ((guint8 *) mask.data)[y * mask.stride + x] =
          x % 2 == 0 && y % 2 == 0 ? 255 : 0;
  return mask;
}

/* Pushes @mask three times, restarting the element (NULL, then PLAYING)
 * before the third: each output is @expected's label image with a table
 * of @n_table of its regions, and a @code warning comes with the first
 * frame of each run, none with the second. */
static void
push_across_a_restart (GstHarness * h, GstBus * bus, const CipImage * mask,
    const Labelled * expected, guint n_table, GstStreamError code)
{
  GstElement *label = cip_test_harness_element (h, "cudalabel");
  guint frame, warnings;

  set_mask_caps (h, mask->width, mask->height);
  for (frame = 0; frame < 3; frame++) {
    const GstStructure *table;
    GstBuffer *out;

    if (frame == 2)
      restart (h, mask->width, mask->height);
    out = cip_test_push_pull (h, cip_test_buffer_new (mask));
    assert_output_image (h, out, &expected->image);
    fail_unless_equals_int (get_n_regions (label), expected->count);
    table = regions_table (out);
    fail_unless (table != NULL);
    fail_unless_equals_int (table_regions (table), n_table);
    gst_buffer_unref (out);
    warnings = cip_test_bus_pop_warnings (bus, GST_STREAM_ERROR, code);
    fail_unless (warnings == (frame == 1 ? 0 : 1),
        "frame %u (%s): %u STREAM warnings of code %d", frame,
        frame == 2 ? "after a restart" : "before a restart", warnings, code);
  }
  fail_unless_equals_int (cip_test_bus_pop_errors (bus, NULL), 0);
  gst_object_unref (label);
}

/* The max-regions warning comes once per start: a frame past max-regions
 * posts one STREAM/FAILED warning, the same frame again none, and again
 * one after the element went to NULL and back to PLAYING.  Each frame's
 * table holds the first 2 regions, and its label image all 32. */
GST_START_TEST (test_max_regions_warning_after_restart)
{
  GstHarness *h = label_harness_new ("mode=labels connectivity=4 "
      "max-regions=2");
  GstBus *bus = cip_test_harness_add_bus (h);
  CipImage mask = isolated_pixels (16, 8);
  Labelled expected = reference_label (&mask, NULL, MODE_LABELS, 4, 0);

  fail_unless_equals_int (expected.count, 32);
  push_across_a_restart (h, bus, &mask, &expected, 2, GST_STREAM_ERROR_FAILED);

  labelled_clear (&expected);
  cip_test_image_free (&mask);
  cip_test_harness_teardown_with_bus (h, bus);
}

GST_END_TEST;

/* The same for the warning that label ids past 65535 are written as
 * 65535 (mode=labels): a 514x512 mask of 257 x 256 = 65,792 isolated
 * pixels posts one STREAM/FORMAT warning, the same frame again none, and
 * again one after a restart; the label images as cip_ref_label's. */
GST_START_TEST (test_saturation_warning_after_restart)
{
  /* a table of two columns, no region meta: a few ms a frame on the cpu */
  GstHarness *h = cip_test_harness_new ("cudalabel", "mode=labels "
      "connectivity=4 properties=label,area roi-meta=false "
      "analytics-meta=false max-region-metas=0");
  GstBus *bus = cip_test_harness_add_bus (h);
  CipImage mask = isolated_pixels (514, 512);
  Labelled expected = reference_label (&mask, NULL, MODE_LABELS, 4, 0);

  fail_unless_equals_int (expected.count, 65792);
  /* the reference saturates too: row 510's first pixel is region 65,536 */
  fail_unless_equals_int (GST_READ_UINT16_LE ((guint8 *) expected.image.data +
          510 * expected.image.stride), 65535);
  push_across_a_restart (h, bus, &mask, &expected, 65792,
      GST_STREAM_ERROR_FORMAT);

  labelled_clear (&expected);
  cip_test_image_free (&mask);
  cip_test_harness_teardown_with_bus (h, bus);
}

GST_END_TEST;

/* A stream whose segment is not in TIME: messages without running-time
 * and stream-time, and no CRITICAL (the check fixture fails on one). */
GST_START_TEST (test_messages_without_time_segment)
{
  GstHarness *h = label_harness_new ("mode=labels post-messages=true");
  GstBus *bus = cip_test_harness_add_bus (h);
  CipImage mask = cip_test_image_load ("label-coins-mask.pgm");
  GstSegment segment;
  GList *messages;
  const GstStructure *s;

  set_mask_caps (h, mask.width, mask.height);
  gst_segment_init (&segment, GST_FORMAT_BYTES);
  fail_unless (gst_harness_push_event (h, gst_event_new_segment (&segment)));
  gst_buffer_unref (cip_test_push_pull (h, cip_test_buffer_new (&mask)));

  messages = cip_test_bus_pop_element_messages (bus, "cudalabel");
  fail_unless_equals_int (g_list_length (messages), 1);
  s = gst_message_get_structure (messages->data);
  fail_unless (gst_structure_has_field (s, "timestamp"));
  fail_if (gst_structure_has_field (s, "running-time"));
  fail_if (gst_structure_has_field (s, "stream-time"));
  g_list_free_full (messages, (GDestroyNotify) gst_message_unref);

  cip_test_image_free (&mask);
  cip_test_harness_teardown_with_bus (h, bus);
}

GST_END_TEST;

#if CIP_TEST_HAVE_ANALYTICS
/* GStreamer 1.24+: one object detection per region, its bounding box, up
 * to max-region-metas, in the frame's analytics relation meta. */
GST_START_TEST (test_analytics_meta)
{
  GstHarness *h = cip_test_harness_new ("cudalabel",
      "mode=labels max-region-metas=50");
  CipImage mask = cip_test_image_load ("label-coins-mask.pgm");
  Labelled ref = reference_label (&mask, NULL, MODE_LABELS, 8, 0);
  GQuark type = g_quark_from_static_string ("cudalabel-region");
  GstAnalyticsRelationMeta *meta;
  GstAnalyticsODMtd od;
  gpointer state = NULL;
  GstBuffer *out;
  guint n = 0;

  set_mask_caps (h, mask.width, mask.height);
  out = cip_test_push_pull (h, cip_test_buffer_new (&mask));
  /* The default on this version: no ROI metas. */
  fail_unless (gst_buffer_get_meta (out,
          GST_VIDEO_REGION_OF_INTEREST_META_API_TYPE) == NULL);
  meta = gst_buffer_get_analytics_relation_meta (out);
  fail_unless (meta != NULL);
  fail_unless (ref.count > 50);
  while (gst_analytics_relation_meta_iterate (meta, &state,
          gst_analytics_od_mtd_get_mtd_type (), (GstAnalyticsMtd *) & od)) {
    const Region *r = &ref.regions[n];
    gint x, y, w, hh;
    gfloat confidence;

    fail_unless (gst_analytics_od_mtd_get_location (&od, &x, &y, &w, &hh,
            &confidence));
    fail_unless_equals_int (gst_analytics_od_mtd_get_obj_type (&od), type);
    if ((guint) x != r->x || (guint) y != r->y || (guint) w != r->width ||
        (guint) hh != r->height || confidence != 1.0f)
      fail ("detection %u: %d,%d %dx%d (%g), region %u,%u %ux%u", n, x, y,
          w, hh, confidence, r->x, r->y, r->width, r->height);
    n++;
  }
  fail_unless_equals_int (n, 50);

  gst_buffer_unref (out);
  labelled_clear (&ref);
  cip_test_image_free (&mask);
  gst_harness_teardown (h);
}

GST_END_TEST;
#endif

#if CIP_TEST_HAVE_ANALYTICS
/* The analytics meta keeps the square of its entries: past 4096 regions
 * they get no entry of their own, with one STREAM/FAILED warning, however
 * many max-region-metas allows (a matrix of 6400 squared and more would
 * be a failed allocation that GStreamer aborts on). */
GST_START_TEST (test_analytics_meta_capped)
{
  GstHarness *h = cip_test_harness_new ("cudalabel",
      "mode=labels max-region-metas=100000");
  GstBus *bus = cip_test_harness_add_bus (h);
  CipImage dots = cip_test_image_new (160, 160, CIP_FORMAT_GRAY8, 0);
  guint frame;
  gint x, y;

  /* 80 x 80 lone pixels */
  for (y = 0; y < 160; y += 2)
    for (x = 0; x < 160; x += 2)
      ((guint8 *) dots.data)[y * dots.stride + x] = 255;
  set_mask_caps (h, 160, 160);
  for (frame = 0; frame < 2; frame++) {
    GstBuffer *out = cip_test_push_pull (h, cip_test_buffer_new (&dots));
    GstAnalyticsRelationMeta *meta =
        gst_buffer_get_analytics_relation_meta (out);
    GstAnalyticsODMtd od;
    gpointer state = NULL;
    guint n = 0;

    fail_unless (meta != NULL);
    while (gst_analytics_relation_meta_iterate (meta, &state,
            gst_analytics_od_mtd_get_mtd_type (), (GstAnalyticsMtd *) & od))
      n++;
    fail_unless_equals_int (n, 4096);
    gst_buffer_unref (out);
  }

  fail_unless_equals_int (cip_test_bus_pop_warnings (bus, GST_STREAM_ERROR,
          GST_STREAM_ERROR_FAILED), 1);
  fail_unless_equals_int (cip_test_bus_pop_errors (bus, NULL), 0);
  cip_test_image_free (&dots);
  cip_test_harness_teardown_with_bus (h, bus);
}

GST_END_TEST;
#endif

#if CIP_TEST_HAVE_ANALYTICS
/* What upstream found stays beside the regions: one relation meta a
 * frame, the input's, with our detections added to it. */
GST_START_TEST (test_analytics_meta_joins_the_input_s)
{
  GstHarness *h = cip_test_harness_new ("cudalabel",
      "mode=labels max-region-metas=10");
  CipImage mask = cip_test_image_load ("label-coins-mask.pgm");
  GQuark upstream = g_quark_from_static_string ("upstream-object");
  GQuark ours = g_quark_from_static_string ("cudalabel-region");
  GstAnalyticsRelationMeta *meta;
  GstAnalyticsODMtd od;
  GstBuffer *in, *out;
  gpointer state = NULL;
  guint n_upstream = 0, n_ours = 0, n_metas = 0;
  GstMeta *m;

  set_mask_caps (h, mask.width, mask.height);
  in = cip_test_buffer_new (&mask);
  meta = gst_buffer_add_analytics_relation_meta (in);
  fail_unless (gst_analytics_relation_meta_add_od_mtd (meta, upstream, 1, 2,
          3, 4, 0.5f, &od));
  out = cip_test_push_pull (h, in);

  state = NULL;
  while ((m = gst_buffer_iterate_meta_filtered (out, &state,
              GST_ANALYTICS_RELATION_META_API_TYPE)))
    n_metas++;
  fail_unless_equals_int (n_metas, 1);
  meta = gst_buffer_get_analytics_relation_meta (out);
  state = NULL;
  while (gst_analytics_relation_meta_iterate (meta, &state,
          gst_analytics_od_mtd_get_mtd_type (), (GstAnalyticsMtd *) & od)) {
    GQuark type = gst_analytics_od_mtd_get_obj_type (&od);

    n_upstream += type == upstream;
    n_ours += type == ours;
  }
  fail_unless_equals_int (n_upstream, 1);
  fail_unless_equals_int (n_ours, 10);

  gst_buffer_unref (out);
  cip_test_image_free (&mask);
  gst_harness_teardown (h);
}

GST_END_TEST;
#endif

#if CIP_TEST_HAVE_ANALYTICS_SEGMENTATION
/* GStreamer 1.26+: with mode=labels the label image is also the frame's
 * instance segmentation, ids 0 .. the largest label, sharing the frame's
 * memory; other modes have none. */
GST_START_TEST (test_analytics_segmentation)
{
  GstHarness *h = cip_test_harness_new ("cudalabel",
      "mode=labels max-region-metas=5");
  CipImage mask = cip_test_image_load ("label-coins-mask.pgm");
  Labelled ref = reference_label (&mask, NULL, MODE_LABELS, 8, 0);
  GstAnalyticsRelationMeta *meta;
  GstAnalyticsSegmentationMtd segmentation;
  GstAnalyticsMtd any;
  gpointer state = NULL;
  GstMapInfo out_map, mask_map;
  GstVideoMeta *vmeta;
  GstBuffer *out, *seg;
  gint x, y;
  guint w, hh, n_segmentations = 0;
  gsize i;

  set_mask_caps (h, mask.width, mask.height);
  out = cip_test_push_pull (h, cip_test_buffer_new (&mask));
  meta = gst_buffer_get_analytics_relation_meta (out);
  fail_unless (meta != NULL);
  fail_unless (gst_analytics_relation_meta_iterate (meta, &state,
          gst_analytics_segmentation_mtd_get_mtd_type (), &any));
  n_segmentations++;
  segmentation = *(GstAnalyticsSegmentationMtd *) & any;
  while (gst_analytics_relation_meta_iterate (meta, &state,
          gst_analytics_segmentation_mtd_get_mtd_type (), &any))
    n_segmentations++;
  fail_unless_equals_int (n_segmentations, 1);

  fail_unless_equals_int (gst_analytics_segmentation_mtd_get_region_count
      (&segmentation), ref.count + 1);
  for (i = 0; i <= ref.count; i++)
    fail_unless_equals_int (gst_analytics_segmentation_mtd_get_region_id
        (&segmentation, i), i);

  seg = gst_analytics_segmentation_mtd_get_mask (&segmentation, &x, &y, &w,
      &hh);
  fail_unless (seg != NULL && seg != out);
  fail_unless (x == 0 && y == 0 && (gint) w == mask.width &&
      (gint) hh == mask.height);
  vmeta = gst_buffer_get_video_meta (seg);
  fail_unless (vmeta != NULL);
  fail_unless_equals_int (vmeta->format, GST_VIDEO_FORMAT_GRAY16_LE);
  fail_unless_equals_int (vmeta->width, mask.width);
  fail_unless_equals_int (vmeta->height, mask.height);
  /* the frame's own memory, not a copy, and no hold on the frame (the
   * meta on it would keep it alive) */
  fail_unless (gst_buffer_peek_memory (seg, 0) ==
      gst_buffer_peek_memory (out, 0));
  fail_if (gst_buffer_get_parent_buffer_meta (seg));
  fail_unless_equals_int (GST_MINI_OBJECT_REFCOUNT_VALUE (out), 1);
  fail_unless (gst_buffer_map (out, &out_map, GST_MAP_READ));
  fail_unless (gst_buffer_map (seg, &mask_map, GST_MAP_READ));
  fail_unless_equals_int (mask_map.size, out_map.size);
  for (y = 0; y < mask.height; y++)
    if (memcmp (mask_map.data + vmeta->offset[0] + y * vmeta->stride[0],
            (const guint8 *) ref.image.data + y * ref.image.stride,
            2 * mask.width) != 0)
      fail ("segmentation row %d differs from the reference labels", y);
  gst_buffer_unmap (seg, &mask_map);
  gst_buffer_unmap (out, &out_map);
  gst_buffer_unref (seg);
  gst_buffer_unref (out);

  /* a colour image is no segmentation */
  gst_harness_teardown (h);
  h = cip_test_harness_new ("cudalabel", "mode=color");
  set_mask_caps (h, mask.width, mask.height);
  out = cip_test_push_pull (h, cip_test_buffer_new (&mask));
  meta = gst_buffer_get_analytics_relation_meta (out);
  fail_unless (meta != NULL);
  state = NULL;
  fail_if (gst_analytics_relation_meta_iterate (meta, &state,
          gst_analytics_segmentation_mtd_get_mtd_type (), &any));
  gst_buffer_unref (out);

  labelled_clear (&ref);
  cip_test_image_free (&mask);
  gst_harness_teardown (h);
}

GST_END_TEST;
#endif

/* ---- Tracks ---- */

static CipImage
box_frame (guint f)
{
  return cip_test_boxes_mask (CIP_TEST_BOXES_W, CIP_TEST_BOXES_H,
      cip_test_box_frames[f].boxes, cip_test_box_frames[f].n);
}

/* The rule applied by its reference to the label images cip_ref_label
 * makes of a sequence of masks: cip_ref_track of each frame after the one
 * before, ids from 1 on the first frame and after a restart. */
typedef struct
{
  gint width, height;
  guint32 *labels, *ids, n, next_id;
} Tracker;

static void
tracker_clear (Tracker * t)
{
  g_clear_pointer (&t->labels, g_free);
  g_clear_pointer (&t->ids, g_free);
  memset (t, 0, sizeof (*t));
}

/* The ids of @mask's regions (*@n of them); free with g_free(). */
static guint32 *
tracker_push (Tracker * t, const CipImage * mask, gint connectivity,
    guint min_area, gboolean restart, guint32 * n)
{
  CipLabelParams params = { connectivity, min_area, 0 };
  guint32 count = G_MAXUINT32, i;
  guint32 *labels = g_new0 (guint32, (gsize) mask->width * mask->height);
  CipRegionTable table = { NULL, 0, &count };
  guint32 *ids;

  table.labels = labels;
  table.labels_stride = mask->width;
  fail_unless_equals_int (cip_ref_label (mask, NULL, &params, NULL, &table,
          NULL), CIP_OK);
  ids = g_new0 (guint32, MAX (count, 1));
  if (restart || t->labels == NULL || t->width != mask->width ||
      t->height != mask->height) {
    t->next_id = 1;
    for (i = 0; i < count; i++)
      ids[i] = t->next_id++;
  } else {
    fail_unless_equals_int (cip_ref_track (t->labels, labels, mask->width,
            mask->height, mask->width, t->n, t->ids, count, ids,
            &t->next_id), CIP_OK);
  }
  g_free (t->labels);
  g_free (t->ids);
  t->labels = labels;
  t->ids = g_memdup2 (ids, MAX (count, 1) * sizeof (guint32));
  t->n = count;
  t->width = mask->width;
  t->height = mask->height;
  *n = count;
  return ids;
}

/* Fails unless @table's track_id column holds @expected, @n ids. */
static void
assert_table_tracks (const GstStructure * table, const guint32 * expected,
    guint n, const gchar * what)
{
  const GValue *v;
  GBytes *column;
  guint i;

  fail_unless (table != NULL, "%s: no table", what);
  v = gst_structure_get_value (table, "track_id");
  fail_unless (v != NULL && G_VALUE_HOLDS (v, G_TYPE_BYTES),
      "%s: no track_id column in %" GST_PTR_FORMAT, what, table);
  column = g_value_get_boxed (v);
  fail_unless_equals_int (g_bytes_get_size (column), 8 * n);
  for (i = 0; i < n; i++)
    if (column_value (column, i) != expected[i])
      fail ("%s: region %u has track id %g, the reference %u", what, i + 1,
          column_value (column, i), expected[i]);
}

/* Every frame of cip_test_box_frames through cudalabel track=true, all pushed
 * before any is pulled: behind a live source (each frame done before the
 * next comes) and one that is not (the cuda backend labels a frame while
 * the one before is finished): the ids the rule gives, in the frames'
 * tables and messages alike. */
GST_START_TEST (test_track_boxes)
{
  gboolean live = __i__ == 0;
  GstHarness *h = cip_test_harness_new ("cudalabel",
      "mode=labels track=true post-messages=true properties=label,area");
  GstBus *bus = cip_test_harness_add_bus (h);
  guint32 *expected[CIP_TEST_N_BOX_FRAMES], n[CIP_TEST_N_BOX_FRAMES];
  Tracker tracker = { 0 };
  GList *messages, *l;
  guint f, i;

  gst_harness_set_live (h, live);
  set_mask_caps (h, CIP_TEST_BOXES_W, CIP_TEST_BOXES_H);
  for (f = 0; f < CIP_TEST_N_BOX_FRAMES; f++) {
    CipImage mask = box_frame (f);
    GstBuffer *in = cip_test_buffer_new (&mask);

    expected[f] = tracker_push (&tracker, &mask, 8, 0, FALSE, &n[f]);
    fail_unless_equals_int (n[f], cip_test_box_frames[f].n);
    for (i = 0; i < n[f]; i++)
      fail_unless_equals_int (expected[f][i], cip_test_box_frames[f].ids[i]);
    GST_BUFFER_PTS (in) = f * 40 * GST_MSECOND;
    fail_unless_equals_int (gst_harness_push (h, in), GST_FLOW_OK);
    cip_test_image_free (&mask);
  }
  fail_unless (gst_harness_push_event (h, gst_event_new_eos ()));
  fail_unless_equals_int (gst_harness_buffers_in_queue (h),
      CIP_TEST_N_BOX_FRAMES);
  for (f = 0; f < CIP_TEST_N_BOX_FRAMES; f++) {
    GstBuffer *out = gst_harness_pull (h);
    gchar *what = g_strdup_printf ("frame %u", f);

    assert_table_tracks (regions_table (out), expected[f], n[f], what);
    g_free (what);
    gst_buffer_unref (out);
  }

  messages = cip_test_bus_pop_element_messages (bus, "cudalabel");
  fail_unless_equals_int (g_list_length (messages), CIP_TEST_N_BOX_FRAMES);
  for (l = messages, f = 0; l; l = l->next, f++) {
    const GstStructure *s = gst_message_get_structure (l->data);
    GstStructure *table = NULL;

    fail_unless (gst_structure_get (s, "regionprops", GST_TYPE_STRUCTURE,
            &table, NULL));
    /* the properties' columns, then the tracks' */
    fail_unless_equals_int (gst_structure_n_fields (table), 3);
    fail_unless_equals_string (gst_structure_nth_field_name (table, 2),
        "track_id");
    assert_table_tracks (table, expected[f], n[f], "message");
    gst_structure_free (table);
    g_free (expected[f]);
  }
  g_list_free_full (messages, (GDestroyNotify) gst_message_unref);
  fail_unless_equals_int (cip_test_bus_pop_errors (bus, NULL), 0);
  tracker_clear (&tracker);
  cip_test_harness_teardown_with_bus (h, bus);
}

GST_END_TEST;

/* Pushes @mask through @h and checks its track ids against @tracker's,
 * the frame flagged DISCONT with @discont; @restart: the ids start again. */
static void
push_tracked (GstHarness * h, Tracker * tracker, const CipImage * mask,
    gboolean discont, gboolean restart, const gchar * what)
{
  GstBuffer *in = cip_test_buffer_new (mask), *out;
  guint32 n, *expected = tracker_push (tracker, mask, 8, 0, restart, &n);

  if (discont)
    GST_BUFFER_FLAG_SET (in, GST_BUFFER_FLAG_DISCONT);
  out = cip_test_push_pull (h, in);
  assert_table_tracks (regions_table (out), expected, n, what);
  gst_buffer_unref (out);
  g_free (expected);
}

/* Ids start again from 1 after a DISCONT, a flush, a caps change and
 * track turned off and on; in between they go on. */
GST_START_TEST (test_track_restarts)
{
  GstHarness *h = cip_test_harness_new ("cudalabel",
      "mode=labels track=true properties=label");
  GstElement *label = cip_test_harness_element (h, "cudalabel");
  CipImage a = box_frame (0), b = box_frame (1);
  CipImage wide = cip_test_boxes_mask (CIP_TEST_BOXES_W + 3, CIP_TEST_BOXES_H,
      cip_test_box_frames[2].boxes,
      cip_test_box_frames[2].n);
  Tracker tracker = { 0 };
  GstSegment segment;
  GstBuffer *out;

  set_mask_caps (h, CIP_TEST_BOXES_W, CIP_TEST_BOXES_H);
  push_tracked (h, &tracker, &a, FALSE, FALSE, "first");
  push_tracked (h, &tracker, &b, FALSE, FALSE, "second");
  push_tracked (h, &tracker, &b, TRUE, TRUE, "after a DISCONT");
  push_tracked (h, &tracker, &a, FALSE, FALSE, "after that");

  fail_unless (gst_harness_push_event (h, gst_event_new_flush_start ()));
  fail_unless (gst_harness_push_event (h, gst_event_new_flush_stop (TRUE)));
  gst_segment_init (&segment, GST_FORMAT_TIME);
  fail_unless (gst_harness_push_event (h, gst_event_new_segment (&segment)));
  push_tracked (h, &tracker, &b, FALSE, TRUE, "after a flush");
  push_tracked (h, &tracker, &a, FALSE, FALSE, "after that");

  /* off: no column; on again: from 1 */
  g_object_set (label, "track", FALSE, NULL);
  out = cip_test_push_pull (h, cip_test_buffer_new (&b));
  fail_unless (regions_table (out) != NULL);
  fail_if (gst_structure_has_field (regions_table (out), "track_id"));
  gst_buffer_unref (out);
  g_object_set (label, "track", TRUE, NULL);
  push_tracked (h, &tracker, &a, FALSE, TRUE, "turned on again");
  push_tracked (h, &tracker, &b, FALSE, FALSE, "after that");

  set_mask_caps (h, CIP_TEST_BOXES_W + 3, CIP_TEST_BOXES_H);
  push_tracked (h, &tracker, &wide, FALSE, TRUE, "after new caps");

  tracker_clear (&tracker);
  cip_test_image_free (&a);
  cip_test_image_free (&b);
  cip_test_image_free (&wide);
  gst_object_unref (label);
  gst_harness_teardown (h);
}

GST_END_TEST;

/* Isolated pixels at even columns, or odd ones (@odd), of even rows. */
static CipImage
track_dots (gint width, gint height, gboolean odd)
{
  CipImage mask = cip_test_image_new (width, height, CIP_FORMAT_GRAY8, 0);
  gint x, y;

  for (y = 0; y < height; y += 2)
    for (x = odd ? 1 : 0; x < width; x += 2)
      ((guint8 *) mask.data)[y * mask.stride + x] = 255;
  return mask;
}

/* Thousands of regions: a table that grows on the first frame (its ids
 * written again on the cuda backend), the same dots (every id kept),
 * dots moved off them (every id new), and a table shorter than the
 * frame's regions, whose ids still count them all; with min-area, the
 * ids of the regions kept.  mode=color, 4-connected. */
GST_START_TEST (test_track_many_regions)
{
  GstHarness *h = cip_test_harness_new ("cudalabel", "mode=color "
      "connectivity=4 track=true properties=label,area roi-meta=false "
      "analytics-meta=false max-region-metas=0");
  GstElement *label = cip_test_harness_element (h, "cudalabel");
  CipImage even = track_dots (90, 60, FALSE), odd = track_dots (90, 60, TRUE);
  CipImage *masks[] = { &even, &even, &odd, &even, &odd, &odd };
  /* max-regions of each frame */
  static const guint max_regions[] = { 100000, 100000, 100000, 1000, 10,
    100000
  };
  Tracker tracker = { 0 };
  guint f;

  set_mask_caps (h, 90, 60);
  for (f = 0; f < G_N_ELEMENTS (masks); f++) {
    guint32 n, *expected = tracker_push (&tracker, masks[f], 4, 0, FALSE,
        &n);
    GstBuffer *out;
    gchar *what = g_strdup_printf ("frame %u", f);

    fail_unless_equals_int (n, 45 * 30);
    g_object_set (label, "max-regions", max_regions[f], NULL);
    out = cip_test_push_pull (h, cip_test_buffer_new (masks[f]));
    assert_table_tracks (regions_table (out), expected,
        MIN (n, max_regions[f]), what);
    gst_buffer_unref (out);
    g_free (expected);
    g_free (what);
  }
  /* every frame but the second and the last made new ids */
  fail_unless_equals_int (tracker.next_id, 4 * 45 * 30 + 1);
  tracker_clear (&tracker);
  gst_object_unref (label);
  gst_harness_teardown (h);

  /* min-area: the dots go, the boxes stay */
  h = cip_test_harness_new ("cudalabel", "mode=labels track=true "
      "min-area=2 properties=label");
  set_mask_caps (h, CIP_TEST_BOXES_W, CIP_TEST_BOXES_H);
  for (f = 0; f < CIP_TEST_N_BOX_FRAMES; f++) {
    CipImage mask = box_frame (f);
    guint32 n, *expected;
    GstBuffer *out;
    gint x;

    for (x = 0; x < CIP_TEST_BOXES_W; x += 3)
      ((guint8 *) mask.data)[(CIP_TEST_BOXES_H - 1 - f) * mask.stride + x] =
          255;
    expected = tracker_push (&tracker, &mask, 8, 2, FALSE, &n);
    fail_unless_equals_int (n, cip_test_box_frames[f].n);
    out = cip_test_push_pull (h, cip_test_buffer_new (&mask));
    assert_table_tracks (regions_table (out), expected, n, "min-area");
    gst_buffer_unref (out);
    g_free (expected);
    cip_test_image_free (&mask);
  }
  tracker_clear (&tracker);
  cip_test_image_free (&even);
  cip_test_image_free (&odd);
  gst_harness_teardown (h);
}

GST_END_TEST;

/* Random masks that drift a pixel or two a frame, a few pixels flipped:
 * regions move, merge, split, appear and vanish by the hundred; both
 * connectivities, behind a source that is not live. */
#define DRIFT_FRAMES 8
GST_START_TEST (test_track_random)
{
  gint connectivity = __i__ ? 4 : 8;
  gchar *props = g_strdup_printf ("mode=labels track=true properties=label "
      "connectivity=%d", connectivity);
  GstHarness *h = cip_test_harness_new ("cudalabel", props);
  GRand *rand = g_rand_new_with_seed (17 + __i__);
  CipImage mask = cip_test_image_new (97, 61, CIP_FORMAT_GRAY8, 0);
  CipImage next = cip_test_image_new (97, 61, CIP_FORMAT_GRAY8, 0);
  guint32 *expected[DRIFT_FRAMES], n[DRIFT_FRAMES];
  Tracker tracker = { 0 };
  guint f;
  gint x, y;

  for (y = 0; y < mask.height; y++)
    for (x = 0; x < mask.width; x++)
      ((guint8 *) mask.data)[y * mask.stride + x] =
          g_rand_int_range (rand, 0, 8) < (connectivity == 4 ? 4 : 2) ? 255 : 0;
  gst_harness_set_live (h, FALSE);
  set_mask_caps (h, mask.width, mask.height);
  for (f = 0; f < DRIFT_FRAMES; f++) {
    gint dx = g_rand_int_range (rand, -2, 3);
    gint dy = g_rand_int_range (rand, -2, 3);
    CipImage t;

    expected[f] = tracker_push (&tracker, &mask, connectivity, 0, FALSE, &n[f]);
    fail_unless (n[f] > 100, "%u regions", n[f]);
    fail_unless_equals_int (gst_harness_push (h,
            cip_test_buffer_new (&mask)), GST_FLOW_OK);

    for (y = 0; y < mask.height; y++)
      for (x = 0; x < mask.width; x++) {
        gint sx = CLAMP (x - dx, 0, mask.width - 1);
        gint sy = CLAMP (y - dy, 0, mask.height - 1);
        guint8 v = ((guint8 *) mask.data)[sy * mask.stride + sx];

        if (g_rand_int_range (rand, 0, 64) == 0)
          v = v ? 0 : 255;
        ((guint8 *) next.data)[y * next.stride + x] = v;
      }
    t = mask;
    mask = next;
    next = t;
  }
  fail_unless (gst_harness_push_event (h, gst_event_new_eos ()));
  for (f = 0; f < DRIFT_FRAMES; f++) {
    GstBuffer *out = gst_harness_pull (h);
    gchar *what = g_strdup_printf ("%d-connected, frame %u", connectivity, f);

    assert_table_tracks (regions_table (out), expected[f], n[f], what);
    gst_buffer_unref (out);
    g_free (expected[f]);
    g_free (what);
  }
  tracker_clear (&tracker);
  cip_test_image_free (&mask);
  cip_test_image_free (&next);
  g_rand_free (rand);
  g_free (props);
  gst_harness_teardown (h);
}

GST_END_TEST;

/* track: off by default (no track_id column), set while playing. */
GST_START_TEST (test_track_property)
{
  GstHarness *h = label_harness_new ("mode=labels");
  GstElement *label = cip_test_harness_element (h, "cudalabel");
  GParamSpec *spec = g_object_class_find_property (G_OBJECT_GET_CLASS
      (label), "track");
  CipImage mask = box_frame (0);
  gboolean track = TRUE;
  GstBuffer *out;

  fail_unless (spec != NULL);
  fail_unless (G_IS_PARAM_SPEC_BOOLEAN (spec));
  fail_unless (spec->flags & GST_PARAM_MUTABLE_PLAYING);
  g_object_get (label, "track", &track, NULL);
  fail_if (track);
  set_mask_caps (h, CIP_TEST_BOXES_W, CIP_TEST_BOXES_H);
  out = cip_test_push_pull (h, cip_test_buffer_new (&mask));
  fail_unless (regions_table (out) != NULL);
  fail_if (gst_structure_has_field (regions_table (out), "track_id"));
  gst_buffer_unref (out);

  cip_test_image_free (&mask);
  gst_object_unref (label);
  gst_harness_teardown (h);
}

GST_END_TEST;

#if CIP_TEST_HAVE_ANALYTICS
/* GStreamer 1.24+: each region's GstAnalyticsODMtd relates to a
 * GstAnalyticsTrackingMtd of its id, first seen at the frame it first had
 * one, last seen at this one. */
GST_START_TEST (test_track_analytics)
{
  GstHarness *h = cip_test_harness_new ("cudalabel",
      "mode=labels track=true max-region-metas=50");
  Tracker tracker = { 0 };
  guint f;

  set_mask_caps (h, CIP_TEST_BOXES_W, CIP_TEST_BOXES_H);
  for (f = 0; f < 3; f++) {
    CipImage mask = box_frame (f);
    GstBuffer *in = cip_test_buffer_new (&mask), *out;
    guint32 n, *expected = tracker_push (&tracker, &mask, 8, 0, FALSE, &n);
    GstAnalyticsRelationMeta *meta;
    GstAnalyticsODMtd od;
    gpointer state = NULL;
    guint k = 0;

    GST_BUFFER_PTS (in) = f * GST_SECOND;
    out = cip_test_push_pull (h, in);
    meta = gst_buffer_get_analytics_relation_meta (out);
    fail_unless (meta != NULL);
    while (gst_analytics_relation_meta_iterate (meta, &state,
            gst_analytics_od_mtd_get_mtd_type (), (GstAnalyticsMtd *) & od)) {
      GstAnalyticsTrackingMtd track;
      gpointer related = NULL;
      guint64 id = 0;
      GstClockTime first_seen = 0, last_seen = 0, first_expected;
      gboolean lost = TRUE;

      fail_unless (k < n);
      fail_unless (gst_analytics_relation_meta_get_direct_related (meta,
              od.id, GST_ANALYTICS_REL_TYPE_RELATE_TO,
              gst_analytics_tracking_mtd_get_mtd_type (), &related,
              (GstAnalyticsMtd *) & track), "detection %u has no track", k);
      fail_unless (gst_analytics_tracking_mtd_get_info (&track, &id,
              &first_seen, &last_seen, &lost));
      fail_unless_equals_uint64 (id, expected[k]);
      /* ids 1 .. 3 from the first frame, 4 and 5 from the third */
      first_expected = expected[k] <= 3 ? 0 : 2 * GST_SECOND;
      fail_unless_equals_uint64 (first_seen, first_expected);
      fail_unless_equals_uint64 (last_seen, f * GST_SECOND);
      fail_if (lost);
      k++;
    }
    fail_unless_equals_int (k, n);
    gst_buffer_unref (out);
    g_free (expected);
    cip_test_image_free (&mask);
  }
  tracker_clear (&tracker);
  gst_harness_teardown (h);
}

GST_END_TEST;

/* Frames of more regions and of fewer, one after the other, on the
 * element's pooled output buffers, whose relation meta comes back
 * emptied: each holds exactly its frame's detections and tracks, each
 * track first seen at the first frame of its id. */
GST_START_TEST (test_track_analytics_pooled)
{
  static const gint rows[] = { 1, 8, 8, 2, 8, 1, 1, 4, 8, 3 };
  GstHarness *h = cip_test_harness_new ("cudalabel",
      "track=true max-region-metas=256");
  GHashTable *first_frames = g_hash_table_new (g_direct_hash, g_direct_equal);
  Tracker tracker = { 0 };
  guint f;

  set_mask_caps (h, 32, 16);
  for (f = 0; f < G_N_ELEMENTS (rows); f++) {
    CipImage mask = dots_mask (32, 16, rows[f]);
    GstBuffer *in = cip_test_buffer_new (&mask), *out;
    guint32 n, *expected = tracker_push (&tracker, &mask, 8, 0, FALSE, &n);
    GstAnalyticsRelationMeta *meta;
    GstAnalyticsODMtd od;
    gpointer state = NULL;
    guint k = 0;

    GST_BUFFER_PTS (in) = f * GST_SECOND;
    out = cip_test_push_pull (h, in);
    meta = gst_buffer_get_analytics_relation_meta (out);
    fail_unless (meta != NULL);
    fail_unless_equals_int (gst_analytics_relation_get_length (meta), 2 * n);
    while (gst_analytics_relation_meta_iterate (meta, &state,
            gst_analytics_od_mtd_get_mtd_type (), (GstAnalyticsMtd *) & od)) {
      GstAnalyticsTrackingMtd track;
      gpointer related = NULL, seen;
      guint64 id = 0;
      GstClockTime first_seen = 0, last_seen = 0;
      gboolean lost = TRUE;

      fail_unless (k < n);
      fail_unless (gst_analytics_relation_meta_get_direct_related (meta,
              od.id, GST_ANALYTICS_REL_TYPE_RELATE_TO,
              gst_analytics_tracking_mtd_get_mtd_type (), &related,
              (GstAnalyticsMtd *) & track), "frame %u: detection %u has no "
          "track", f, k);
      fail_unless (gst_analytics_tracking_mtd_get_info (&track, &id,
              &first_seen, &last_seen, &lost));
      fail_unless_equals_uint64 (id, expected[k]);
      if (!g_hash_table_lookup_extended (first_frames, GUINT_TO_POINTER (id),
              NULL, &seen)) {
        seen = GUINT_TO_POINTER (f);
        g_hash_table_insert (first_frames, GUINT_TO_POINTER (id), seen);
      }
      fail_unless_equals_uint64 (first_seen,
          GPOINTER_TO_UINT (seen) * GST_SECOND);
      fail_unless_equals_uint64 (last_seen, f * GST_SECOND);
      fail_if (lost);
      k++;
    }
    fail_unless_equals_int (k, n);
    gst_buffer_unref (out);
    g_free (expected);
    cip_test_image_free (&mask);
  }
  g_hash_table_unref (first_frames);
  tracker_clear (&tracker);
  gst_harness_teardown (h);
}

GST_END_TEST;
#endif

static Suite *
cudalabel_suite (void)
{
  Suite *s = suite_create ("cudalabel");
  TCase *tc = tcase_create ("general");

  suite_add_tcase (s, tc);
  tcase_set_timeout (tc, CIP_TEST_TIMEOUT);
  tcase_add_test (tc, test_coins_labels);
  tcase_add_test (tc, test_mean_intensity_end_to_end);
  tcase_add_test (tc, test_coins_color);
  tcase_add_test (tc, test_passthrough);
  tcase_add_test (tc, test_min_area_and_connectivity);
  tcase_add_test (tc, test_post_messages);
  tcase_add_test (tc, test_no_messages_by_default);
  tcase_add_test (tc, test_table_grows);
  tcase_add_test (tc, test_table_grows_from_unmapped_memory);
  tcase_add_test (tc, test_held_frames);
  tcase_add_test (tc, test_flush_drops_held_frame);
  tcase_add_loop_test (tc, test_more_than_65535_regions, 0, 2);
  tcase_add_loop_test (tc, test_empty_and_full_frames, 0,
      G_N_ELEMENTS (odd_sizes) * G_N_ELEMENTS (modes));
  tcase_add_loop_test (tc, test_odd_sizes_and_strides, 0,
      G_N_ELEMENTS (odd_sizes) * G_N_ELEMENTS (modes));
  tcase_add_loop_test (tc, test_refuses_other_formats, 0, 2);
  tcase_add_test (tc, test_short_buffer_is_an_error);
  tcase_add_test (tc, test_property_specs);
  tcase_add_loop_test (tc, test_regionprops_table, 0, 2);
  tcase_add_loop_test (tc, test_regionprops_random, 0, 2);
  tcase_add_loop_test (tc, test_regionprops_nested, 0, 2);
  tcase_add_loop_test (tc, test_regionprops_16bit, 0,
      2 * G_N_ELEMENTS (frames16));
  tcase_add_test (tc, test_properties_property);
  tcase_add_test (tc, test_custom_meta_is_the_message_table);
  tcase_add_test (tc, test_tables_outlive_the_element);
  tcase_add_test (tc, test_unknown_property_name_refused_at_start);
  tcase_add_test (tc, test_unknown_property_name_while_running);
  tcase_add_test (tc, test_properties_blurb_lists_names);
  tcase_add_test (tc, test_max_regions);
  tcase_add_test (tc, test_max_regions_warning_after_restart);
  tcase_add_test (tc, test_saturation_warning_after_restart);
  tcase_add_test (tc, test_messages_without_time_segment);
#if CIP_TEST_HAVE_ANALYTICS
  tcase_add_test (tc, test_analytics_meta);
  tcase_add_test (tc, test_analytics_meta_capped);
  tcase_add_test (tc, test_analytics_meta_joins_the_input_s);
#endif
#if CIP_TEST_HAVE_ANALYTICS_SEGMENTATION
  tcase_add_test (tc, test_analytics_segmentation);
#endif
  tcase_add_loop_test (tc, test_track_boxes, 0, 2);
  tcase_add_test (tc, test_track_restarts);
  tcase_add_test (tc, test_track_many_regions);
  tcase_add_loop_test (tc, test_track_random, 0, 2);
  tcase_add_test (tc, test_track_property);
#if CIP_TEST_HAVE_ANALYTICS
  tcase_add_test (tc, test_track_analytics);
  tcase_add_test (tc, test_track_analytics_pooled);
#endif

  return s;
}

CIP_TEST_ELEMENT_MAIN (cudalabel)
