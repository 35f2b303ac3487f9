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

#include <stdlib.h>

CipStatus
cip_ref_otsu (const CipImage * src, CipImage * dst, bool invert,
    uint8_t * threshold, CipStream * stream)
{
  return cip_ref_otsu_smoothed (src, dst, invert, threshold, NULL, stream);
}

CipStatus
cip_ref_otsu_smoothed (const CipImage * src, CipImage * dst, bool invert,
    uint8_t * threshold, const CipSmoothing * smoothing, CipStream * stream)
{
  uint32_t hist[CIP_HIST_BINS];
  CipMaskParams binarize = { 0, 255, invert };
  int i;

  (void) stream;
  if (threshold == NULL ||
      cip_check_threshold_pair (src, dst, CIP_FORMAT_GRAY8) != CIP_OK ||
      !cip_smoothing_valid (smoothing))
    return CIP_ERROR_INVALID_ARGUMENT;

  cip_ref_histogram (src, hist);
  for (i = 0; smoothing && i < CIP_HIST_BINS; i++)
    hist[i] = cip_smooth_bin (smoothing, i, hist[i]);
  binarize.threshold = cip_otsu_threshold (hist);
  *threshold = (uint8_t) binarize.threshold;
  return cip_ref_mask (src, dst, &binarize, NULL);
}

CipStatus
cip_ref_otsu16 (const CipImage * src, CipImage * dst, bool invert,
    uint16_t * threshold, CipStream * stream)
{
  return cip_ref_otsu16_smoothed (src, dst, invert, threshold, NULL, stream);
}

CipStatus
cip_ref_otsu16_smoothed (const CipImage * src, CipImage * dst, bool invert,
    uint16_t * threshold, const CipSmoothing * smoothing, CipStream * stream)
{
  CipMaskParams binarize = { 0, 255, invert };
  uint32_t *hist;
  float *upper;
  int i;

  (void) stream;
  if (threshold == NULL ||
      cip_check_threshold_pair (src, dst, CIP_FORMAT_GRAY16) != CIP_OK ||
      !cip_smoothing_valid (smoothing))
    return CIP_ERROR_INVALID_ARGUMENT;

  /* 512 KiB: too much for a streaming thread's stack */
  hist = malloc (CIP_HIST16_BINS * sizeof (uint32_t));
  upper = malloc (CIP_HIST16_BINS * sizeof (float));
  if (hist == NULL || upper == NULL) {
    free (hist);
    free (upper);
    return CIP_ERROR_OUT_OF_MEMORY;
  }
  cip_ref_histogram16 (src, hist);
  for (i = 0; smoothing && i < CIP_HIST16_BINS; i++)
    hist[i] = cip_smooth_bin (smoothing, i, hist[i]);
  binarize.threshold = cip_otsu16_threshold (hist, upper);
  free (hist);
  free (upper);
  *threshold = binarize.threshold;
  return cip_ref_mask (src, dst, &binarize, NULL);
}
