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
cip_ref_otsu (const CipImage * src, CipImage * dst, bool invert,
    uint8_t * threshold, CipStream * stream)
{
  uint32_t hist[CIP_HIST_BINS];
  CipMaskParams binarize = { 0, 255, invert };

  (void) stream;
  if (threshold == NULL || cip_check_pair (src, dst, 1) != CIP_OK)
    return CIP_ERROR_INVALID_ARGUMENT;

  cip_ref_histogram (src, hist);
  binarize.threshold = cip_otsu_threshold (hist);
  *threshold = binarize.threshold;
  return cip_ref_mask (src, dst, &binarize, NULL);
}
