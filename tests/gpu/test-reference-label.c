/* gst-cuda-imgproc
 * Copyright (C) 2026 The gst-cuda-imgproc authors
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2 of the License, or (at your option) any later version.
 */

/* The labelling reference (gpu/ref/label.c) against scikit-image's label,
 * regionprops and label2rgb and OpenCV's connectedComponentsWithStats
 * (tests/data/expected-label.ini), against scikit-image's intensity
 * columns of 16-bit frames (expected-regionprops16.ini), against a
 * breadth-first flood fill on hard shapes, and against cases worked out
 * by hand. */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cip-ref.h"
#include "test-gpu.h"
#include "test-util.h"

/* Guard byte of table entries that must stay unwritten. */
#define GUARD 0xa5

typedef struct
{
  CipRegion *regions;
  guint32 capacity;
  guint32 count;
} Table;

static CipImage
gray16_like (const CipImage * mask, CipFormat format)
{
  CipImage d = cip_test_image_new (mask->width, mask->height, format, 3);

  cip_test_image_fill_random (&d, 99);
  return d;
}

/* The optional statistics run() asks for. */
static guint32 run_statistics;

/* Runs the reference; the table's entries start as GUARD bytes. */
static Table
run (const CipImage * mask, const CipImage * intensity, int connectivity,
    guint32 min_area, CipImage * dst, guint32 capacity)
{
  CipLabelParams params = { connectivity, min_area, run_statistics };
  CipRegionTable t = { 0 };
  Table out;
  CipRegionProperty props[CIP_N_PROPS];
  guint n_props = 0, n_columns = 0, p, c;
  guint32 rows = MIN (capacity / 2 + 1, 1u << 16), n;
  double *columns, *want;

  /* with the columns of every property the statistics allow, of about
   * half as many rows, and a guard value after them */
  for (p = 0; p < CIP_N_PROPS; p++)
    if ((cip_region_property_statistics (p) & ~run_statistics) == 0) {
      props[n_props++] = p;
      n_columns += cip_region_property_columns (p);
    }
  columns = g_malloc (((gsize) n_columns * rows + 1) * sizeof (double));
  memset (columns, GUARD, ((gsize) n_columns * rows + 1) * sizeof (double));

  out.capacity = capacity;
  out.regions = g_malloc ((capacity + 1) * sizeof (CipRegion));
  memset (out.regions, GUARD, (capacity + 1) * sizeof (CipRegion));
  out.count = 0xdeadbeef;
  t.regions = out.regions;
  t.capacity = capacity;
  t.count = &out.count;
  t.columns = columns;
  t.column_capacity = rows;
  t.props = props;
  t.n_props = n_props;
  g_assert_cmpint (cip_ref_label (mask, intensity, &params, dst, &t, NULL),
      ==, CIP_OK);

  /* each row is its region's values, as cip_region_property_table()
   * computes them from the statistics (the values themselves are held to
   * scikit-image's in tests/elements/cudalabel.c) */
  n = MIN (MIN (out.count, rows), capacity);
  want = g_malloc0 (MAX ((gsize) n_columns * n, 1) * sizeof (double));
  cip_region_property_table (out.regions, n, props, n_props, want);
  for (c = 0; c < n_columns; c++)
    g_assert_cmpmem (&columns[(gsize) c * rows], n * sizeof (double),
        &want[(gsize) c * n], n * sizeof (double));
  g_assert_cmpuint (((guint8 *) & columns[(gsize) n_columns * rows])[0], ==,
      GUARD);
  g_free (want);
  g_free (columns);
  return out;
}

static guint16
gray16_at (const CipImage * img, int x, int y)
{
  guint16 v;

  memcpy (&v, (guint8 *) img->data + y * img->stride + 2 * x, 2);
  return v;
}

static guint64
labels_sum (const CipImage * labels)
{
  guint64 sum = 0, i = 1;

  for (int y = 0; y < labels->height; y++)
    for (int x = 0; x < labels->width; x++, i++)
      sum += gray16_at (labels, x, y) * i;
  return sum;
}

static guint64
color_sum (const CipImage * rgba)
{
  guint64 sum = 0, i = 1;

  for (int y = 0; y < rgba->height; y++) {
    const guint8 *p = (guint8 *) rgba->data + y * rgba->stride;

    for (int x = 0; x < rgba->width; x++, i++, p += 4) {
      if (p[3] != 255)
        fail ("alpha %u at %d,%d", p[3], x, y);
      sum += ((guint64) p[0] << 16 | p[1] << 8 | p[2]) * i;
    }
  }
  return sum;
}

static guint64
double_bits (double v)
{
  guint64 b;

  memcpy (&b, &v, 8);
  return b;
}

typedef enum
{
  SUM_BOXES, SUM_CENTROID_X, SUM_CENTROID_Y, SUM_MEANS,
} SumKind;

static guint64
table_sum (const Table * t, SumKind kind)
{
  guint64 sum = 0;

  for (guint32 k = 0; k < t->count; k++) {
    const CipRegion *r = &t->regions[k];
    guint64 v = 0;

    switch (kind) {
      case SUM_BOXES:
        v = r->area + r->left * 0x10001ull + r->top * 0x100000001ull +
            r->width * 0x1000000000001ull + r->height * 0x9e3779b97f4a7c15ull;
        break;
      case SUM_CENTROID_X:
        v = double_bits ((double) r->sum_x / r->area);
        break;
      case SUM_CENTROID_Y:
        v = double_bits ((double) r->sum_y / r->area);
        break;
      case SUM_MEANS:
        v = double_bits ((double) r->sum_intensity / r->area);
        break;
    }
    sum += v * (k + 1);
  }
  return sum;
}

