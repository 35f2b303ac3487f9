/* gst-cuda-imgproc
 * Copyright (C) 2026 The gst-cuda-imgproc authors
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2 of the License, or (at your option) any later version.
 */

/* Connected-component labelling: one raster pass of union-find over the
 * already-visited neighbours, whose trees are rooted at their smallest
 * raster index, then ids in raster order of the roots. */

#include <stdlib.h>
#include <string.h>

#include "cip-ref.h"
#include "cip-label.h"

#define BACKGROUND UINT32_MAX

void
cip_label_color (uint32_t label, uint8_t * red, uint8_t * green, uint8_t * blue)
{
  uint32_t rgb = cip_label_rgb (label);

  *red = (uint8_t) (rgb >> 16);
  *green = (uint8_t) (rgb >> 8);
  *blue = (uint8_t) rgb;
}

static uint32_t
find_root (uint32_t * parent, uint32_t i)
{
  while (parent[i] != i) {
    parent[i] = parent[parent[i]];
    i = parent[i];
  }
  return i;
}

static void
join (uint32_t * parent, uint32_t a, uint32_t b)
{
  a = find_root (parent, a);
  b = find_root (parent, b);
  if (a < b)
    parent[b] = a;
  else if (b < a)
    parent[a] = b;
}

/* parent[] := the smallest raster index of each pixel's region, or
 * BACKGROUND; with @zeros, of the components of the zero pixels instead
 * (the regions' pixels BACKGROUND). */
static void
build_forest (const CipImage * mask, int connectivity, bool zeros,
    uint32_t * parent)
{
  int w = mask->width, h = mask->height, x, y;

  for (y = 0; y < h; y++) {
    const uint8_t *row = (const uint8_t *) mask->data + y * mask->stride;
    const uint8_t *up = row - mask->stride;

#define IN(v) (((v) == 0) == zeros)
    for (x = 0; x < w; x++) {
      uint32_t i = (uint32_t) y * w + x;

      if (!IN (row[x])) {
        parent[i] = BACKGROUND;
        continue;
      }
      parent[i] = i;
      if (x > 0 && IN (row[x - 1]))
        join (parent, i, i - 1);
      if (y == 0)
        continue;
      if (IN (up[x]))
        join (parent, i, i - w);
      if (connectivity == 8) {
        if (x > 0 && IN (up[x - 1]))
          join (parent, i, i - w - 1);
        if (x + 1 < w && IN (up[x + 1]))
          join (parent, i, i - w + 1);
      }
    }
#undef IN
  }
  for (uint32_t i = 0; i < (uint32_t) w * h; i++)
    if (parent[i] != BACKGROUND)
      parent[i] = find_root (parent, i);
}

static void
paint (CipImage * dst, const uint32_t * labels)
{
  int x, y;

  for (y = 0; y < dst->height; y++) {
    uint8_t *out = (uint8_t *) dst->data + y * dst->stride;
    const uint32_t *in = labels + (size_t) y * dst->width;

    for (x = 0; x < dst->width; x++) {
      if (dst->format == CIP_FORMAT_GRAY16) {
        uint16_t v = cip_label_gray16 (in[x]);

        memcpy (out + 2 * x, &v, 2);
      } else {
        cip_label_rgba (in[x], out + 4 * x);
      }
    }
  }
}

/* The id of (x, y) in @labels, 0 outside the image. */
static uint32_t
label_at (const uint32_t * labels, int w, int h, int x, int y)
{
  return x < 0 || y < 0 || x >= w || y >= h ? 0 : labels[(size_t) y * w + x];
}

/* CIP_LABEL_CONTOURS: perimeter classes of the border pixels, and the bit
 * quads of every 2x2 window that touches the image (one pixel past each
 * edge), for the regions of @labels (ids 1..n into @regions). */
