/* gst-cuda-imgproc
 * Copyright (C) 2026 The gst-cuda-imgproc authors
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2 of the License, or (at your option) any later version.
 */

/* Otsu binarization without a host round trip: histogram and threshold in
 * one launch, binarization in a second (cip-histogram.cuh); the first
 * writes the threshold straight into the caller's page-locked byte. */

#include "cip-histogram.cuh"

/* Whether a share q of the pixels is so close to a bound of OpenCV's skip
 * test that the rounding of its running sum (within 256 ulps of q) could
 * put it on either side. */
__device__ __forceinline__ bool
near_skip_bound (double q)
{
  const double margin = 1e-12;

  return fabs (q - FLT_EPSILON) < margin ||
      fabs (q - (1. - FLT_EPSILON)) < margin;
}

/* a / b correctly rounded, from y = 1 / b correctly rounded: the
 * quotient rounded from a * y is within an ulp of a / b, its remainder
 * r = a - q b is exact in one fma, and q + r y rounds to a / b (Markstein's
 * theorem; a and b here are normal, no step under- or overflows).  Three
 * dependent operations where a division takes a dozen. */
__device__ __forceinline__ double
divide_by_reciprocal (double a, double b, double y)
{
  double q = __dmul_rn (a, y);

  return __fma_rn (__fma_rn (-q, b, a), y, q);
}

/* cip_otsu_threshold() of the histogram whose bin this thread holds
 * (@count; @total pixels, @weighted their sum), with the whole block:
 * the recurrences of q1 and of mu1, whose rounding decides, stay
 * sequential in one thread with nothing else in their loops; the
 * reciprocals of q1 that mu1's divisions use, each threshold's variance
 * and their first maximum are found in parallel.  Every operation is the
 * reference's, in its order, each rounded as it rounds. */
__device__ __noinline__ uint8_t
otsu_threshold_sequential (uint32_t count, uint32_t total, uint64_t weighted)
{
  __shared__ double p[CIP_HIST_BINS];
  __shared__ double ip[CIP_HIST_BINS];
  __shared__ double q1s[CIP_HIST_BINS];
  __shared__ double q1_inverses[CIP_HIST_BINS];
  __shared__ double mu1s[CIP_HIST_BINS];
  __shared__ double warp_best[CIP_BIN_THREADS / 32];
  __shared__ int warp_at[CIP_BIN_THREADS / 32];
  int bin = threadIdx.x, lane = bin & 31, warp = bin >> 5;
  double scale = 1. / (double) total;
  double mu = (double) weighted * scale;
  double p_i = count * scale, best = 0;
  int at = bin;

  p[bin] = p_i;
  ip[bin] = bin * p_i;
  __syncthreads ();
  if (bin == 0) {
    double q1 = 0;

    for (int i = 0; i < CIP_HIST_BINS; i++) {
      q1 = __dadd_rn (q1, p[i]);
      q1s[i] = q1;
    }
  }
  __syncthreads ();
  /* 1 / 0 where nothing is below: that step is skipped */
  q1_inverses[bin] = 1. / q1s[bin];
  __syncthreads ();
  if (bin == 0) {
    double q1 = 0, mu1 = 0;

    for (int i = 0; i < CIP_HIST_BINS; i++) {
      mu1 = __dmul_rn (mu1, q1);
      q1 = q1s[i];
      if (cip_otsu_skips (q1, 1. - q1))
        continue;
      mu1 = divide_by_reciprocal (__dadd_rn (mu1, ip[i]), q1,
          q1_inverses[i]);
      mu1s[i] = mu1;
    }
  }
  __syncthreads ();

  if (!cip_otsu_skips (q1s[bin], 1. - q1s[bin]))
    best = cip_otsu_sigma (mu, q1s[bin], mu1s[bin]);
  /* the largest variance, the first threshold on ties */
  for (int d = 16; d > 0; d >>= 1) {
    double other = __shfl_down_sync (0xffffffffu, best, d);
    int other_at = __shfl_down_sync (0xffffffffu, at, d);

    if (other > best || (other == best && other_at < at)) {
      best = other;
      at = other_at;
    }
  }
  if (lane == 0) {
    warp_best[warp] = best;
    warp_at[warp] = at;
  }
  __syncthreads ();
  best = 0;
  at = 0;
  for (int w = 0; w < CIP_BIN_THREADS / 32; w++)
    if (warp_best[w] > best) {
      best = warp_best[w];
      at = warp_at[w];
    }
  return (uint8_t) at;
}

/* OpenCV's threshold (cip_otsu_threshold), found in parallel.  OpenCV
 * computes each threshold's between-class variance through a sequential
 * double-precision recurrence; its result is within a small relative
 * error of the exact variance, which exact integer prefix sums give to
 * within a few ulps:
 *
 *   sigma(t) ~ (N s1 - n1 S)^2 / (n1 (N - n1))
 *
 * (n1, s1: pixels and sum of values up to t; N, S: over the image; the
 * constant 1/N^2 left out).  When one threshold's variance exceeds every
 * other's by more than both error bounds, it is OpenCV's maximum too.
 * Otherwise (near-ties: two-valued images, empty classes, shares at the
 * skip test's bounds) the block falls back to the sequential recurrence
 * itself, which is slow but rare and exact.  The bound per threshold, for
 * OpenCV's 256-step recurrence: the mean of the upper class, mu2 =
 * (mu - q1 mu1) / q2, loses ~1e-13 mu / q2 to cancellation and mu1 ~1e-13
 * mu1; sigma's relative error is twice that over |mu1 - mu2|, plus the
 * shares' own ~1e-13 / q.  The bound used is 100 times that. */
