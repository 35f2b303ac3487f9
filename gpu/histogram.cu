/* gst-cuda-imgproc
 * Copyright (C) 2026 The gst-cuda-imgproc authors
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2 of the License, or (at your option) any later version.
 */

/* The second launch of the histogram operations: see cip-histogram.cuh. */

#include "cip-histogram.cuh"

__global__ void
cip_histogram_apply_kernel (const uint8_t * __restrict__ src,
    size_t src_stride, uint8_t * __restrict__ dst, size_t dst_stride,
    int width, bool src_aligned, bool dst_aligned,
    const uint8_t * __restrict__ lut)
{
  __shared__ uint8_t table[CIP_HIST_BINS];
  int x = blockIdx.x * CIP_ROW_SPAN + threadIdx.x * CIP_UNIT;
  int y = blockIdx.y;
  CipUnit v;

  for (int i = threadIdx.x; i < CIP_HIST_BINS; i += blockDim.x)
    table[i] = lut[i];
  __syncthreads ();

  if (x >= width)
    return;

  v = cip_load16 (src + y * src_stride, x, width, src_aligned);
#pragma unroll
  for (int i = 0; i < CIP_UNIT; i++)
    v.b[i] = table[v.b[i]];
  cip_store16 (dst + y * dst_stride, x, width, dst_aligned, v);
}

CipStatus
cip_histogram_finish (const CipImage * src, CipImage * dst,
    CipStream * stream)
{
  stream->hist_turn++;
  cip_histogram_apply_kernel <<<dim3 (cip_row_segments (src->width),
          src->height), CIP_ROW_THREADS, 0, stream->stream >>> (
      (const uint8_t *) src->data, src->stride, (uint8_t *) dst->data,
      dst->stride, src->width, cip_rows_aligned (src, 16),
      cip_rows_aligned (dst, 16), stream->table);
  CIP_CUDA_TRY_LAUNCH (stream, "lookup-table kernel");
  return CIP_OK;
}

__global__ void
__launch_bounds__ (CIP_HIST16_THREADS)
cip_histogram16_count_kernel (CipHistogram16Pass p)
{
  unsigned lane = threadIdx.x & 31;
  unsigned stride = gridDim.x * blockDim.x;

  /* warp by warp, so that every lane takes part in each match */
  for (unsigned base = blockIdx.x * blockDim.x + (threadIdx.x & ~31u);
      base < p.units; base += stride) {
    unsigned u = base + lane;
    uint16_t w[CIP_UNIT];
    int n = 0;

    if (u < p.units) {
      unsigned y = u / p.units_per_row;
      int x = (int) (u - y * p.units_per_row) * CIP_UNIT;

      cip_load16_words (p.src + y * p.src_stride, x, p.width, p.src_aligned,
          w);
      n = min (CIP_UNIT, p.width - x);
    }
#pragma unroll
    for (int i = 0; i < CIP_UNIT; i++) {
      /* lanes without a pixel share a key no pixel has */
      unsigned key = i < n ? w[i] : 0xffffffffu;
      unsigned peers = __match_any_sync (0xffffffffu, key);

      if (i < n && lane == (unsigned) __ffs (peers) - 1)
        atomicAdd (&p.hist[key], (unsigned) __popc (peers));
    }
  }
}

CipStatus
cip_histogram16_count (const CipImage * src, uint32_t * hist,
    CipStream * stream)
{
  CipHistogram16Pass p;
  unsigned blocks, most;

  p.src = (const uint8_t *) src->data;
  p.src_stride = src->stride;
  p.width = src->width;
  p.units_per_row = CIP_DIV_UP (src->width, CIP_UNIT);
  p.units = p.units_per_row * src->height;
  p.src_aligned = cip_rows_aligned (src, 16);
  p.hist = hist;

  blocks = CIP_DIV_UP (p.units, CIP_HIST16_THREADS);
  most = stream->sm_count * CIP_HIST16_BLOCKS_PER_SM;
  cip_histogram16_count_kernel <<<blocks < most ? blocks : most,
      CIP_HIST16_THREADS, 0, stream->stream >>> (p);
  CIP_CUDA_TRY_LAUNCH (stream, "16-bit histogram kernel");
  return CIP_OK;
}

__global__ static void
histogram16_smooth_kernel (uint32_t * hist, CipSmoothing smoothing)
{
  int bin = blockIdx.x * blockDim.x + threadIdx.x;

  hist[bin] = cip_smooth_bin (&smoothing, bin, hist[bin]);
}

CipStatus
cip_histogram16_smooth (uint32_t * hist, const CipSmoothing * smoothing,
    CipStream * stream)
{
  histogram16_smooth_kernel <<<CIP_HIST16_BINS / 256, 256, 0,
      stream->stream >>> (hist, *smoothing);
  CIP_CUDA_TRY_LAUNCH (stream, "16-bit histogram smoothing kernel");
  return CIP_OK;
}
