/* gst-cuda-imgproc
 * Copyright (C) 2026 The gst-cuda-imgproc authors
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2 of the License, or (at your option) any later version.
 */

/* Grayscale morphology: each pass (an erosion or a dilation) reads a tile
 * of the source with its halo into shared memory, pixels outside the image
 * set to the neutral value, and takes the extremum over the element, one
 * centred horizontal run per row (cip_morph_span).  Open and close run two
 * passes through a scratch image kept in the stream.
 *
 * Radii up to SMALL_RADIUS_MAX work on 32-bit words, four bytes at once: a
 * GRAY8 word holds four pixels and a GRAY16 word two (neighbours come from
 * byte permutes of the adjacent words; GRAY16 takes the SIMD min and max
 * of 16-bit halves), a four-byte format's word one pixel (neighbours are
 * the adjacent words).  Larger radii work on samples (bytes, or GRAY16's
 * 16-bit pixels): each tile row becomes, in place, a sparse table of the
 * extrema of 2^k consecutive pixels, and the run of half width a is the
 * extremum of two overlapping entries of level k = floor (log2 (2a + 1));
 * rows are folded in as soon as their level is built, so the work per
 * pixel is two reads per element row.
 *
 * GRAY8 at radius 1 with 16-byte aligned rows, the common case, skips the
 * tile: a lane holds 16 bytes of each of its rows in registers, gets its
 * left and right neighbours from the adjacent lanes, and works on 16-bit
 * halves (even and odd pixels), for which the GPU has SIMD min and max. */

#include "cip-cuda.cuh"
#include "cip-morph.h"

#define SMALL_RADIUS_MAX 2
#define SMALL_BLOCK_X 64        /* word columns */
#define SMALL_BLOCK_Y 4
#define SMALL_ROWS 8            /* output rows per thread */
#define SMALL_TILE_ROWS (SMALL_BLOCK_Y * SMALL_ROWS)

#define R1_WARPS 4              /* warps of a block, one above the other */
#define R1_ROWS 8               /* output rows per warp */
#define R1_UNIT 16              /* bytes per lane */
#define R1_SPAN (32 * R1_UNIT)  /* bytes per warp row */
/* Blocks per multiprocessor that the registers must allow: a 4K frame's
 * 544 blocks then run in one wave on 132 multiprocessors. */
#define R1_MIN_BLOCKS 5

#define LARGE_THREADS 256       /* one output sample column each */
#define LARGE_TILE_SAMPLES LARGE_THREADS
/* Output rows per tile; with radius 32 the tile is 40 KiB (GRAY8) or
 * 48 KiB (four bytes), within the default shared-memory limit, or 60 KiB
 * (GRAY16), which launch_large opts into. */
#define LARGE_ROWS(bpp) ((bpp) == 1 ? 64 : 32)
#define DEFAULT_SHARED_MAX (48 * 1024)
#define LARGE_LEVELS 7          /* 2a + 1 <= 65 < 2^7 */

struct MorphPass
{
  const uint8_t *src;
  size_t src_stride;
  uint8_t *dst;
  size_t dst_stride;
  int row_bytes;
  int height;
  bool src_aligned;             /* 4-byte loads and stores allowed */
  bool dst_aligned;
  bool src_aligned16;           /* 16-byte ones */
  bool dst_aligned16;
};

/* The element's rows ordered by the sparse-table level their run needs:
 * rows start[k] .. start[k + 1] - 1 use level k. */
struct MorphSpans
{
  int8_t dy[2 * CIP_MORPH_RADIUS_MAX + 1];
  int8_t a[2 * CIP_MORPH_RADIUS_MAX + 1];
  int8_t start[LARGE_LEVELS + 1];
  int levels;                   /* levels to build: the highest used + 1 */
  int radius;
};

template < bool MAX > __device__ __forceinline__ uint32_t
pick4 (uint32_t a, uint32_t b)
{
  return MAX ? __vmaxu4 (a, b) : __vminu4 (a, b);
}

template < bool MAX > __device__ __forceinline__ uint32_t
pick2 (uint32_t a, uint32_t b)
{
  return MAX ? __vmaxu2 (a, b) : __vminu2 (a, b);
}

template < bool MAX > __device__ __forceinline__ uint32_t
pick1 (uint32_t a, uint32_t b)
{
  return MAX ? max (a, b) : min (a, b);
}