static void
check_key (GKeyFile * file, const char *group, const char *key, guint64 got)
{
  gchar *want = cip_test_ini_string (file, group, key);
  gchar *have = g_strdup_printf ("%" G_GUINT64_FORMAT, got);

  if (strcmp (want, have) != 0)
    fail ("%s: %s %s, expected %s", group, key, have, want);
  g_free (want);
  g_free (have);
}

/* Every figure of a group, from runs with GRAY16 and RGBA labels. */
static void
check_group (GKeyFile * file, const char *group, const CipImage * mask,
    const CipImage * intensity, int connectivity, guint32 min_area)
{
  CipImage g16 = gray16_like (mask, CIP_FORMAT_GRAY16);
  CipImage rgba = gray16_like (mask, CIP_FORMAT_RGBA);
  Table t = run (mask, intensity, connectivity, min_area, &g16, 1 << 20);
  Table c = run (mask, intensity, connectivity, min_area, &rgba, 0);
  Table none = run (mask, NULL, connectivity, min_area, NULL, 1 << 20);

  check_key (file, group, "count", t.count);
  check_key (file, group, "count", c.count);
  check_key (file, group, "labels-sum", labels_sum (&g16));
  check_key (file, group, "boxes-sum", table_sum (&t, SUM_BOXES));
  check_key (file, group, "centroids-x-sum", table_sum (&t, SUM_CENTROID_X));
  check_key (file, group, "centroids-y-sum", table_sum (&t, SUM_CENTROID_Y));
  check_key (file, group, "means-sum", table_sum (&t, SUM_MEANS));
  check_key (file, group, "color-sum", color_sum (&rgba));
  if (g_key_file_has_key (file, group, "mask-means-sum", NULL))
    check_key (file, group, "mask-means-sum", table_sum (&none, SUM_MEANS));
  g_assert_cmpuint (none.count, ==, t.count);
  for (guint32 k = 0; k < t.count; k++) {
    g_assert_cmpuint (t.regions[k].label, ==, k + 1);
    g_assert_cmpmem (&t.regions[k], offsetof (CipRegion, sum_intensity),
        &none.regions[k], offsetof (CipRegion, sum_intensity));
  }
  g_free (t.regions);
  g_free (c.regions);
  g_free (none.regions);
  cip_test_image_free (&g16);
  cip_test_image_free (&rgba);
}

/* The seed workflow's mask of coins: every figure, and the full lists of
 * OpenCV's stats and centroids and skimage's mean intensities, compared
 * as doubles for equality. */
static void
test_coins (void)
{
  GKeyFile *file = cip_test_expected_file ("expected-label.ini");
  CipImage mask = cip_test_image_load ("label-coins-mask.pgm");
  CipImage coins = cip_test_image_load ("coins.pgm");
  static const int conns[] = { 8, 4 };
  static const guint32 min_areas[] = { 0, 50, 500 };

  for (guint c = 0; c < G_N_ELEMENTS (conns); c++) {
    for (guint m = 0; m < G_N_ELEMENTS (min_areas); m++) {
      gchar *group = g_strdup_printf ("label-coins-%d-%u", conns[c],
          min_areas[m]);

      check_group (file, group, &mask, &coins, conns[c], min_areas[m]);
      if (min_areas[m] == 0) {
        Table t = run (&mask, &coins, conns[c], 0, NULL, 1000);
        static const char *keys[] = { "areas", "lefts", "tops", "widths",
          "heights", "centroids-x", "centroids-y", "means"
        };

        for (guint k = 0; k < G_N_ELEMENTS (keys); k++) {
          gsize n;
          gdouble *want = g_key_file_get_double_list (file, group, keys[k],
              &n, NULL);

          g_assert_nonnull (want);
          g_assert_cmpuint (n, ==, t.count);
          for (gsize i = 0; i < n; i++) {
            const CipRegion *r = &t.regions[i];
            double got[] = { r->area, r->left, r->top, r->width, r->height,
              (double) r->sum_x / r->area, (double) r->sum_y / r->area,
              (double) r->sum_intensity / r->area
            };

            if (got[k] != want[i])
              fail ("%s: region %zu: %s %.17g, expected %.17g", group, i + 1,
                  keys[k], got[k], want[i]);
          }
          g_free (want);
        }
        g_free (t.regions);
      }
      g_free (group);
    }
  }
  cip_test_image_free (&mask);
  cip_test_image_free (&coins);
  g_key_file_unref (file);
}

/* The random mask of cip_test_fill_bytes (@seed) below @threshold, and
 * the bytes of @seed + 1000 as intensity, rows padded by @pad. */
