/* gst-cuda-imgproc
 * Copyright (C) 2026 The gst-cuda-imgproc authors
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2 of the License, or (at your option) any later version.
 */

/* Internal to gpu/: the shape of the histogram operations (equalize,
 * Otsu), two launches with no host round trip.  The first counts the
 * histogram (privately per warp, then into the global one) and its last
 * block to finish derives the 256-entry table from it (the equalize LUT,
 * or the binarization at the threshold); the second maps every pixel
 * through the table, reading the image again mostly from L2.  (A
 * cooperative single launch with a grid barrier is a little faster alone,
 * but needs the whole grid resident at once, so it cannot overlap the
 * kernels of other streams.) */

#ifndef __CIP_HISTOGRAM_CUH__
#define __CIP_HISTOGRAM_CUH__

#include "cip-cuda.cuh"

/* A thread per bin in the table step. */
#define CIP_HISTOGRAM_THREADS CIP_BIN_THREADS
#define CIP_HISTOGRAM_WARPS (CIP_HISTOGRAM_THREADS / 32)
/* Blocks of the counting kernel per multiprocessor: enough to keep the
 * memory busy, few enough that the 256 global atomics each block ends
 * with stay cheap. */
#define CIP_HISTOGRAM_BLOCKS_PER_SM 2

/* A GRAY8 image, in CIP_UNIT-pixel units numbered row by row, and this
 * call's histogram buffers. */
typedef struct
{
  const uint8_t *src;
  size_t src_stride;
  int width;
  unsigned units_per_row;
  unsigned units;
  bool src_aligned;             /* 16-byte rows */
  /* Of packed 4:2:2 rows (width: the Y bytes' end), the bytes counted:
   * those whose (x & luma_mask) == luma_offset; GRAY8: both 0. */
  int luma_mask;
  int luma_offset;
  uint32_t *hist;               /* counted into by this call */
  uint32_t *next_hist;          /* zeroed for the next call */
  uint32_t *blocks_done;        /* the last block to finish resets it */
  uint8_t *table;               /* CIP_HIST_BINS entries, device */
} CipHistogramPass;

/* Counts the image into p.hist, with a private histogram per warp in
 * @warp_hists (CIP_HISTOGRAM_WARPS x CIP_HIST_BINS shared words) so that
 * images of few values do not serialise on a few shared counters, and
 * zeroes p.next_hist.  Returns true in the one block that finishes last,
 * which then sees the complete histogram. */
__device__ __forceinline__ bool
cip_histogram_count (const CipHistogramPass & p, uint32_t * warp_hists)
{
  __shared__ bool last;
  uint32_t *mine = warp_hists + (threadIdx.x / 32) * CIP_HIST_BINS;

  for (int i = threadIdx.x; i < CIP_HISTOGRAM_WARPS * CIP_HIST_BINS;
      i += blockDim.x)
    warp_hists[i] = 0;
  if (blockIdx.x == 0)
    p.next_hist[threadIdx.x] = 0;
  __syncthreads ();

  for (unsigned u = blockIdx.x * blockDim.x + threadIdx.x; u < p.units;
      u += gridDim.x * blockDim.x) {
    unsigned y = u / p.units_per_row;
    int x = (int) (u - y * p.units_per_row) * CIP_UNIT;
    CipUnit v = cip_load16 (p.src + y * p.src_stride, x, p.width,
        p.src_aligned);
    int n = min (CIP_UNIT, p.width - x);

#pragma unroll
    for (int i = 0; i < CIP_UNIT; i++)
      if (i < n && (i & p.luma_mask) == p.luma_offset)
        atomicAdd (&mine[v.b[i]], 1u);
  }
  __syncthreads ();

  {
    uint32_t count = 0;

    for (int w = 0; w < CIP_HISTOGRAM_WARPS; w++)
      count += warp_hists[w * CIP_HIST_BINS + threadIdx.x];
    if (count)
      atomicAdd (&p.hist[threadIdx.x], count);
  }
  /* Our counts are visible before our ticket is. */
  __threadfence ();
  __syncthreads ();
  if (threadIdx.x == 0)
    last = atomicAdd (p.blocks_done, 1u) == gridDim.x - 1;
  __syncthreads ();
  if (last && threadIdx.x == 0)
    *p.blocks_done = 0;
  return last;
}

/* Maps @src through the table into @dst: a block covers CIP_ROW_SPAN
 * pixels of a row, a thread CIP_UNIT. */
__global__ void
cip_histogram_apply_kernel (const uint8_t * __restrict__ src,
    size_t src_stride, uint8_t * __restrict__ dst, size_t dst_stride,
    int width, bool src_aligned, bool dst_aligned,
    const uint8_t * __restrict__ lut);

/* Fills the pass for @src and takes this call's histogram. */
static inline CipHistogramPass
cip_histogram_pass (const CipImage * src, CipStream * stream)
{
  CipHistogramPass p;

  p.src = (const uint8_t *) src->data;
  p.src_stride = src->stride;
  p.width = src->width;
  p.units_per_row = CIP_DIV_UP (src->width, CIP_UNIT);
  p.units = p.units_per_row * src->height;
  p.src_aligned = cip_rows_aligned (src, 16);
  p.luma_mask = 0;
  p.luma_offset = 0;
  p.hist = stream->hist + (stream->hist_turn & 1) * CIP_HIST_BINS;
  p.next_hist = stream->hist + (~stream->hist_turn & 1) * CIP_HIST_BINS;
  p.blocks_done = stream->hist + 2 * CIP_HIST_BINS;
  p.table = stream->table;
  return p;
}