/* The extremum of each of a word's samples: four bytes, or GRAY16's two
 * 16-bit pixels. */
template < int BPP, bool MAX > __device__ __forceinline__ uint32_t
pick_word (uint32_t a, uint32_t b)
{
  return BPP == 2 ? pick2 < MAX > (a, b) : pick4 < MAX > (a, b);
}

/* Small radii */

/* The word of the bytes k to the left of @mid's (1 <= k <= 4): GRAY8's
 * pixels k, GRAY16's k / 2 to the left. */
__device__ __forceinline__ uint32_t
shift_left (uint32_t left, uint32_t mid, int k)
{
  return __byte_perm (left, mid, (4 - k) | (5 - k) << 4 | (6 - k) << 8 |
      (7 - k) << 12);
}

/* ... and k to the right. */
__device__ __forceinline__ uint32_t
shift_right (uint32_t mid, uint32_t right, int k)
{
  return __byte_perm (mid, right, k | (k + 1) << 4 | (k + 2) << 8 |
      (k + 3) << 12);
}

template < int BPP, int R, int SHAPE, bool MAX >
__global__ void __launch_bounds__ (SMALL_BLOCK_X * SMALL_BLOCK_Y)
morph_small_kernel (MorphPass p)
{
  /* Halo words on each side: one holds the 1..4 GRAY8 or 1..2 GRAY16
   * neighbours, a four-byte pixel is a word. */
  constexpr int HALO = BPP == 4 ? R : 1;
  constexpr int TILE_W = SMALL_BLOCK_X + 2 * HALO;
  constexpr int TILE_H = SMALL_TILE_ROWS + 2 * R;
  constexpr uint32_t NEUTRAL = MAX ? 0u : 0xffffffffu;
  __shared__ uint32_t tile[TILE_H][TILE_W];
  int bx0 = blockIdx.x * SMALL_BLOCK_X * 4;
  int y0 = blockIdx.y * SMALL_TILE_ROWS;
  int tid = threadIdx.y * SMALL_BLOCK_X + threadIdx.x;
  int r0 = threadIdx.y * SMALL_ROWS;
  int b = bx0 + threadIdx.x * 4;
  uint32_t acc[SMALL_ROWS];

  /* The whole block or none of it: every thread takes part in the load. */
  if (bx0 >= p.row_bytes || y0 >= p.height)
    return;

  for (int i = tid; i < TILE_H * TILE_W; i += SMALL_BLOCK_X * SMALL_BLOCK_Y) {
    int ty = i / TILE_W, tx = i % TILE_W;
    int y = y0 - R + ty, wb = bx0 + (tx - HALO) * 4;
    uint32_t w = NEUTRAL;

    /* wb is a multiple of 4: a word starting left of the row is outside
     * it altogether. */
    if (y >= 0 && y < p.height && wb >= 0 && wb < p.row_bytes) {
      const uint8_t *row = p.src + (size_t) y * p.src_stride;

      if (p.src_aligned && wb + 4 <= p.row_bytes) {
        w = *(const uint32_t *) (row + wb);
      } else {
        w = 0;
        for (int k = 0; k < 4; k++)
          w |= (wb + k < p.row_bytes ? (uint32_t) row[wb + k] :
              NEUTRAL & 0xffu) << (8 * k);
      }
    }
    tile[ty][tx] = w;
  }
  __syncthreads ();

#pragma unroll
  for (int j = 0; j < SMALL_ROWS; j++)
    acc[j] = NEUTRAL;

  /* Tile row r0 + i is output row r0 + j's neighbour dy = i - j - R. */
#pragma unroll
  for (int i = 0; i < SMALL_ROWS + 2 * R; i++) {
    const uint32_t *row = tile[r0 + i] + HALO + threadIdx.x;
    uint32_t run[R + 1];        /* run[a]: extremum over -a .. a */

    run[0] = row[0];
    if (BPP != 4) {
      uint32_t left = row[-1], right = row[1];

#pragma unroll
      for (int a = 1; a <= R; a++)
        run[a] = pick_word < BPP, MAX > (run[a - 1],
            pick_word < BPP, MAX > (shift_left (left, run[0], a * BPP),
                shift_right (row[0], right, a * BPP)));
    } else {
#pragma unroll
      for (int a = 1; a <= R; a++)
        run[a] = pick4 < MAX > (run[a - 1], pick4 < MAX > (row[-a], row[a]));
    }

#pragma unroll
    for (int j = 0; j < SMALL_ROWS; j++) {
      int dy = i - j - R;

      if (dy >= -R && dy <= R)
        acc[j] = pick_word < BPP, MAX > (acc[j],
            run[cip_morph_span ((CipMorphShape) SHAPE, R, dy)]);
    }
  }

  if (b >= p.row_bytes)
    return;
#pragma unroll
  for (int j = 0; j < SMALL_ROWS; j++) {
    int y = y0 + r0 + j;
    uint8_t *out;

    if (y >= p.height)
      break;
    out = p.dst + (size_t) y * p.dst_stride;
    if (p.dst_aligned && b + 4 <= p.row_bytes) {
      *(uint32_t *) (out + b) = acc[j];
    } else {
      for (int k = 0; k < 4 && b + k < p.row_bytes; k++)
        out[b + k] = (uint8_t) (acc[j] >> (8 * k));
    }
  }
}

