/* gst-cuda-imgproc
 * Copyright (C) 2026 The gst-cuda-imgproc authors
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2 of the License, or (at your option) any later version.
 */

/* Grayscale morphology.  The element is a centred horizontal run of half
 * width a(dy) on each row dy (cip_morph_span), so the minimum over it is
 * the minimum, over dy, of row y + dy's minimum over x - a(dy) .. x + a(dy).
 * Pixels outside the image are left out of both. */

#include "cip-ref.h"
#include "cip-format.h"
#include "cip-morph.h"

#include <stdlib.h>
#include <string.h>

CipStatus
cip_morph_element (CipMorphShape shape, int radius, uint8_t * element)
{
  int size = 2 * radius + 1, dx, dy;

  if (element == NULL || cip_morph_check_params (CIP_MORPH_ERODE, shape,
          radius) != CIP_OK)
    return CIP_ERROR_INVALID_ARGUMENT;

  for (dy = -radius; dy <= radius; dy++) {
    int a = cip_morph_span (shape, radius, dy);

    for (dx = -radius; dx <= radius; dx++)
      element[(dy + radius) * size + dx + radius] = dx >= -a && dx <= a;
  }
  return CIP_OK;
}

static inline unsigned
pick (unsigned a, unsigned b, int take_max)
{
  return take_max ? (a > b ? a : b) : (a < b ? a : b);
}

/* out[i] = pick (out[i], in[i]) for @n samples: little-endian 16-bit ones
 * at any alignment where @wide, else bytes. */
static void
fold (uint8_t * out, const uint8_t * in, size_t n, int wide, int take_max)
{
  size_t i;

  if (wide) {
    for (i = 0; i < 2 * n; i += 2) {
      unsigned v = pick (out[i] | out[i + 1] << 8, in[i] | in[i + 1] << 8,
          take_max);

      out[i] = (uint8_t) v;
      out[i + 1] = (uint8_t) (v >> 8);
    }
  } else {
    for (i = 0; i < n; i++)
      out[i] = (uint8_t) pick (out[i], in[i], take_max);
  }
}

/* One erosion (take_max 0) or dilation between two tight or strided
 * images of @channels samples a pixel, 16-bit ones where @wide (GRAY16),
 * else bytes.  @spans holds the element's row runs; @run (width x height,
 * tight) is scratch for the rows' running extrema.  The neutral values
 * are all-ones and all-zero bytes at either sample size. */
static void
morph_pass (const uint8_t * src, size_t src_stride, uint8_t * dst,
    size_t dst_stride, int width, int height, int channels, int wide,
    const int *spans, int radius, int take_max, uint8_t * run)
{
  size_t samples = (size_t) width * channels;
  size_t row = samples << wide;
  int a, dy, y;

  for (y = 0; y < height; y++)
    memset (dst + y * dst_stride, take_max ? CIP_MORPH_NEUTRAL_MAX :
        CIP_MORPH_NEUTRAL_MIN, row);

  /* run = each row's extremum over x - a .. x + a, one a after the other;
   * after each step, the rows dy whose span is a fold it into dst. */
  for (y = 0; y < height; y++)
    memcpy (run + y * row, src + y * src_stride, row);
  for (a = 0; a <= radius; a++) {
    if (a > 0 && a < width) {
      /* Pixel x takes x - a and x + a where they lie inside the row. */
      size_t shift = (size_t) a * channels;

      for (y = 0; y < height; y++) {
        const uint8_t *in = src + y * src_stride;
        uint8_t *r = run + y * row;

        fold (r + (shift << wide), in, samples - shift, wide, take_max);
        fold (r, in + (shift << wide), samples - shift, wide, take_max);
      }
    }
    for (dy = -radius; dy <= radius; dy++) {
      if (spans[dy + radius] != a)
        continue;
      for (y = 0; y < height; y++) {
        if (y + dy < 0 || y + dy >= height)
          continue;
        fold (dst + y * dst_stride, run + (size_t) (y + dy) * row, samples,
            wide, take_max);
      }
    }
  }
}

CipStatus
cip_ref_morph (const CipImage * src, CipImage * dst,
    CipMorphOperation operation, CipMorphShape shape, int radius,
    CipStream * stream)
{
  int spans[2 * CIP_MORPH_RADIUS_MAX + 1];
  int channels, wide, dy, first_max;
  size_t row;
  uint8_t *run, *mid = NULL;

  (void) stream;
  if (cip_morph_check (src, dst, operation, shape, radius) != CIP_OK)
    return CIP_ERROR_INVALID_ARGUMENT;

  wide = src->format == CIP_FORMAT_GRAY16;
  channels = wide ? 1 : cip_format_bytes_per_pixel (src->format);
  row = (size_t) src->width * cip_format_bytes_per_pixel (src->format);
  for (dy = -radius; dy <= radius; dy++)
    spans[dy + radius] = cip_morph_span (shape, radius, dy);

  run = malloc (row * src->height);
  if (run == NULL)
    return CIP_ERROR_OUT_OF_MEMORY;
  first_max = operation == CIP_MORPH_DILATE || operation == CIP_MORPH_CLOSE;

  if (operation == CIP_MORPH_ERODE || operation == CIP_MORPH_DILATE) {
    morph_pass (src->data, src->stride, dst->data, dst->stride, src->width,
        src->height, channels, wide, spans, radius, first_max, run);
  } else {
    mid = malloc (row * src->height);
    if (mid == NULL) {
      free (run);
      return CIP_ERROR_OUT_OF_MEMORY;
    }
    morph_pass (src->data, src->stride, mid, row, src->width, src->height,
        channels, wide, spans, radius, first_max, run);
    morph_pass (mid, row, dst->data, dst->stride, src->width, src->height,
        channels, wide, spans, radius, !first_max, run);
  }
  free (mid);
  free (run);
  return CIP_OK;
}
