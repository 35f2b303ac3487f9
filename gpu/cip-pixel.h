/* gst-cuda-imgproc
 * Copyright (C) 2026 The gst-cuda-imgproc authors
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2 of the License, or (at your option) any later version.
 */

/* The arithmetic of every operation, in one place.  This header is
 * compiled both by the C reference (gpu/ref/) and by the CUDA kernels, so
 * that the two cannot drift apart.  Both are built without floating-point
 * contraction (no FMA), which the equalize and Otsu formulas need to match
 * OpenCV's rounding. */

#ifndef __CIP_PIXEL_H__
#define __CIP_PIXEL_H__

#include <float.h>
#include <stdint.h>

#include "cip.h"

#ifdef __CUDACC__
#define CIP_HOST_DEVICE __host__ __device__ __forceinline__
#else
#include <math.h>
#define CIP_HOST_DEVICE static inline
#endif


/* Byte offsets of the colour channels in one pixel. */
typedef struct
{
  uint8_t r, g, b;
  uint8_t bytes_per_pixel;
} CipChannelLayout;

/* Fixed-point luma weights: Y = (wr R + wg G + wb B + 2^14) >> 15.
 * BT.601 uses OpenCV's own 15-bit weights (0.299, 0.587, 0.114, as in its
 * RGB2Gray<uchar>); the others are their coefficients rounded to 15 bits. */
#define CIP_GRAY_SHIFT 15

CIP_HOST_DEVICE uint8_t
cip_gray_pixel (uint32_t r, uint32_t g, uint32_t b, CipGrayMethod method)
{
  uint32_t wr, wg, wb;

  switch (method) {
    case CIP_GRAY_BT709:
      wr = 6966; wg = 23436; wb = 2366; /* 0.2126, 0.7152, 0.0722 */
      break;
    case CIP_GRAY_LUMINOSITY:
      wr = 6881; wg = 23265; wb = 2294; /* 0.21, 0.71, 0.07 */
      break;
    case CIP_GRAY_AVERAGE:
      return (uint8_t) ((r + g + b + 1) / 3);
    case CIP_GRAY_BT601:
    default:
      wr = 9798; wg = 19235; wb = 3735;  /* 0.299, 0.587, 0.114 */
      break;
  }
  return (uint8_t) ((wr * r + wg * g + wb * b + (1u << (CIP_GRAY_SHIFT - 1)))
      >> CIP_GRAY_SHIFT);
}

/* The luma of a pixel of a two-byte layout (@word: its two bytes, little
 * endian) in 16 bits, as GStreamer's unpacking gives it: the significant
 * bits at the top and repeated below them (P010: v | v >> 10); 8-bit luma
 * (YUYV, UYVY) in the top byte.  Gray of eight bits is the top byte. */
CIP_HOST_DEVICE uint16_t
cip_luma16 (uint32_t word, CipFormat format)
{
  uint16_t v;

  switch (format) {
    case CIP_FORMAT_YUYV:
      return (uint16_t) ((word & 0xff) << 8);
    case CIP_FORMAT_UYVY:
      return (uint16_t) (word & 0xff00);
    case CIP_FORMAT_GRAY16_BE:
      return (uint16_t) (((word & 0xff) << 8) | ((word >> 8) & 0xff));
    case CIP_FORMAT_GRAY10_MSB:
      v = (uint16_t) word;
      return (uint16_t) (v | (v >> 10));
    case CIP_FORMAT_GRAY10_LSB:
      v = (uint16_t) (word << 6);
      return (uint16_t) (v | (v >> 10));
    case CIP_FORMAT_GRAY12_LSB:
      v = (uint16_t) (word << 4);
      return (uint16_t) (v | (v >> 12));
    default:
      return (uint16_t) word;
  }
}

/* A GRAY8 or GRAY16 pixel's mask value. */
CIP_HOST_DEVICE uint8_t
cip_mask_pixel (uint16_t value, uint16_t threshold, uint8_t foreground,
    bool invert)
{
  return ((value > threshold) != invert) ? foreground : 0;
}

/* Round to nearest, ties to even, as OpenCV's cvRound. */
CIP_HOST_DEVICE int
cip_round_float (float v)
{
#ifdef __CUDA_ARCH__
  return __float2int_rn (v);
#else
  return (int) lrintf (v);
#endif
}

/* OpenCV's equalizeHist maps bin i past the first occupied bin f to
 * round((float) s * scale), s the pixels in bins f+1 .. i, and
 * scale = 255 / (total - hist[f]) in single precision.  The two helpers
 * below are that arithmetic; the sums are exact integers, so they may be
 * formed in any order. */
