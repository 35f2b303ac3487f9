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
 * GRAY8 word holds four pixels (neighbours come from byte permutes of the
 * adjacent words), a four-byte format's word one pixel (neighbours are the
 * adjacent words).  Larger radii work on bytes: each tile row becomes, in
 * place, a sparse table of the extrema of 2^k consecutive pixels, and the
 * run of half width a is the extremum of two overlapping entries of level
 * k = floor (log2 (2a + 1)); rows are folded in as soon as their level is
 * built, so the work per pixel is two reads per element row. */

#include "cip-cuda.cuh"
#include "cip-morph.h"

#define SMALL_RADIUS_MAX 2
#define SMALL_BLOCK_X 64        /* word columns */
#define SMALL_BLOCK_Y 4
#define SMALL_ROWS 8            /* output rows per thread */
#define SMALL_TILE_ROWS (SMALL_BLOCK_Y * SMALL_ROWS)

#define LARGE_THREADS 256       /* one output byte column each */
#define LARGE_TILE_BYTES LARGE_THREADS
/* Output rows per tile; with radius 32 the tile is 40 KiB (GRAY8) or
 * 48 KiB (four bytes), within the default shared-memory limit. */
#define LARGE_ROWS(bpp) ((bpp) == 1 ? 64 : 32)
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
pick1 (uint32_t a, uint32_t b)
{
  return MAX ? max (a, b) : min (a, b);
}

/* Small radii */

/* The GRAY8 word of the pixels k to the left of @mid's (1 <= k <= 4). */
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
  /* Halo words on each side: one holds the 1..4 GRAY8 neighbours, a
   * four-byte pixel is a word. */
  constexpr int HALO = BPP == 1 ? 1 : R;
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
    if (BPP == 1) {
      uint32_t left = row[-1], right = row[1];

#pragma unroll
      for (int a = 1; a <= R; a++)
        run[a] = pick4 < MAX > (run[a - 1],
            pick4 < MAX > (shift_left (left, run[0], a),
                shift_right (row[0], right, a)));
    } else {
#pragma unroll
      for (int a = 1; a <= R; a++)
        run[a] = pick4 < MAX > (run[a - 1], pick4 < MAX > (row[-a], row[a]));
    }