/* GRAY8, radius 1 */

/* A row's 16 bytes split into 16-bit halves: e[k] holds pixels 4k and
 * 4k + 2, o[k] pixels 4k + 1 and 4k + 3, each over a zero byte. */
struct R1Halves
{
  uint32_t e[4];
  uint32_t o[4];
};

/* @c: the row's pixels as halves; @h: the extremum of each pixel and its
 * two horizontal neighbours.  @left's byte 3 is the pixel before the
 * 16 bytes, @right's byte 0 the one after. */
template < bool MAX > __device__ __forceinline__ void
r1_row (uint4 v, uint32_t left, uint32_t right, R1Halves & c, R1Halves & h)
{
  uint32_t w[4] = { v.x, v.y, v.z, v.w };

#pragma unroll
  for (int k = 0; k < 4; k++) {
    c.e[k] = __byte_perm (w[k], 0, 0x4240);
    c.o[k] = __byte_perm (w[k], 0, 0x4341);
  }
#pragma unroll
  for (int k = 0; k < 4; k++) {
    /* Pixels 4k - 1, 4k + 1 and 4k + 2, 4k + 4: the neighbours of the
     * even pixels from the odd ones and the reverse. */
    uint32_t o_before = k == 0 ? __byte_perm (left, c.o[0], 0x5453) :
        __byte_perm (c.o[k - 1], c.o[k], 0x5432);
    uint32_t e_after = k == 3 ? __byte_perm (c.e[3], right, 0x3432) :
        __byte_perm (c.e[k], c.e[k + 1], 0x5432);
    uint32_t pair = pick2 < MAX > (c.e[k], c.o[k]);

    h.e[k] = pick2 < MAX > (pair, o_before);
    h.o[k] = pick2 < MAX > (pair, e_after);
  }
}

__device__ __forceinline__ void
r1_store (uint8_t * row, int b, int row_bytes, const R1Halves & v)
{
  uint32_t w[4];

#pragma unroll
  for (int k = 0; k < 4; k++)
    w[k] = __byte_perm (v.e[k], v.o[k], 0x6240);
  if (b + R1_UNIT <= row_bytes) {
    *(uint4 *) (row + b) = make_uint4 (w[0], w[1], w[2], w[3]);
  } else {
#pragma unroll
    for (int k = 0; k < R1_UNIT; k++)
      if (b + k < row_bytes)
        row[b + k] = (uint8_t) (w[k / 4] >> (8 * (k % 4)));
  }
}

/* FULL: rows -1 and 1 of the element are three pixels wide (the square),
 * else one (the cross and the disk).  A warp covers R1_SPAN bytes of
 * R1_ROWS rows; all its loads are issued before the first is used. */
