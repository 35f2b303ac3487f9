/* gst-cuda-imgproc
 * Copyright (C) 2026 The gst-cuda-imgproc authors
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2 of the License, or (at your option) any later version.
 */

/* Connected-component labelling: what the kernels and the reference share,
 * the argument checks, the colours and the encoding of the label images. */

#ifndef __CIP_LABEL_H__
#define __CIP_LABEL_H__

#include "cip.h"
#include "cip-format.h"
#include "cip-pixel.h"
#include "cip-regionprops.h"

/* The words of a frame's tracking state: the number of its regions, and
 * the next id to give after its own. */
#define CIP_TRACK_STATE_WORDS 2
#define CIP_TRACK_STATE_REGIONS 0
#define CIP_TRACK_STATE_NEXT_ID 1

/* One frame as tracking sees it, all where the backend computes (device
 * memory for cip_track_frame(), host memory for the reference) but
 * @column. */
struct _CipTrackFrame
{
  /* its label image (cip_label()'s @labels): ids 1 .. n, 0 background,
   * @stride elements from a row to the next */
  const uint32_t *labels;
  size_t stride;
  /* the track id of each region, in label order: n words */
  uint32_t *ids;
  /* CIP_TRACK_STATE_WORDS words */
  uint32_t *state;
  /* When set, the ids of the first @column_capacity regions as float64
   * as well: a column of cip_label()'s table (page-locked host memory
   * for cip_track_frame()). */
  double *column;
  uint32_t column_capacity;
};

/* The largest id a GRAY16 label image holds; later ids saturate to it. */
#define CIP_LABEL_GRAY16_MAX 65535u

/* The ten colours of scikit-image's label2rgb (DEFAULT_COLORS: red, blue,
 * yellow, magenta, green, indigo, darkorange, cyan, pink, yellowgreen) as
 * img_as_ubyte rounds them, 0xRRGGBB.  label2rgb gives the k-th smallest
 * label colour (k - 1) mod 10, so on ids 1..N label id gets colour
 * (id - 1) mod 10. */
CIP_HOST_DEVICE uint32_t
cip_label_rgb (uint32_t label)
{
  if (label == 0)
    return 0;
  switch ((label - 1) % 10) {
    case 0:
      return 0xff0000;          /* red */
    case 1:
      return 0x0000ff;          /* blue */
    case 2:
      return 0xffff00;          /* yellow */
    case 3:
      return 0xff00ff;          /* magenta */
    case 4:
      return 0x008000;          /* green (0, 0.502, 0) */
    case 5:
      return 0x4b0082;          /* indigo (0.294, 0, 0.51) */
    case 6:
      return 0xff8c00;          /* darkorange (1, 0.549, 0) */
    case 7:
      return 0x00ffff;          /* cyan */
    case 8:
      return 0xffc0cb;          /* pink (1, 0.753, 0.796) */
    default:
      return 0x9acd32;          /* yellowgreen (0.604, 0.804, 0.196) */
  }
}

/* The four bytes of an RGBA label pixel, in memory order, alpha 255. */
CIP_HOST_DEVICE void
cip_label_rgba (uint32_t label, uint8_t * out)
{
  uint32_t rgb = cip_label_rgb (label);

  out[0] = (uint8_t) (rgb >> 16);
  out[1] = (uint8_t) (rgb >> 8);
  out[2] = (uint8_t) rgb;
  out[3] = 255;
}

/* The GRAY16 value of a label. */
CIP_HOST_DEVICE uint16_t
cip_label_gray16 (uint32_t label)
{
  return (uint16_t) (label < CIP_LABEL_GRAY16_MAX ? label :
      CIP_LABEL_GRAY16_MAX);
}

/* The most regions an image can hold: pixels that touch no other (every
 * second one for 4-connectivity, one in each 2x2 square for 8). */