static void
random_mask (int w, int h, guint64 seed, guint threshold, size_t pad,
    CipImage * mask, CipImage * intensity)
{
  guint8 *bytes = g_malloc ((size_t) w * h);

  *mask = cip_test_image_new (w, h, CIP_FORMAT_GRAY8, pad);
  *intensity = cip_test_image_new (w, h, CIP_FORMAT_GRAY8, pad);
  cip_test_fill_bytes (bytes, (size_t) w * h, seed);
  for (int y = 0; y < h; y++)
    for (int x = 0; x < w; x++)
      ((guint8 *) mask->data)[y * mask->stride + x] =
          bytes[y * w + x] < threshold ? 1 + (bytes[y * w + x] & 7) : 0;
  cip_test_fill_bytes (bytes, (size_t) w * h, seed + 1000);
  for (int y = 0; y < h; y++)
    memcpy ((guint8 *) intensity->data + y * intensity->stride,
        bytes + y * w, w);
  g_free (bytes);
}

static void
test_random (void)
{
  GKeyFile *file = cip_test_expected_file ("expected-label.ini");
  gchar **groups = g_key_file_get_groups (file, NULL);
  guint n = 0;

  for (gchar ** g = groups; *g; g++) {
    int w, h, conn;
    guint seed, threshold, min_area;
    CipImage mask, intensity;

    if (sscanf (*g, "label-random-%d-%d-%u-%u-%d-%u", &w, &h, &seed,
            &threshold, &conn, &min_area) != 6)
      continue;
    /* Mask values 1..8: any non-zero byte is foreground. */
    random_mask (w, h, seed, threshold, 5, &mask, &intensity);
    check_group (file, *g, &mask, &intensity, conn, min_area);
    cip_test_image_free (&mask);
    cip_test_image_free (&intensity);
    n++;
  }
  g_assert_cmpuint (n, >=, 50);
  g_strfreev (groups);
  g_key_file_unref (file);
}

/* Shapes */

static void
set_px (CipImage * m, int x, int y, guint8 v)
{
  ((guint8 *) m->data)[y * m->stride + x] = v;
}

static guint8
get_px (const CipImage * m, int x, int y)
{
  return ((const guint8 *) m->data)[y * m->stride + x];
}

static CipImage
make_shape (CipTestShape shape, int w, int h, size_t pad)
{
  CipImage m = cip_test_image_new (w, h, CIP_FORMAT_GRAY8, pad);

  cip_test_image_fill_random (&m, 7 + w * 31 + h);
  cip_test_draw_shape (&m, shape);
  return m;
}

/* The oracle: breadth-first flood fill from each unlabelled foreground
 * pixel in raster order, then min_area and renumbering. */
static guint32 *
flood_fill (const CipImage * m, int connectivity, guint32 min_area,
    guint32 * count)
{
  int w = m->width, h = m->height;
  guint32 *labels = g_new0 (guint32, (size_t) w * h);
  guint32 *queue = g_new (guint32, (size_t) w * h);
  guint32 *areas = g_new0 (guint32, (size_t) w * h + 1);
  guint32 *renumber = g_new0 (guint32, (size_t) w * h + 1);
  guint32 n = 0, kept = 0;

  for (int y = 0; y < h; y++) {
    for (int x = 0; x < w; x++) {
      size_t head = 0, tail = 0;

      if (get_px (m, x, y) == 0 || labels[y * w + x])
        continue;
      labels[y * w + x] = ++n;
      queue[tail++] = y * w + x;
      while (head < tail) {
        guint32 i = queue[head++];
        int cx = i % w, cy = i / w;

        areas[n]++;
        for (int dy = -1; dy <= 1; dy++) {
          for (int dx = -1; dx <= 1; dx++) {
            int nx = cx + dx, ny = cy + dy;

            if ((dx == 0 && dy == 0) || (connectivity == 4 && dx && dy))
              continue;
            if (nx < 0 || ny < 0 || nx >= w || ny >= h ||
                get_px (m, nx, ny) == 0 || labels[ny * w + nx])
              continue;
            labels[ny * w + nx] = n;
            queue[tail++] = ny * w + nx;
          }
        }
      }
    }
  }
  for (guint32 i = 1; i <= n; i++)
    renumber[i] = areas[i] >= min_area ? ++kept : 0;
  for (size_t i = 0; i < (size_t) w * h; i++)
    labels[i] = renumber[labels[i]];
  *count = kept;
  g_free (queue);
  g_free (areas);
  g_free (renumber);
  return labels;
}

/* The reference against the flood fill: ids, every statistic, GRAY16
 * saturation, RGBA colours, and a table smaller than the count. */
/* Region @id's pixels and those of its holes, by the definition: the
 * pixels of its box (@r's) outside it that no 8-connected path outside it
 * joins to the box's edge, found by filling the box from its edge. */
static guint32
box_filled (const guint32 * labels, int w, guint32 id, const CipRegion * r)
{
  int bw = r->width, bh = r->height, x, y, dx, dy;
  guint8 *outside = g_new0 (guint8, (gsize) bw * bh);
  guint32 *stack = g_new (guint32, (gsize) bw * bh);
  guint32 n_stack = 0, reached = 0;

#define FREE_PIXEL(bx, by) \
  (labels[(gsize) (r->top + (by)) * w + r->left + (bx)] != id)
  for (y = 0; y < bh; y++)
    for (x = 0; x < bw; x++)
      if ((x == 0 || y == 0 || x == bw - 1 || y == bh - 1) &&
          FREE_PIXEL (x, y)) {
        outside[y * bw + x] = 1;
        stack[n_stack++] = y * bw + x;
      }
  while (n_stack > 0) {
    guint32 i = stack[--n_stack];

    reached++;
    for (dy = -1; dy <= 1; dy++)
      for (dx = -1; dx <= 1; dx++) {
        int nx = (int) (i % bw) + dx, ny = (int) (i / bw) + dy;

        if (nx >= 0 && ny >= 0 && nx < bw && ny < bh &&
            !outside[ny * bw + nx] && FREE_PIXEL (nx, ny)) {
          outside[ny * bw + nx] = 1;
          stack[n_stack++] = ny * bw + nx;
        }
      }
  }
#undef FREE_PIXEL
  g_free (outside);
  g_free (stack);
  return (guint32) bw * bh - reached;
}

