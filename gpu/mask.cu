/* gst-cuda-imgproc
 * Copyright (C) 2026 The gst-cuda-imgproc authors
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2 of the License, or (at your option) any later version.
 */

/* Binary masks at a fixed threshold. */

#include "cip-histogram.cuh"
#include "cip-threshold.h"

struct MaskParams
{
  const uint8_t *src;
  size_t src_stride;
  uint8_t *dst;
  size_t dst_stride;
  int width;
  int height;
  bool src_aligned;             /* 16-byte rows */
  bool dst_aligned;
  uint16_t threshold;
  uint8_t foreground;
  bool invert;
};

/* A block covers CIP_ROW_SPAN pixels of a row, a thread CIP_UNIT. */
__global__ void
mask_kernel (MaskParams p)
{
  int x = blockIdx.x * CIP_ROW_SPAN + threadIdx.x * CIP_UNIT;
  int y = blockIdx.y;
  CipUnit v;

  if (x >= p.width)
    return;

  v = cip_load16 (p.src + y * p.src_stride, x, p.width, p.src_aligned);
#pragma unroll
  for (int i = 0; i < CIP_UNIT; i++)
    v.b[i] = cip_mask_pixel (v.b[i], p.threshold, p.foreground, p.invert);
  cip_store16 (p.dst + y * p.dst_stride, x, p.width, p.dst_aligned, v);
}

/* The same on GRAY16: a thread reads 32 bytes and writes 16. */
__global__ void
mask16_kernel (MaskParams p)
{
  int x = blockIdx.x * CIP_ROW_SPAN + threadIdx.x * CIP_UNIT;
  int y = blockIdx.y;
  uint16_t w[CIP_UNIT];
  CipUnit v;

  if (x >= p.width)
    return;

  cip_load16_words (p.src + y * p.src_stride, x, p.width, p.src_aligned, w);
#pragma unroll
  for (int i = 0; i < CIP_UNIT; i++)
    v.b[i] = cip_mask_pixel (w[i], p.threshold, p.foreground, p.invert);
  cip_store16 (p.dst + y * p.dst_stride, x, p.width, p.dst_aligned, v);
}

extern "C" CipStatus
cip_mask (const CipImage * src, CipImage * dst, const CipMaskParams * params,
    CipStream * stream)
{
  MaskParams p;

  if (stream == NULL || params == NULL || src == NULL ||
      cip_check_threshold_pair (src, dst, src->format == CIP_FORMAT_GRAY16 ?
          CIP_FORMAT_GRAY16 : CIP_FORMAT_GRAY8) != CIP_OK)
    return CIP_ERROR_INVALID_ARGUMENT;

  p.src = (const uint8_t *) src->data;
  p.src_stride = src->stride;
  p.dst = (uint8_t *) dst->data;
  p.dst_stride = dst->stride;
  p.width = src->width;
  p.height = src->height;
  p.src_aligned = cip_rows_aligned (src, 16);
  p.dst_aligned = cip_rows_aligned (dst, 16);
  p.threshold = params->threshold;
  p.foreground = params->foreground;
  p.invert = params->invert;

  if (src->format == CIP_FORMAT_GRAY16)
    mask16_kernel <<<dim3 (cip_row_segments (p.width), p.height),
        CIP_ROW_THREADS, 0, stream->stream >>> (p);
  else
    mask_kernel <<<dim3 (cip_row_segments (p.width), p.height),
        CIP_ROW_THREADS, 0, stream->stream >>> (p);
  CIP_CUDA_TRY_LAUNCH (stream, "mask kernel");
  return CIP_OK;
}
