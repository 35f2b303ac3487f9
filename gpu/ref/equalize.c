/* gst-cuda-imgproc
 * Copyright (C) 2026 The gst-cuda-imgproc authors
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2 of the License, or (at your option) any later version.
 */

#include "cip-ref.h"
#include "cip-format.h"

CipStatus
cip_ref_equalize (const CipImage * src, CipImage * dst, CipStream * stream)
{
  return cip_ref_equalize_smoothed (src, dst, NULL, stream);
}

CipStatus
cip_ref_equalize_smoothed (const CipImage * src, CipImage * dst,
    const CipSmoothing * smoothing, CipStream * stream)
{
  uint32_t hist[CIP_HIST_BINS];
  uint8_t lut[CIP_HIST_BINS];
  int i, x, y;

  (void) stream;
  if (cip_check_pair (src, dst, 1) != CIP_OK ||
      !cip_smoothing_valid (smoothing))
    return CIP_ERROR_INVALID_ARGUMENT;

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