static void
check_against_oracle (const CipImage * m, const CipImage * intensity,
    int connectivity, guint32 min_area, const char *what)
{
  int w = m->width, h = m->height;
  guint32 n;
  guint32 *labels = flood_fill (m, connectivity, min_area, &n);
  CipRegion *want = g_new0 (CipRegion, n + 1);
  CipImage g16 = gray16_like (m, CIP_FORMAT_GRAY16);
  CipImage rgba = gray16_like (m, CIP_FORMAT_RGBA);
  guint32 small = n / 2;
  Table t = run (m, intensity, connectivity, min_area, &g16, n);
  Table c = run (m, intensity, connectivity, min_area, &rgba, small);
  const CipImage *v = intensity ? intensity : m;
  Table all;

  run_statistics = CIP_LABEL_MOMENTS | CIP_LABEL_INTENSITY_RANGE;
  all = run (m, intensity, connectivity, min_area, NULL, n);
  run_statistics = 0;

  for (int y = 0; y < h; y++) {
    for (int x = 0; x < w; x++) {
      guint32 id = labels[y * w + x];
      CipRegion *r = &want[id];
      const guint8 *px = (guint8 *) rgba.data + y * rgba.stride + 4 * x;
      guint8 rgb[3];

      if (gray16_at (&g16, x, y) != MIN (id, 65535))
        fail ("%s: GRAY16 %u at %d,%d, expected %u", what,
            gray16_at (&g16, x, y), x, y, id);
      cip_label_color (id, &rgb[0], &rgb[1], &rgb[2]);
      if (px[0] != rgb[0] || px[1] != rgb[1] || px[2] != rgb[2] || px[3] != 255)
        fail ("%s: colour at %d,%d", what, x, y);
      if (id == 0)
        continue;
      if (r->area == 0) {
        r->label = id;
        r->left = r->width = x;
        r->top = y;
      }
      r->area++;
      r->left = MIN (r->left, (guint32) x);
      r->width = MAX (r->width, (guint32) x);
      r->height = y;
      r->sum_x += x;
      r->sum_y += y;
      r->sum_intensity += get_px (v, x, y);
    }
  }
  for (guint32 k = 1; k <= n; k++) {
    want[k].width -= want[k].left - 1;
    want[k].height -= want[k].top - 1;
  }

  /* area_filled against its definition, each box filled from its edge */
  {
    Table filled;

    run_statistics = CIP_LABEL_FILLED;
    filled = run (m, intensity, connectivity, min_area, NULL, n);
    run_statistics = 0;
    if (filled.count != n)
      fail ("%s: %u regions with holes, expected %u", what, filled.count, n);
    for (guint32 k = 0; k < n; k++)
      if (filled.regions[k].area_filled != box_filled (labels, w, k + 1,
              &want[k + 1]))
        fail ("%s: region %u has %u pixels filled, expected %u", what, k + 1,
            filled.regions[k].area_filled, box_filled (labels, w, k + 1,
                &want[k + 1]));
    g_free (filled.regions);
  }

  /* The optional statistics: sums of products and the intensity range,
   * pixel by pixel. */
  {
    CipRegion *full = g_memdup2 (want, (n + 1) * sizeof (CipRegion));

    for (guint32 k = 1; k <= n; k++)
      full[k].intensity_min = G_MAXUINT32;
    for (int y = 0; y < h; y++)
      for (int x = 0; x < w; x++) {
        guint32 id = labels[y * w + x];
        CipRegion *r = &full[id];
        guint value = get_px (v, x, y);

        if (id == 0)
          continue;
        r->sum_xx += (guint64) x * x;
        r->sum_yy += (guint64) y * y;
        r->sum_xy += (guint64) x * y;
        r->intensity_min = MIN (r->intensity_min, value);
        r->intensity_max = MAX (r->intensity_max, value);
      }
    if (all.count != n)
      fail ("%s: %u regions with every statistic, expected %u", what,
          all.count, n);
    for (guint32 k = 0; k < n; k++)
      if (memcmp (&all.regions[k], &full[k + 1], sizeof (CipRegion)) != 0)
        fail ("%s: region %u differs with every statistic", what, k + 1);
    g_free (full);
    g_free (all.regions);
  }

  if (t.count != n || c.count != n)
    fail ("%s: %u and %u regions, expected %u", what, t.count, c.count, n);
  for (guint32 k = 0; k < n; k++) {
    if (memcmp (&t.regions[k], &want[k + 1], sizeof (CipRegion)) != 0)
      fail ("%s: region %u differs", what, k + 1);
    if (k < small && memcmp (&c.regions[k], &want[k + 1],
            sizeof (CipRegion)) != 0)
      fail ("%s: region %u of the short table differs", what, k + 1);
  }
  for (size_t b = 0; b < sizeof (CipRegion); b++) {
    if (((guint8 *) & t.regions[n])[b] != GUARD ||
        ((guint8 *) & c.regions[small])[b] != GUARD)
      fail ("%s: written past the capacity", what);
  }

  g_free (t.regions);
  g_free (c.regions);
  g_free (want);
  g_free (labels);
  cip_test_image_free (&g16);
  cip_test_image_free (&rgba);
}