CIP_HOST_DEVICE uint32_t
cip_label_max_regions (int width, int height, int connectivity)
{
  if (connectivity == 4)
    return (uint32_t) (((uint64_t) width * height + 1) / 2);
  return (uint32_t) (((width + 1) / 2) * (uint64_t) ((height + 1) / 2));
}

/* The checks both sides make before touching anything. */
static inline CipStatus
cip_label_check (const CipImage * mask, const CipImage * intensity,
    const CipLabelParams * params, const CipImage * dst,
    const CipRegionTable * table)
{
  if (params == NULL || table == NULL || table->count == NULL)
    return CIP_ERROR_INVALID_ARGUMENT;
  if (params->connectivity != 4 && params->connectivity != 8)
    return CIP_ERROR_INVALID_ARGUMENT;
  if (table->capacity > 0 && table->regions == NULL)
    return CIP_ERROR_INVALID_ARGUMENT;
  if (table->column_capacity > 0 && (table->columns == NULL ||
          table->n_props > CIP_N_PROPS ||
          (table->n_props > 0 && table->props == NULL)))
    return CIP_ERROR_INVALID_ARGUMENT;
  /* a column needs the statistics it is computed from */
  for (unsigned p = 0; table->column_capacity > 0 && p < table->n_props; p++)
    if ((unsigned) table->props[p] >= CIP_N_PROPS ||
        (cip_region_property_statistics (table->props[p]) &
            ~params->statistics) != 0)
      return CIP_ERROR_INVALID_ARGUMENT;
  if (cip_image_validate (mask) != CIP_OK ||
      mask->format != CIP_FORMAT_GRAY8)
    return CIP_ERROR_INVALID_ARGUMENT;
  /* the values averaged: 8 or 16 bits */
  if (intensity && (cip_image_validate (intensity) != CIP_OK ||
          (intensity->format != CIP_FORMAT_GRAY8 &&
              intensity->format != CIP_FORMAT_GRAY16) ||
          intensity->width != mask->width ||
          intensity->height != mask->height))
    return CIP_ERROR_INVALID_ARGUMENT;
  if (dst && (cip_image_validate (dst) != CIP_OK ||
          (dst->format != CIP_FORMAT_GRAY16 &&
              dst->format != CIP_FORMAT_RGBA) ||
          dst->width != mask->width || dst->height != mask->height))
    return CIP_ERROR_INVALID_ARGUMENT;
  if (table->labels && table->labels_stride < (size_t) mask->width)
    return CIP_ERROR_INVALID_ARGUMENT;
  /* the overlaps are counted where @labels is written, from the previous
   * frame's own label image */
  if (table->track_prev && (table->labels == NULL ||
          table->track_prev->labels == NULL ||
          table->track_prev->state == NULL ||
          table->track_prev->labels == table->labels ||
          table->track_prev->stride != table->labels_stride))
    return CIP_ERROR_INVALID_ARGUMENT;
  return CIP_OK;
}

/* The class of a border pixel of a region for its perimeter, from its
 * code: 1 + 2 x (its border 4-neighbours in the region) + 10 x (its border
 * diagonal neighbours in the region), scikit-image's perimeter() histogram
 * bins.  0: counts nothing; 1, 2, 3: perimeter_counts[0, 1, 2]. */
CIP_HOST_DEVICE int
cip_label_perimeter_class (uint32_t code)
{
  switch (code) {
    case 5:
    case 7:
    case 15:
    case 17:
    case 25:
    case 27:
      return 1;
    case 21:
    case 33:
      return 2;
    case 13:
    case 23:
      return 3;
    default:
      return 0;
  }
}

/* What a 2x2 quad adds to four times the 8-connected Euler number of a
 * region, from the quad's pixels in the region (bit 0 bottom right, 1 top
 * right, 2 bottom left, 3 top left): +1 for one pixel, -1 for three, -2
 * for a diagonal pair (Gray's bit quads). */
CIP_HOST_DEVICE int
cip_label_euler_pattern (uint32_t pattern)
{
  switch (pattern) {
    case 1:
    case 2:
    case 4:
    case 8:
      return 1;
    case 7:
    case 11:
    case 13:
    case 14:
      return -1;
    case 6:
    case 9:
      return -2;
    default:
      return 0;
  }
}

