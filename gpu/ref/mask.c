/* gst-cuda-imgproc
 * Copyright (C) 2026 The gst-cuda-imgproc authors
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2 of the License, or (at your option) any later version.
 */

#include "cip-ref.h"
#include "cip-threshold.h"

CipStatus
cip_ref_mask (const CipImage * src, CipImage * dst,
    const CipMaskParams * params, CipStream * stream)
{
  int x, y;

  (void) stream;
  if (params == NULL || src == NULL ||
      cip_check_threshold_pair (src, dst, src->format == CIP_FORMAT_GRAY16 ?
          CIP_FORMAT_GRAY16 : CIP_FORMAT_GRAY8) != CIP_OK)
    return CIP_ERROR_INVALID_ARGUMENT;

  for (y = 0; y < src->height; y++) {
    const uint8_t *in = (const uint8_t *) src->data + y * src->stride;
    uint8_t *out = (uint8_t *) dst->data + y * dst->stride;

    if (src->format == CIP_FORMAT_GRAY16) {
      /* little-endian words, at any alignment */
      for (x = 0; x < src->width; x++)
        out[x] = cip_mask_pixel (in[2 * x] | in[2 * x + 1] << 8,
            params->threshold, params->foreground, params->invert);
      continue;
    }
    for (x = 0; x < src->width; x++)
      out[x] = cip_mask_pixel (in[x], params->threshold, params->foreground,
          params->invert);
  }
  return CIP_OK;
}