CIP_HOST_DEVICE float
cip_equalize_scale (uint32_t total, uint32_t first_count)
{
  return (CIP_HIST_BINS - 1.f) / (float) (int) (total - first_count);
}

CIP_HOST_DEVICE uint8_t
cip_equalize_lut_value (uint32_t sum, float scale)
{
  int v = cip_round_float ((float) (int) sum * scale);

  return (uint8_t) (v < 0 ? 0 : v > 255 ? 255 : v);
}

/* The lookup table of OpenCV's equalizeHist: bins up to the first occupied
 * one map to 0 (those below are never used), later bins as above.  A
 * one-valued image keeps its value. */
CIP_HOST_DEVICE void
cip_equalize_lut (const uint32_t * hist, uint8_t * lut)
{
  uint32_t total = 0, sum = 0;
  int first = 0, i;
  float scale;

  for (i = 0; i < CIP_HIST_BINS; i++)
    total += hist[i];
  while (first < CIP_HIST_BINS - 1 && hist[first] == 0)
    first++;

  for (i = 0; i < CIP_HIST_BINS; i++)
    lut[i] = 0;
  if (hist[first] == total) {
    lut[first] = (uint8_t) first;
    return;
  }

  scale = cip_equalize_scale (total, hist[first]);
  for (i = first + 1; i < CIP_HIST_BINS; i++) {
    sum += hist[i];
    lut[i] = cip_equalize_lut_value (sum, scale);
  }
}

/* Equalization of GRAY16 (docs/design.md): level i past the first
 * occupied level f maps to round_half_even (s x 65535 / m), s the pixels
 * in levels f+1 .. i and m = total - hist[f] > 0, in exact integer
 * arithmetic (s x 65535 < 2^48): float or double would round some near-
 * and exact halves the wrong way. */
CIP_HOST_DEVICE uint16_t
cip_equalize16_value (uint32_t sum, uint32_t m)
{
  uint64_t n = (uint64_t) sum * (CIP_HIST16_BINS - 1);
  uint64_t q = n / m, r = n - q * m;

  if (2 * r > m || (2 * r == m && (q & 1)))
    q++;
  return (uint16_t) (q > CIP_HIST16_BINS - 1 ? CIP_HIST16_BINS - 1 : q);
}

/* The bytes of a row of a packed 4:2:2 image (YUYV, UYVY) of @width
 * pixels, as GStreamer lays it out: an odd width's last pixel has a
 * macropixel of its own, whose second Y is no pixel's. */
CIP_HOST_DEVICE int
cip_packed_row_bytes (int width)
{
  return 4 * ((width + 1) / 2);
}

/* Temporal smoothing: the next value of a bin's history, from this
 * frame's @count (in double precision, without contraction, so that the
 * reference and the kernels agree), and the count it stands for: rounded
 * half to even. */
CIP_HOST_DEVICE double
cip_history_next (double previous, uint32_t count, double smoothing,
    bool restart)
{
  if (restart)
    return (double) count;
  return smoothing * previous + (1. - smoothing) * (double) count;
}

CIP_HOST_DEVICE uint32_t
cip_history_count (double history)
{
#ifdef __CUDA_ARCH__
  return __double2uint_rn (history);
#else
  return (uint32_t) nearbyint (history);
#endif
}

/* Whether @smoothing is one: NULL (none), or a factor in [0, 1) with a
 * history. */
CIP_HOST_DEVICE bool
cip_smoothing_valid (const CipSmoothing * smoothing)
{
  return smoothing == NULL || (smoothing->history != NULL &&
      smoothing->factor >= 0 && smoothing->factor < 1);
}

/* Bin @bin of a histogram whose count is @count, smoothed: its history
 * updated and the count it stands for returned. */
CIP_HOST_DEVICE uint32_t
cip_smooth_bin (const CipSmoothing * smoothing, int bin, uint32_t count)
{
  double h = cip_history_next (smoothing->history[bin], count,
      smoothing->factor, smoothing->restart);

  smoothing->history[bin] = h;
  return cip_history_count (h);
}

/* Whether OpenCV's Otsu loop skips a threshold whose lower class holds the
 * share q1 of the pixels. */
CIP_HOST_DEVICE bool
cip_otsu_skips (double q1, double q2)
{
  double qmin = q1 < q2 ? q1 : q2;
  double qmax = q1 > q2 ? q1 : q2;

  return qmin < FLT_EPSILON || qmax > 1. - FLT_EPSILON;
}