/* What the quad of ids @quad (in the bit order above) adds to the region
 * of its corner @corner: 0 for background, and for a region already met
 * at an earlier corner (each region of a quad counts once). */
CIP_HOST_DEVICE int
cip_label_euler_quad (const uint32_t * quad, int corner)
{
  uint32_t pattern = 0;
  int j;

  if (quad[corner] == 0)
    return 0;
  for (j = 0; j < corner; j++)
    if (quad[j] == quad[corner])
      return 0;
  for (j = 0; j < 4; j++)
    pattern |= (uint32_t) (quad[j] == quad[corner]) << j;
  return cip_label_euler_pattern (pattern);
}

/* The convex hull of a region, as scikit-image's convex_hull_image makes
 * it: the hull of the midpoints of its pixels' edges, and as hull image
 * every pixel of its box whose centre lies inside the hull or on it.
 * Both hulls (of the region, then of its hull image for the Feret
 * diameter) are built from the leftmost and rightmost pixel of each row
 * of the box.  Coordinates are doubled and shifted into the box so that
 * every point is a pair of small non-negative integers: a pixel centre at
 * (row r, column c) is (Y, X) = (2r + 1, 2c + 1), its edge midpoints are
 * one step away, and a point packs into one word (Y high, X low). */

#define CIP_HULL_POINT(y, x) (((uint32_t) (y) << 16) | (uint32_t) (x))
#define CIP_HULL_Y(p) ((int64_t) ((p) >> 16))
#define CIP_HULL_X(p) ((int64_t) ((p) & 0xffff))

/* Twice the signed area of (o, a, b), in the (Y, X) plane. */
CIP_HOST_DEVICE int64_t
cip_hull_cross (uint32_t o, uint32_t a, uint32_t b)
{
  return (CIP_HULL_Y (a) - CIP_HULL_Y (o)) * (CIP_HULL_X (b) - CIP_HULL_X (o))
      - (CIP_HULL_X (a) - CIP_HULL_X (o)) * (CIP_HULL_Y (b) - CIP_HULL_Y (o));
}

/* A point of one side of the hull of the edge midpoints of rows whose
 * pixels run from @first[r] to @last[r] (@height rows), at Y = @y (0 ..
 * 2 height): for the left side (@left) the smallest X there, for the
 * right side the largest. */
CIP_HOST_DEVICE uint32_t
cip_hull_side_point (const uint32_t * first, const uint32_t * last,
    uint32_t height, bool left, uint32_t y)
{
  uint32_t r = y / 2, x;

  if (y & 1) {
    /* the row's midpoints beside its end pixels */
    x = left ? 2 * first[r] : 2 * last[r] + 2;
  } else {
    /* the midpoints above row r and below row r - 1 */
    const uint32_t *ends = left ? first : last;
    uint32_t below = r > 0 ? ends[r - 1] : ends[r];
    uint32_t above = r < height ? ends[r] : ends[r - 1];

    x = 2 * (left ? (below < above ? below : above) :
        (below > above ? below : above)) + 1;
  }
  return CIP_HULL_POINT (y, x);
}

/* Appends @p (Y rising) to the chain of @n points at @chain, dropping the
 * points it makes non-convex: the lower chain for the left side, the
 * upper for the right; collinear points go too. */
CIP_HOST_DEVICE void
cip_hull_push (uint32_t * chain, uint32_t * n, uint32_t p, bool left)
{
  while (*n >= 2) {
    int64_t turn = cip_hull_cross (chain[*n - 2], chain[*n - 1], p);

    if (left ? turn > 0 : turn < 0)
      break;
    (*n)--;
  }
  chain[(*n)++] = p;
}

