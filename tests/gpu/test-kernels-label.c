/* gst-cuda-imgproc
 * Copyright (C) 2026 The gst-cuda-imgproc authors
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2 of the License, or (at your option) any later version.
 */

/* cip_label against its reference, byte for byte: the label images (every
 * byte of their allocations), the count and every byte of the region
 * table, guard entry included, over sizes from 1x1 to 3840x2160, hard
 * shapes (spirals, combs, a snake, checkerboards, one-pixel regions),
 * random masks, both connectivities, min_area, intensity (GRAY8 or
 * GRAY16: 16-bit frames and their Otsu masks, sums past 32 bits) or not,
 * short tables and odd layouts, and masks that load the optional
 * statistics' passes, all of them at once (test_hard_statistics) and in
 * the sets that launch differently (test_statistics_sets).
 *
 * Exits with 77 (skipped) where no CUDA device is usable. */

#include <stdlib.h>
#include <string.h>

#include "cip-ref.h"
#include "test-gpu.h"
#include "test-util.h"

#define GUARD 0xa5
/* Enough for a 3840x2160 checkerboard's 4-connected regions. */
#define MAX_CAPACITY (1u << 22)
/* Rows of the property columns: fewer, for every column at once. */
#define MAX_COLUMN_ROWS (1u << 18)
#define MAX_COLUMNS (CIP_N_PROPS + 4)

/* Page-locked, as cip_label wants: MAX_CAPACITY entries and a guard. */
static CipRegion *table_regions;
static guint32 *table_count;
static double *table_columns;   /* MAX_COLUMNS x (MAX_COLUMN_ROWS + 1) */

static const int sizes[][2] = {
  {1, 1}, {2, 3}, {3, 2}, {7, 5}, {31, 17}, {33, 1}, {1, 33}, {127, 129},
  {640, 480}, {1001, 999}, {1920, 1080}, {3840, 2160},
};

/* A capacity above any count @b can give. */
static guint32
full_capacity (const CipTestDeviceImage * b)
{
  return MIN (MAX_CAPACITY,
      ((guint64) b->dev.width * b->dev.height + 1) / 2 + 1);
}

/* The property columns against the reference's, byte for byte, guard
 * value included, but for orientation: CUDA's atan2 is within 2 ulp, not
 * correctly rounded (docs/regionprops.md), so within 4 ulp. */
static void
check_columns (const double *got, const double *want,
    const CipRegionProperty * props, guint n_props, guint32 rows,
    const char *what)
{
  const double *g = got, *w = want;
  guint p, k;
  guint32 r;

  for (p = 0; p < n_props; p++) {
    for (k = 0; k < cip_region_property_columns (props[p]); k++) {
      for (r = 0; r < rows; r++, g++, w++) {
        gint64 gi, wi;

        if (memcmp (g, w, sizeof (double)) == 0)
          continue;
        memcpy (&gi, g, sizeof (gi));
        memcpy (&wi, w, sizeof (wi));
        if (props[p] == CIP_PROP_ORIENTATION && (gi ^ wi) >= 0 &&
            ABS (gi - wi) <= 4)
          continue;
        fail ("%s: %s column %u row %u: %.17g, reference %.17g", what,
            cip_region_property_name (props[p]), k, r, *g, *w);
      }
    }
  }
  if (memcmp (g, w, sizeof (double)) != 0)
    fail ("%s: the value after the columns was written", what);
}

/* Calls of check_label(): they cycle through the 32 sets of optional
 * statistics (CipLabelStatistics' five bits). */
static guint check_calls;
/* When not negative, the statistics every check_label() gathers. */
static gint forced_statistics = -1;

/* Runs cip_label and its reference and compares everything.  @mask and
 * @intensity are uploaded; @dst may be NULL. */
