/* gst-cuda-imgproc
 * Copyright (C) 2026 The gst-cuda-imgproc authors
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2 of the License, or (at your option) any later version.
 */

/* Gaussian blur (cip-blur.h defines the arithmetic).
 *
 * The image is handled as rows of bytes: a byte's horizontal neighbours
 * at distance i are i * bytes-per-pixel away, so GRAY8 and the four-byte
 * formats share every kernel.  Each thread works on four consecutive
 * bytes (a "quad") of a row.  GRAY16 runs the same kernels with 16-bit
 * samples (template argument T): a quad is two pixels, whose horizontal
 * sums are 32 bits and vertical ones 64, so the intermediate is two bytes
 * for every source byte at either sample size.
 *
 * Radii up to FUSED_RADIUS_MAX: one kernel per tile of FUSED_TW bytes by
 * FUSED_TH rows.  It reads the tile and its halo into shared memory once,
 * runs the horizontal pass into a 16-bit tile in shared memory, and the
 * vertical pass from there to the destination.  The smallest radii are
 * compiled with the radius fixed, so that their loops unroll.
 *
 * Larger radii: a horizontal kernel into 16-bit stream scratch
 * (CIP_SCRATCH_BLUR), then a vertical kernel from it. */

#include "cip-cuda.cuh"
#include "cip-blur.h"

#define FUSED_TW 128            /* bytes: a warp of quads */
#define FUSED_TH 32             /* rows */
#define FUSED_THREADS 256
#define FUSED_RADIUS_MAX 16
/* The horizontal kernel of the two-pass path: one row segment a block. */
#define HPASS_TW 1024           /* bytes: a quad per thread */
#define HPASS_THREADS 256
/* Shared-memory rows of source bytes are read a word past their end (see
 * blur_window). */
#define SOURCE_PAD 16

struct BlurParams
{
  const uint8_t *src;
  size_t src_stride;
  uint8_t *dst;
  size_t dst_stride;
  uint16_t *mid;                /* two-pass path only; GRAY16: uint32_t pairs */
  size_t mid_pitch;             /* 16-bit elements, a multiple of 4 */
  int width;                    /* pixels */
  int height;
  int row_bytes;                /* width * bytes per pixel */
  bool src_aligned;             /* rows 4-byte aligned */
  bool dst_aligned;
  CipBlurKernel kernel;
};

/* Halo of a tile's source rows, in bytes either side: the reach of the
 * taps rounded up to whole words, so that rows stay word aligned. */
__host__ __device__ __forceinline__ int
blur_halo (int radius, int bpp)
{
  return (radius * bpp + 3) & ~3;
}

/* Byte @b of source row @row, mirrored when it lies outside the row.
 * @b is floor-divided into pixel and byte (BPP is 1, 2 or 4). */
template < int BPP >
__device__ __forceinline__ uint8_t
blur_source_byte (const uint8_t * row, int b, const BlurParams & p)
{
  int shift = BPP == 4 ? 2 : BPP == 2 ? 1 : 0;

  if ((unsigned) b < (unsigned) p.row_bytes)
    return row[b];
  return row[cip_blur_reflect (b >> shift, p.width) * BPP + (b & (BPP - 1))];
}

/* Copies @rows source rows from y0, bytes x0 .. x0 + pitch - 1 (x0 a
 * multiple of 4, either range may stick out of the image), into @tile,
 * mirrored as cip_blur_reflect says. */