/* One side's chain (2 height + 1 words at @chain); returns its length. */
CIP_HOST_DEVICE uint32_t
cip_hull_side (const uint32_t * first, const uint32_t * last,
    uint32_t height, bool left, uint32_t * chain)
{
  uint32_t n = 0, y;

  for (y = 0; y <= 2 * height; y++)
    cip_hull_push (chain, &n, cip_hull_side_point (first, last, height, left,
            y), left);
  return n;
}

CIP_HOST_DEVICE int64_t
cip_hull_floor_div (int64_t a, int64_t b)
{
  return a >= 0 ? a / b : -((-a + b - 1) / b);
}

/* The pixels of row Y on the inner side of the chain edge from @a to @b
 * (A.Y <= Y < B.Y): from the first column whose centre is at or right of
 * the left side, or to the last one at or left of the right side. */
CIP_HOST_DEVICE uint32_t
cip_hull_row_end (uint32_t a, uint32_t b, int64_t y, bool left)
{
  int64_t dy = CIP_HULL_Y (b) - CIP_HULL_Y (a);
  /* 2 dy times the side's X at Y, less dy: centres are at 2c + 1 */
  int64_t num = CIP_HULL_X (a) * dy + (CIP_HULL_X (b) - CIP_HULL_X (a)) *
      (y - CIP_HULL_Y (a)) - dy;

  return (uint32_t) (left ? -cip_hull_floor_div (-num, 2 * dy) :
      cip_hull_floor_div (num, 2 * dy));
}

/* The outline of a hull image as one convex polygon: its left chain down,
 * then its right chain back up, each end point once; vertex @k of it. */
typedef struct
{
  const uint32_t *left, *right;
  uint32_t n_left;
  uint32_t right_first, right_last;     /* right[right_first] comes first */
  uint32_t n;
} CipHullOutline;

CIP_HOST_DEVICE uint32_t
cip_hull_vertex (const CipHullOutline * o, uint32_t k)
{
  return k < o->n_left ? o->left[k] : o->right[o->right_first - (k -
          o->n_left)];
}

/* The largest squared distance between two vertices of the outline, by
 * rotating calipers. */
CIP_HOST_DEVICE uint64_t
cip_hull_diameter_sq (const CipHullOutline * o)
{
  uint64_t best = 0;
  uint32_t i, j = 1, n = o->n;

  for (i = 0; i < n; i++) {
    uint32_t a = cip_hull_vertex (o, i), b = cip_hull_vertex (o, (i + 1) % n);
    uint32_t c;
    int64_t dy, dx;

    for (;;) {
      int64_t now = cip_hull_cross (a, b, cip_hull_vertex (o, j));
      int64_t ahead = cip_hull_cross (a, b, cip_hull_vertex (o, (j + 1) % n));

      if ((ahead < 0 ? -ahead : ahead) <= (now < 0 ? -now : now))
        break;
      j = (j + 1) % n;
    }
    c = cip_hull_vertex (o, j);
    dy = CIP_HULL_Y (a) - CIP_HULL_Y (c);
    dx = CIP_HULL_X (a) - CIP_HULL_X (c);
    if ((uint64_t) (dy * dy + dx * dx) > best)
      best = (uint64_t) (dy * dy + dx * dx);
    dy = CIP_HULL_Y (b) - CIP_HULL_Y (c);
    dx = CIP_HULL_X (b) - CIP_HULL_X (c);
    if ((uint64_t) (dy * dy + dx * dx) > best)
      best = (uint64_t) (dy * dy + dx * dx);
  }
  return best;
}

/* The largest squared distance between vertices of the hull whose sides
 * are the chains @left and @right (Y rising). */
CIP_HOST_DEVICE uint64_t
cip_hull_outline_diameter_sq (const uint32_t * left, uint32_t n_left,
    const uint32_t * right, uint32_t n_right)
{
  CipHullOutline outline;

  outline.left = left;
  outline.right = right;
  outline.n_left = n_left;
  outline.right_first = n_right - 1;
  if (right[n_right - 1] == left[n_left - 1])
    outline.right_first--;
  outline.right_last = right[0] == left[0] ? 1 : 0;
  outline.n = n_left + outline.right_first - outline.right_last + 1;
  return cip_hull_diameter_sq (&outline);
}