/* The counting grid: CIP_HISTOGRAM_BLOCKS_PER_SM blocks per
 * multiprocessor, fewer for small images. */
static inline unsigned
cip_histogram_blocks (const CipHistogramPass & p, CipStream * stream)
{
  unsigned blocks = CIP_DIV_UP (p.units, CIP_HISTOGRAM_THREADS);
  unsigned most = stream->sm_count * CIP_HISTOGRAM_BLOCKS_PER_SM;

  return blocks < most ? blocks : most;
}

/* After the counting kernel: the next call counts into the other
 * histogram, and @dst gets the table applied. */
CipStatus cip_histogram_finish (const CipImage * src, CipImage * dst,
    CipStream * stream);

/* Sixteen consecutive GRAY16 pixels of a row from x (little-endian words),
 * those at or past the width read as 0: two 16-byte loads where the row
 * is 16-byte aligned. */
__device__ __forceinline__ void
cip_load16_words (const uint8_t * __restrict__ row, int x, int width,
    bool aligned, uint16_t * w)
{
  if (aligned && x + CIP_UNIT <= width) {
    union
    {
      uint4 v[2];
      uint16_t w[CIP_UNIT];
    } u;

    u.v[0] = *(const uint4 *) (row + 2 * x);
    u.v[1] = *(const uint4 *) (row + 2 * x + 16);
#pragma unroll
    for (int i = 0; i < CIP_UNIT; i++)
      w[i] = u.w[i];
  } else {
#pragma unroll
    for (int i = 0; i < CIP_UNIT; i++)
      w[i] = x + i < width ?
          (uint16_t) (row[2 * (x + i)] | row[2 * (x + i) + 1] << 8) : 0;
  }
}

/* The 16-bit histogram (GRAY16 equalization and Otsu), content-blind in
 * cost.  Its 65,536 counters do not fit a block's shared memory as 32-bit
 * words, but they do as 16-bit halves of one (128 KiB), and no count
 * passes 65,535 when a block counts at most CIP_HIST16_CHUNK_UNITS units
 * of CIP_UNIT pixels.  So the image is cut into such chunks, a block of
 * CIP_HIST16_THREADS each:
 *
 * 1. the block counts its chunk in shared memory; a thread first merges
 *    the runs of equal values among its CIP_UNIT pixels, so that a flat
 *    image costs one shared atomic a thread, not one a pixel (global
 *    atomics, even grouped by warp, took up to 15x longer on a narrow
 *    12-bit range), then writes its counts, dense, to its chunk's row;
 * 2. a thread a bin sums the chunks' rows into the histogram, overwriting
 *    it, and each block of them writes its segment's summary.
 *
 * Where a block may not ask for 128 KiB of shared memory (sm_75, sm_86,
 * sm_89, sm_120), each chunk is counted by two or four blocks, each
 * keeping the values of its part of the range. */
#define CIP_HIST16_THREADS 1024
#define CIP_HIST16_CHUNK_UNITS (65535 / CIP_UNIT)
#define CIP_HIST16_ROW_BYTES (CIP_HIST16_BINS * sizeof (uint16_t))

/* The passes over the 65,536 bins (sums, smoothing, the tables) run one
 * thread a bin, in CIP_HIST16_SEGMENTS blocks of CIP_HIST16_SEGMENT_BINS. */
#define CIP_HIST16_SEGMENT_BINS 1024
#define CIP_HIST16_SEGMENTS (CIP_HIST16_BINS / CIP_HIST16_SEGMENT_BINS)

/* Each segment's totals, written beside the histogram by the pass that
 * writes it last: a table pass's block reads them, not the 65,536 bins,
 * for what lies before its own bins and for the image's. */
typedef struct
{
  uint32_t count[CIP_HIST16_SEGMENTS];
  uint64_t weighted[CIP_HIST16_SEGMENTS];       /* sum of bin x weight */
  int32_t first[CIP_HIST16_SEGMENTS];   /* first occupied bin, or BINS */
  int32_t last[CIP_HIST16_SEGMENTS];    /* last occupied bin, or -1 */
} CipHistogram16Summary;

/* The count Otsu weighs a level's value by, as scikit-image: float32. */
__device__ __forceinline__ uint64_t
cip_histogram16_weight (uint32_t count)
{
  return (uint64_t) __uint2float_rn (count);
}

/* Counts GRAY16 @src into @hist (overwritten) and @summary, on @stream. */
CipStatus cip_histogram16_count (const CipImage * src, uint32_t * hist,
    CipHistogram16Summary * summary, CipStream * stream);

/* Temporal smoothing of a 16-bit histogram and its summary, in place, on
 * @stream. */
CipStatus cip_histogram16_smooth (uint32_t * hist,
    CipHistogram16Summary * summary, const CipSmoothing * smoothing,
    CipStream * stream);

#endif /* __CIP_HISTOGRAM_CUH__ */