static CipStatus
gather_contours (const uint32_t * labels, int w, int h, CipRegion * regions)
{
  uint8_t *border = calloc ((size_t) w * h, 1);
  int x, y, dx, dy;

  if (border == NULL)
    return CIP_ERROR_OUT_OF_MEMORY;
  for (y = 0; y < h; y++)
    for (x = 0; x < w; x++) {
      uint32_t id = labels[(size_t) y * w + x];

      border[(size_t) y * w + x] = id != 0 &&
          (label_at (labels, w, h, x - 1, y) != id ||
          label_at (labels, w, h, x + 1, y) != id ||
          label_at (labels, w, h, x, y - 1) != id ||
          label_at (labels, w, h, x, y + 1) != id);
    }

  for (y = 0; y < h; y++)
    for (x = 0; x < w; x++) {
      uint32_t id = labels[(size_t) y * w + x], code = 1;
      int cls;

      if (!border[(size_t) y * w + x])
        continue;
      for (dy = -1; dy <= 1; dy++)
        for (dx = -1; dx <= 1; dx++) {
          int nx = x + dx, ny = y + dy;

          if ((dx || dy) && label_at (labels, w, h, nx, ny) == id &&
              border[(size_t) ny * w + nx])
            code += dx && dy ? 10 : 2;
        }
      cls = cip_label_perimeter_class (code);
      if (cls)
        regions[id].perimeter_counts[cls - 1]++;
    }

  for (y = 0; y <= h; y++)
    for (x = 0; x <= w; x++) {
      uint32_t quad[4] = { label_at (labels, w, h, x, y),
        label_at (labels, w, h, x, y - 1), label_at (labels, w, h, x - 1, y),
        label_at (labels, w, h, x - 1, y - 1)
      };
      int i;

      for (i = 0; i < 4; i++)
        regions[quad[i]].euler_quads += cip_label_euler_quad (quad, i);
    }
  free (border);
  return CIP_OK;
}

/* CIP_LABEL_CONVEX: each region's hull from the ends of its rows, found
 * in one pass over the labels (scanning each region's box instead costs
 * the boxes' areas, which thin diagonal regions make the frame's many
 * times over).  A region has a pixel in every row of its box, so the rows
 * of all boxes are at most the pixels.  Widths and heights of @regions
 * (ids 1..n) still hold right and bottom edges. */
static CipStatus
gather_hulls (const uint32_t * labels, int w, int h, CipRegion * regions,
    uint32_t n)
{
  uint32_t *offset, *first, *last, *scratch, id, tallest = 0;
  size_t rows = 0;
  int x, y;

  if (n == 0)
    return CIP_OK;
  offset = malloc (((size_t) n + 1) * sizeof (uint32_t));
  if (offset == NULL)
    return CIP_ERROR_OUT_OF_MEMORY;
  for (id = 1; id <= n; id++) {
    uint32_t height = regions[id].height - regions[id].top + 1;

    offset[id] = (uint32_t) rows;
    rows += height;
    tallest = height > tallest ? height : tallest;
  }
  first = malloc (rows * sizeof (uint32_t));
  last = malloc (rows * sizeof (uint32_t));
  scratch = malloc (CIP_HULL_SCRATCH (tallest) * sizeof (uint32_t));
  if (first == NULL || last == NULL || scratch == NULL) {
    free (offset);
    free (first);
    free (last);
    free (scratch);
    return CIP_ERROR_OUT_OF_MEMORY;
  }
  memset (first, 0xff, rows * sizeof (uint32_t));
  /* in raster order: a region's first pixel in a row comes first */
  for (y = 0; y < h; y++)
    for (x = 0; x < w; x++) {
      uint32_t label = labels[(size_t) y * w + x];
      size_t slot;

      if (label == 0)
        continue;
      slot = offset[label] + ((uint32_t) y - regions[label].top);
      if (first[slot] == UINT32_MAX)
        first[slot] = x - regions[label].left;
      last[slot] = x - regions[label].left;
    }
  for (id = 1; id <= n; id++) {
    CipRegion *r = &regions[id];

    cip_hull_region (first + offset[id], last + offset[id],
        r->height - r->top + 1, scratch, &r->area_convex, &r->feret_sq4);
  }
  free (offset);
  free (first);
  free (last);
  free (scratch);
  return CIP_OK;
}