/* Words of scratch cip_hull_region() needs for a region of @height rows. */
#define CIP_HULL_SCRATCH(height) (4 * (size_t) (height) + 2)

/* A region's convex hull image and maximum Feret diameter from @first and
 * @last, the columns (in its box) of the leftmost and rightmost pixel of
 * each of its @height rows.  They are replaced by the rows of the hull
 * image.  @scratch holds CIP_HULL_SCRATCH (height) words.  Writes the hull
 * image's pixels to @area_convex and four times the squared largest
 * distance between points of its outline (scikit-image's find_contours at
 * 0.5: the midpoints of its pixels' outer edges) to @feret_sq4. */
CIP_HOST_DEVICE void
cip_hull_region (uint32_t * first, uint32_t * last, uint32_t height,
    uint32_t * scratch, uint32_t * area_convex, uint64_t * feret_sq4)
{
  uint32_t *left = scratch, *right = scratch + 2 * height + 1;
  uint32_t n_left, n_right, k_left = 0, k_right = 0, r, area = 0;

  cip_hull_side (first, last, height, true, left);
  cip_hull_side (first, last, height, false, right);
  for (r = 0; r < height; r++) {
    int64_t y = 2 * (int64_t) r + 1;

    while (CIP_HULL_Y (left[k_left + 1]) <= y)
      k_left++;
    while (CIP_HULL_Y (right[k_right + 1]) <= y)
      k_right++;
    first[r] = cip_hull_row_end (left[k_left], left[k_left + 1], y, true);
    last[r] = cip_hull_row_end (right[k_right], right[k_right + 1], y,
        false);
    area += last[r] - first[r] + 1;
  }
  *area_convex = area;

  n_left = cip_hull_side (first, last, height, true, left);
  n_right = cip_hull_side (first, last, height, false, right);
  *feret_sq4 = cip_hull_outline_diameter_sq (left, n_left, right, n_right);
}

/* Tracks (docs/regionprops.md, "Tracks"): a region takes the id of the
 * previous frame's region when each is the other's best overlap; every
 * other region a new id.  cip_ref_track() is the rule; the two functions
 * below apply it to consecutive frames without the host waiting on the
 * GPU in between, cip_track_frame() with kernels and
 * cip_ref_track_frame() (ref/cip-ref.h) on the host, with equal results. */

#ifdef __cplusplus
extern "C" {
#endif

/* The track ids of @frame's *@count regions (@count where the backend's
 * operations read it: cip_label()'s count) from @prev, the frame before
 * (its labels, ids and state are read), or, @prev NULL, as the first
 * frame: ids 1 .. n.  Writes @frame's ids, state and column.  Both label
 * images are @width x @height with the same stride; @frame's ids must not
 * overlap @prev's, and @frame's state may be @prev's.  Labels above the
 * counts are not regions: cip_ref_track_frame() refuses them, the
 * kernels leave them out; a count is at most cip_label_max_regions
 * (width, height, 4), as any labelling's (the kernels take a larger one
 * as that).  Scratch memory lives in @stream and grows only with the
 * image.
 *
 * When the last cip_label() on @stream wrote @frame's labels with @prev
 * as its table's track_prev, it has counted the overlaps already (and
 * *@count is its count): this is then one launch, that numbers the
 * regions.  Any other sequence counts them here from both label images. */
CipStatus cip_track_frame (const CipTrackFrame * prev,
    const CipTrackFrame * frame, const uint32_t * count, int width,
    int height, CipStream * stream);

/* Writes the ids of the first *@count regions (at most @capacity) into
 * @column as float64: for a table that grew after cip_track_frame(). */
CipStatus cip_track_column (const uint32_t * ids, const uint32_t * count,
    double *column, uint32_t capacity, CipStream * stream);

#ifdef __cplusplus
}
#endif

#endif /* __CIP_LABEL_H__ */
