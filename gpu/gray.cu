/* gst-cuda-imgproc
 * Copyright (C) 2026 The gst-cuda-imgproc authors
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2 of the License, or (at your option) any later version.
 */

/* Colour to gray: cip_gray_pixel() on every pixel; the luma of two-byte
 * layouts: cip_luma16() on every pixel. */

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
  bool dst_aligned;             /* rows aligned for four-byte stores */
  bool dst_unit_aligned;        /* ... for 16-byte stores */
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

/* Byte @i of the little-endian words @w. */
__device__ __forceinline__ uint32_t
byte_of_words (const uint32_t * w, int i)
{
  return (w[i / 4] >> (8 * (i % 4))) & 0xff;
}

/* Three-byte pixels (RGB, BGR): a thread's CIP_UNIT pixels are 48 bytes,
 * three 16-byte loads, rather than a byte load per channel; red at byte
 * @r_at of a pixel, blue at 2 - @r_at. */
template < CipGrayMethod method, int r_at >
__global__ void
gray_kernel_packed3 (GrayParams p)
{
  int y = blockIdx.y;
  int x0 = blockIdx.x * CIP_ROW_SPAN + threadIdx.x * CIP_UNIT;
  const uint8_t *__restrict__ in = p.src + y * p.src_stride;
  uint8_t *out = p.dst + y * p.dst_stride;
  CipUnit v;

  if (x0 >= p.width)
    return;

  if (x0 + CIP_UNIT <= p.width) {
    const uint4 *q = (const uint4 *) (in + (size_t) x0 * 3);
    uint4 a = q[0], b = q[1], c = q[2];
    const uint32_t w[12] = { a.x, a.y, a.z, a.w, b.x, b.y, b.z, b.w,
      c.x, c.y, c.z, c.w
    };

#pragma unroll
    for (int i = 0; i < CIP_UNIT; i++)
      v.b[i] = cip_gray_pixel (byte_of_words (w, 3 * i + r_at),
          byte_of_words (w, 3 * i + 1), byte_of_words (w, 3 * i + 2 - r_at),
          method);
  } else {
    for (int i = 0; i < CIP_UNIT && x0 + i < p.width; i++) {
      const uint8_t *px = in + (size_t) (x0 + i) * 3;

      v.b[i] = cip_gray_pixel (px[r_at], px[1], px[2 - r_at], method);
    }
  }

  /* A lane's 16 pixels are contiguous: one 16-byte store where the rows
   * allow it, so that the warp writes one 512-byte run; four-byte stores
   * 16 bytes apart take four times the store transactions. */
  if (p.dst_unit_aligned) {
    cip_store16 (out, x0, p.width, true, v);
    return;
  }
#pragma unroll
  for (int k = 0; k < CIP_UNIT; k += 4)
    if (x0 + k < p.width)
      cip_store4 (out, x0 + k, p.width, p.dst_aligned,
          make_uchar4 (v.b[k], v.b[k + 1], v.b[k + 2], v.b[k + 3]));
}

template < CipGrayMethod method >
static CipStatus
launch_gray (const GrayParams & p, bool packed, CipStream * stream)
{
  dim3 grid (cip_row_segments (p.width), p.height);

  if (packed && p.layout.bytes_per_pixel == 4)
    gray_kernel_packed4 < method > <<<grid, CIP_ROW_THREADS, 0,
        stream->stream >>> (p);
  else if (packed && p.layout.r == 0)
    gray_kernel_packed3 < method, 0 > <<<grid, CIP_ROW_THREADS, 0,
        stream->stream >>> (p);
  else if (packed)
    gray_kernel_packed3 < method, 2 > <<<grid, CIP_ROW_THREADS, 0,
        stream->stream >>> (p);
  else
    gray_kernel_bytes < method > <<<grid, CIP_ROW_THREADS, 0,
        stream->stream >>> (p);
  CIP_CUDA_TRY_LAUNCH (stream, "gray kernel");
  return CIP_OK;
}

/* Two-byte layouts: a thread reads LUMA_GROUP pixels (16 bytes) at a
 * time, LUMA_GROUPS_PER_THREAD groups a block-width apart, loads first. */