/* CIP_LABEL_FILLED: each region's pixels plus its holes, the pixels of
 * its box outside it that no 8-connected path outside it joins to the
 * box's edge (scipy's binary_fill_holes with a 3x3 structure).  Filling
 * each box costs the boxes' areas, which thin diagonal regions make the
 * frame's many times over; instead, as the kernels do, the regions and
 * the 8-connected components of the zero pixels nest as a tree.  A
 * component off the image's edge lies in a hole of the component that
 * holds the pixel above its first one (a region's first pixel has a zero
 * pixel above it, a zero component's a region pixel), which comes earlier
 * in raster order, and a region's holes hold exactly its descendants.  So
 * one pass over the roots from the last adds each component's pixels,
 * its descendants' included, to the one above it.  @parent: the regions'
 * forest (build_forest()). */
static CipStatus
gather_filled (const CipImage * mask, const uint32_t * parent,
    const uint32_t * labels, CipRegion * regions)
{
  int w = mask->width, h = mask->height;
  size_t n_pixels = (size_t) w * h, i;
  uint32_t *zeros, *total;
  uint8_t *open;

  zeros = malloc (n_pixels * sizeof (uint32_t));
  total = calloc (n_pixels, sizeof (uint32_t));
  open = calloc (n_pixels, 1);
  if (zeros == NULL || total == NULL || open == NULL) {
    free (zeros);
    free (total);
    free (open);
    return CIP_ERROR_OUT_OF_MEMORY;
  }
  build_forest (mask, 8, true, zeros);

  /* each component's pixels, at its root; zero components on the image's
   * edge are open: no region holds them */
  for (i = 0; i < n_pixels; i++) {
    int x = (int) (i % w), y = (int) (i / w);

    if (zeros[i] == BACKGROUND) {
      total[parent[i]]++;
    } else {
      total[zeros[i]]++;
      if (x == 0 || y == 0 || x == w - 1 || y == h - 1)
        open[zeros[i]] = 1;
    }
  }
  /* children come after their parents in raster order */
  for (i = n_pixels; i-- > (size_t) w;) {
    if (parent[i] == i) {
      uint32_t around = zeros[i - w];

      if (!open[around])
        total[around] += total[i];
    } else if (zeros[i] == i && !open[i]) {
      total[parent[i - w]] += total[i];
    }
  }
  for (i = 0; i < n_pixels; i++)
    if (parent[i] == i)
      regions[labels[i]].area_filled = total[i];

  free (zeros);
  free (total);
  free (open);
  return CIP_OK;
}

/* Sample @x of a row of the intensity image: a GRAY8 byte or a GRAY16
 * (little-endian) word. */
static uint32_t
sample_at (const uint8_t * row, int x, bool deep)
{
  return deep ? row[2 * x] | (uint32_t) row[2 * x + 1] << 8 : row[x];
}

