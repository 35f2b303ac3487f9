/* gst-cuda-imgproc
 * Copyright (C) 2026 The gst-cuda-imgproc authors
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2 of the License, or (at your option) any later version.
 */

/* Colour to gray: cip_gray_pixel() on every pixel. */

#include "cip-cuda.cuh"

struct GrayParams
{
  const uint8_t *src;
  size_t src_stride;
  uint8_t *dst;
  size_t dst_stride;
  int width;
  int height;
  CipChannelLayout layout;
  bool dst_aligned;
};

/* Four-byte pixels whose rows are 16-byte aligned: one 16-byte load gives
 * the four pixels a thread converts. */
template < CipGrayMethod method >
__global__ void
gray_kernel_packed4 (GrayParams p)
{
  int x = (blockIdx.x * blockDim.x + threadIdx.x) * CIP_PIXELS_PER_THREAD;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  const uint8_t *in;
  uint8_t px[16];
  uchar4 out;

  if (x >= p.width || y >= p.height)
    return;

  in = p.src + y * p.src_stride + (size_t) x * 4;
  if (x + 3 < p.width) {
    *(uint4 *) px = *(const uint4 *) in;
  } else {
    for (int i = 0; i < 16; i++)
      px[i] = (x + i / 4 < p.width) ? in[i] : 0;
  }

  out.x = cip_gray_pixel (px[p.layout.r], px[p.layout.g], px[p.layout.b],
      method);
  out.y = cip_gray_pixel (px[4 + p.layout.r], px[4 + p.layout.g],
      px[4 + p.layout.b], method);
  out.z = cip_gray_pixel (px[8 + p.layout.r], px[8 + p.layout.g],
      px[8 + p.layout.b], method);
  out.w = cip_gray_pixel (px[12 + p.layout.r], px[12 + p.layout.g],
      px[12 + p.layout.b], method);
  cip_store4 (p.dst + y * p.dst_stride, x, p.width, p.dst_aligned, out);
}

/* Any layout, any alignment: byte loads. */
template < CipGrayMethod method >
__global__ void
gray_kernel_bytes (GrayParams p)
{
  int x = (blockIdx.x * blockDim.x + threadIdx.x) * CIP_PIXELS_PER_THREAD;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  const uint8_t *in;
  uint8_t v[CIP_PIXELS_PER_THREAD];

  if (x >= p.width || y >= p.height)
    return;

  in = p.src + y * p.src_stride + (size_t) x * p.layout.bytes_per_pixel;
  for (int i = 0; i < CIP_PIXELS_PER_THREAD; i++, in += p.layout.bytes_per_pixel)
    v[i] = (x + i < p.width) ?
        cip_gray_pixel (in[p.layout.r], in[p.layout.g], in[p.layout.b],
        method) : 0;
  cip_store4 (p.dst + y * p.dst_stride, x, p.width, p.dst_aligned,
      make_uchar4 (v[0], v[1], v[2], v[3]));
}

template < CipGrayMethod method >
static CipStatus
launch_gray (const GrayParams & p, bool packed4, CipStream * stream)
{
  dim3 grid = cip_grid_2d (p.width, p.height);

  if (packed4)
    gray_kernel_packed4 < method > <<<grid, cip_block_2d (), 0,
        stream->stream >>> (p);
  else
    gray_kernel_bytes < method > <<<grid, cip_block_2d (), 0,
        stream->stream >>> (p);
  CIP_CUDA_TRY_LAUNCH (stream, "gray kernel");
  return CIP_OK;
}

extern "C" CipStatus
cip_gray (const CipImage * src, CipImage * dst, CipGrayMethod method,
    CipStream * stream)
{
  GrayParams p;
  bool packed4;

  if (stream == NULL || cip_check_pair (src, dst, 0) != CIP_OK ||
      cip_check_gray_method (method) != CIP_OK)
    return CIP_ERROR_INVALID_ARGUMENT;

  if (src->format == CIP_FORMAT_GRAY8)
    return cip_copy (src, dst, stream);

  p.src = (const uint8_t *) src->data;
  p.src_stride = src->stride;
  p.dst = (uint8_t *) dst->data;
  p.dst_stride = dst->stride;
  p.width = src->width;
  p.height = src->height;
  p.layout = cip_format_layout (src->format);
  p.dst_aligned = cip_rows_aligned (dst, 4);
  packed4 = p.layout.bytes_per_pixel == 4 && cip_rows_aligned (src, 16);

  switch (method) {
    case CIP_GRAY_BT601:
      return launch_gray < CIP_GRAY_BT601 > (p, packed4, stream);
    case CIP_GRAY_BT709:
      return launch_gray < CIP_GRAY_BT709 > (p, packed4, stream);
    case CIP_GRAY_LUMINOSITY:
      return launch_gray < CIP_GRAY_LUMINOSITY > (p, packed4, stream);
    case CIP_GRAY_AVERAGE:
      return launch_gray < CIP_GRAY_AVERAGE > (p, packed4, stream);
  }
  return CIP_ERROR_INVALID_ARGUMENT;
}