template < bool FULL, bool MAX >
__global__ void __launch_bounds__ (32 * R1_WARPS, R1_MIN_BLOCKS)
morph_r1_kernel (MorphPass p)
{
  constexpr uint32_t NEUTRAL = MAX ? 0u : 0xffffffffu;
  constexpr int IN_ROWS = R1_ROWS + 2;
  static_assert (R1_ROWS % 2 == 0, "output rows are made in pairs");
  const uint8_t *__restrict__ src = p.src;
  int lane = threadIdx.x;
  int b = blockIdx.x * R1_SPAN + lane * R1_UNIT;
  int y0 = (blockIdx.y * R1_WARPS + threadIdx.y) * R1_ROWS;
  uint4 in[IN_ROWS];
  /* Lane 0: the byte before its 16, lane 31: the byte after. */
  uint32_t edge[IN_ROWS];
  R1Halves c[IN_ROWS], h[IN_ROWS];

  /* Whole warps only: lanes past the row's end take part in the shuffles. */
  if (y0 >= p.height)
    return;

#pragma unroll
  for (int i = 0; i < IN_ROWS; i++) {
    int y = y0 - 1 + i;
    const uint8_t *row;

    in[i] = make_uint4 (NEUTRAL, NEUTRAL, NEUTRAL, NEUTRAL);
    edge[i] = NEUTRAL;
    if (y < 0 || y >= p.height)
      continue;
    row = src + (size_t) y * p.src_stride;
    if (b + R1_UNIT <= p.row_bytes)
      in[i] = __ldg ((const uint4 *) (row + b));
    if (lane == 0 && b > 0)
      edge[i] = row[b - 1];
    else if (lane == 31 && b + R1_UNIT < p.row_bytes)
      edge[i] = row[b + R1_UNIT];
  }

  /* The lane holding the end of the row, when it is not a whole unit:
   * bytes past the end stay neutral. */
  if (b < p.row_bytes && b + R1_UNIT > p.row_bytes) {
#pragma unroll
    for (int i = 0; i < IN_ROWS; i++) {
      int y = y0 - 1 + i;
      const uint8_t *row;
      uint32_t w[4] = { NEUTRAL, NEUTRAL, NEUTRAL, NEUTRAL };

      if (y < 0 || y >= p.height)
        continue;
      row = src + (size_t) y * p.src_stride;
#pragma unroll
      for (int k = 0; k < R1_UNIT; k++) {
        int shift = 8 * (k % 4);

        if (b + k < p.row_bytes)
          w[k / 4] = (w[k / 4] & ~(0xffu << shift)) |
              (uint32_t) row[b + k] << shift;
      }
      in[i] = make_uint4 (w[0], w[1], w[2], w[3]);
    }
  }

#pragma unroll
  for (int i = 0; i < IN_ROWS; i++) {
    uint32_t left = __shfl_up_sync (0xffffffffu, in[i].w, 1);
    uint32_t right = __shfl_down_sync (0xffffffffu, in[i].x, 1);

    if (lane == 0)
      left = edge[i] << 24;
    if (lane == 31)
      right = edge[i];
    r1_row < MAX > (in[i], left, right, c[i], h[i]);

    /* Output row j takes input rows j .. j + 2. */
    if (FULL && i >= 3 && i % 2 == 1) {
      /* Rows j = i - 3 and i - 2 share input rows i - 2 and i - 1. */
      int j = i - 3;
      R1Halves out0, out1;

#pragma unroll
      for (int k = 0; k < 4; k++) {
        uint32_t e = pick2 < MAX > (h[i - 2].e[k], h[i - 1].e[k]);
        uint32_t o = pick2 < MAX > (h[i - 2].o[k], h[i - 1].o[k]);

        out0.e[k] = pick2 < MAX > (h[i - 3].e[k], e);
        out0.o[k] = pick2 < MAX > (h[i - 3].o[k], o);
        out1.e[k] = pick2 < MAX > (e, h[i].e[k]);
        out1.o[k] = pick2 < MAX > (o, h[i].o[k]);
      }
      if (y0 + j < p.height)
        r1_store (p.dst + (size_t) (y0 + j) * p.dst_stride, b, p.row_bytes,
            out0);
      if (y0 + j + 1 < p.height)
        r1_store (p.dst + (size_t) (y0 + j + 1) * p.dst_stride, b,
            p.row_bytes, out1);
    } else if (!FULL && i >= 2) {
      int j = i - 2;
      R1Halves out;

#pragma unroll
      for (int k = 0; k < 4; k++) {
        out.e[k] = pick2 < MAX > (pick2 < MAX > (c[i - 2].e[k],
                h[i - 1].e[k]), c[i].e[k]);
        out.o[k] = pick2 < MAX > (pick2 < MAX > (c[i - 2].o[k],
                h[i - 1].o[k]), c[i].o[k]);
      }
      if (y0 + j < p.height)
        r1_store (p.dst + (size_t) (y0 + j) * p.dst_stride, b, p.row_bytes,
            out);
    }
  }
}

/* Large radii */

/* Sample @i of a row: a byte, or a little-endian 16-bit pixel, read as
 * two bytes where the rows are not word aligned. */