static void
test_shapes (void)
{
  static const int sizes[][2] = {
    {1, 1}, {2, 3}, {3, 2}, {7, 5}, {31, 17}, {33, 1}, {1, 33}, {64, 64},
    {127, 129}, {100, 37},
  };
  static const guint32 min_areas[] = { 0, 1, 2, 5, 40 };

  for (guint s = 0; s < G_N_ELEMENTS (sizes); s++) {
    for (int shape = 0; shape < CIP_TEST_N_SHAPES; shape++) {
      int w = sizes[s][0], h = sizes[s][1];
      CipImage m = make_shape (shape, w, h, s % 4);
      CipImage intensity = cip_test_image_new (w, h, CIP_FORMAT_GRAY8, 1);

      cip_test_image_fill_random (&intensity, s * 100 + shape);
      for (int conn = 4; conn <= 8; conn += 4) {
        for (guint a = 0; a < G_N_ELEMENTS (min_areas); a++) {
          gchar *what = g_strdup_printf ("%s %dx%d %d-connected min_area %u",
              cip_test_shape_names[shape], w, h, conn, min_areas[a]);

          check_against_oracle (&m, a % 2 ? NULL : &intensity, conn,
              min_areas[a], what);
          g_free (what);
        }
      }
      cip_test_image_free (&m);
      cip_test_image_free (&intensity);
    }
  }
}

/* The intensity columns of the 16-bit frames of
 * expected-regionprops16.ini, each labelled at its Otsu threshold, as
 * cudaotsu masks it: scikit-image's regionprops_table of the uint16 frame,
 * to the bit (the mean is the exact sum over the area, as numpy's float64
 * mean of uint16 values is). */
static void
test_regionprops16 (void)
{
  static const CipRegionProperty props[] = { CIP_PROP_LABEL, CIP_PROP_AREA,
    CIP_PROP_INTENSITY_MEAN, CIP_PROP_INTENSITY_MIN, CIP_PROP_INTENSITY_MAX
  };
  GKeyFile *ini = cip_test_expected_file ("expected-regionprops16.ini");
  gchar **groups = g_key_file_get_groups (ini, NULL);
  guint n = 0;

  for (gchar ** g = groups; *g; g++) {
    const gchar *dash = strrchr (*g, '-');
    gchar *name, *file;
    int conn;
    guint threshold, count, capacity, p, i;
    CipImage frame, odd, mask;
    CipLabelParams params = { 0, 0, CIP_LABEL_INTENSITY_RANGE };
    CipRegionTable t = { 0 };
    double *columns;

    /* [regionprops16-NAME-C] */
    if (!g_str_has_prefix (*g, "regionprops16-"))
      continue;
    conn = atoi (dash + 1);
    name = g_strndup (*g + strlen ("regionprops16-"),
        dash - *g - strlen ("regionprops16-"));
    file = g_str_equal (name, "bright") ?
        g_strdup ("regionprops16-bright.pgm") :
        g_strdup_printf ("otsu16-%s.pgm", name);
    threshold = cip_test_ini_uint64 (ini, *g, "threshold");
    count = cip_test_ini_uint64 (ini, *g, "count");
    frame = cip_test_image_load (file);
    g_assert_cmpint (frame.format, ==, CIP_FORMAT_GRAY16);
    /* 16-bit rows at odd strides: the reference reads bytes */
    odd = cip_test_image_copy (&frame, 1);
    mask = cip_test_image_new (frame.width, frame.height, CIP_FORMAT_GRAY8, 3);
    for (int y = 0; y < frame.height; y++)
      for (int x = 0; x < frame.width; x++)
        set_px (&mask, x, y, gray16_at (&frame, x, y) > threshold ? 255 : 0);

    capacity = (frame.width * frame.height + 1) / 2 + 1;
    columns = g_new (double, (gsize) G_N_ELEMENTS (props) * capacity);
    params.connectivity = conn;
    t.count = &count;
    t.columns = columns;
    t.column_capacity = capacity;
    t.props = props;
    t.n_props = G_N_ELEMENTS (props);
    for (int k = 0; k < 2; k++) {
      count = 0;
      g_assert_cmpint (cip_ref_label (&mask, k ? &odd : &frame, &params,
              NULL, &t, NULL), ==, CIP_OK);
      g_assert_cmpuint (count, ==, cip_test_ini_uint64 (ini, *g, "count"));
      for (p = 0; p < G_N_ELEMENTS (props); p++) {
        const gchar *column = cip_region_property_name (props[p]);
        gdouble *want = cip_test_ini_doubles (ini, *g, column, count);

        for (i = 0; i < count; i++)
          if (columns[(gsize) p * capacity + i] != want[i])
            fail ("[%s] %s of region %u is %.17g, scikit-image %.17g", *g,
                column, i + 1, columns[(gsize) p * capacity + i], want[i]);
        g_free (want);
      }
    }

    g_free (columns);
    cip_test_image_free (&mask);
    cip_test_image_free (&odd);
    cip_test_image_free (&frame);
    g_free (file);
    g_free (name);
    n++;
  }
  g_assert_cmpuint (n, ==, 8);
  g_strfreev (groups);
  g_key_file_unref (ini);
}