template < int BPP >
__device__ __forceinline__ void
blur_load_tile (const BlurParams & p, uint8_t * tile, int pitch, int x0,
    int y0, int rows, int tid, int threads)
{
  int words = pitch / 4, n = rows * words;

  for (int i = tid; i < n; i += threads) {
    int row = i / words, b = x0 + (i - row * words) * 4;
    const uint8_t *in = p.src +
        (size_t) cip_blur_reflect (y0 + row, p.height) * p.src_stride;
    uint32_t word;

    if (p.src_aligned && b >= 0 && b + 3 < p.row_bytes) {
      word = *(const uint32_t *) (in + b);
    } else {
      word = blur_source_byte < BPP > (in, b, p) |
          (uint32_t) blur_source_byte < BPP > (in, b + 1, p) << 8 |
          (uint32_t) blur_source_byte < BPP > (in, b + 2, p) << 16 |
          (uint32_t) blur_source_byte < BPP > (in, b + 3, p) << 24;
    }
    *(uint32_t *) (tile + row * pitch + (i - row * words) * 4) = word;
  }
}

/* The four bytes of @tile at byte offset @off, which need not be word
 * aligned (GRAY16: it is even): the word at off & ~3 and the next one,
 * shifted.  That next word may lie past the row (hence SOURCE_PAD). */
template < int BPP >
__device__ __forceinline__ uint32_t
blur_window (const uint8_t * tile, int off)
{
  const uint32_t *w = (const uint32_t *) tile + (off >> 2);

  if (BPP == 4)
    return w[0];
  return __funnelshift_r (w[0], w[1], (off & 3) * 8);
}

/* The horizontal pass of the quad at byte @off of a tile row: four 16-bit
 * sums, in order, as two words.  Two sums share each accumulator, in its
 * halves (bytes 0 and 2 in one, 1 and 3 in the other): every partial sum
 * is at most 255 * 256 = 65280, so no carry crosses from one half into
 * the other. */
template < typename T, int BPP, int R >
__device__ __forceinline__ uint2
blur_h_quad (const uint8_t * tile, int off, const int32_t * w, int radius)
{
  const int r = R > 0 ? R : radius;
  uint32_t c = blur_window < BPP > (tile, off);

  if constexpr (sizeof (T) == 2) {
    /* Two pixels, a sum each: k_i (left + right) <= 2^15 * 131070 < 2^32,
     * and the whole sum <= 65535 * 65536. */
    uint32_t lo = w[0] * (c & 0xffffu), hi = w[0] * (c >> 16);

#pragma unroll (R > 0 ? R : 4)
    for (int i = 1; i <= r; i++) {
      uint32_t left = blur_window < BPP > (tile, off - i * BPP);
      uint32_t right = blur_window < BPP > (tile, off + i * BPP);

      lo += w[i] * ((left & 0xffffu) + (right & 0xffffu));
      hi += w[i] * ((left >> 16) + (right >> 16));
    }
    return make_uint2 (lo, hi);
  }

  uint32_t even = w[0] * (c & 0x00ff00ffu);
  uint32_t odd = w[0] * ((c >> 8) & 0x00ff00ffu);

#pragma unroll (R > 0 ? R : 4)
  for (int i = 1; i <= r; i++) {
    uint32_t left = blur_window < BPP > (tile, off - i * BPP);
    uint32_t right = blur_window < BPP > (tile, off + i * BPP);

    even += w[i] * ((left & 0x00ff00ffu) + (right & 0x00ff00ffu));
    odd += w[i] * (((left >> 8) & 0x00ff00ffu) +
        ((right >> 8) & 0x00ff00ffu));
  }
  return make_uint2 (__byte_perm (even, odd, 0x5410),
      __byte_perm (even, odd, 0x7632));
}

/* The vertical pass's sums of a quad column: centre() with the centre
 * row's horizontal sums, add() with those of two rows at the same
 * distance, then store(). */
template < typename T > struct BlurSums;

