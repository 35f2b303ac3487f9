/* gst-cuda-imgproc
 * Copyright (C) 2026 The gst-cuda-imgproc authors
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2 of the License, or (at your option) any later version.
 */

/* Internal to gpu/: the single-launch shape of the histogram operations
 * (equalize, Otsu).  One cooperative grid, as many blocks as fit on the
 * device at once, counts the histogram, waits for every block at a grid
 * barrier, derives the per-pixel mapping in every block from the finished
 * histogram, and applies it: one launch, and the second read of the image
 * comes from L2. */

#ifndef __CIP_HISTOGRAM_CUH__
#define __CIP_HISTOGRAM_CUH__

#include <cooperative_groups.h>

#include "cip-cuda.cuh"

/* A thread per bin in the mapping step. */
#define CIP_HISTOGRAM_THREADS CIP_BIN_THREADS
#define CIP_HISTOGRAM_WARPS (CIP_HISTOGRAM_THREADS / 32)

/* A GRAY8 image to GRAY8 image pass, in CIP_UNIT-pixel units numbered row
 * by row. */
typedef struct
{
  const uint8_t *src;
  size_t src_stride;
  uint8_t *dst;
  size_t dst_stride;
  int width;
  unsigned units_per_row;
  unsigned units;
  bool src_aligned;             /* 16-byte rows */
  bool dst_aligned;
  uint32_t *hist;               /* counted into by this call */
  uint32_t *next_hist;          /* zeroed for the next call */
} CipHistogramPass;

/* Visits the pass's units spread over the whole grid: f (row, x). */
template < typename F > __device__ __forceinline__ void
cip_histogram_for_units (const CipHistogramPass & p, F f)
{
  for (unsigned u = blockIdx.x * blockDim.x + threadIdx.x; u < p.units;
      u += gridDim.x * blockDim.x) {
    unsigned y = u / p.units_per_row;

    f (y, (int) (u - y * p.units_per_row) * CIP_UNIT);
  }
}

/* Counts the image into p.hist, with a private histogram per warp in
 * @warp_hists (CIP_HISTOGRAM_WARPS x CIP_HIST_BINS shared words) so that
 * images of few values do not serialise on a few shared counters; and
 * zeroes p.next_hist.  Ends with the grid barrier: p.hist is complete on
 * return, in every block. */
__device__ __forceinline__ void
cip_histogram_count (const CipHistogramPass & p, uint32_t * warp_hists)
{
  uint32_t *mine = warp_hists + (threadIdx.x / 32) * CIP_HIST_BINS;

  for (int i = threadIdx.x; i < CIP_HISTOGRAM_WARPS * CIP_HIST_BINS;
      i += blockDim.x)
    warp_hists[i] = 0;
  if (blockIdx.x == 0)
    p.next_hist[threadIdx.x] = 0;
  __syncthreads ();

  cip_histogram_for_units (p,[&](unsigned y, int x) {
        CipUnit v = cip_load16 (p.src + y * p.src_stride, x, p.width,
            p.src_aligned);
        int n = min (CIP_UNIT, p.width - x);

#pragma unroll
        for (int i = 0; i < CIP_UNIT; i++)
          if (i < n)
            atomicAdd (&mine[v.b[i]], 1u);
      });
  __syncthreads ();

  {
    uint32_t count = 0;

    for (int w = 0; w < CIP_HISTOGRAM_WARPS; w++)
      count += warp_hists[w * CIP_HIST_BINS + threadIdx.x];
    if (count)
      atomicAdd (&p.hist[threadIdx.x], count);
  }
  cooperative_groups::this_grid ().sync ();
}

/* Maps every pixel through the CIP_HIST_BINS-entry shared @table. */
__device__ __forceinline__ void
cip_histogram_apply (const CipHistogramPass & p, const uint8_t * table)
{
  cip_histogram_for_units (p,[&](unsigned y, int x) {
        CipUnit v = cip_load16 (p.src + y * p.src_stride, x, p.width,
            p.src_aligned);

#pragma unroll
        for (int i = 0; i < CIP_UNIT; i++)
          v.b[i] = table[v.b[i]];
        cip_store16 (p.dst + y * p.dst_stride, x, p.width, p.dst_aligned, v);
      });
}

/* Fills the pass for @src and @dst and takes this call's histogram. */
static inline CipHistogramPass
cip_histogram_pass (const CipImage * src, CipImage * dst, CipStream * stream)
{
  CipHistogramPass p;

  p.src = (const uint8_t *) src->data;
  p.src_stride = src->stride;
  p.dst = (uint8_t *) dst->data;
  p.dst_stride = dst->stride;
  p.width = src->width;
  p.units_per_row = CIP_DIV_UP (src->width, CIP_UNIT);
  p.units = p.units_per_row * src->height;
  p.src_aligned = cip_rows_aligned (src, 16);
  p.dst_aligned = cip_rows_aligned (dst, 16);
  p.hist = stream->hist + (stream->hist_turn & 1) * CIP_HIST_BINS;
  p.next_hist = stream->hist + (~stream->hist_turn & 1) * CIP_HIST_BINS;
  return p;
}

/* Launches @kernel (p) cooperatively over as many blocks as the device
 * runs at once (measured once into *blocks), fewer for small images. */
template < typename Kernel, typename Params >
static CipStatus
cip_histogram_launch (Kernel kernel, Params & params,
    const CipHistogramPass & p, int *blocks, const char *name,
    CipStream * stream)
{
  void *args[] = { &params };
  int grid;

  if (*blocks == 0) {
    int per_sm = 0;

    CIP_CUDA_TRY (stream, cudaOccupancyMaxActiveBlocksPerMultiprocessor
        (&per_sm, kernel, CIP_HISTOGRAM_THREADS, 0));
    if (per_sm < 1)
      return cip_cuda_fail (stream, name, cudaErrorCooperativeLaunchTooLarge);
    *blocks = per_sm * stream->sm_count;
  }
  grid = (int) CIP_DIV_UP (p.units, CIP_HISTOGRAM_THREADS);
  if (grid > *blocks)
    grid = *blocks;

  CIP_CUDA_TRY (stream, cudaLaunchCooperativeKernel ((void *) kernel, grid,
          CIP_HISTOGRAM_THREADS, args, 0, stream->stream));
  stream->hist_turn++;
  return CIP_OK;
}

#endif /* __CIP_HISTOGRAM_CUH__ */
