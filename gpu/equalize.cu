/* gst-cuda-imgproc
 * Copyright (C) 2026 The gst-cuda-imgproc authors
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2 of the License, or (at your option) any later version.
 */

/* Histogram equalization without a host round trip: histogram, lookup
 * table and its application all run on the stream. */

#include "cip-cuda.cuh"

/* A thread per bin: the running sums are exact integers, so a parallel
 * scan gives the reference's table bit for bit. */
__global__ void
equalize_lut_kernel (uint32_t * hist, uint8_t * lut)
{
  __shared__ uint32_t scratch[CIP_BIN_THREADS / 32];
  __shared__ int first;
  int bin = threadIdx.x;
  uint32_t count = hist[bin];
  uint32_t cumulative, total, first_cumulative, first_count;
  __shared__ uint32_t cumulative_at[CIP_HIST_BINS];

  if (bin == 0)
    first = CIP_HIST_BINS - 1;
  __syncthreads ();
  if (count > 0)
    atomicMin (&first, bin);

  cumulative = cip_block_inclusive_scan (count, scratch);
  cumulative_at[bin] = cumulative;
  __syncthreads ();

  total = cumulative_at[CIP_HIST_BINS - 1];
  first_cumulative = cumulative_at[first];
  first_count = first_cumulative - (first > 0 ? cumulative_at[first - 1] : 0);
  if (first_count == total)
    lut[bin] = bin == first ? (uint8_t) first : 0;
  else if (bin <= first)
    lut[bin] = 0;
  else
    lut[bin] = cip_equalize_lut_value (cumulative - first_cumulative,
        cip_equalize_scale (total, first_count));
  /* Ready for the next frame's histogram. */
  hist[bin] = 0;
}

__global__ void
apply_lut_kernel (const uint8_t * src, size_t src_stride, uint8_t * dst,
    size_t dst_stride, int width, int height, bool src_aligned,
    bool dst_aligned, const uint8_t * lut)
{
  __shared__ uint8_t table[CIP_HIST_BINS];
  int tid = threadIdx.y * blockDim.x + threadIdx.x;
  int x = (blockIdx.x * blockDim.x + threadIdx.x) * CIP_PIXELS_PER_THREAD;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  uchar4 v;

  for (int i = tid; i < CIP_HIST_BINS; i += blockDim.x * blockDim.y)
    table[i] = lut[i];
  __syncthreads ();

  if (x >= width || y >= height)
    return;

  v = cip_load4 (src + y * src_stride, x, width, src_aligned);
  v = make_uchar4 (table[v.x], table[v.y], table[v.z], table[v.w]);
  cip_store4 (dst + y * dst_stride, x, width, dst_aligned, v);
}

extern "C" CipStatus
cip_equalize (const CipImage * src, CipImage * dst, CipStream * stream)
{
  CipStatus status;

  if (stream == NULL || cip_check_pair (src, dst, 1) != CIP_OK)
    return CIP_ERROR_INVALID_ARGUMENT;

  status = cip_cuda_histogram (src, stream);
  if (status != CIP_OK)
    return status;

  equalize_lut_kernel <<<1, CIP_BIN_THREADS, 0, stream->stream >>> (
      stream->hist, stream->lut);
  CIP_CUDA_TRY_LAUNCH (stream, "equalize lookup-table kernel");

  apply_lut_kernel <<<cip_grid_2d (src->width, src->height), cip_block_2d (),
      0, stream->stream >>> ((const uint8_t *) src->data, src->stride,
      (uint8_t *) dst->data, dst->stride, src->width, src->height,
      cip_rows_aligned (src, 4), cip_rows_aligned (dst, 4), stream->lut);
  CIP_CUDA_TRY_LAUNCH (stream, "lookup-table kernel");
  return CIP_OK;
}
