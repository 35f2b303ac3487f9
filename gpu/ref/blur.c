/* gst-cuda-imgproc
 * Copyright (C) 2026 The gst-cuda-imgproc authors
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2 of the License, or (at your option) any later version.
 */

/* Gaussian blur, as cip-blur.h defines it: the horizontal pass of every
 * byte (GRAY16: every 16-bit sample) into a whole-precision 16-bit (32-bit)
 * image, then the vertical pass. */

#include <stdlib.h>

#include "cip-ref.h"
#include "cip-blur.h"

/* The mirrored pixel of every position the taps reach, or NULL. */
static int *
mirrored (int len, int r)
{
  int *map = malloc ((len + 2 * r) * sizeof (int));
  int p;

  if (map != NULL)
    for (p = -r; p < len + r; p++)
      map[p + r] = cip_blur_reflect (p, len);
  return map;
}

/* GRAY16: 32-bit horizontal sums of little-endian samples (at any
 * alignment), 64-bit vertical ones. */
static CipStatus
blur16 (const CipImage * src, CipImage * dst, const CipBlurKernel * k,
    const int *columns, const int *rows)
{
  int width = src->width, height = src->height, r = k->radius, x, y, i;
  uint32_t *mid = malloc ((size_t) width * height * sizeof (uint32_t));

  if (mid == NULL)
    return CIP_ERROR_OUT_OF_MEMORY;

  for (y = 0; y < height; y++) {
    const uint8_t *in = (const uint8_t *) src->data + y * src->stride;
    uint32_t *out = mid + (size_t) y * width;

    for (x = 0; x < width; x++) {
      uint32_t h = (uint32_t) k->w[0] * (in[2 * x] | in[2 * x + 1] << 8);

      for (i = 1; i <= r; i++) {
        int left = columns[x - i + r], right = columns[x + i + r];

        h += (uint32_t) k->w[i] * (uint32_t) ((in[2 * left] |
                in[2 * left + 1] << 8) + (in[2 * right] |
                in[2 * right + 1] << 8));
      }
      out[x] = h;
    }
  }

  for (y = 0; y < height; y++) {
    uint8_t *out = (uint8_t *) dst->data + y * dst->stride;
    const uint32_t *centre = mid + (size_t) y * width;

    for (x = 0; x < width; x++) {
      uint64_t v = (uint64_t) k->w[0] * centre[x];
      uint16_t result;

      for (i = 1; i <= r; i++)
        v += (uint64_t) k->w[i] *
            ((uint64_t) mid[(size_t) rows[y - i + r] * width + x] +
            mid[(size_t) rows[y + i + r] * width + x]);
      result = cip_blur16_round (v);
      out[2 * x] = (uint8_t) result;
      out[2 * x + 1] = (uint8_t) (result >> 8);
    }
  }

  free (mid);
  return CIP_OK;
}

/* GRAY8 and the four-byte formats: every byte its own channel, 16-bit
 * horizontal sums, 32-bit vertical ones. */
static CipStatus
blur8 (const CipImage * src, CipImage * dst, const CipBlurKernel * k,
    const int *columns, const int *rows)
{
  int bpp = cip_format_bytes_per_pixel (src->format);
  int width = src->width, height = src->height, r = k->radius, x, y, i;
  int row_bytes = width * bpp;
  uint16_t *mid = malloc ((size_t) row_bytes * height * sizeof (uint16_t));

  if (mid == NULL)
    return CIP_ERROR_OUT_OF_MEMORY;

  for (y = 0; y < height; y++) {
    const uint8_t *in = (const uint8_t *) src->data + y * src->stride;
    uint16_t *out = mid + (size_t) y * row_bytes;

    for (x = 0; x < width; x++) {
      int c;

      for (c = 0; c < bpp; c++) {
        uint32_t h = (uint32_t) k->w[0] * in[x * bpp + c];

        for (i = 1; i <= r; i++)
          h += (uint32_t) k->w[i] * (in[columns[x - i + r] * bpp + c] +
              in[columns[x + i + r] * bpp + c]);
        out[x * bpp + c] = (uint16_t) h;
      }
    }
  }

  for (y = 0; y < height; y++) {
    uint8_t *out = (uint8_t *) dst->data + y * dst->stride;
    const uint16_t *centre = mid + (size_t) y * row_bytes;

    for (x = 0; x < row_bytes; x++) {
      uint32_t v = (uint32_t) k->w[0] * centre[x];

      for (i = 1; i <= r; i++)
        v += (uint32_t) k->w[i] *
            ((uint32_t) mid[(size_t) rows[y - i + r] * row_bytes + x] +
            mid[(size_t) rows[y + i + r] * row_bytes + x]);
      out[x] = cip_blur_round (v);
    }
  }

  free (mid);
  return CIP_OK;
}

CipStatus
cip_ref_blur (const CipImage * src, CipImage * dst, double sigma,
    CipStream * stream)
{
  CipBlurKernel k;
  int *columns, *rows;
  CipStatus status = CIP_ERROR_OUT_OF_MEMORY;

  (void) stream;
  if (cip_blur_check (src, dst, sigma) != CIP_OK)
    return CIP_ERROR_INVALID_ARGUMENT;

  cip_blur_kernel_for (sigma, src->format, &k);
  columns = mirrored (src->width, k.radius);
  rows = mirrored (src->height, k.radius);
  if (columns != NULL && rows != NULL)
    status = src->format == CIP_FORMAT_GRAY16 ?
        blur16 (src, dst, &k, columns, rows) :
        blur8 (src, dst, &k, columns, rows);
  free (columns);
  free (rows);
  return status;
}
