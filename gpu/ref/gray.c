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

/* A two-byte layout's luma (cip_luma16()), as GRAY8 or GRAY16. */
static void
luma_row (const uint8_t * in, uint8_t * out, int width, CipFormat format,
    CipFormat out_format)
{
  int x;

  for (x = 0; x < width; x++) {
    uint16_t v = cip_luma16 (in[2 * x] | (uint32_t) in[2 * x + 1] << 8,
        format);

    if (out_format == CIP_FORMAT_GRAY16) {
      out[2 * x] = v & 0xff;
      out[2 * x + 1] = v >> 8;
    } else {
      out[x] = v >> 8;
    }
  }
}

CipStatus
cip_ref_gray (const CipImage * src, CipImage * dst, CipGrayMethod method,
    CipStream * stream)
{
  CipChannelLayout layout;
  int x, y;

  (void) stream;
  if (cip_check_gray_pair (src, dst) != CIP_OK ||
      cip_check_gray_method (method) != CIP_OK)
    return CIP_ERROR_INVALID_ARGUMENT;

  layout = cip_format_layout (src->format);
  for (y = 0; y < src->height; y++) {
    const uint8_t *in = (const uint8_t *) src->data + y * src->stride;
    uint8_t *out = (uint8_t *) dst->data + y * dst->stride;

    if (src->format == dst->format) {
      memcpy (out, in, (size_t) src->width * layout.bytes_per_pixel);
      continue;
    }
    if (layout.bytes_per_pixel == 2) {
      luma_row (in, out, src->width, src->format, dst->format);
      continue;
    }
    for (x = 0; x < src->width; x++, in += layout.bytes_per_pixel)
      out[x] = cip_gray_pixel (in[layout.r], in[layout.g], in[layout.b],
          method);
  }
  return CIP_OK;
}
