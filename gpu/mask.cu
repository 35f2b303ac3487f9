/* gst-cuda-imgproc
 * Copyright (C) 2026 The gst-cuda-imgproc authors
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2 of the License, or (at your option) any later version.
 */

/* Binary masks: at a fixed threshold (cip_mask) or at one computed on the
 * device (the last step of cip_otsu). */

#include "cip-cuda.cuh"

struct MaskParams
{
  const uint8_t *src;
  size_t src_stride;
  uint8_t *dst;
  size_t dst_stride;
  int width;
  int height;
  bool src_aligned;
  bool dst_aligned;
  uint8_t threshold;
  uint8_t foreground;
  bool invert;
};

/* @device_threshold, when set, overrides p.threshold. */
__global__ void
mask_kernel (MaskParams p, const uint8_t * device_threshold)
{
  int x = (blockIdx.x * blockDim.x + threadIdx.x) * CIP_PIXELS_PER_THREAD;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  uint8_t t;
  uchar4 v;

  if (x >= p.width || y >= p.height)
    return;

  t = device_threshold ? *device_threshold : p.threshold;
  v = cip_load4 (p.src + y * p.src_stride, x, p.width, p.src_aligned);
  v.x = cip_mask_pixel (v.x, t, p.foreground, p.invert);
  v.y = cip_mask_pixel (v.y, t, p.foreground, p.invert);
  v.z = cip_mask_pixel (v.z, t, p.foreground, p.invert);
  v.w = cip_mask_pixel (v.w, t, p.foreground, p.invert);
  cip_store4 (p.dst + y * p.dst_stride, x, p.width, p.dst_aligned, v);
}

static CipStatus
launch_mask (const CipImage * src, CipImage * dst, uint8_t threshold,
    const uint8_t * device_threshold, uint8_t foreground, bool invert,
    CipStream * stream)
{
  MaskParams p;

  p.src = (const uint8_t *) src->data;
  p.src_stride = src->stride;
  p.dst = (uint8_t *) dst->data;
  p.dst_stride = dst->stride;
  p.width = src->width;
  p.height = src->height;
  p.src_aligned = cip_rows_aligned (src, 4);
  p.dst_aligned = cip_rows_aligned (dst, 4);
  p.threshold = threshold;
  p.foreground = foreground;
  p.invert = invert;

  mask_kernel <<<cip_grid_2d (p.width, p.height), cip_block_2d (), 0,
      stream->stream >>> (p, device_threshold);
  CIP_CUDA_TRY_LAUNCH (stream, "mask kernel");
  return CIP_OK;
}

extern "C" CipStatus
cip_mask (const CipImage * src, CipImage * dst, const CipMaskParams * params,
    CipStream * stream)
{
  if (stream == NULL || params == NULL || cip_check_pair (src, dst, 1) != CIP_OK)
    return CIP_ERROR_INVALID_ARGUMENT;
  return launch_mask (src, dst, params->threshold, NULL, params->foreground,
      params->invert, stream);
}

CipStatus
cip_cuda_binarize_at (const CipImage * src, CipImage * dst,
    const uint8_t * device_threshold, uint8_t foreground, bool invert,
    CipStream * stream)
{
  return launch_mask (src, dst, 0, device_threshold, foreground, invert,
      stream);
}