static void
check_label (CipTestDeviceImage * mask, CipTestDeviceImage * intensity,
    int connectivity, guint32 min_area, CipTestDeviceImage * dst,
    guint32 capacity, const char *what)
{
  CipLabelParams params = { connectivity, min_area,
    forced_statistics >= 0 ? (guint) forced_statistics : check_calls % 32
  };
  size_t table_bytes = (capacity + 1) * sizeof (CipRegion);
  CipRegion *want = g_malloc (table_bytes);
  guint32 want_count = 0;
  /* the columns of every property the statistics allow, in turn forwards
   * and backwards, with as many rows as the table or about half */
  CipRegionProperty props[CIP_N_PROPS];
  guint n_props = 0, n_columns = 0;
  guint32 rows = MIN (check_calls % 4 < 2 ? capacity : capacity / 2 + 1,
      MAX_COLUMN_ROWS);
  size_t columns_bytes;
  double *want_columns;
  CipRegionTable ref_table = { want, capacity, &want_count };
  CipRegionTable table = { table_regions, capacity, table_count };

  for (guint k = 0; k < CIP_N_PROPS; k++) {
    CipRegionProperty prop = check_calls % 2 ? CIP_N_PROPS - 1 - k : k;

    if ((cip_region_property_statistics (prop) & ~params.statistics) == 0) {
      props[n_props++] = prop;
      n_columns += cip_region_property_columns (prop);
    }
  }
  check_calls++;
  /* and a guard value after them */
  columns_bytes = ((size_t) n_columns * rows + 1) * sizeof (double);
  want_columns = g_malloc (columns_bytes);
  memset (want_columns, GUARD, columns_bytes);
  ref_table.columns = want_columns;
  table.columns = table_columns;
  ref_table.column_capacity = table.column_capacity = rows;
  ref_table.props = table.props = props;
  ref_table.n_props = table.n_props = n_props;
  guint8 *expected = NULL;
  CipImage expected_img;
  gchar *full = g_strdup_printf ("%s %dx%d %d-connected min_area %u%s%s%s "
      "capacity %u statistics %u", what, mask->dev.width, mask->dev.height,
      connectivity, min_area, intensity ? " intensity " : "",
      intensity ? cip_format_name (intensity->dev.format) : "",
      dst ? cip_format_name (dst->dev.format) : "", capacity,
      params.statistics);

  g_assert_cmpuint (capacity, <=, MAX_CAPACITY);
  memset (want, GUARD, table_bytes);
  if (dst) {
    expected = cip_test_copy_bytes (dst->host, dst->size);
    expected_img = dst->host_img;
    expected_img.data = expected + dst->offset;
  }
  if (cip_ref_label (&mask->host_img, intensity ? &intensity->host_img : NULL,
          &params, dst ? &expected_img : NULL, &ref_table, NULL) != CIP_OK)
    fail ("%s: the reference failed", full);

  if (dst)
    cip_test_device_image_upload (dst);
  memset (table_regions, GUARD, table_bytes);
  memset (table_columns, GUARD, columns_bytes);
  *table_count = ~want_count;
  CHECK (cip_label (&mask->dev, intensity ? &intensity->dev : NULL, &params,
          dst ? &dst->dev : NULL, &table, cip_test_stream));
  CHECK (cip_stream_synchronize (cip_test_stream));

  if (*table_count != want_count)
    fail ("%s: %u regions, reference %u", full, *table_count, want_count);
  if (memcmp (table_regions, want, table_bytes) != 0) {
    for (guint32 k = 0; k <= capacity; k++)
      if (memcmp (&table_regions[k], &want[k], sizeof (CipRegion)) != 0)
        fail ("%s: table entry %u (label %u area %u sums %" G_GUINT64_FORMAT
            " %" G_GUINT64_FORMAT " %" G_GUINT64_FORMAT " range %u-%u), "
            "reference label %u area %u sums %" G_GUINT64_FORMAT " %"
            G_GUINT64_FORMAT " %" G_GUINT64_FORMAT " range %u-%u", full, k,
            table_regions[k].label, table_regions[k].area,
            table_regions[k].sum_xx, table_regions[k].sum_yy,
            table_regions[k].sum_xy, table_regions[k].intensity_min,
            table_regions[k].intensity_max, want[k].label, want[k].area,
            want[k].sum_xx, want[k].sum_yy, want[k].sum_xy,
            want[k].intensity_min, want[k].intensity_max);
  }
  check_columns (table_columns, want_columns, props, n_props, rows, full);
  if (dst)
    cip_test_device_image_check (dst, expected, full);

  g_free (expected);
  g_free (want_columns);
  g_free (want);
  g_free (full);
}

