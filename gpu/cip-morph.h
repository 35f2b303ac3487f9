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
#include "cip-format.h"
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
 * never win: the identity of min and of max, as a byte; a 16-bit sample
 * (GRAY16) has it in both bytes (0xffff, 0). */
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

/* The checks of cip_morph and cip_ref_morph: cip_check_filter_pair() and
 * the parameters in range. */
static inline CipStatus
cip_morph_check (const CipImage * src, const CipImage * dst,
    CipMorphOperation operation, CipMorphShape shape, int radius)
{
  if (cip_check_filter_pair (src, dst) != CIP_OK ||
      cip_morph_check_params (operation, shape, radius) != CIP_OK)
    return CIP_ERROR_INVALID_ARGUMENT;
  return CIP_OK;
}

#endif /* __CIP_MORPH_H__ */
