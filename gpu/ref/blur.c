/* gst-cuda-imgproc
 * Copyright (C) 2026 The gst-cuda-imgproc authors
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2 of the License, or (at your option) any later version.
 */

/* Gaussian blur, as cip-blur.h defines it: the horizontal pass of every
 * byte into a whole-precision 16-bit image, then the vertical pass. */

#include <stdlib.h>

#include "cip-ref.h"
#include "cip-blur.h"

CipStatus
cip_ref_blur (const CipImage * src, CipImage * dst, double sigma,
    CipStream * stream)
{
  CipBlurKernel k;
  int bpp, row_bytes, width, height, r, x, y, i;
  int *columns, *rows;
  uint16_t *mid;

  (void) stream;
  if (cip_blur_check (src, dst, sigma) != CIP_OK)
    return CIP_ERROR_INVALID_ARGUMENT;

  cip_blur_kernel (sigma, &k);
  r = k.radius;
  width = src->width;
  height = src->height;
  bpp = cip_format_bytes_per_pixel (src->format);
  row_bytes = width * bpp;

  /* The mirrored pixel of every position the taps reach. */
  columns = malloc ((width + 2 * r) * sizeof (int));
  rows = malloc ((height + 2 * r) * sizeof (int));
  mid = malloc ((size_t) row_bytes * height * sizeof (uint16_t));
  if (columns == NULL || rows == NULL || mid == NULL) {
    free (columns);
    free (rows);
    free (mid);
    return CIP_ERROR_OUT_OF_MEMORY;
  }
  for (x = -r; x < width + r; x++)
    columns[x + r] = cip_blur_reflect (x, width);
  for (y = -r; y < height + r; y++)
    rows[y + r] = cip_blur_reflect (y, height);

  for (y = 0; y < height; y++) {
    const uint8_t *in = (const uint8_t *) src->data + y * src->stride;
    uint16_t *out = mid + (size_t) y * row_bytes;

    for (x = 0; x < width; x++) {
      int c;

      for (c = 0; c < bpp; c++) {
        uint32_t h = (uint32_t) k.w[0] * in[x * bpp + c];

        for (i = 1; i <= r; i++)
          h += (uint32_t) k.w[i] * (in[columns[x - i + r] * bpp + c] +
              in[columns[x + i + r] * bpp + c]);
        out[x * bpp + c] = (uint16_t) h;
      }
    }
  }

  for (y = 0; y < height; y++) {
    uint8_t *out = (uint8_t *) dst->data + y * dst->stride;
    const uint16_t *centre = mid + (size_t) y * row_bytes;

    for (x = 0; x < row_bytes; x++) {
      uint32_t v = (uint32_t) k.w[0] * centre[x];

      for (i = 1; i <= r; i++)
        v += (uint32_t) k.w[i] *
            ((uint32_t) mid[(size_t) rows[y - i + r] * row_bytes + x] +
            mid[(size_t) rows[y + i + r] * row_bytes + x]);
      out[x] = cip_blur_round (v);
    }
  }

  free (columns);
  free (rows);
  free (mid);
  return CIP_OK;
}
