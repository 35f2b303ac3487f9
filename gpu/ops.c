/* gst-cuda-imgproc
 * Copyright (C) 2026 The gst-cuda-imgproc authors
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2 of the License, or (at your option) any later version.
 */

#include "cip.h"
#include "cip-ref.h"

/* Both backends name their operations alike: cip_gray, cip_ref_gray. */
#define CIP_OPS(prefix) { \
  .copy = prefix##copy, \
  .fill = prefix##fill, \
  .host_alloc = prefix##host_alloc, \
  .host_free = prefix##host_free, \
  .gray = prefix##gray, \
  .mask = prefix##mask, \
  .equalize = prefix##equalize, \
  .equalize_smoothed = prefix##equalize_smoothed, \
  .buffer_alloc = prefix##buffer_alloc, \
  .buffer_free = prefix##buffer_free, \
  .otsu = prefix##otsu, \
  .blur = prefix##blur, \
  .morph = prefix##morph, \
  .label = prefix##label, \
  .otsu16 = prefix##otsu16, \
  .otsu_smoothed = prefix##otsu_smoothed, \
  .otsu16_smoothed = prefix##otsu16_smoothed, \
}

const CipOps cip_cuda_ops = CIP_OPS (cip_);
const CipOps cip_ref_ops = CIP_OPS (cip_ref_);