static CipTestDeviceImage *
new_mask (int w, int h, CipTestShape shape, const CipTestLayout * layout,
    guint64 seed)
{
  CipTestDeviceImage *b = cip_test_device_image_new (w, h, CIP_FORMAT_GRAY8,
      layout, seed);

  cip_test_draw_shape (&b->host_img, shape);
  cip_test_device_image_upload (b);
  return b;
}

/* Every size, shape and connectivity; destinations, intensity, min_area,
 * capacities and layouts taking turns; the largest sizes on fewer
 * shapes. */
static void
test_shapes (void)
{
  guint turn = 0;

  for (guint s = 0; s < G_N_ELEMENTS (sizes); s++) {
    int w = sizes[s][0], h = sizes[s][1];
    gboolean large = w * h > 1001 * 999;

    if (cip_test_size_skipped (w, h))
      continue;

    for (int shape = 0; shape < CIP_TEST_N_SHAPES; shape++) {
      CipTestDeviceImage *mask, *intensity, *dst;
      const CipTestLayout *layout;

      if (large && shape != CIP_TEST_SHAPE_HALF
          && shape != CIP_TEST_SHAPE_SPIRAL && shape != CIP_TEST_SHAPE_SNAKE
          && shape != CIP_TEST_SHAPE_CHECKER && shape != CIP_TEST_SHAPE_FULL
          && shape != CIP_TEST_SHAPE_DOTS)
        continue;
      layout = cip_test_layouts[turn % cip_test_n_layouts];
      mask = new_mask (w, h, shape, layout, 1 + turn);
      /* 8 and 16 bits in turn, both on every size */
      intensity = cip_test_device_image_new (w, h, (shape + s) % 2 ?
          CIP_FORMAT_GRAY16 : CIP_FORMAT_GRAY8,
          cip_test_layouts[(turn + 3) % cip_test_n_layouts], 5000 + turn);
      cip_test_device_image_upload (intensity);

      for (int conn = 4; conn <= 8; conn += 4) {
        for (int variant = 0; variant < (large ? 2 : 3); variant++, turn++) {
          CipFormat format = variant == 1 ? CIP_FORMAT_RGBA : CIP_FORMAT_GRAY16;
          guint32 min_area = variant == 2 ? 1 + turn % 7 : turn % 2;
          guint32 capacity = variant == 2 ? turn % 5 : full_capacity (mask);

          dst = cip_test_device_image_new (w, h, format,
              cip_test_layouts[(turn + 5) % cip_test_n_layouts], turn);
          check_label (mask, variant == 1 ? NULL : intensity, conn, min_area,
              dst, capacity, cip_test_shape_names[shape]);
          if (variant == 0)
            check_label (mask, intensity, conn, min_area, NULL, 1000,
                cip_test_shape_names[shape]);
          cip_test_device_image_free (dst);
        }
      }
      cip_test_device_image_free (mask);
      cip_test_device_image_free (intensity);
    }
  }
}

/* Densities from 5% to 95% on odd sizes, both connectivities. */
static void
test_densities (void)
{
  static const guint thresholds[] = { 13, 51, 102, 128, 154, 204, 243 };
  static const int odd[][2] = { {127, 129}, {1001, 999}, {333, 7} };
  guint turn = 0;

  for (guint s = 0; s < G_N_ELEMENTS (odd); s++) {
    for (guint t = 0; t < G_N_ELEMENTS (thresholds); t++, turn++) {
      int w = odd[s][0], h = odd[s][1];
      CipTestDeviceImage *mask = cip_test_device_image_new (w, h,
          CIP_FORMAT_GRAY8, cip_test_layouts[turn % cip_test_n_layouts],
          turn);
      CipTestDeviceImage *dst = cip_test_device_image_new (w, h,
          CIP_FORMAT_GRAY16, NULL, turn);
      CipImage *m = &mask->host_img;

      for (int y = 0; y < h; y++) {
        guint8 *row = (guint8 *) m->data + (size_t) y * m->stride;

        for (int x = 0; x < w; x++)
          row[x] = row[x] < thresholds[t] ? 255 : 0;
      }
      cip_test_device_image_upload (mask);
      for (int conn = 4; conn <= 8; conn += 4) {
        check_label (mask, NULL, conn, 0, dst, full_capacity (mask), "density");
        check_label (mask, NULL, conn, 4, dst, full_capacity (mask), "density");
      }
      cip_test_device_image_free (mask);
      cip_test_device_image_free (dst);
    }
  }
}