/* Counts worked out by hand. */
static void
test_hand_computed (void)
{
  struct
  {
    CipTestShape shape;
    int w, h, conn;
    guint32 count, first_area;
  } cases[] = {
    {CIP_TEST_SHAPE_EMPTY, 9, 7, 8, 0, 0},
    {CIP_TEST_SHAPE_FULL, 9, 7, 4, 1, 63},
    {CIP_TEST_SHAPE_CHECKER, 9, 7, 8, 1, 32},
    {CIP_TEST_SHAPE_CHECKER, 9, 7, 4, 32, 1},
    {CIP_TEST_SHAPE_DOTS, 9, 7, 8, 20, 1},
    {CIP_TEST_SHAPE_SNAKE, 9, 7, 4, 1, 4 * 9 + 3},
    {CIP_TEST_SHAPE_COMB, 9, 7, 4, 1, 9 + 5 * 5},
    {CIP_TEST_SHAPE_U_COMB, 9, 7, 4, 1, 9 + 6 * 5},
    {CIP_TEST_SHAPE_BORDER, 9, 7, 8, 3, 2 * 9 + 2 * 5},
    {CIP_TEST_SHAPE_SPIRAL, 40, 30, 4, 1, 0},
    {CIP_TEST_SHAPE_SPIRAL, 40, 30, 8, 1, 0},
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++) {
    CipImage m = make_shape (cases[i].shape, cases[i].w, cases[i].h, 0);
    Table t = run (&m, NULL, cases[i].conn, 0, NULL, 100);

    if (t.count != cases[i].count)
      fail ("%s: %u regions, expected %u", cip_test_shape_names[cases[i].shape],
          t.count, cases[i].count);
    if (t.count && cases[i].first_area &&
        t.regions[0].area != cases[i].first_area)
      fail ("%s: area %u, expected %u", cip_test_shape_names[cases[i].shape],
          t.regions[0].area, cases[i].first_area);
    g_free (t.regions);
    cip_test_image_free (&m);
  }

  /* A spiral that covers a third of a 40x30 frame is one region whose
   * first pixel is the corner. */
  {
    CipImage m = make_shape (CIP_TEST_SHAPE_SPIRAL, 40, 30, 0);
    Table t = run (&m, NULL, 4, 0, NULL, 1);

    g_assert_cmpuint (t.regions[0].area, >, 400);
    g_assert_cmpuint (t.regions[0].left, ==, 0);
    g_assert_cmpuint (t.regions[0].top, ==, 0);
    g_assert_cmpuint (t.regions[0].width, ==, 40);
    g_assert_cmpuint (t.regions[0].height, ==, 30);
    g_free (t.regions);
    cip_test_image_free (&m);
  }

  /* Two regions: the second starts first on row 0 but the first starts at
   * the very first pixel; ids follow raster order of first pixels. */
  {
    CipImage m = cip_test_image_new (4, 3, CIP_FORMAT_GRAY8, 0);
    CipImage mean = cip_test_image_new (4, 3, CIP_FORMAT_GRAY8, 0);
    static const guint8 px[] = {
      0, 0, 0, 9,
      1, 0, 0, 9,
      1, 1, 0, 0,
    };
    Table t;

    for (int i = 0; i < 12; i++) {
      set_px (&m, i % 4, i / 4, px[i]);
      set_px (&mean, i % 4, i / 4, (guint8) (10 * i));
    }
    t = run (&m, &mean, 8, 0, NULL, 4);
    g_assert_cmpuint (t.count, ==, 2);
    /* Region 1: (3,0) (3,1); region 2: (0,1) (0,2) (1,2). */
    g_assert_cmpuint (t.regions[0].area, ==, 2);
    g_assert_cmpuint (t.regions[0].left, ==, 3);
    g_assert_cmpuint (t.regions[0].sum_y, ==, 1);
    g_assert_cmpuint (t.regions[0].sum_intensity, ==, 30 + 70);
    g_assert_cmpuint (t.regions[1].area, ==, 3);
    g_assert_cmpuint (t.regions[1].top, ==, 1);
    g_assert_cmpuint (t.regions[1].width, ==, 2);
    g_assert_cmpuint (t.regions[1].height, ==, 2);
    g_assert_cmpuint (t.regions[1].sum_x, ==, 1);
    g_assert_cmpuint (t.regions[1].sum_y, ==, 5);
    g_assert_cmpuint (t.regions[1].sum_intensity, ==, 40 + 80 + 90);
    g_free (t.regions);
    /* Without intensity, the mask's own values. */
    t = run (&m, NULL, 8, 0, NULL, 4);
    g_assert_cmpuint (t.regions[0].sum_intensity, ==, 18);
    g_assert_cmpuint (t.regions[1].sum_intensity, ==, 3);
    g_free (t.regions);
    /* min_area 3 keeps the second alone, renumbered 1. */
    t = run (&m, NULL, 8, 3, NULL, 4);
    g_assert_cmpuint (t.count, ==, 1);
    g_assert_cmpuint (t.regions[0].label, ==, 1);
    g_assert_cmpuint (t.regions[0].area, ==, 3);
    g_free (t.regions);
    cip_test_image_free (&m);
    cip_test_image_free (&mean);
  }
}