/* Four bytes: four 32-bit sums. */
template <> struct BlurSums <uint8_t >
{
  uint32_t acc[4];

  __device__ __forceinline__ void centre (uint2 c, uint32_t w)
  {
    acc[0] = w * (c.x & 0xffffu);
    acc[1] = w * (c.x >> 16);
    acc[2] = w * (c.y & 0xffffu);
    acc[3] = w * (c.y >> 16);
  }

  __device__ __forceinline__ void add (uint2 above, uint2 below, uint32_t w)
  {
    acc[0] += w * ((above.x & 0xffffu) + (below.x & 0xffffu));
    acc[1] += w * ((above.x >> 16) + (below.x >> 16));
    acc[2] += w * ((above.y & 0xffffu) + (below.y & 0xffffu));
    acc[3] += w * ((above.y >> 16) + (below.y >> 16));
  }

  __device__ __forceinline__ void store (const BlurParams & p, int x, int y)
  {
    cip_store4 (p.dst + y * p.dst_stride, x, p.row_bytes, p.dst_aligned,
        make_uchar4 (cip_blur_round (acc[0]), cip_blur_round (acc[1]),
            cip_blur_round (acc[2]), cip_blur_round (acc[3])));
  }
};

/* Two GRAY16 pixels: two 64-bit sums, each term a 32 x 32 -> 64-bit
 * multiply-add. */
template <> struct BlurSums <uint16_t >
{
  uint64_t acc[2];

  __device__ __forceinline__ void centre (uint2 c, uint32_t w)
  {
    acc[0] = (uint64_t) w * c.x;
    acc[1] = (uint64_t) w * c.y;
  }

  __device__ __forceinline__ void add (uint2 above, uint2 below, uint32_t w)
  {
    acc[0] += (uint64_t) w * above.x + (uint64_t) w * below.x;
    acc[1] += (uint64_t) w * above.y + (uint64_t) w * below.y;
  }

  __device__ __forceinline__ void store (const BlurParams & p, int x, int y)
  {
    uint16_t lo = cip_blur16_round (acc[0]), hi = cip_blur16_round (acc[1]);

    cip_store4 (p.dst + y * p.dst_stride, x, p.row_bytes, p.dst_aligned,
        make_uchar4 (lo & 0xff, lo >> 8, hi & 0xff, hi >> 8));
  }
};

/* Shared memory of the fused kernel: source rows, then the 16-bit tile. */
__host__ __device__ __forceinline__ int
fused_source_bytes (int radius, int bpp)
{
  int bytes = (FUSED_TH + 2 * radius) * (FUSED_TW + 2 * blur_halo (radius,
          bpp)) + SOURCE_PAD;

  return (bytes + 15) & ~15;
}

static size_t
fused_shared_bytes (int radius, int bpp)
{
  return fused_source_bytes (radius, bpp) +
      (size_t) (FUSED_TH + 2 * radius) * FUSED_TW * sizeof (uint16_t);
}

/* One FUSED_TW x FUSED_TH tile.  R > 0 fixes the radius at compile time. */
template < typename T, int BPP, int R >
__global__ void
__launch_bounds__ (FUSED_THREADS)
blur_fused_kernel (BlurParams p)
{
  extern __shared__ uint4 fused_shared[];
  __shared__ int32_t weights[FUSED_RADIUS_MAX + 1];
  const int r = R > 0 ? R : p.kernel.radius;
  const int halo = blur_halo (r, BPP);
  const int pitch = FUSED_TW + 2 * halo;
  const int rows = FUSED_TH + 2 * r;
  const int x0 = blockIdx.x * FUSED_TW, y0 = blockIdx.y * FUSED_TH;
  const int tid = threadIdx.x;
  uint8_t *source = (uint8_t *) fused_shared;
  uint2 *mid = (uint2 *) (source + fused_source_bytes (r, BPP));
  /* A fixed radius keeps its weights in registers; any other reads them
   * from shared memory. */
  int32_t fixed[R > 0 ? R + 1 : 1];
  const int32_t *w = R > 0 ? fixed : weights;

  /* The grid covers the image; the whole block leaves together. */
  if (x0 >= p.row_bytes || y0 >= p.height)
    return;

#pragma unroll
  for (int i = 0; i <= R; i++)
    fixed[i] = p.kernel.w[i];
  if (R == 0 && tid <= r)
    weights[tid] = p.kernel.w[tid];
  blur_load_tile < BPP > (p, source, pitch, x0 - halo, y0 - r, rows, tid,
      FUSED_THREADS);
  __syncthreads ();

  for (int i = tid; i < rows * (FUSED_TW / 4); i += FUSED_THREADS) {
    int row = i / (FUSED_TW / 4), quad = i % (FUSED_TW / 4);

    mid[i] = blur_h_quad < T, BPP, R > (source + row * pitch,
        halo + quad * 4, w, r);
  }
  __syncthreads ();

  {
    int quad = tid % (FUSED_TW / 4), x = x0 + quad * 4;

    if (x >= p.row_bytes)
      return;
    for (int row = tid / (FUSED_TW / 4); row < FUSED_TH;
        row += FUSED_THREADS / (FUSED_TW / 4)) {
      const uint2 *centre = mid + (row + r) * (FUSED_TW / 4) + quad;
      BlurSums < T > sums;

      if (y0 + row >= p.height)
        break;
      sums.centre (centre[0], w[0]);
#pragma unroll (R > 0 ? R : 4)
      for (int i = 1; i <= r; i++)
        sums.add (centre[-i * (FUSED_TW / 4)], centre[i * (FUSED_TW / 4)],
            w[i]);
      sums.store (p, x, y0 + row);
    }
  }
}