__device__ __forceinline__ uint8_t
otsu_threshold (const uint32_t * hist)
{
  __shared__ uint32_t scratch32[CIP_BIN_THREADS / 32];
  __shared__ uint64_t scratch64[CIP_BIN_THREADS / 32];
  __shared__ uint32_t total_count;
  __shared__ uint64_t total_sum;
  __shared__ double best_low[CIP_BIN_THREADS / 32];
  __shared__ int best_bin[CIP_BIN_THREADS / 32];
  __shared__ double top_low;
  __shared__ int top_bin;
  __shared__ int ambiguous;
  int bin = threadIdx.x, lane = bin & 31, warp = bin >> 5;
  uint32_t count = __ldcg (&hist[bin]);
  uint32_t n1 = cip_block_inclusive_scan (count, scratch32);
  uint64_t s1 = cip_block_inclusive_scan ((uint64_t) bin * count,
      scratch64);
  double sigma = 0, low = 0, high = 0;
  bool valid;

  if (bin == CIP_HIST_BINS - 1) {
    total_count = n1;
    total_sum = s1;
  }
  if (bin == 0)
    ambiguous = 0;
  __syncthreads ();

  {
    uint32_t n = total_count, n2 = n - n1;
    double q1 = (double) n1 / n, q2 = (double) n2 / n;

    valid = !cip_otsu_skips (q1, q2);
    if (near_skip_bound (q1) || near_skip_bound (q2))
      ambiguous = 1;
    if (valid) {
      __int128 d = (__int128) n * s1 - (__int128) n1 * total_sum;
      double dd = (double) d;
      double mu1 = (double) s1 / n1;
      double mu2 = (double) (total_sum - s1) / n2;
      double spread = fabs (mu1 - mu2);
      double bound = 100. * (1e-12 + 1e-13 * (1. / q1 + 1. / q2) +
          (spread > 0 ? 4e-13 * (mu1 + (double) total_sum / n / q2) /
              spread : 1.));

      sigma = dd * dd / ((double) n1 * (double) n2);
      low = sigma * (1. - bound);
      high = sigma * (1. + bound);
    }
  }

  /* The first threshold of the largest variance, with its lower bound;
   * then whether any other's upper bound reaches that. */
  {
    double best = sigma, best_lo = low;
    int at = bin;

    for (int d = 16; d > 0; d >>= 1) {
      double other = __shfl_down_sync (0xffffffffu, best, d);
      double other_lo = __shfl_down_sync (0xffffffffu, best_lo, d);
      int other_at = __shfl_down_sync (0xffffffffu, at, d);

      if (other > best || (other == best && other_at < at)) {
        best = other;
        best_lo = other_lo;
        at = other_at;
      }
    }
    if (lane == 0) {
      best_low[warp] = best_lo;
      best_bin[warp] = at;
      scratch64[warp] = __double_as_longlong (best);
    }
  }
  __syncthreads ();
  if (bin == 0) {
    double best = 0;

    top_bin = 0;
    top_low = 0;
    for (int w = 0; w < CIP_BIN_THREADS / 32; w++) {
      double v = __longlong_as_double (scratch64[w]);

      if (v > best) {
        best = v;
        top_low = best_low[w];
        top_bin = best_bin[w];
      }
    }
  }
  __syncthreads ();
  if (!(top_low > 0) || (bin != top_bin && valid && high >= top_low))
    ambiguous = 1;
  __syncthreads ();

  if (ambiguous)
    return otsu_threshold_sequential (count, total_count, total_sum);
  return (uint8_t) top_bin;
}

typedef struct
{
  CipHistogramPass pass;
  bool invert;
  uint8_t *threshold;           /* page-locked host memory */
} OtsuParams;

__global__ void
__launch_bounds__ (CIP_HISTOGRAM_THREADS)
otsu_count_kernel (OtsuParams p)
{
  __shared__ uint32_t warp_hists[CIP_HISTOGRAM_WARPS * CIP_HIST_BINS];
  uint8_t t;

  if (!cip_histogram_count (p.pass, warp_hists))
    return;

  t = otsu_threshold (p.pass.hist);
  p.pass.table[threadIdx.x] = cip_mask_pixel (threadIdx.x, t, 255, p.invert);
  /* With unified addressing, page-locked host memory is addressable from
   * kernels at its host address: the byte needs no copy of its own. */
  if (threadIdx.x == 0)
    *p.threshold = t;
}

extern "C" CipStatus
cip_otsu (const CipImage * src, CipImage * dst, bool invert,
    uint8_t * threshold, CipStream * stream)
{
  OtsuParams p;

  if (stream == NULL || threshold == NULL ||
      cip_check_pair (src, dst, 1) != CIP_OK)
    return CIP_ERROR_INVALID_ARGUMENT;

  p.pass = cip_histogram_pass (src, stream);
  p.invert = invert;
  p.threshold = threshold;
  otsu_count_kernel <<<cip_histogram_blocks (p.pass, stream),
      CIP_HISTOGRAM_THREADS, 0, stream->stream >>> (p);
  CIP_CUDA_TRY_LAUNCH (stream, "Otsu histogram kernel");
  return cip_histogram_finish (src, dst, stream);
}
