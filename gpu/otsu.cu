/* gst-cuda-imgproc
 * Copyright (C) 2026 The gst-cuda-imgproc authors
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2 of the License, or (at your option) any later version.
 */

/* Otsu binarization without a host round trip: histogram, threshold and
 * binarization run on the stream; only the threshold byte comes back. */

#include "cip-cuda.cuh"

/* a / b rounded to nearest, from y = RN(1/b): a first quotient and two
 * corrections by the exact residual a - b q (one fused multiply-add).
 * After the first, q is within an ulp of a / b; from there Markstein's
 * theorem makes the second the correctly rounded quotient, the same bits
 * as IEEE division.  Its dependent chain is five operations, where a
 * division is a long one: this sits on the sequential path of Otsu. */
__device__ __forceinline__ double
divide_with_reciprocal (double a, double b, double y)
{
  double q = __dmul_rn (a, y);
  double r = __fma_rn (-b, q, a);

  q = __fma_rn (r, y, q);
  r = __fma_rn (-b, q, a);
  return __fma_rn (r, y, q);
}

/* cip_otsu_threshold() split over a thread per bin: the per-bin products,
 * the reciprocals and the variances run in parallel; the recurrences of q1
 * and mu1 (whose rounding decides ties) run in one thread each, with the
 * reference's operations in its order, so the threshold is the
 * reference's bit for bit. */
__global__ void
otsu_threshold_kernel (uint32_t * hist, uint8_t * threshold)
{
  __shared__ uint32_t scratch[CIP_BIN_THREADS / 32];
  __shared__ double p[CIP_HIST_BINS], weighted_p[CIP_HIST_BINS];
  __shared__ double q1_at[CIP_HIST_BINS], reciprocal[CIP_HIST_BINS];
  __shared__ double mu1_at[CIP_HIST_BINS];
  __shared__ bool valid[CIP_HIST_BINS];
  __shared__ unsigned long long weighted_sum;
  __shared__ uint32_t total_count;
  __shared__ double best_sigma[CIP_BIN_THREADS / 32];
  __shared__ int best_bin[CIP_BIN_THREADS / 32];
  int bin = threadIdx.x, lane = bin & 31, warp = bin >> 5;
  uint32_t count = hist[bin], total;
  double scale, mu, sigma;

  /* Read: ready for the next frame's histogram. */
  hist[bin] = 0;

  if (bin == 0)
    weighted_sum = 0;
  total = cip_block_inclusive_scan (count, scratch);
  /* The last bin's inclusive sum is the total. */
  if (bin == CIP_HIST_BINS - 1)
    total_count = total;
  atomicAdd (&weighted_sum, (unsigned long long) bin * count);
  __syncthreads ();
  total = total_count;

  scale = 1. / (double) total;
  mu = (double) weighted_sum * scale;
  p[bin] = count * scale;
  weighted_p[bin] = bin * p[bin];
  __syncthreads ();

  /* q1, a running sum in the reference's order. */
  if (bin == 0) {
    double q1 = 0;

#pragma unroll 16
    for (int i = 0; i < CIP_HIST_BINS; i++) {
      q1 += p[i];
      q1_at[i] = q1;
      valid[i] = !cip_otsu_skips (q1, 1. - q1);
    }
  }
  __syncthreads ();
  reciprocal[bin] = __drcp_rn (q1_at[bin]);
  __syncthreads ();

  /* mu1: scaled back by the previous q1, then divided by the new one
   * where the reference does not skip the bin. */
  if (bin == 0) {
    double mu1 = 0, q1_prev = 0;

#pragma unroll 16
    for (int i = 0; i < CIP_HIST_BINS; i++) {
      mu1 = __dmul_rn (mu1, q1_prev);
      if (valid[i])
        mu1 = divide_with_reciprocal (__dadd_rn (mu1, weighted_p[i]), q1_at[i],
            reciprocal[i]);
      mu1_at[i] = mu1;
      q1_prev = q1_at[i];
    }
  }
  __syncthreads ();

  /* The first bin of the largest variance above 0. */
  sigma = valid[bin] ? cip_otsu_sigma (mu, q1_at[bin], mu1_at[bin]) : 0;
  {
    int best = bin;

    for (int d = 16; d > 0; d >>= 1) {
      double other_sigma = __shfl_down_sync (0xffffffffu, sigma, d);
      int other_bin = __shfl_down_sync (0xffffffffu, best, d);

      if (other_sigma > sigma || (other_sigma == sigma && other_bin < best)) {
        sigma = other_sigma;
        best = other_bin;
      }
    }
    if (lane == 0) {
      best_sigma[warp] = sigma;
      best_bin[warp] = best;
    }
  }
  __syncthreads ();
  if (bin == 0) {
    double top = 0;
    int top_bin = 0;

    for (int w = 0; w < CIP_BIN_THREADS / 32; w++)
      if (best_sigma[w] > top) {
        top = best_sigma[w];
        top_bin = best_bin[w];
      }
    *threshold = (uint8_t) top_bin;
  }
}

extern "C" CipStatus
cip_otsu (const CipImage * src, CipImage * dst, bool invert,
    uint8_t * threshold, CipStream * stream)
{
  CipStatus status;

  if (stream == NULL || threshold == NULL ||
      cip_check_pair (src, dst, 1) != CIP_OK)
    return CIP_ERROR_INVALID_ARGUMENT;

  status = cip_cuda_histogram (src, stream);
  if (status != CIP_OK)
    return status;

  otsu_threshold_kernel <<<1, CIP_BIN_THREADS, 0, stream->stream >>> (
      stream->hist, stream->threshold);
  CIP_CUDA_TRY_LAUNCH (stream, "Otsu threshold kernel");

  status = cip_cuda_binarize_at (src, dst, stream->threshold, 255, invert,
      stream);
  if (status != CIP_OK)
    return status;

  CIP_CUDA_TRY (stream, cudaMemcpyAsync (threshold, stream->threshold, 1,
          cudaMemcpyDeviceToHost, stream->stream));
  return CIP_OK;
}