#define LUMA_GROUP 8
#define LUMA_GROUPS_PER_THREAD (CIP_UNIT / LUMA_GROUP)
#define LUMA_GROUP_STRIDE (CIP_ROW_THREADS * LUMA_GROUP)

struct LumaParams
{
  const uint8_t *src;
  size_t src_stride;
  uint8_t *dst;
  size_t dst_stride;
  int width;
  int height;
  bool src_aligned;             /* rows 16-byte aligned */
  bool dst_aligned;             /* rows aligned for a group's store */
};

template < CipFormat format, bool deep_out >
__global__ void
luma_kernel (LumaParams p)
{
  int y = blockIdx.y;
  int x0 = blockIdx.x * CIP_ROW_SPAN + threadIdx.x * LUMA_GROUP;
  const uint8_t *__restrict__ in = p.src + y * p.src_stride;
  uint8_t *out = p.dst + y * p.dst_stride;
  uint4 px[LUMA_GROUPS_PER_THREAD];

  if (x0 >= p.width)
    return;

#pragma unroll
  for (int k = 0; k < LUMA_GROUPS_PER_THREAD; k++) {
    int x = x0 + k * LUMA_GROUP_STRIDE;
    const uint8_t *at = in + (size_t) x * 2;

    if (p.src_aligned && x + LUMA_GROUP <= p.width) {
      px[k] = *(const uint4 *) at;
    } else if (x < p.width) {
      uint32_t w[LUMA_GROUP / 2] = { 0, 0, 0, 0 };

      for (int i = 0; i < LUMA_GROUP && x + i < p.width; i++)
        w[i / 2] |= (at[2 * i] | (uint32_t) at[2 * i + 1] << 8) <<
            (16 * (i % 2));
      px[k] = make_uint4 (w[0], w[1], w[2], w[3]);
    }
  }

#pragma unroll
  for (int k = 0; k < LUMA_GROUPS_PER_THREAD; k++) {
    int x = x0 + k * LUMA_GROUP_STRIDE;
    const uint32_t words[4] = { px[k].x, px[k].y, px[k].z, px[k].w };
    uint16_t v[LUMA_GROUP];

    if (x >= p.width)
      break;
#pragma unroll
    for (int i = 0; i < LUMA_GROUP; i++)
      v[i] = cip_luma16 (words[i / 2] >> (16 * (i % 2)), format);

    if (deep_out) {
      if (p.dst_aligned && x + LUMA_GROUP <= p.width) {
        *(uint4 *) (out + (size_t) x * 2) =
            make_uint4 (v[0] | (uint32_t) v[1] << 16,
            v[2] | (uint32_t) v[3] << 16, v[4] | (uint32_t) v[5] << 16,
            v[6] | (uint32_t) v[7] << 16);
      } else {
        /* byte stores: the rows may be at odd addresses */
        for (int i = 0; i < LUMA_GROUP && x + i < p.width; i++) {
          out[(size_t) (x + i) * 2] = v[i] & 0xff;
          out[(size_t) (x + i) * 2 + 1] = v[i] >> 8;
        }
      }
    } else {
      if (p.dst_aligned && x + LUMA_GROUP <= p.width)
        *(uint2 *) (out + x) =
            make_uint2 ((v[0] >> 8) | (v[1] & 0xff00) | (uint32_t) (v[2] >> 8)
            << 16 | (uint32_t) (v[3] >> 8) << 24, (v[4] >> 8) | (v[5] & 0xff00)
            | (uint32_t) (v[6] >> 8) << 16 | (uint32_t) (v[7] >> 8) << 24);
      else
        for (int i = 0; i < LUMA_GROUP && x + i < p.width; i++)
          out[x + i] = v[i] >> 8;
    }
  }
}