/* Two-pass path, horizontal: a row segment of HPASS_TW bytes a block,
 * into p.mid. */
template < typename T, int BPP >
__global__ void
__launch_bounds__ (HPASS_THREADS)
blur_h_kernel (BlurParams p)
{
  extern __shared__ uint4 h_shared[];
  __shared__ int32_t weights[CIP_BLUR_RADIUS_MAX + 1];
  const int r = p.kernel.radius;
  const int halo = blur_halo (r, BPP);
  const int x0 = blockIdx.x * HPASS_TW, y = blockIdx.y;
  const int tid = threadIdx.x, x = x0 + tid * 4;
  uint8_t *source = (uint8_t *) h_shared;

  if (x0 >= p.row_bytes || y >= p.height)
    return;

  for (int i = tid; i <= r; i += HPASS_THREADS)
    weights[i] = p.kernel.w[i];
  blur_load_tile < BPP > (p, source, HPASS_TW + 2 * halo, x0 - halo, y, 1,
      tid, HPASS_THREADS);
  __syncthreads ();

  /* The pitch holds every quad that starts in the row. */
  if (x < p.row_bytes)
    *(uint2 *) (p.mid + y * p.mid_pitch + x) =
        blur_h_quad < T, BPP, 0 > (source, halo + tid * 4, weights, r);
}

/* Two-pass path, vertical: a quad a thread, from p.mid. */
template < typename T >
__global__ void
blur_v_kernel (BlurParams p)
{
  __shared__ int32_t weights[CIP_BLUR_RADIUS_MAX + 1];
  const int r = p.kernel.radius;
  const int tid = threadIdx.y * blockDim.x + threadIdx.x;
  const int x = (blockIdx.x * blockDim.x + threadIdx.x) * 4;
  const int y = blockIdx.y * blockDim.y + threadIdx.y;
  const uint16_t *column = p.mid + x;
  BlurSums < T > sums;

  for (int i = tid; i <= r; i += blockDim.x * blockDim.y)
    weights[i] = p.kernel.w[i];
  __syncthreads ();

  if (x >= p.row_bytes || y >= p.height)
    return;

  sums.centre (__ldg ((const uint2 *) (column + y * p.mid_pitch)),
      weights[0]);
  for (int i = 1; i <= r; i++) {
    int above = cip_blur_reflect (y - i, p.height);
    int below = cip_blur_reflect (y + i, p.height);

    sums.add (__ldg ((const uint2 *) (column + above * p.mid_pitch)),
        __ldg ((const uint2 *) (column + below * p.mid_pitch)), weights[i]);
  }
  sums.store (p, x, y);
}