/* Every layout for each of the three images, the intensity 8 and 16
 * bits (16-bit rows at odd addresses and strides too). */
static void
test_layouts (void)
{
  for (guint l = 0; l < cip_test_n_layouts; l++) {
    CipTestDeviceImage *mask = new_mask (127, 129, CIP_TEST_SHAPE_HALF,
        cip_test_layouts[l], 40 + l);
    gchar *name = cip_test_layout_name (cip_test_layouts[l]);

    for (int i = 0; i < 2; i++) {
      CipTestDeviceImage *intensity = cip_test_device_image_new (127, 129,
          i ? CIP_FORMAT_GRAY16 : CIP_FORMAT_GRAY8, cip_test_layouts[l],
          50 + l);

      cip_test_device_image_upload (intensity);
      for (int f = 0; f < 2; f++) {
        CipTestDeviceImage *dst = cip_test_device_image_new (127, 129,
            f ? CIP_FORMAT_RGBA : CIP_FORMAT_GRAY16, cip_test_layouts[l], l);

        check_label (mask, intensity, 8, 0, dst, 500, name);
        check_label (mask, intensity, 4, 3, dst, 500, name);
        cip_test_device_image_free (dst);
      }
      cip_test_device_image_free (intensity);
    }
    g_free (name);
    cip_test_device_image_free (mask);
  }
}

/* The seed workflow's coins mask, with the coins as intensity. */
static void
test_coins (void)
{
  CipImage mask = cip_test_image_load ("label-coins-mask.pgm");
  CipImage coins = cip_test_image_load ("coins.pgm");
  CipTestDeviceImage *m = cip_test_device_image_new (mask.width, mask.height,
      CIP_FORMAT_GRAY8, NULL, 1);
  CipTestDeviceImage *v = cip_test_device_image_new (mask.width, mask.height,
      CIP_FORMAT_GRAY8, cip_test_layouts[3], 2);

  cip_test_device_image_set (m, &mask);
  cip_test_device_image_set (v, &coins);
  cip_test_device_image_upload (m);
  cip_test_device_image_upload (v);
  for (int f = 0; f < 2; f++) {
    CipTestDeviceImage *dst = cip_test_device_image_new (mask.width,
        mask.height, f ? CIP_FORMAT_RGBA : CIP_FORMAT_GRAY16, NULL, 3);

    for (int conn = 4; conn <= 8; conn += 4) {
      check_label (m, v, conn, 0, dst, full_capacity (m), "coins");
      check_label (m, NULL, conn, 50, dst, full_capacity (m), "coins");
      check_label (m, v, conn, 500, dst, 10, "coins");
      check_label (m, v, conn, 0, dst, 10, "coins");
    }
    cip_test_device_image_free (dst);
  }
  cip_test_device_image_free (m);
  cip_test_device_image_free (v);
  cip_test_image_free (&mask);
  cip_test_image_free (&coins);
}

/* The 16-bit frames of expected-regionprops16.ini, each with its Otsu
 * mask, as cudaotsu ! cudalabel sees them. */