CipStatus
cip_ref_label (const CipImage * mask, const CipImage * intensity,
    const CipLabelParams * params, CipImage * dst, CipRegionTable * table,
    CipStream * stream)
{
  int w, h, x, y;
  uint32_t *parent, *labels, *renumber, n = 0, kept = 0, i;
  CipRegion *regions;
  bool deep;

  (void) stream;
  if (cip_label_check (mask, intensity, params, dst, table) != CIP_OK)
    return CIP_ERROR_INVALID_ARGUMENT;
  if (intensity == NULL)
    intensity = mask;
  deep = intensity->format == CIP_FORMAT_GRAY16;

  w = mask->width;
  h = mask->height;
  parent = malloc ((size_t) w * h * sizeof (uint32_t));
  labels = malloc ((size_t) w * h * sizeof (uint32_t));
  if (parent == NULL || labels == NULL) {
    free (parent);
    free (labels);
    return CIP_ERROR_OUT_OF_MEMORY;
  }
  build_forest (mask, params->connectivity, false, parent);

  /* Roots in raster order are the regions in raster order of their first
   * pixels: labels[root] holds the id. */
  for (i = 0; i < (uint32_t) w * h; i++) {
    if (parent[i] == i)
      labels[i] = ++n;
    labels[i] = parent[i] == BACKGROUND ? 0 : labels[parent[i]];
  }

  regions = calloc (n + 1, sizeof (CipRegion));
  renumber = calloc (n + 1, sizeof (uint32_t));
  if (regions == NULL || renumber == NULL) {
    free (parent);
    free (labels);
    free (regions);
    free (renumber);
    return CIP_ERROR_OUT_OF_MEMORY;
  }

  /* regions[id].width and height hold the right and bottom edges until the
   * end. */
  for (y = 0; y < h; y++) {
    const uint8_t *row = (const uint8_t *) intensity->data +
        y * intensity->stride;

    for (x = 0; x < w; x++) {
      uint32_t id = labels[(size_t) y * w + x], v;
      CipRegion *r = &regions[id];

      if (id == 0)
        continue;
      v = sample_at (row, x, deep);
      if (r->area == 0) {
        r->left = r->width = x;
        r->top = r->height = y;
      }
      if (r->area == 0 || v < r->intensity_min)
        r->intensity_min = v;
      if (v > r->intensity_max)
        r->intensity_max = v;
      r->area++;
      if ((uint32_t) x < r->left)
        r->left = x;
      if ((uint32_t) x > r->width)
        r->width = x;
      r->height = y;
      r->sum_x += x;
      r->sum_y += y;
      r->sum_intensity += v;
      r->sum_xx += (uint64_t) x * x;
      r->sum_yy += (uint64_t) y * y;
      r->sum_xy += (uint64_t) x * y;
    }
  }

  if (((params->statistics & CIP_LABEL_CONTOURS) &&
          gather_contours (labels, w, h, regions) != CIP_OK) ||
      ((params->statistics & CIP_LABEL_CONVEX) &&
          gather_hulls (labels, w, h, regions, n) != CIP_OK) ||
      ((params->statistics & CIP_LABEL_FILLED) &&
          gather_filled (mask, parent, labels, regions) != CIP_OK)) {
    free (parent);
    free (labels);
    free (regions);
    free (renumber);
    return CIP_ERROR_OUT_OF_MEMORY;
  }

  for (i = 1; i <= n; i++) {
    CipRegion *r = &regions[i];

    if (r->area < params->min_area)
      continue;
    renumber[i] = ++kept;
    r->label = kept;
    r->width = r->width - r->left + 1;
    r->height = r->height - r->top + 1;
    if (!(params->statistics & CIP_LABEL_MOMENTS))
      r->sum_xx = r->sum_yy = r->sum_xy = 0;
    if (!(params->statistics & CIP_LABEL_INTENSITY_RANGE))
      r->intensity_min = r->intensity_max = 0;
    if (kept <= table->capacity)
      table->regions[kept - 1] = *r;
    if (kept <= table->column_capacity)
      cip_region_property_row (r, table->props, table->n_props,
          table->columns, table->column_capacity, kept - 1);
  }
  *table->count = kept;

  if (dst || table->labels) {
    for (i = 0; i < (uint32_t) w * h; i++)
      labels[i] = renumber[labels[i]];
    if (dst)
      paint (dst, labels);
    for (y = 0; table->labels && y < h; y++)
      memcpy (table->labels + (size_t) y * table->labels_stride,
          labels + (size_t) y * w, (size_t) w * sizeof (uint32_t));
  }

  free (parent);
  free (labels);
  free (regions);
  free (renumber);
  return CIP_OK;
}