/* The between-class variance OpenCV computes for a threshold, from the
 * mean mu, the lower class's share q1 and its mean mu1. */
CIP_HOST_DEVICE double
cip_otsu_sigma (double mu, double q1, double mu1)
{
  double q2 = 1. - q1;
  double mu2 = (mu - q1 * mu1) / q2;

  return q1 * q2 * (mu1 - mu2) * (mu1 - mu2);
}

/* OpenCV's getThreshVal_Otsu_8u, step for step in double precision: the
 * threshold maximising the between-class variance, the first one on ties,
 * 0 for a one-valued image.  The mean is a sum of exact integers; the
 * recurrence of q1 and mu1 is sequential and rounds as OpenCV's does. */
CIP_HOST_DEVICE uint8_t
cip_otsu_threshold (const uint32_t * hist)
{
  uint32_t total = 0;
  uint64_t weighted = 0;
  double mu, scale, mu1 = 0, q1 = 0, max_sigma = 0;
  int i, max_val = 0;

  for (i = 0; i < CIP_HIST_BINS; i++) {
    total += hist[i];
    weighted += (uint64_t) i * hist[i];
  }
  scale = 1. / (double) total;
  mu = (double) weighted * scale;

  for (i = 0; i < CIP_HIST_BINS; i++) {
    double p_i = hist[i] * scale, sigma;

    mu1 *= q1;
    q1 += p_i;
    if (cip_otsu_skips (q1, 1. - q1))
      continue;

    mu1 = (mu1 + i * p_i) / q1;
    sigma = cip_otsu_sigma (mu, q1, mu1);
    if (sigma > max_sigma) {
      max_sigma = sigma;
      max_val = i;
    }
  }
  return (uint8_t) max_val;
}

/* Otsu on GRAY16: scikit-image's threshold_otsu (0.26) of a uint16 image,
 * whose histogram has a bin per level from the image's minimum lo to its
 * maximum hi (skimage.exposure.histogram of an integer image ignores
 * nbins), the counts as float32.  For t in lo .. hi - 1, with c_i the count
 * of level i rounded to float32:
 *
 *   w1(t) = float32 running sum of c_lo .. c_t, left to right
 *   w2(t) = float32 running sum of c_hi .. c_t, right to left
 *   s1(t) = sum of c_i i, i <= t;  s2(t) = sum of c_i i, i > t (exact)
 *   v(t)  = (double) (float) (w1(t) w2(t + 1))
 *           x ((double) s1 / w1(t) - (double) s2 / w2(t + 1))^2
 *
 * and the threshold is the first t of the largest v; a one-valued image's
 * is its value.  The mask is value > t.  Up to 2^24 pixels every count
 * and running sum is an exact integer (w2(t + 1) = N - w1(t)). */
#define CIP_OTSU16_EXACT_PIXELS (1u << 24)

CIP_HOST_DEVICE double
cip_otsu16_variance (float w1, float w2, uint64_t s1, uint64_t s2)
{
  double m1 = (double) s1 / (double) w1;
  double m2 = (double) s2 / (double) w2;
  double d = m1 - m2;
  float w = w1 * w2;

  return (double) w * (d * d);
}

/* The threshold above, step for step as scikit-image computes it, with
 * @upper (CIP_HIST16_BINS floats) to hold w2. */
CIP_HOST_DEVICE uint16_t
cip_otsu16_threshold (const uint32_t * hist, float *upper)
{
  int lo = 0, hi = CIP_HIST16_BINS - 1, i, t;
  uint64_t s = 0, s1 = 0;
  float w1 = 0, w2 = 0;
  double best = -1;

  while (lo < hi && hist[lo] == 0)
    lo++;
  while (hi > lo && hist[hi] == 0)
    hi--;
  if (lo == hi)
    return (uint16_t) lo;

  for (i = hi; i >= lo; i--) {
    w2 += (float) hist[i];
    upper[i] = w2;
    s += (uint64_t) (float) hist[i] * (uint64_t) i;
  }
  t = lo;
  for (i = lo; i < hi; i++) {
    double v;

    w1 += (float) hist[i];
    s1 += (uint64_t) (float) hist[i] * (uint64_t) i;
    v = cip_otsu16_variance (w1, upper[i + 1], s1, s - s1);
    if (v > best) {
      best = v;
      t = i;
    }
  }
  return (uint16_t) t;
}

#endif /* __CIP_PIXEL_H__ */
