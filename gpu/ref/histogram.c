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

#include <string.h>

CipStatus
cip_ref_histogram (const CipImage * src, uint32_t * hist)
{
  int x, y;

  if (hist == NULL || cip_image_validate (src) != CIP_OK ||
      src->format != CIP_FORMAT_GRAY8)
    return CIP_ERROR_INVALID_ARGUMENT;

  memset (hist, 0, CIP_HIST_BINS * sizeof (uint32_t));
  for (y = 0; y < src->height; y++) {
    const uint8_t *in = (const uint8_t *) src->data + y * src->stride;

    for (x = 0; x < src->width; x++)
      hist[in[x]]++;
  }
  return CIP_OK;
}

CipStatus
cip_ref_histogram16 (const CipImage * src, uint32_t * hist)
{
  int x, y;

  if (hist == NULL || cip_image_validate (src) != CIP_OK ||
      src->format != CIP_FORMAT_GRAY16)
    return CIP_ERROR_INVALID_ARGUMENT;

  memset (hist, 0, CIP_HIST16_BINS * sizeof (uint32_t));
  for (y = 0; y < src->height; y++) {
    const uint8_t *in = (const uint8_t *) src->data + y * src->stride;

    for (x = 0; x < src->width; x++)
      hist[in[2 * x] | in[2 * x + 1] << 8]++;
  }
  return CIP_OK;
}
