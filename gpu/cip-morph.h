/* gst-cuda-imgproc
 * Copyright (C) 2026 The gst-cuda-imgproc authors
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2 of the License, or (at your option) any later version.
 */

/* Morphology helpers shared by the kernels and the reference: the
 * structuring element as one horizontal span per row, and the argument
 * checks. */

#ifndef __CIP_MORPH_H__
#define __CIP_MORPH_H__

#include "cip.h"
#include "cip-pixel.h"

/* Every row dy (-radius .. radius) of each shape is one centred run of
 * pixels dx = -a .. a; this is a, never negative (the centre column is in
 * every row). */
CIP_HOST_DEVICE int
cip_morph_span (CipMorphShape shape, int radius, int dy)
{
  int a = 0;

  switch (shape) {
    case CIP_SHAPE_SQUARE:
      return radius;
    case CIP_SHAPE_CROSS:
      return dy == 0 ? radius : 0;
    case CIP_SHAPE_DISK:
    default:
      /* The largest a with a^2 + dy^2 <= radius^2, in integers. */
      while ((a + 1) * (a + 1) + dy * dy <= radius * radius)
        a++;
      return a;
  }
}

/* What erode and dilate leave for pixels outside the image, so that they
 * never win: the identity of min and of max. */
#define CIP_MORPH_NEUTRAL_MIN 0xff
#define CIP_MORPH_NEUTRAL_MAX 0x00

static inline CipStatus
cip_morph_check_params (CipMorphOperation operation, CipMorphShape shape,
    int radius)
{
  if ((unsigned) operation > CIP_MORPH_CLOSE)
    return CIP_ERROR_INVALID_ARGUMENT;
  if ((unsigned) shape > CIP_SHAPE_CROSS)
    return CIP_ERROR_INVALID_ARGUMENT;
  if (radius < CIP_MORPH_RADIUS_MIN || radius > CIP_MORPH_RADIUS_MAX)
    return CIP_ERROR_INVALID_ARGUMENT;
  return CIP_OK;
}

/* Both images well formed, of one size and format, GRAY8 or four bytes per
 * pixel, and not sharing a byte. */
static inline CipStatus
cip_morph_check (const CipImage * src, const CipImage * dst,
    CipMorphOperation operation, CipMorphShape shape, int radius)
{
  size_t row, src_end, dst_end;
  uintptr_t s, d;

  if (cip_image_validate (src) != CIP_OK || cip_image_validate (dst) != CIP_OK)
    return CIP_ERROR_INVALID_ARGUMENT;
  if (src->width != dst->width || src->height != dst->height ||
      src->format != dst->format)
    return CIP_ERROR_INVALID_ARGUMENT;
  if (src->format != CIP_FORMAT_GRAY8 &&
      cip_format_bytes_per_pixel (src->format) != 4)
    return CIP_ERROR_INVALID_ARGUMENT;
  if (cip_morph_check_params (operation, shape, radius) != CIP_OK)
    return CIP_ERROR_INVALID_ARGUMENT;

  row = (size_t) src->width * cip_format_bytes_per_pixel (src->format);
  s = (uintptr_t) src->data;
  d = (uintptr_t) dst->data;
  src_end = (size_t) (src->height - 1) * src->stride + row;
  dst_end = (size_t) (dst->height - 1) * dst->stride + row;
  if (s < d + dst_end && d < s + src_end)
    return CIP_ERROR_INVALID_ARGUMENT;
  return CIP_OK;
}

#endif /* __CIP_MORPH_H__ */