static void
test_frames16 (void)
{
  GKeyFile *ini = cip_test_expected_file ("expected-regionprops16.ini");
  gchar **groups = g_key_file_get_groups (ini, NULL);
  guint n = 0;

  for (gchar ** g = groups; *g; g++) {
    const gchar *dash = strrchr (*g, '-');
    gchar *name, *file;
    int conn;
    guint threshold;
    CipImage frame;
    CipTestDeviceImage *m, *v;

    /* [regionprops16-NAME-C] */
    if (!g_str_has_prefix (*g, "regionprops16-"))
      continue;
    conn = atoi (dash + 1);
    name = g_strndup (*g + strlen ("regionprops16-"),
        dash - *g - strlen ("regionprops16-"));
    threshold = cip_test_ini_uint64 (ini, *g, "threshold");
    file = g_str_equal (name, "bright") ?
        g_strdup ("regionprops16-bright.pgm") :
        g_strdup_printf ("otsu16-%s.pgm", name);
    g_free (name);
    frame = cip_test_image_load (file);
    g_assert_cmpint (frame.format, ==, CIP_FORMAT_GRAY16);
    m = cip_test_device_image_new (frame.width, frame.height,
        CIP_FORMAT_GRAY8, cip_test_layouts[n % cip_test_n_layouts], n);
    v = cip_test_device_image_new (frame.width, frame.height,
        CIP_FORMAT_GRAY16, cip_test_layouts[(n + 2) % cip_test_n_layouts],
        n + 100);
    cip_test_device_image_set (v, &frame);
    for (int y = 0; y < frame.height; y++)
      for (int x = 0; x < frame.width; x++) {
        guint16 value;

        memcpy (&value, (guint8 *) frame.data + y * frame.stride + 2 * x, 2);
        ((guint8 *) m->host_img.data)[y * m->host_img.stride + x] =
            value > threshold ? 255 : 0;
      }
    cip_test_device_image_upload (m);
    cip_test_device_image_upload (v);
    /* every set of optional statistics */
    for (guint k = 0; k < 32; k++)
      check_label (m, v, conn, k % 3, NULL, full_capacity (m), file);
    cip_test_device_image_free (m);
    cip_test_device_image_free (v);
    cip_test_image_free (&frame);
    g_free (file);
    n++;
  }
  g_assert_cmpuint (n, ==, 8);
  g_strfreev (groups);
  g_key_file_unref (ini);
}

/* 16-bit sums at their widest: every tile one region of 65535s (its
 * 32-bit shared sums at their largest), a frame of them (the region's
 * sum past 2^32), and 65535 and 0 side by side (the range's ends). */
static void
test_intensity16_extremes (void)
{
  static const int extreme_sizes[][2] = { {64, 32}, {1001, 999},
  {3840, 2160}
  };

  for (guint s = 0; s < G_N_ELEMENTS (extreme_sizes); s++) {
    int w = extreme_sizes[s][0], h = extreme_sizes[s][1];
    CipTestDeviceImage *mask, *v;
    CipImage *img;

    if (cip_test_size_skipped (w, h))
      continue;
    mask = new_mask (w, h, CIP_TEST_SHAPE_FULL, NULL, s);
    v = cip_test_device_image_new (w, h, CIP_FORMAT_GRAY16,
        cip_test_layouts[s + 1], s);
    img = &v->host_img;
    for (int pattern = 0; pattern < 2; pattern++) {
      for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++) {
          guint8 *px = (guint8 *) img->data + y * img->stride + 2 * x;
          guint16 value = pattern == 0 || (x + y) % 2 ? 65535 : 0;

          memcpy (px, &value, 2);
        }
      cip_test_device_image_upload (v);
      for (int conn = 4; conn <= 8; conn += 4) {
        check_label (mask, v, conn, 0, NULL, 4, "65535s");
        check_label (mask, v, conn, 0, NULL, 4, "65535s");
      }
      if (pattern == 0 && (guint64) w * h > 65537)
        g_assert_cmpuint (table_regions[0].sum_intensity, >, G_MAXUINT32);
    }
    cip_test_device_image_free (mask);
    cip_test_device_image_free (v);
  }
}

/* Masks that load the optional statistics' passes, every statistic
 * gathered: one region across a random frame (the hull of a block's
 * threads, tile sums of its perimeter, Euler number and background), a
 * region full of holes, a region across a frame taller than a block's
 * shared memory holds the chains of, stripes across the frame (more tall
 * regions than blocks), stripes broken into hundreds of rows (warps with
 * chains in global memory), scalloped sides (chains whose merges drop
 * most of their points), a disc (a hull of many vertices), discs a warp
 * each whose sides keep too many points for one thread to chain, a
 * stadium whose straight sides leave threads between its caps no point,
 * rings nested a hundred deep (holes within holes), and a region with a
 * one-pixel hole at every other pixel of every other row (more background
 * components in a tile than its tables hold, some open at the edge). */
