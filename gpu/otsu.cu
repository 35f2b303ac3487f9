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
#include "cip-threshold.h"

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
  CipSmoothing smoothing;       /* history NULL: none */
} OtsuParams;

__global__ void
__launch_bounds__ (CIP_HISTOGRAM_THREADS)
otsu_count_kernel (OtsuParams p)
{
  __shared__ uint32_t warp_hists[CIP_HISTOGRAM_WARPS * CIP_HIST_BINS];
  uint8_t t;

  if (!cip_histogram_count (p.pass, warp_hists))
    return;

  /* temporal smoothing: the counts the history stands for, in place */
  if (p.smoothing.history) {
    uint32_t *count = &p.pass.hist[threadIdx.x];

    *count = cip_smooth_bin (&p.smoothing, threadIdx.x, __ldcg (count));
    __syncthreads ();
  }
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
  return cip_otsu_smoothed (src, dst, invert, threshold, NULL, stream);
}

extern "C" CipStatus
cip_otsu_smoothed (const CipImage * src, CipImage * dst, bool invert,
    uint8_t * threshold, const CipSmoothing * smoothing, CipStream * stream)
{
  OtsuParams p;

  if (stream == NULL || threshold == NULL ||
      cip_check_threshold_pair (src, dst, CIP_FORMAT_GRAY8) != CIP_OK ||
      !cip_smoothing_valid (smoothing))
    return CIP_ERROR_INVALID_ARGUMENT;

  p.pass = cip_histogram_pass (src, stream);
  p.invert = invert;
  p.threshold = threshold;
  p.smoothing.history = NULL;
  if (smoothing)
    p.smoothing = *smoothing;
  otsu_count_kernel <<<cip_histogram_blocks (p.pass, stream),
      CIP_HISTOGRAM_THREADS, 0, stream->stream >>> (p);
  CIP_CUDA_TRY_LAUNCH (stream, "Otsu histogram kernel");
  return cip_histogram_finish (src, dst, stream);
}

/* Otsu on GRAY16 (cip_otsu16_threshold), without a host round trip:
 *
 * 1. the 16-bit histogram and its segments' summary
 *    (cip_histogram16_count) into the stream's scratch;
 * 2. (large images only) one warp runs scikit-image's float32 running
 *    sums w1 and w2 over the bins, in its order: their rounding decides;
 * 3. a block a segment: from the summary, the totals, the image's range
 *    and its own prefix; it scans its bins for exact class sums, and each
 *    thread forms its threshold's variance with the reference's operations
 *    (cip_otsu16_variance); up to 2^24 pixels the float32 weights are the
 *    exact integer sums.  Only occupied thresholds are formed: an empty
 *    level's variance equals its occupied predecessor's, and the first
 *    maximum wins.  Each block leaves its first maximum; the last block to
 *    finish takes the first maximum of all and writes the threshold to
 *    the device and to the caller's page-locked word;
 * 4. binarization at that threshold.
 *
 * The scratch is allocated once, by the first call; every per-call cost
 * beyond the image's is fixed (65,536 bins). */

typedef struct
{
  uint32_t hist[CIP_HIST16_BINS];
  CipHistogram16Summary summary;
  float lower[CIP_HIST16_BINS];     /* w1, large images */
  float upper[CIP_HIST16_BINS];     /* w2, large images */
  double best[CIP_HIST16_SEGMENTS];     /* each block's best variance */
  uint32_t at[CIP_HIST16_SEGMENTS];     /* ... and its first threshold */
  uint32_t blocks_done;
  uint32_t threshold;
} Otsu16Scratch;

/* scikit-image's float32 running sums, left to right (w1, in lower) and
 * right to left (w2, in upper): one warp each; the lanes read 32 bins at
 * a time and every lane runs the sum, keeping its own bin's. */
__global__ void
otsu16_running_sums_kernel (Otsu16Scratch * s)
{
  int lane = threadIdx.x & 31;
  bool down = threadIdx.x >= 32;
  float sum = 0;

  for (int chunk = 0; chunk < CIP_HIST16_BINS / 32; chunk++) {
    int first = down ? CIP_HIST16_BINS - 32 * (chunk + 1) : 32 * chunk;
    uint32_t mine = __ldcg (&s->hist[first + lane]);
    float keep = 0;

    for (int j = 0; j < 32; j++) {
      int k = down ? 31 - j : j;
      float c = (float) __shfl_sync (0xffffffffu, mine, k);

      sum = __fadd_rn (sum, c);
      if (lane == k)
        keep = sum;
    }
    (down ? s->upper : s->lower)[first + lane] = keep;
  }
}