/* area_filled from the regions' nesting: square rings around one centre,
 * each filled to its whole square, the rings inside and their gaps; and
 * a 1080p frame of thin diagonal lines, whose boxes are each nearly the
 * frame, with no holes, in bounded time (filling each box took
 * seconds). */
static void
test_filled (void)
{
  CipImage rings = cip_test_image_new (41, 41, CIP_FORMAT_GRAY8, 0);
  CipImage lines = cip_test_image_new (1920, 1080, CIP_FORMAT_GRAY8, 0);
  gint64 start;
  Table t;
  int conn, x, y;
  guint32 k;

  for (y = 0; y < 41; y++)
    for (x = 0; x < 41; x++)
      set_px (&rings, x, y, MAX (ABS (x - 20), ABS (y - 20)) % 3 ? 0 : 255);
  run_statistics = CIP_LABEL_FILLED;
  for (conn = 4; conn <= 8; conn += 4) {
    t = run (&rings, NULL, conn, 0, NULL, 16);
    g_assert_cmpuint (t.count, ==, 7);
    /* outermost first: ring k has radius 18 - 3 k */
    for (k = 0; k < 7; k++) {
      guint32 side = 2 * (18 - 3 * k) + 1;

      g_assert_cmpuint (t.regions[k].area_filled, ==, side * side);
    }
    g_free (t.regions);
  }

  for (y = 0; y < 1080; y++)
    for (x = 0; x < 1920; x++)
      set_px (&lines, x, y, (x + y) % 3 ? 0 : 255);
  start = g_get_monotonic_time ();
  t = run (&lines, NULL, 8, 0, NULL, 1000);
  g_assert_cmpint (g_get_monotonic_time () - start, <, 2 * G_USEC_PER_SEC);
  g_assert_cmpuint (t.count, ==, 1000);
  for (k = 0; k < 1000; k++)
    g_assert_cmpuint (t.regions[k].area_filled, ==, t.regions[k].area);
  g_free (t.regions);
  run_statistics = 0;

  cip_test_image_free (&rings);
  cip_test_image_free (&lines);
}

/* More regions than GRAY16 holds: ids saturate, the count does not. */
static void
test_saturation (void)
{
  CipImage m = make_shape (CIP_TEST_SHAPE_DOTS, 600, 500, 1);
  CipImage g16 = gray16_like (&m, CIP_FORMAT_GRAY16);
  Table t = run (&m, NULL, 8, 0, &g16, 8);

  g_assert_cmpuint (t.count, ==, 300 * 250);
  g_assert_cmpuint (gray16_at (&g16, 0, 0), ==, 1);
  g_assert_cmpuint (gray16_at (&g16, 2 * 133, 2 * 218), ==, 65534);
  g_assert_cmpuint (gray16_at (&g16, 2 * 134, 2 * 218), ==, 65535);
  g_assert_cmpuint (gray16_at (&g16, 2 * 135, 2 * 218), ==, 65535);
  g_assert_cmpuint (gray16_at (&g16, 598, 498), ==, 65535);
  g_assert_cmpuint (gray16_at (&g16, 1, 0), ==, 0);
  g_free (t.regions);
  cip_test_image_free (&g16);
  cip_test_image_free (&m);
}

/* label2rgb's colours: DEFAULT_COLORS through img_as_ubyte. */
static void
test_colors (void)
{
  static const guint8 want[11][3] = {
    {0, 0, 0}, {255, 0, 0}, {0, 0, 255}, {255, 255, 0}, {255, 0, 255},
    {0, 128, 0}, {75, 0, 130}, {255, 140, 0}, {0, 255, 255},
    {255, 192, 203}, {154, 205, 50},
  };

  for (guint32 id = 0; id < 40; id++) {
    const guint8 *w = want[id == 0 ? 0 : 1 + (id - 1) % 10];
    guint8 r, g, b;

    cip_label_color (id, &r, &g, &b);
    if (r != w[0] || g != w[1] || b != w[2])
      fail ("colour of %u: %u %u %u", id, r, g, b);
  }
}