typedef enum
{
  HARD_RANDOM, HARD_HOLES, HARD_TALL, HARD_STRIPES, HARD_BROKEN_STRIPES,
  HARD_SCALLOPS, HARD_DISC, HARD_DISCS, HARD_STADIUM, HARD_RINGS, HARD_PITS
} HardMask;

static gboolean
hard_pixel (HardMask kind, int x, int y, int w, int h, guint8 v)
{
  switch (kind) {
    case HARD_RANDOM:
      return v < 128;
    case HARD_HOLES:
      /* 30% background inside a frame: holes of every size, regions in
       * some */
      return x < 2 || y < 2 || x >= w - 2 || y >= h - 2 || v >= 77;
    case HARD_TALL:
      /* a column and a diagonal down the frame, and noise */
      return x < 2 || ABS (x - (gint64) y * (w - 1) / (h - 1)) < 2 || v < 60;
    case HARD_STRIPES:
      return x % 2 == 0;
    case HARD_BROKEN_STRIPES:
      return x % 2 == 0 && (y + 37 * x) % 311 != 0;
    case HARD_SCALLOPS:{
      /* cups of periods 9, 33, 65 and 301 rows down both sides */
      static const int periods[] = { 9, 33, 65, 301 };
      int period = periods[MIN (4 * y / h, 3)], half = period / 2;
      int d = y % period - half, cup = 1 + (w / 4) * d * d / (half * half);

      return x >= cup && x < w - cup;
    }
    case HARD_DISC:{
      gint64 r = MIN (w, h) / 2 - 1, dx = x - w / 2, dy = y - h / 2;

      return dx * dx + dy * dy <= r * r;
    }
    case HARD_DISCS:{
      /* radius 30 to 69 rows: 61 to 139 rows, a warp's */
      gint64 cell = 150, r = 30 + (x / cell * 7 + y / cell * 3) % 40;
      gint64 dx = x % cell - cell / 2, dy = y % cell - cell / 2;

      return dx * dx + dy * dy <= r * r;
    }
    case HARD_STADIUM:{
      /* caps of radius w / 3, straight sides between */
      gint64 r = w / 3, dx = x - w / 2, dy = 0;

      if (y < r + 2)
        dy = r + 2 - y;
      else if (y > h - r - 3)
        dy = y - (h - r - 3);
      return y > 1 && y < h - 2 && dx * dx + dy * dy <= r * r;
    }
    case HARD_RINGS:{
      /* square rings 3 pixels wide, broken by a gap now and then */
      int d = MIN (MIN (x, y), MIN (w - 1 - x, h - 1 - y));

      return d % 6 < 3 && (x + 3 * y) % 997 != 0;
    }
    case HARD_PITS:
      /* a few filled, so that tiles hold fewer */
      return x % 2 == 0 || y % 2 == 0 || (7 * x + 3 * y) % 11 == 0;
  }
  g_assert_not_reached ();
}

static CipTestDeviceImage *
new_hard_mask (HardMask kind, int w, int h, guint turn)
{
  CipTestDeviceImage *mask = cip_test_device_image_new (w, h,
      CIP_FORMAT_GRAY8, cip_test_layouts[turn % cip_test_n_layouts],
      700 + turn);
  CipImage *m = &mask->host_img;

  for (int y = 0; y < h; y++) {
    guint8 *row = (guint8 *) m->data + (size_t) y * m->stride;

    for (int x = 0; x < w; x++)
      row[x] = hard_pixel (kind, x, y, w, h, row[x]) ? 255 : 0;
  }
  cip_test_device_image_upload (mask);
  return mask;
}