typedef struct
{
  Otsu16Scratch *s;
  uint32_t pixels;
  bool exact;                   /* pixels <= CIP_OTSU16_EXACT_PIXELS */
  uint16_t *threshold;          /* page-locked host memory */
} Otsu16Params;

/* The block's greatest @v and, among equals, its lowest @at, left in
 * thread 0's: the first maximum, where @at grows with the bin.  Uses
 * @best_v and @best_at (a slot a warp) and synchronizes the block. */
__device__ void
otsu16_first_maximum (double *v, int *at, double *best_v, int *best_at)
{
  int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;

  for (int d = 16; d > 0; d >>= 1) {
    double other = __shfl_down_sync (0xffffffffu, *v, d);
    int other_at = __shfl_down_sync (0xffffffffu, *at, d);

    if (other > *v || (other == *v && other_at < *at)) {
      *v = other;
      *at = other_at;
    }
  }
  if (lane == 0) {
    best_v[warp] = *v;
    best_at[warp] = *at;
  }
  __syncthreads ();
  if (threadIdx.x == 0)
    for (int w = 1; w < (int) (blockDim.x / 32); w++)
      if (best_v[w] > *v || (best_v[w] == *v && best_at[w] < *at)) {
        *v = best_v[w];
        *at = best_at[w];
      }
  __syncthreads ();
}

__global__ void
__launch_bounds__ (CIP_HIST16_SEGMENT_BINS)
otsu16_threshold_kernel (Otsu16Params p)
{
  __shared__ uint64_t scratch64[32];
  __shared__ uint32_t scratch32[32];
  __shared__ int scratch_int[32];
  __shared__ double best_v[32];
  __shared__ int best_at[32];
  __shared__ bool last;
  const uint32_t *hist = p.s->hist;
  int bin = blockIdx.x * CIP_HIST16_SEGMENT_BINS + threadIdx.x;
  uint64_t s_before = 0, s_total = 0, s1;
  uint32_t n_before = 0, n_total = 0, count, n1;
  int lo = CIP_HIST16_BINS, hi = -1;
  double v = -1;
  int at = bin;

  /* the totals, the range and what lies before this block's bins, from
   * the segments' summaries */
  if (threadIdx.x < CIP_HIST16_SEGMENTS) {
    const CipHistogram16Summary *sum = &p.s->summary;
    bool earlier = threadIdx.x < blockIdx.x;

    n_total = __ldcg (&sum->count[threadIdx.x]);
    s_total = __ldcg (&sum->weighted[threadIdx.x]);
    n_before = earlier ? n_total : 0;
    s_before = earlier ? s_total : 0;
    lo = __ldcg (&sum->first[threadIdx.x]);
    hi = __ldcg (&sum->last[threadIdx.x]);
  }
  s_total = cip_block_reduce (s_total, scratch64, CipSum ());
  s_before = cip_block_reduce (s_before, scratch64, CipSum ());
  n_before = cip_block_reduce (n_before, scratch32, CipSum ());
  n_total = cip_block_reduce (n_total, scratch32, CipSum ());
  lo = cip_block_reduce (lo, scratch_int, CipMin ());
  hi = cip_block_reduce (hi, scratch_int, CipMax ());

  count = __ldcg (&hist[bin]);
  n1 = n_before + cip_block_inclusive_scan (count, scratch32);
  s1 = s_before + cip_block_inclusive_scan (cip_histogram16_weight (count) *
      (uint64_t) bin, scratch64);
  if (count > 0 && bin < hi) {
    float w1, w2;

    if (p.exact) {
      w1 = (float) n1;
      w2 = (float) (n_total - n1);
    } else {
      w1 = __ldcg (&p.s->lower[bin]);
      w2 = __ldcg (&p.s->upper[bin + 1]);
    }
    v = cip_otsu16_variance (w1, w2, s1, s_total - s1);
  }

  /* the first maximum of the block, then, in the last block to finish,
   * the first of the blocks' */
  otsu16_first_maximum (&v, &at, best_v, best_at);
  if (threadIdx.x == 0) {
    p.s->best[blockIdx.x] = v;
    p.s->at[blockIdx.x] = at;
    /* ours is visible before our ticket is */
    __threadfence ();
    last = atomicAdd (&p.s->blocks_done, 1u) == gridDim.x - 1;
  }
  __syncthreads ();
  if (!last)
    return;

  __threadfence ();
  v = -1;
  at = lo;
  if (threadIdx.x < CIP_HIST16_SEGMENTS) {
    v = __ldcg (&p.s->best[threadIdx.x]);
    at = __ldcg (&p.s->at[threadIdx.x]);
  }
  otsu16_first_maximum (&v, &at, best_v, best_at);
  if (threadIdx.x == 0) {
    /* no occupied threshold below the top level: the image's one value */
    uint32_t t = lo < hi && v >= 0 ? (uint32_t) at : (uint32_t) lo;

    p.s->threshold = t;
    p.s->blocks_done = 0;
    /* page-locked host memory, addressable at its host address */
    *p.threshold = (uint16_t) t;
  }
}

