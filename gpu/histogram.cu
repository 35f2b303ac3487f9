/* gst-cuda-imgproc
 * Copyright (C) 2026 The gst-cuda-imgproc authors
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2 of the License, or (at your option) any later version.
 */

/* 256-bin histograms with integer counters privatized in shared memory:
 * exact, unlike float atomics, and with little global contention. */

#include "cip-cuda.cuh"

__global__ void
histogram_kernel (const uint8_t * src, size_t stride, int width, int height,
    bool aligned, uint32_t * hist)
{
  __shared__ uint32_t local[CIP_HIST_BINS];

  for (int i = threadIdx.x; i < CIP_HIST_BINS; i += blockDim.x)
    local[i] = 0;
  __syncthreads ();

  for (int y = blockIdx.x; y < height; y += gridDim.x) {
    const uint8_t *row = src + y * stride;

    for (int x = threadIdx.x * 4; x < width; x += blockDim.x * 4) {
      uchar4 v = cip_load4 (row, x, width, aligned);

      atomicAdd (&local[v.x], 1);
      if (x + 1 < width)
        atomicAdd (&local[v.y], 1);
      if (x + 2 < width)
        atomicAdd (&local[v.z], 1);
      if (x + 3 < width)
        atomicAdd (&local[v.w], 1);
    }
  }
  __syncthreads ();

  for (int i = threadIdx.x; i < CIP_HIST_BINS; i += blockDim.x)
    if (local[i])
      atomicAdd (&hist[i], local[i]);
}

CipStatus
cip_cuda_histogram (const CipImage * src, CipStream * stream)
{
  int blocks = stream->sm_count * CIP_HIST_BLOCKS_PER_SM;

  if (blocks > src->height)
    blocks = src->height;

  histogram_kernel <<<blocks, CIP_HIST_THREADS, 0, stream->stream >>> (
      (const uint8_t *) src->data, src->stride, src->width, src->height,
      cip_rows_aligned (src, 4), stream->hist);
  CIP_CUDA_TRY_LAUNCH (stream, "histogram kernel");
  return CIP_OK;
}