static void
test_invalid_arguments (void)
{
  CipImage mask = cip_test_image_new (8, 6, CIP_FORMAT_GRAY8, 0);
  CipImage dst = gray16_like (&mask, CIP_FORMAT_GRAY16);
  CipImage pristine = cip_test_image_copy (&dst, 0);
  CipImage rgba = cip_test_image_new (8, 6, CIP_FORMAT_RGBA, 0);
  CipImage wide = cip_test_image_new (1, 1, CIP_FORMAT_GRAY8, 0);
  CipImage intensity = cip_test_image_new (8, 6, CIP_FORMAT_GRAY8, 0);
  CipBadImages other;
  CipLabelParams params = { 8, 0 };
  CipRegion regions[4];
  guint32 count = 77;
  CipRegionTable table = { regions, 4, &count };

  cip_test_image_fill_random (&mask, 3);
  cip_test_image_fill_random (&intensity, 4);
  other.rgba = rgba;
  other.wide_src = other.wide_dst = wide;
  other.wide_src.width = other.wide_dst.width = CIP_MAX_DIMENSION + 1;
  other.high_src = other.high_dst = wide;
  other.high_src.height = other.high_dst.height = CIP_MAX_DIMENSION + 1;

#define REFUSED(call, what)                                             \
  G_STMT_START {                                                        \
    if ((call) != CIP_ERROR_INVALID_ARGUMENT)                           \
      fail ("%s accepted", what);                                       \
    if (!cip_test_images_equal (&dst, &pristine, NULL) || count != 77)  \
      fail ("%s: written", what);                                       \
  } G_STMT_END

  for (int c = 0; c < CIP_N_BAD_CASES; c++) {
    CipImage s = mask, d = dst;
    const CipImage *sp = &s;
    CipImage *dp = &d;
    gboolean extra_null = FALSE;
    gchar *what;

    /* No destination, or an RGBA one, are valid. */
    if (c == CIP_BAD_DST_NULL || c == CIP_BAD_DST_NOT_GRAY)
      continue;
    what = g_strdup_printf ("case %d", c);
    cip_test_spoil_arguments (c, &other, &s, &d, &sp, &dp, &extra_null);
    REFUSED (cip_ref_label (sp, &intensity, extra_null ? NULL : &params, dp,
            &table, NULL), what);
    /* The same spoilt mask as intensity (field by field: the structs'
     * padding is not theirs to compare). */
    if (sp != NULL && (sp->data != mask.data || sp->width != mask.width ||
            sp->height != mask.height || sp->stride != mask.stride ||
            sp->format != mask.format))
      REFUSED (cip_ref_label (&mask, sp, &params, NULL, &table, NULL), what);
    g_free (what);
  }
  {
    CipLabelParams bad = { 6, 0 };
    CipRegionTable no_count = { regions, 4, NULL };
    CipRegionTable no_regions = { NULL, 4, &count };
    CipImage d8 = dst;

    REFUSED (cip_ref_label (&mask, NULL, &bad, &dst, &table, NULL),
        "connectivity 6");
    bad.connectivity = 0;
    REFUSED (cip_ref_label (&mask, NULL, &bad, &dst, &table, NULL),
        "connectivity 0");
    REFUSED (cip_ref_label (&mask, NULL, &params, &dst, NULL, NULL),
        "no table");
    REFUSED (cip_ref_label (&mask, NULL, &params, &dst, &no_count, NULL),
        "no count");
    REFUSED (cip_ref_label (&mask, NULL, &params, &dst, &no_regions, NULL),
        "no regions");
    REFUSED (cip_ref_label (&rgba, NULL, &params, &dst, &table, NULL),
        "RGBA mask");
    d8.format = CIP_FORMAT_GRAY8;
    REFUSED (cip_ref_label (&mask, NULL, &params, &d8, &table, NULL),
        "GRAY8 destination");
    d8.format = CIP_FORMAT_BGRA;
    REFUSED (cip_ref_label (&mask, NULL, &params, &d8, &table, NULL),
        "BGRA destination");
    /* intensity of 8 or 16 bits, no other */
    REFUSED (cip_ref_label (&mask, &rgba, &params, NULL, &table, NULL),
        "RGBA intensity");
    d8.format = CIP_FORMAT_GRAY16_BE;
    REFUSED (cip_ref_label (&mask, &d8, &params, NULL, &table, NULL),
        "GRAY16_BE intensity");
    d8 = dst;
    d8.width--;
    REFUSED (cip_ref_label (&mask, &d8, &params, NULL, &table, NULL),
        "GRAY16 intensity of another size");
    g_assert_cmpint (cip_ref_label (&mask, &dst, &params, NULL, &table,
            NULL), ==, CIP_OK);
    count = 77;
    no_regions.capacity = 0;
    g_assert_cmpint (cip_ref_label (&mask, NULL, &params, NULL, &no_regions,
            NULL), ==, CIP_OK);
  }
  {
    /* a column without the statistics it is computed from */
    static const CipRegionProperty solidity[] = { CIP_PROP_SOLIDITY };
    double columns[4];
    CipRegionTable with_columns = { regions, 4, &count, columns, 4,
      solidity, 1
    };

    count = 77;
    REFUSED (cip_ref_label (&mask, NULL, &params, &dst, &with_columns, NULL),
        "solidity without its statistics");
    params.statistics = cip_region_property_statistics (CIP_PROP_SOLIDITY);
    count = 0;
    g_assert_cmpint (cip_ref_label (&mask, NULL, &params, NULL,
            &with_columns, NULL), ==, CIP_OK);
    g_assert_cmpuint (count, >, 0);
    count = 77;
    params.statistics = 0;
  }
  g_assert_cmpint (cip_ref_label (&mask, &intensity, &params, &dst, &table,
          NULL), ==, CIP_OK);

  cip_test_image_free (&mask);
  cip_test_image_free (&dst);
  cip_test_image_free (&pristine);
  cip_test_image_free (&rgba);
  cip_test_image_free (&wide);
  cip_test_image_free (&intensity);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/reference/label/coins", test_coins);
  g_test_add_func ("/reference/label/random", test_random);
  g_test_add_func ("/reference/label/regionprops16", test_regionprops16);
  g_test_add_func ("/reference/label/shapes", test_shapes);
  g_test_add_func ("/reference/label/hand-computed", test_hand_computed);
  g_test_add_func ("/reference/label/filled", test_filled);
  g_test_add_func ("/reference/label/saturation", test_saturation);
  g_test_add_func ("/reference/label/colors", test_colors);
  g_test_add_func ("/reference/label/invalid-arguments",
      test_invalid_arguments);
  return g_test_run ();
}