template < typename T, int BPP, int R >
static CipStatus
launch_fused (const BlurParams & p, CipStream * stream)
{
  dim3 grid (CIP_DIV_UP (p.row_bytes, FUSED_TW),
      CIP_DIV_UP (p.height, FUSED_TH));

  blur_fused_kernel < T, BPP, R > <<<grid, FUSED_THREADS,
      fused_shared_bytes (p.kernel.radius, BPP), stream->stream >>> (p);
  CIP_CUDA_TRY_LAUNCH (stream, "blur kernel");
  return CIP_OK;
}

template < typename T, int BPP >
static CipStatus
launch_blur (BlurParams & p, CipStream * stream)
{
  int r = p.kernel.radius;
  size_t shared;
  void *mid;
  CipStatus status;

  switch (r) {
    case 1:
      return launch_fused < T, BPP, 1 > (p, stream);
    case 2:
      return launch_fused < T, BPP, 2 > (p, stream);
    case 3:
      return launch_fused < T, BPP, 3 > (p, stream);
    case 4:
      return launch_fused < T, BPP, 4 > (p, stream);
    default:
      if (r <= FUSED_RADIUS_MAX)
        return launch_fused < T, BPP, 0 > (p, stream);
      break;
  }

  /* Two bytes of horizontal sums for every source byte: a 16-bit sum of
   * each byte, or a 32-bit one of each GRAY16 pixel. */
  p.mid_pitch = ((size_t) p.row_bytes + 3) & ~(size_t) 3;
  status = cip_cuda_scratch (stream, CIP_SCRATCH_BLUR,
      p.mid_pitch * p.height * sizeof (uint16_t), &mid);
  if (status != CIP_OK)
    return status;
  p.mid = (uint16_t *) mid;

  shared = HPASS_TW + 2 * blur_halo (r, BPP) + SOURCE_PAD;
  blur_h_kernel < T, BPP > <<<dim3 (CIP_DIV_UP (p.row_bytes, HPASS_TW),
      p.height), HPASS_THREADS, shared, stream->stream >>> (p);
  CIP_CUDA_TRY_LAUNCH (stream, "blur horizontal kernel");

  blur_v_kernel < T > <<<dim3 (CIP_DIV_UP (p.row_bytes, CIP_BLOCK_X * 4),
      CIP_DIV_UP (p.height, CIP_BLOCK_Y)), cip_block_2d (), 0,
      stream->stream >>> (p);
  CIP_CUDA_TRY_LAUNCH (stream, "blur vertical kernel");
  return CIP_OK;
}

extern "C" int
cip_blur_radius (double sigma)
{
  return cip_blur_radius_of (sigma);
}

extern "C" CipStatus
cip_blur (const CipImage * src, CipImage * dst, double sigma,
    CipStream * stream)
{
  BlurParams p;
  int bpp;

  if (stream == NULL || cip_blur_check (src, dst, sigma) != CIP_OK)
    return CIP_ERROR_INVALID_ARGUMENT;

  bpp = cip_format_bytes_per_pixel (src->format);
  p.src = (const uint8_t *) src->data;
  p.src_stride = src->stride;
  p.dst = (uint8_t *) dst->data;
  p.dst_stride = dst->stride;
  p.mid = NULL;
  p.mid_pitch = 0;
  p.width = src->width;
  p.height = src->height;
  p.row_bytes = src->width * bpp;
  p.src_aligned = cip_rows_aligned (src, 4);
  p.dst_aligned = cip_rows_aligned (dst, 4);
  cip_blur_kernel_for (sigma, src->format, &p.kernel);

  if (bpp == 4)
    return launch_blur < uint8_t, 4 > (p, stream);
  if (bpp == 2)
    return launch_blur < uint16_t, 2 > (p, stream);
  return launch_blur < uint8_t, 1 > (p, stream);
}