#pragma unroll
    for (int j = 0; j < SMALL_ROWS; j++) {
      int dy = i - j - R;

      if (dy >= -R && dy <= R)
        acc[j] = pick4 < MAX > (acc[j],
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

/* Large radii */

template < int BPP, bool MAX >
__global__ void __launch_bounds__ (LARGE_THREADS)
morph_large_kernel (MorphPass p, MorphSpans s)
{
  constexpr int ROWS = LARGE_ROWS (BPP);
  constexpr uint32_t NEUTRAL = MAX ? CIP_MORPH_NEUTRAL_MAX :
      CIP_MORPH_NEUTRAL_MIN;
  extern __shared__ uint8_t tile[];
  int halo = s.radius * BPP;
  int tile_w = LARGE_TILE_BYTES + 2 * halo;
  int tile_h = ROWS + 2 * s.radius;
  int bx0 = blockIdx.x * LARGE_TILE_BYTES;
  int y0 = blockIdx.y * ROWS;
  int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  /* This thread's output column, in tile bytes. */
  int c = halo + threadIdx.x;
  uint32_t acc[ROWS];

  /* The whole block or none of it: every thread takes part in the load. */
  if (bx0 >= p.row_bytes || y0 >= p.height)
    return;

  for (int i = threadIdx.x; i < tile_h * tile_w; i += LARGE_THREADS) {
    int ty = i / tile_w, tx = i - ty * tile_w;
    int y = y0 - s.radius + ty, b = bx0 - halo + tx;

    tile[i] = y >= 0 && y < p.height && b >= 0 && b < p.row_bytes ?
        p.src[(size_t) y * p.src_stride + b] : NEUTRAL;
  }

#pragma unroll
  for (int j = 0; j < ROWS; j++)
    acc[j] = NEUTRAL;

  for (int level = 0; level < s.levels; level++) {
    if (level > 0) {
      /* Level k from k - 1, in place: t[x] = pick (t[x], t[x + step]).
       * A warp walks its rows left to right, 32 bytes at a time, and reads
       * a chunk before writing it, so every read sees level k - 1.  Bytes
       * whose span leaves the tile keep a stale value no output reads. */
      int step = (1 << (level - 1)) * BPP;

      for (int row = warp; row < tile_h; row += LARGE_THREADS / 32) {
        uint8_t *t = tile + row * tile_w;

        for (int x0 = 0; x0 < tile_w; x0 += 32) {
          int x = x0 + lane;
          bool inside = x + step < tile_w;
          uint32_t v = inside ? pick1 < MAX > (t[x], t[x + step]) : 0;

          __syncwarp ();
          if (inside)
            t[x] = (uint8_t) v;
        }
      }
    }
    __syncthreads ();

    for (int n = s.start[level]; n < s.start[level + 1]; n++) {
      int dy = s.dy[n], a = s.a[n];
      const uint8_t *left = tile + (dy + s.radius) * tile_w + c - a * BPP;
      const uint8_t *right = left + (2 * a + 1 - (1 << level)) * BPP;

#pragma unroll
      for (int j = 0; j < ROWS; j++)
        acc[j] = pick1 < MAX > (acc[j], pick1 < MAX > (left[j * tile_w],
                right[j * tile_w]));
    }
    /* The next level overwrites what was just read. */
    __syncthreads ();
  }

  if (bx0 + (int) threadIdx.x >= p.row_bytes)
    return;
#pragma unroll
  for (int j = 0; j < ROWS; j++) {
    if (y0 + j >= p.height)
      break;
    p.dst[(size_t) (y0 + j) * p.dst_stride + bx0 + threadIdx.x] =
        (uint8_t) acc[j];
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

template < int BPP >
static void
launch_large (const MorphPass & p, const MorphSpans & s, bool take_max,
    cudaStream_t stream)
{
  dim3 grid (CIP_DIV_UP (p.row_bytes, LARGE_TILE_BYTES),
      CIP_DIV_UP (p.height, LARGE_ROWS (BPP)));
  size_t shared = (size_t) (LARGE_ROWS (BPP) + 2 * s.radius) *
      (LARGE_TILE_BYTES + 2 * s.radius * BPP);

  if (take_max)
    morph_large_kernel < BPP, true > <<<grid, LARGE_THREADS, shared,
        stream >>> (p, s);
  else
    morph_large_kernel < BPP, false > <<<grid, LARGE_THREADS, shared,
        stream >>> (p, s);
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

  if (radius <= SMALL_RADIUS_MAX) {
    if (bpp == 1 && radius == 1)
      launch_small_shape < 1, 1 > (p, shape, take_max, s);
    else if (bpp == 1)
      launch_small_shape < 1, 2 > (p, shape, take_max, s);
    else if (radius == 1)
      launch_small_shape < 4, 1 > (p, shape, take_max, s);
    else
      launch_small_shape < 4, 2 > (p, shape, take_max, s);
    CIP_CUDA_TRY_LAUNCH (stream, "morph small kernel");
  } else {
    MorphSpans spans;

    spans_init (&spans, shape, radius);
    if (bpp == 1)
      launch_large < 1 > (p, spans, take_max, s);
    else
      launch_large < 4 > (p, spans, take_max, s);
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
    second.src = (const uint8_t *) mid;
    second.src_stride = stride;
    second.src_aligned = true;

    status = morph_pass (p, bpp, shape, radius, first_max, stream);
    if (status != CIP_OK)
      return status;
    return morph_pass (second, bpp, shape, radius, !first_max, stream);
  }
  return morph_pass (p, bpp, shape, radius, first_max, stream);
}