/* Binarization of GRAY16 at the threshold the previous launch left, as
 * cudamask's: a block covers CIP_ROW_SPAN pixels of a row, a thread
 * CIP_UNIT. */
__global__ void
otsu16_apply_kernel (const uint8_t * __restrict__ src, size_t src_stride,
    uint8_t * __restrict__ dst, size_t dst_stride, int width,
    bool src_aligned, bool dst_aligned, bool invert, Otsu16Scratch * s)
{
  int x = blockIdx.x * CIP_ROW_SPAN + threadIdx.x * CIP_UNIT;
  int y = blockIdx.y;
  uint16_t t = (uint16_t) __ldcg (&s->threshold);
  uint16_t w[CIP_UNIT];
  CipUnit v;

  if (x >= width)
    return;

  cip_load16_words (src + y * src_stride, x, width, src_aligned, w);
#pragma unroll
  for (int i = 0; i < CIP_UNIT; i++)
    v.b[i] = cip_mask_pixel (w[i], t, 255, invert);
  cip_store16 (dst + y * dst_stride, x, width, dst_aligned, v);
}

extern "C" CipStatus
cip_otsu16 (const CipImage * src, CipImage * dst, bool invert,
    uint16_t * threshold, CipStream * stream)
{
  return cip_otsu16_smoothed (src, dst, invert, threshold, NULL, stream);
}

extern "C" CipStatus
cip_otsu16_smoothed (const CipImage * src, CipImage * dst, bool invert,
    uint16_t * threshold, const CipSmoothing * smoothing, CipStream * stream)
{
  Otsu16Params p;
  bool fresh;
  void *scratch;
  CipStatus status;

  if (stream == NULL || threshold == NULL ||
      ((uintptr_t) threshold & 1) != 0 ||
      cip_check_threshold_pair (src, dst, CIP_FORMAT_GRAY16) != CIP_OK ||
      !cip_smoothing_valid (smoothing))
    return CIP_ERROR_INVALID_ARGUMENT;

  fresh = stream->scratch[CIP_SCRATCH_HIST16].data == NULL;
  status = cip_cuda_scratch (stream, CIP_SCRATCH_HIST16,
      sizeof (Otsu16Scratch), &scratch);
  if (status != CIP_OK)
    return status;
  /* once, for the block counter: the last block leaves it zeroed */
  if (fresh)
    CIP_CUDA_TRY (stream, cudaMemsetAsync (scratch, 0,
            sizeof (Otsu16Scratch), stream->stream));

  p.s = (Otsu16Scratch *) scratch;
  p.pixels = (uint32_t) src->width * (uint32_t) src->height;
  /* smoothed counts, each rounded, may add up to half a count a bin more */
  p.exact = p.pixels + (smoothing ? CIP_HIST16_BINS / 2 : 0) <=
      CIP_OTSU16_EXACT_PIXELS;
  p.threshold = threshold;

  status = cip_histogram16_count (src, p.s->hist, &p.s->summary, stream);
  if (status != CIP_OK)
    return status;
  if (smoothing) {
    status = cip_histogram16_smooth (p.s->hist, &p.s->summary, smoothing,
        stream);
    if (status != CIP_OK)
      return status;
  }
  if (!p.exact) {
    otsu16_running_sums_kernel <<<1, 64, 0, stream->stream >>> (p.s);
    CIP_CUDA_TRY_LAUNCH (stream, "Otsu 16-bit running-sum kernel");
  }
  otsu16_threshold_kernel <<<CIP_HIST16_SEGMENTS,
      CIP_HIST16_SEGMENT_BINS, 0, stream->stream >>> (p);
  CIP_CUDA_TRY_LAUNCH (stream, "Otsu 16-bit threshold kernel");
  otsu16_apply_kernel <<<dim3 (cip_row_segments (src->width), src->height),
      CIP_ROW_THREADS, 0, stream->stream >>> ((const uint8_t *) src->data,
      src->stride, (uint8_t *) dst->data, dst->stride, src->width,
      cip_rows_aligned (src, 16), cip_rows_aligned (dst, 16), invert, p.s);
  CIP_CUDA_TRY_LAUNCH (stream, "Otsu 16-bit binarization kernel");
  return CIP_OK;
}