static void
test_hard_statistics (void)
{
  static const struct
  {
    HardMask kind;
    int w, h;
    const char *name;
  } cases[] = {
    {HARD_RANDOM, 1920, 1080, "random"},
    {HARD_RANDOM, 3840, 2160, "random"},
    {HARD_HOLES, 1920, 1080, "holes"},
    {HARD_TALL, 700, 5000, "tall"},
    {HARD_STRIPES, 1920, 1080, "stripes"},
    {HARD_BROKEN_STRIPES, 1001, 999, "broken stripes"},
    {HARD_SCALLOPS, 600, 400, "scallops"},
    {HARD_SCALLOPS, 1500, 2200, "scallops"},
    {HARD_DISC, 2000, 2000, "disc"},
    {HARD_DISCS, 1920, 1080, "discs"},
    {HARD_STADIUM, 900, 2100, "stadium"},
    {HARD_STADIUM, 1200, 700, "stadium"},
    {HARD_RINGS, 1001, 999, "rings"},
    {HARD_PITS, 1001, 999, "pits"},
  };

  forced_statistics = CIP_LABEL_MOMENTS | CIP_LABEL_INTENSITY_RANGE |
      CIP_LABEL_CONTOURS | CIP_LABEL_CONVEX | CIP_LABEL_FILLED;
  for (guint c = 0; c < G_N_ELEMENTS (cases); c++) {
    int w = cases[c].w, h = cases[c].h;
    CipTestDeviceImage *mask;

    if (cip_test_size_skipped (w, h))
      continue;
    mask = new_hard_mask (cases[c].kind, w, h, c);
    for (int conn = 4; conn <= 8; conn += 4)
      check_label (mask, NULL, conn, 0, NULL, full_capacity (mask),
          cases[c].name);
    cip_test_device_image_free (mask);
  }
  forced_statistics = -1;
}

/* The sets of optional statistics that launch differently: the hull's
 * row ends found by the contours pass or by a pass of their own, the
 * background labelled beside the regions with or without the others; on
 * masks that load them, both connectivities, with and without min_area
 * (regions dropped whose holes and hulls were counted). */
static void
test_statistics_sets (void)
{
  static const struct
  {
    HardMask kind;
    int w, h;
    const char *name;
  } cases[] = {
    {HARD_RANDOM, 1920, 1080, "random"},
    {HARD_RANDOM, 3840, 2160, "random"},
    {HARD_HOLES, 1920, 1080, "holes"},
    {HARD_TALL, 700, 5000, "tall"},
    {HARD_BROKEN_STRIPES, 1001, 999, "broken stripes"},
    {HARD_DISCS, 1920, 1080, "discs"},
    {HARD_RINGS, 1001, 999, "rings"},
    {HARD_PITS, 1001, 999, "pits"},
    {HARD_PITS, 1920, 1080, "pits"},
  };
  static const guint sets[] = {
    CIP_LABEL_CONVEX,
    CIP_LABEL_CONTOURS | CIP_LABEL_CONVEX,
    CIP_LABEL_FILLED,
    CIP_LABEL_CONTOURS | CIP_LABEL_FILLED,
    CIP_LABEL_CONVEX | CIP_LABEL_FILLED | CIP_LABEL_MOMENTS,
  };

  for (guint c = 0; c < G_N_ELEMENTS (cases); c++) {
    int w = cases[c].w, h = cases[c].h;
    CipTestDeviceImage *mask;

    if (cip_test_size_skipped (w, h))
      continue;
    mask = new_hard_mask (cases[c].kind, w, h, 40 + c);
    for (guint k = 0; k < G_N_ELEMENTS (sets); k++) {
      forced_statistics = sets[k];
      for (int conn = 4; conn <= 8; conn += 4)
        check_label (mask, NULL, conn, (k + c + conn / 4) % 2 ? 5 : 0, NULL,
            full_capacity (mask), cases[c].name);
    }
    cip_test_device_image_free (mask);
  }
  forced_statistics = -1;
}