template < typename T > __device__ __forceinline__ uint32_t
load_sample (const uint8_t * row, int i, bool aligned)
{
  if (sizeof (T) == 1 || aligned)
    return ((const T *) row)[i];
  return row[2 * i] | (uint32_t) row[2 * i + 1] << 8;
}

template < typename T > __device__ __forceinline__ void
store_sample (uint8_t * row, int i, bool aligned, uint32_t v)
{
  if (sizeof (T) == 1 || aligned) {
    ((T *) row)[i] = (T) v;
  } else {
    row[2 * i] = (uint8_t) v;
    row[2 * i + 1] = (uint8_t) (v >> 8);
  }
}

/* T: the sample (uint8_t, or uint16_t for GRAY16); BPP: bytes a pixel. */
template < typename T, int BPP, bool MAX >
__global__ void __launch_bounds__ (LARGE_THREADS)
morph_large_kernel (MorphPass p, MorphSpans s)
{
  constexpr int ROWS = LARGE_ROWS (BPP);
  constexpr int CHANNELS = BPP / sizeof (T);
  constexpr uint32_t NEUTRAL = MAX ? 0u : (T) ~ 0u;
  extern __shared__ uint4 large_shared[];
  T *tile = (T *) large_shared;
  int row_samples = p.row_bytes / (int) sizeof (T);
  int halo = s.radius * CHANNELS;
  int tile_w = LARGE_TILE_SAMPLES + 2 * halo;
  int tile_h = ROWS + 2 * s.radius;
  int bx0 = blockIdx.x * LARGE_TILE_SAMPLES;
  int y0 = blockIdx.y * ROWS;
  int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  /* This thread's output column, in tile samples. */
  int c = halo + threadIdx.x;
  uint32_t acc[ROWS];

  /* The whole block or none of it: every thread takes part in the load. */
  if (bx0 >= row_samples || y0 >= p.height)
    return;

  for (int i = threadIdx.x; i < tile_h * tile_w; i += LARGE_THREADS) {
    int ty = i / tile_w, tx = i - ty * tile_w;
    int y = y0 - s.radius + ty, b = bx0 - halo + tx;

    tile[i] = y >= 0 && y < p.height && b >= 0 && b < row_samples ?
        load_sample < T > (p.src + (size_t) y * p.src_stride, b,
        p.src_aligned) : NEUTRAL;
  }

#pragma unroll
  for (int j = 0; j < ROWS; j++)
    acc[j] = NEUTRAL;

  for (int level = 0; level < s.levels; level++) {
    if (level > 0) {
      /* Level k from k - 1, in place: t[x] = pick (t[x], t[x + step]).
       * A warp walks its rows left to right, 32 samples at a time, and
       * reads a chunk before writing it, so every read sees level k - 1.
       * Samples whose span leaves the tile keep a stale value no output
       * reads. */
      int step = (1 << (level - 1)) * CHANNELS;

      for (int row = warp; row < tile_h; row += LARGE_THREADS / 32) {
        T *t = tile + row * tile_w;

        for (int x0 = 0; x0 < tile_w; x0 += 32) {
          int x = x0 + lane;
          bool inside = x + step < tile_w;
          uint32_t v = inside ? pick1 < MAX > (t[x], t[x + step]) : 0;

          __syncwarp ();
          if (inside)
            t[x] = (T) v;
        }
      }
    }
    __syncthreads ();

    for (int n = s.start[level]; n < s.start[level + 1]; n++) {
      int dy = s.dy[n], a = s.a[n];
      const T *left = tile + (dy + s.radius) * tile_w + c - a * CHANNELS;
      const T *right = left + (2 * a + 1 - (1 << level)) * CHANNELS;

#pragma unroll
      for (int j = 0; j < ROWS; j++)
        acc[j] = pick1 < MAX > (acc[j], pick1 < MAX > (left[j * tile_w],
                right[j * tile_w]));
    }
    /* The next level overwrites what was just read. */
    __syncthreads ();
  }

  if (bx0 + (int) threadIdx.x >= row_samples)
    return;
#pragma unroll
  for (int j = 0; j < ROWS; j++) {
    if (y0 + j >= p.height)
      break;
    store_sample < T > (p.dst + (size_t) (y0 + j) * p.dst_stride,
        bx0 + threadIdx.x, p.dst_aligned, acc[j]);
  }
}

/* Launchers */

