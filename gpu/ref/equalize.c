/* gst-cuda-imgproc
 * Copyright (C) 2026 The gst-cuda-imgproc authors
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2 of the License, or (at your option) any later version.
 */

#include <stdlib.h>
#include <string.h>

#include "cip-ref.h"
#include "cip-format.h"

CipStatus
cip_check_equalize_pair (const CipImage * src, const CipImage * dst)
{
  if (src == NULL || dst == NULL)
    return CIP_ERROR_INVALID_ARGUMENT;
  switch (src->format) {
    case CIP_FORMAT_GRAY8:
      return cip_check_pair (src, dst, 1);
    case CIP_FORMAT_GRAY16:
    case CIP_FORMAT_YUYV:
    case CIP_FORMAT_UYVY:
      break;
    default:
      return CIP_ERROR_INVALID_ARGUMENT;
  }
  if (cip_image_validate (src) != CIP_OK || cip_image_validate (dst) != CIP_OK
      || dst->format != src->format || dst->width != src->width ||
      dst->height != src->height)
    return CIP_ERROR_INVALID_ARGUMENT;
  /* an odd width's last macropixel is whole */
  if (src->format != CIP_FORMAT_GRAY16 &&
      (src->stride < (size_t) cip_packed_row_bytes (src->width) ||
          dst->stride < (size_t) cip_packed_row_bytes (dst->width)))
    return CIP_ERROR_INVALID_ARGUMENT;
  return CIP_OK;
}

CipStatus
cip_ref_equalize (const CipImage * src, CipImage * dst, CipStream * stream)
{
  return cip_ref_equalize_smoothed (src, dst, NULL, stream);
}

/* The Y bytes of a packed 4:2:2 row are every other byte from @offset;
 * the histogram counts those of the image's pixels, and the rows are
 * copied whole, those Y bytes through @lut. */
static void
equalize_packed (const CipImage * src, CipImage * dst,
    const CipSmoothing * smoothing)
{
  uint32_t hist[CIP_HIST_BINS] = { 0 };
  uint8_t lut[CIP_HIST_BINS];
  int offset = src->format == CIP_FORMAT_UYVY ? 1 : 0;
  int row_bytes = cip_packed_row_bytes (src->width);
  int i, x, y;

  for (y = 0; y < src->height; y++) {
    const uint8_t *in = (const uint8_t *) src->data + y * src->stride;

    for (x = 0; x < src->width; x++)
      hist[in[2 * x + offset]]++;
  }
  for (i = 0; smoothing && i < CIP_HIST_BINS; i++)
    hist[i] = cip_smooth_bin (smoothing, i, hist[i]);
  cip_equalize_lut (hist, lut);

  for (y = 0; y < src->height; y++) {
    const uint8_t *in = (const uint8_t *) src->data + y * src->stride;
    uint8_t *out = (uint8_t *) dst->data + y * dst->stride;

    memcpy (out, in, row_bytes);
    for (x = 0; x < src->width; x++)
      out[2 * x + offset] = lut[in[2 * x + offset]];
  }
}

/* GRAY16: the definition of cip_equalize16_value(), a level per bin. */
static CipStatus
equalize16 (const CipImage * src, CipImage * dst,
    const CipSmoothing * smoothing)
{
  uint32_t *hist = malloc (CIP_HIST16_BINS * sizeof (uint32_t));
  uint16_t *lut = calloc (CIP_HIST16_BINS, sizeof (uint16_t));
  uint32_t total = 0, sum = 0;
  int first = 0, i, x, y;

  if (hist == NULL || lut == NULL) {
    free (hist);
    free (lut);
    return CIP_ERROR_OUT_OF_MEMORY;
  }
  cip_ref_histogram16 (src, hist);
  for (i = 0; smoothing && i < CIP_HIST16_BINS; i++)
    hist[i] = cip_smooth_bin (smoothing, i, hist[i]);
  for (i = 0; i < CIP_HIST16_BINS; i++)
    total += hist[i];
  while (first < CIP_HIST16_BINS - 1 && hist[first] == 0)
    first++;
  if (hist[first] == total) {
    lut[first] = (uint16_t) first;
  } else {
    for (i = first + 1; i < CIP_HIST16_BINS; i++) {
      sum += hist[i];
      lut[i] = cip_equalize16_value (sum, total - hist[first]);
    }
  }

  for (y = 0; y < src->height; y++) {
    const uint8_t *in = (const uint8_t *) src->data + y * src->stride;
    uint8_t *out = (uint8_t *) dst->data + y * dst->stride;

    for (x = 0; x < src->width; x++) {
      uint16_t v = lut[in[2 * x] | in[2 * x + 1] << 8];

      out[2 * x] = (uint8_t) v;
      out[2 * x + 1] = (uint8_t) (v >> 8);
    }
  }
  free (hist);
  free (lut);
  return CIP_OK;
}

CipStatus
cip_ref_equalize_smoothed (const CipImage * src, CipImage * dst,
    const CipSmoothing * smoothing, CipStream * stream)
{
  uint32_t hist[CIP_HIST_BINS];
  uint8_t lut[CIP_HIST_BINS];
  int i, x, y;

  (void) stream;
  if (cip_check_equalize_pair (src, dst) != CIP_OK ||
      !cip_smoothing_valid (smoothing))
    return CIP_ERROR_INVALID_ARGUMENT;

  if (src->format == CIP_FORMAT_GRAY16)
    return equalize16 (src, dst, smoothing);
  if (src->format != CIP_FORMAT_GRAY8) {
    equalize_packed (src, dst, smoothing);
    return CIP_OK;
  }

  cip_ref_histogram (src, hist);
  for (i = 0; smoothing && i < CIP_HIST_BINS; i++)
    hist[i] = cip_smooth_bin (smoothing, i, hist[i]);
  cip_equalize_lut (hist, lut);

  for (y = 0; y < src->height; y++) {
    const uint8_t *in = (const uint8_t *) src->data + y * src->stride;
    uint8_t *out = (uint8_t *) dst->data + y * dst->stride;

    for (x = 0; x < src->width; x++)
      out[x] = lut[in[x]];
  }
  return CIP_OK;
}
