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

const CipOps cip_cuda_ops = {
  .copy = cip_copy,
  .fill = cip_fill,
  .host_alloc = cip_host_alloc,
  .host_free = cip_host_free,
  .gray = cip_gray,
  .mask = cip_mask,
  .equalize = cip_equalize,
  .otsu = cip_otsu,
  .blur = cip_blur,
  .morph = cip_morph,
  .label = cip_label,
};

const CipOps cip_ref_ops = {
  .copy = cip_ref_copy,
  .fill = cip_ref_fill,
  .host_alloc = cip_ref_host_alloc,
  .host_free = cip_ref_host_free,
  .gray = cip_ref_gray,
  .mask = cip_ref_mask,
  .equalize = cip_ref_equalize,
  .otsu = cip_ref_otsu,
  .blur = cip_ref_blur,
  .morph = cip_ref_morph,
  .label = cip_ref_label,
};