static void
test_invalid_arguments (void)
{
  CipTestDeviceImage *mask = new_mask (8, 6, CIP_TEST_SHAPE_HALF, NULL, 1);
  CipTestDeviceImage *dst = cip_test_device_image_new (8, 6,
      CIP_FORMAT_GRAY16, NULL, 2);
  CipTestDeviceImage *rgba = cip_test_device_image_new (8, 6,
      CIP_FORMAT_RGBA, NULL, 3);
  CipImage wide = rgba->dev;
  CipBadImages other;
  CipLabelParams params = { 8, 0 };
  CipRegionTable table = { table_regions, 4, table_count };

  cip_test_device_image_upload (dst);
  wide.format = CIP_FORMAT_GRAY8;
  other.rgba = rgba->dev;
  other.wide_src = other.wide_dst = wide;
  other.wide_src.width = other.wide_dst.width = CIP_MAX_DIMENSION + 1;
  other.high_src = other.high_dst = wide;
  other.high_src.height = other.high_dst.height = CIP_MAX_DIMENSION + 1;
  *table_count = 77;

#define REFUSED(call, what)                                             \
  G_STMT_START {                                                        \
    if ((call) != CIP_ERROR_INVALID_ARGUMENT)                           \
      fail ("%s accepted", what);                                       \
  } G_STMT_END

  for (int c = 0; c < CIP_N_BAD_CASES; c++) {
    CipImage s = mask->dev, d = dst->dev;
    const CipImage *sp = &s;
    CipImage *dp = &d;
    gboolean extra_null = FALSE;
    gchar *what = g_strdup_printf ("case %d", c);

    if (c == CIP_BAD_DST_NULL || c == CIP_BAD_DST_NOT_GRAY)
      continue;
    cip_test_spoil_arguments (c, &other, &s, &d, &sp, &dp, &extra_null);
    REFUSED (cip_label (sp, NULL, extra_null ? NULL : &params, dp, &table,
            cip_test_stream), what);
    g_free (what);
  }
  REFUSED (cip_label (&mask->dev, NULL, &params, &dst->dev, &table, NULL),
      "no stream");
  REFUSED (cip_label (&mask->dev, NULL, &params, &dst->dev, NULL,
          cip_test_stream), "no table");
  params.connectivity = 6;
  REFUSED (cip_label (&mask->dev, NULL, &params, &dst->dev, &table,
          cip_test_stream), "connectivity 6");
  CHECK (cip_stream_synchronize (cip_test_stream));
  /* Nothing was written. */
  g_assert_cmpuint (*table_count, ==, 77);
  cip_test_device_image_check (dst, dst->host, "refused calls");

  cip_test_device_image_free (mask);
  cip_test_device_image_free (dst);
  cip_test_device_image_free (rgba);
}

int
main (int argc, char **argv)
{
  int result;

  if (!cip_test_gpu_init ())
    return CIP_TEST_SKIP;
  g_test_init (&argc, &argv, NULL);

  CHECK (cip_host_alloc ((void **) &table_regions,
          (MAX_CAPACITY + 1) * sizeof (CipRegion), cip_test_stream));
  CHECK (cip_host_alloc ((void **) &table_columns,
          ((size_t) MAX_COLUMNS * MAX_COLUMN_ROWS + 1) * sizeof (double),
          cip_test_stream));
  CHECK (cip_host_alloc ((void **) &table_count, sizeof (guint32),
          cip_test_stream));

  g_test_add_func ("/kernels/label/invalid-arguments", test_invalid_arguments);
  g_test_add_func ("/kernels/label/coins", test_coins);
  g_test_add_func ("/kernels/label/frames16", test_frames16);
  g_test_add_func ("/kernels/label/intensity16-extremes",
      test_intensity16_extremes);
  g_test_add_func ("/kernels/label/layouts", test_layouts);
  g_test_add_func ("/kernels/label/densities", test_densities);
  g_test_add_func ("/kernels/label/shapes", test_shapes);
  g_test_add_func ("/kernels/label/hard-statistics", test_hard_statistics);
  g_test_add_func ("/kernels/label/statistics-sets", test_statistics_sets);
  result = g_test_run ();

  cip_host_free (table_regions, cip_test_stream);
  cip_host_free (table_columns, cip_test_stream);
  cip_host_free (table_count, cip_test_stream);
  cip_test_gpu_cleanup ();
  return result;
}