template < int BPP, int R, int SHAPE >
static void
launch_small (const MorphPass & p, bool take_max, cudaStream_t stream)
{
  dim3 block (SMALL_BLOCK_X, SMALL_BLOCK_Y);
  dim3 grid (CIP_DIV_UP (p.row_bytes, SMALL_BLOCK_X * 4),
      CIP_DIV_UP (p.height, SMALL_TILE_ROWS));

  if (take_max)
    morph_small_kernel < BPP, R, SHAPE, true > <<<grid, block, 0, stream >>> (p);
  else
    morph_small_kernel < BPP, R, SHAPE, false > <<<grid, block, 0, stream >>>
        (p);
}

template < int BPP, int R >
static void
launch_small_shape (const MorphPass & p, CipMorphShape shape, bool take_max,
    cudaStream_t stream)
{
  switch (shape) {
    case CIP_SHAPE_DISK:
      launch_small < BPP, R, CIP_SHAPE_DISK > (p, take_max, stream);
      break;
    case CIP_SHAPE_SQUARE:
      launch_small < BPP, R, CIP_SHAPE_SQUARE > (p, take_max, stream);
      break;
    case CIP_SHAPE_CROSS:
      launch_small < BPP, R, CIP_SHAPE_CROSS > (p, take_max, stream);
      break;
  }
}

static void
launch_r1 (const MorphPass & p, CipMorphShape shape, bool take_max,
    cudaStream_t stream)
{
  dim3 block (32, R1_WARPS);
  dim3 grid (CIP_DIV_UP (p.row_bytes, R1_SPAN),
      CIP_DIV_UP (p.height, R1_WARPS * R1_ROWS));
  /* Every shape is symmetric: rows -1 and 1 have one span. */
  bool full = cip_morph_span (shape, 1, 1) == 1;

  if (full && take_max)
    morph_r1_kernel < true, true > <<<grid, block, 0, stream >>> (p);
  else if (full)
    morph_r1_kernel < true, false > <<<grid, block, 0, stream >>> (p);
  else if (take_max)
    morph_r1_kernel < false, true > <<<grid, block, 0, stream >>> (p);
  else
    morph_r1_kernel < false, false > <<<grid, block, 0, stream >>> (p);
}

template < typename T, int BPP, bool MAX >
static cudaError_t
launch_large_kernel (const MorphPass & p, const MorphSpans & s,
    cudaStream_t stream)
{
  dim3 grid (CIP_DIV_UP (p.row_bytes / (int) sizeof (T), LARGE_TILE_SAMPLES),
      CIP_DIV_UP (p.height, LARGE_ROWS (BPP)));
  size_t shared = (size_t) (LARGE_ROWS (BPP) + 2 * s.radius) *
      (LARGE_TILE_SAMPLES + 2 * s.radius * (BPP / sizeof (T))) * sizeof (T);

  /* GRAY16's largest tiles need more than the default limit. */
  if (shared > DEFAULT_SHARED_MAX) {
    cudaError_t err = cudaFuncSetAttribute (morph_large_kernel < T, BPP, MAX >,
        cudaFuncAttributeMaxDynamicSharedMemorySize, (int) shared);

    if (err != cudaSuccess)
      return err;
  }
  morph_large_kernel < T, BPP, MAX > <<<grid, LARGE_THREADS, shared,
      stream >>> (p, s);
  return cudaSuccess;
}

template < typename T, int BPP >
static cudaError_t
launch_large (const MorphPass & p, const MorphSpans & s, bool take_max,
    cudaStream_t stream)
{
  if (take_max)
    return launch_large_kernel < T, BPP, true > (p, s, stream);
  return launch_large_kernel < T, BPP, false > (p, s, stream);
}

static void
spans_init (MorphSpans * s, CipMorphShape shape, int radius)
{
  int level_of[2 * CIP_MORPH_RADIUS_MAX + 1];
  int n = 0, dy, k;

  s->radius = radius;
  s->levels = 0;
  for (dy = -radius; dy <= radius; dy++) {
    int a = cip_morph_span (shape, radius, dy);

    /* floor (log2 (2a + 1)) */
    for (k = 0; (2 << k) <= 2 * a + 1; k++);
    level_of[dy + radius] = k;
    if (k + 1 > s->levels)
      s->levels = k + 1;
  }
  for (k = 0; k < LARGE_LEVELS; k++) {
    s->start[k] = (int8_t) n;
    for (dy = -radius; dy <= radius; dy++) {
      if (level_of[dy + radius] != k)
        continue;
      s->dy[n] = (int8_t) dy;
      s->a[n] = (int8_t) cip_morph_span (shape, radius, dy);
      n++;
    }
  }
  s->start[LARGE_LEVELS] = (int8_t) n;
}

