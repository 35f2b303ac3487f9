/* gst-cuda-imgproc
 * Copyright (C) 2026 The gst-cuda-imgproc authors
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2 of the License, or (at your option) any later version.
 */

/* Histogram equalization without a host round trip: histogram and lookup
 * table in one launch, its application in a second (cip-histogram.cuh). */

#include "cip-histogram.cuh"

/* Writes OpenCV's equalizeHist table for the finished histogram into
 * @table, with a thread per bin: the running sums are exact integers, so a
 * parallel scan gives the reference's table bit for bit. */
__device__ __forceinline__ void
equalize_table (const uint32_t * hist, uint8_t * table,
    const CipSmoothing & smoothing)
{
  __shared__ uint32_t scratch[CIP_BIN_THREADS / 32];
  __shared__ uint32_t cumulative_at[CIP_HIST_BINS];
  __shared__ int first;
  int bin = threadIdx.x;
  uint32_t count = __ldcg (&hist[bin]);
  uint32_t cumulative, total, first_cumulative, first_count;

  /* temporal smoothing: the bin's history in place of its count */
  if (smoothing.history)
    count = cip_smooth_bin (&smoothing, bin, count);

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
    table[bin] = bin == first ? (uint8_t) first : 0;
  else if (bin <= first)
    table[bin] = 0;
  else
    table[bin] = cip_equalize_lut_value (cumulative - first_cumulative,
        cip_equalize_scale (total, first_count));
}

__global__ void
__launch_bounds__ (CIP_HISTOGRAM_THREADS)
equalize_count_kernel (CipHistogramPass p, CipSmoothing smoothing)
{
  __shared__ uint32_t warp_hists[CIP_HISTOGRAM_WARPS * CIP_HIST_BINS];

  if (cip_histogram_count (p, warp_hists))
    equalize_table (p.hist, p.table, smoothing);
}

extern "C" CipStatus
cip_equalize (const CipImage * src, CipImage * dst, CipStream * stream)
{
  return cip_equalize_smoothed (src, dst, NULL, stream);
}

extern "C" CipStatus
cip_equalize_smoothed (const CipImage * src, CipImage * dst,
    const CipSmoothing * smoothing, CipStream * stream)
{
  CipHistogramPass p;
  CipSmoothing args = { NULL, 0, true };

  if (stream == NULL || cip_check_pair (src, dst, 1) != CIP_OK ||
      !cip_smoothing_valid (smoothing))
    return CIP_ERROR_INVALID_ARGUMENT;

  if (smoothing)
    args = *smoothing;
  p = cip_histogram_pass (src, stream);
  equalize_count_kernel <<<cip_histogram_blocks (p, stream),
      CIP_HISTOGRAM_THREADS, 0, stream->stream >>> (p, args);
  CIP_CUDA_TRY_LAUNCH (stream, "equalize histogram kernel");
  return cip_histogram_finish (src, dst, stream);
}
