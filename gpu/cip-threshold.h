/* gst-cuda-imgproc
 * Copyright (C) 2026 The gst-cuda-imgproc authors
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2 of the License, or (at your option) any later version.
 */

/* Internal to gpu/: the arguments of the thresholding operations (mask,
 * Otsu), checked alike by the kernels and the reference. */

#ifndef __CIP_THRESHOLD_H__
#define __CIP_THRESHOLD_H__

#include "cip-format.h"

/* Both images well formed and of one size, @dst GRAY8, @src of @format
 * (GRAY8 or GRAY16). */
static inline CipStatus
cip_check_threshold_pair (const CipImage * src, const CipImage * dst,
    CipFormat format)
{
  if (cip_image_validate (src) != CIP_OK || cip_image_validate (dst) != CIP_OK)
    return CIP_ERROR_INVALID_ARGUMENT;
  if (src->width != dst->width || src->height != dst->height)
    return CIP_ERROR_INVALID_ARGUMENT;
  if (src->format != format || dst->format != CIP_FORMAT_GRAY8)
    return CIP_ERROR_INVALID_ARGUMENT;
  return CIP_OK;
}

#endif /* __CIP_THRESHOLD_H__ */