/* One erosion or dilation. */
static CipStatus
morph_pass (const MorphPass & p, int bpp, CipMorphShape shape, int radius,
    bool take_max, CipStream * stream)
{
  cudaStream_t s = stream->stream;

  if (bpp == 1 && radius == 1 && p.src_aligned16 && p.dst_aligned16) {
    launch_r1 (p, shape, take_max, s);
    CIP_CUDA_TRY_LAUNCH (stream, "morph radius 1 kernel");
  } else if (radius <= SMALL_RADIUS_MAX) {
    if (bpp == 1 && radius == 1)
      launch_small_shape < 1, 1 > (p, shape, take_max, s);
    else if (bpp == 1)
      launch_small_shape < 1, 2 > (p, shape, take_max, s);
    else if (bpp == 2 && radius == 1)
      launch_small_shape < 2, 1 > (p, shape, take_max, s);
    else if (bpp == 2)
      launch_small_shape < 2, 2 > (p, shape, take_max, s);
    else if (radius == 1)
      launch_small_shape < 4, 1 > (p, shape, take_max, s);
    else
      launch_small_shape < 4, 2 > (p, shape, take_max, s);
    CIP_CUDA_TRY_LAUNCH (stream, "morph small kernel");
  } else {
    MorphSpans spans;

    spans_init (&spans, shape, radius);
    if (bpp == 1)
      CIP_CUDA_TRY (stream, (launch_large < uint8_t, 1 > (p, spans, take_max,
                  s)));
    else if (bpp == 2)
      CIP_CUDA_TRY (stream, (launch_large < uint16_t, 2 > (p, spans,
                  take_max, s)));
    else
      CIP_CUDA_TRY (stream, (launch_large < uint8_t, 4 > (p, spans, take_max,
                  s)));
    CIP_CUDA_TRY_LAUNCH (stream, "morph large kernel");
  }
  return CIP_OK;
}

extern "C" CipStatus
cip_morph (const CipImage * src, CipImage * dst, CipMorphOperation operation,
    CipMorphShape shape, int radius, CipStream * stream)
{
  MorphPass p;
  int bpp;
  bool first_max;
  CipStatus status;

  if (stream == NULL ||
      cip_morph_check (src, dst, operation, shape, radius) != CIP_OK)
    return CIP_ERROR_INVALID_ARGUMENT;

  bpp = cip_format_bytes_per_pixel (src->format);
  p.src = (const uint8_t *) src->data;
  p.src_stride = src->stride;
  p.dst = (uint8_t *) dst->data;
  p.dst_stride = dst->stride;
  p.row_bytes = src->width * bpp;
  p.height = src->height;
  p.src_aligned = cip_rows_aligned (src, 4);
  p.dst_aligned = cip_rows_aligned (dst, 4);
  p.src_aligned16 = cip_rows_aligned (src, 16);
  p.dst_aligned16 = cip_rows_aligned (dst, 16);
  first_max = operation == CIP_MORPH_DILATE || operation == CIP_MORPH_CLOSE;

  if (operation == CIP_MORPH_OPEN || operation == CIP_MORPH_CLOSE) {
    /* The first pass into scratch rows of whole 16-byte units. */
    size_t stride = ((size_t) p.row_bytes + 15) & ~(size_t) 15;
    MorphPass second = p;
    void *mid;

    status = cip_cuda_scratch (stream, CIP_SCRATCH_MORPH,
        stride * p.height, &mid);
    if (status != CIP_OK)
      return status;
    p.dst = (uint8_t *) mid;
    p.dst_stride = stride;
    p.dst_aligned = true;
    p.dst_aligned16 = true;
    second.src = (const uint8_t *) mid;
    second.src_stride = stride;
    second.src_aligned = true;
    second.src_aligned16 = true;

    status = morph_pass (p, bpp, shape, radius, first_max, stream);
    if (status != CIP_OK)
      return status;
    return morph_pass (second, bpp, shape, radius, !first_max, stream);
  }
  return morph_pass (p, bpp, shape, radius, first_max, stream);
}