template < CipFormat format >
static CipStatus
launch_luma (const LumaParams & p, bool deep_out, CipStream * stream)
{
  dim3 grid (cip_row_segments (p.width), p.height);

  if (deep_out)
    luma_kernel < format, true > <<<grid, CIP_ROW_THREADS, 0,
        stream->stream >>> (p);
  else
    luma_kernel < format, false > <<<grid, CIP_ROW_THREADS, 0,
        stream->stream >>> (p);
  CIP_CUDA_TRY_LAUNCH (stream, "luma kernel");
  return CIP_OK;
}

static CipStatus
gray_of_luma (const CipImage * src, CipImage * dst, CipStream * stream)
{
  LumaParams p;
  bool deep_out = dst->format == CIP_FORMAT_GRAY16;

  p.src = (const uint8_t *) src->data;
  p.src_stride = src->stride;
  p.dst = (uint8_t *) dst->data;
  p.dst_stride = dst->stride;
  p.width = src->width;
  p.height = src->height;
  p.src_aligned = cip_rows_aligned (src, 16);
  p.dst_aligned = cip_rows_aligned (dst, deep_out ? 16 : 8);

  switch (src->format) {
    case CIP_FORMAT_YUYV:
      return launch_luma < CIP_FORMAT_YUYV > (p, deep_out, stream);
    case CIP_FORMAT_UYVY:
      return launch_luma < CIP_FORMAT_UYVY > (p, deep_out, stream);
    case CIP_FORMAT_GRAY16:
      return launch_luma < CIP_FORMAT_GRAY16 > (p, deep_out, stream);
    case CIP_FORMAT_GRAY16_BE:
      return launch_luma < CIP_FORMAT_GRAY16_BE > (p, deep_out, stream);
    case CIP_FORMAT_GRAY10_MSB:
      return launch_luma < CIP_FORMAT_GRAY10_MSB > (p, deep_out, stream);
    case CIP_FORMAT_GRAY10_LSB:
      return launch_luma < CIP_FORMAT_GRAY10_LSB > (p, deep_out, stream);
    case CIP_FORMAT_GRAY12_LSB:
      return launch_luma < CIP_FORMAT_GRAY12_LSB > (p, deep_out, stream);
    default:
      return CIP_ERROR_INVALID_ARGUMENT;
  }
}

extern "C" CipStatus
cip_gray (const CipImage * src, CipImage * dst, CipGrayMethod method,
    CipStream * stream)
{
  GrayParams p;
  bool packed;

  if (stream == NULL || cip_check_gray_pair (src, dst) != CIP_OK ||
      cip_check_gray_method (method) != CIP_OK)
    return CIP_ERROR_INVALID_ARGUMENT;

  if (src->format == dst->format)
    return cip_copy (src, dst, stream);
  if (cip_format_bytes_per_pixel (src->format) == 2)
    return gray_of_luma (src, dst, stream);

  p.src = (const uint8_t *) src->data;
  p.src_stride = src->stride;
  p.dst = (uint8_t *) dst->data;
  p.dst_stride = dst->stride;
  p.width = src->width;
  p.height = src->height;
  p.layout = cip_format_layout (src->format);
  p.dst_aligned = cip_rows_aligned (dst, 4);
  p.dst_unit_aligned = cip_rows_aligned (dst, 16);
  /* whole 16-byte loads where the rows allow them; three-byte pixels
   * in the two orders that exist (RGB, BGR: green in the middle) */
  packed = cip_rows_aligned (src, 16) &&
      (p.layout.bytes_per_pixel == 4 || (p.layout.bytes_per_pixel == 3 &&
          p.layout.g == 1 && (p.layout.r == 0 || p.layout.r == 2)));

  switch (method) {
    case CIP_GRAY_BT601:
      return launch_gray < CIP_GRAY_BT601 > (p, packed, stream);
    case CIP_GRAY_BT709:
      return launch_gray < CIP_GRAY_BT709 > (p, packed, stream);
    case CIP_GRAY_LUMINOSITY:
      return launch_gray < CIP_GRAY_LUMINOSITY > (p, packed, stream);
    case CIP_GRAY_AVERAGE:
      return launch_gray < CIP_GRAY_AVERAGE > (p, packed, stream);
  }
  return CIP_ERROR_INVALID_ARGUMENT;
}
