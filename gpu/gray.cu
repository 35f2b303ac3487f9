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

/* Pixels in groups of four; a block converts CIP_ROW_SPAN pixels of a row,
 * each thread four groups a warp-width apart, all loads issued before any
 * arithmetic so that they are in flight together. */
#define GRAY_GROUP 4
#define GRAY_GROUPS_PER_THREAD (CIP_UNIT / GRAY_GROUP)
#define GRAY_GROUP_STRIDE (CIP_ROW_THREADS * GRAY_GROUP)

/* The gray value of a four-byte pixel held in a word (little endian: byte
 * i of the pixel is bits 8i..8i+7). */
__device__ __forceinline__ uint8_t
gray_of_word (uint32_t w, const CipChannelLayout & layout,
    CipGrayMethod method)
{
  return cip_gray_pixel ((w >> (8 * layout.r)) & 0xff,
      (w >> (8 * layout.g)) & 0xff, (w >> (8 * layout.b)) & 0xff, method);
}

/* Four-byte pixels in 16-byte aligned rows: one 16-byte load per group. */
template < CipGrayMethod method >
__global__ void
gray_kernel_packed4 (GrayParams p)
{
  int y = blockIdx.y;
  int x0 = blockIdx.x * CIP_ROW_SPAN + threadIdx.x * GRAY_GROUP;
  const uint8_t *__restrict__ in = p.src + y * p.src_stride;
  uint8_t *out = p.dst + y * p.dst_stride;
  uint4 px[GRAY_GROUPS_PER_THREAD];

  if (x0 >= p.width)
    return;

#pragma unroll
  for (int k = 0; k < GRAY_GROUPS_PER_THREAD; k++) {
    int x = x0 + k * GRAY_GROUP_STRIDE;
    const uint32_t *words = (const uint32_t *) (in + (size_t) x * 4);

    if (x + GRAY_GROUP <= p.width)
      px[k] = *(const uint4 *) words;
    else if (x < p.width)
      px[k] = make_uint4 (words[0], x + 1 < p.width ? words[1] : 0,
          x + 2 < p.width ? words[2] : 0, x + 3 < p.width ? words[3] : 0);
  }

#pragma unroll
  for (int k = 0; k < GRAY_GROUPS_PER_THREAD; k++) {
    int x = x0 + k * GRAY_GROUP_STRIDE;

    if (x < p.width)
      cip_store4 (out, x, p.width, p.dst_aligned,
          make_uchar4 (gray_of_word (px[k].x, p.layout, method),
              gray_of_word (px[k].y, p.layout, method),
              gray_of_word (px[k].z, p.layout, method),
              gray_of_word (px[k].w, p.layout, method)));
  }
}

/* Any layout and alignment: byte loads. */
template < CipGrayMethod method >
__global__ void
gray_kernel_bytes (GrayParams p)
{
  const int bpp = p.layout.bytes_per_pixel;
  int y = blockIdx.y;
  int x0 = blockIdx.x * CIP_ROW_SPAN + threadIdx.x * GRAY_GROUP;
  const uint8_t *in = p.src + y * p.src_stride;
  uint8_t *out = p.dst + y * p.dst_stride;

  if (x0 >= p.width)
    return;

  for (int k = 0; k < GRAY_GROUPS_PER_THREAD; k++) {
    int x = x0 + k * GRAY_GROUP_STRIDE;
    uint8_t v[GRAY_GROUP];

    if (x >= p.width)
      break;
    for (int i = 0; i < GRAY_GROUP; i++) {
      const uint8_t *px = in + (size_t) (x + i) * bpp;

      v[i] = x + i < p.width ?
          cip_gray_pixel (px[p.layout.r], px[p.layout.g], px[p.layout.b],
          method) : 0;
    }
    cip_store4 (out, x, p.width, p.dst_aligned,
        make_uchar4 (v[0], v[1], v[2], v[3]));
  }
}

template < CipGrayMethod method >
static CipStatus
launch_gray (const GrayParams & p, bool packed4, CipStream * stream)
{
  dim3 grid (cip_row_segments (p.width), p.height);

  if (packed4)
    gray_kernel_packed4 < method > <<<grid, CIP_ROW_THREADS, 0,
        stream->stream >>> (p);
  else
    gray_kernel_bytes < method > <<<grid, CIP_ROW_THREADS, 0,
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
