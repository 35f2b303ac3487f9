/* gst-cuda-imgproc
 * Copyright (C) 2026 The gst-cuda-imgproc authors
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2 of the License, or (at your option) any later version.
 */

/* The arithmetic of the Gaussian blur, shared by the reference and the
 * kernels.
 *
 * The 1-D kernel has 2r+1 taps, r = cip_blur_radius (sigma).  Its weights
 * are integers k_0 (centre) .. k_r with k_0 + 2 (k_1 + ... + k_r) = 256
 * exactly: OpenCV's fixed-point Gaussian (GaussianBlur on 8-bit images),
 * which they reproduce bit for bit.  The filter is then
 *
 *   h(x, y)  = sum_i k_|i| src(reflect (x + i), y)        exact, <= 65280
 *   v(x, y)  = sum_j k_|j| h(x, reflect (y + j))          exact, < 2^24
 *   dst      = (v + 2^15) >> 16                           <= 255
 *
 * on each byte of a pixel as its own channel.  No intermediate overflows:
 * all weights are >= 0 and sum to 256, so h <= 255 * 256 = 65280 fits 16
 * bits, and v <= 65280 * 256 = 16711680 < 2^24 fits 32 bits with room to
 * spare; (16711680 + 2^15) >> 16 = 255, so the result needs no clamping.
 * h is kept whole (no rounding between the passes), so the two passes may
 * be done in either order and in any grouping of the sums.
 *
 * GRAY16 (16-bit samples) is OpenCV's fixed-point Gaussian of CV_16U
 * images, bit for bit: the same weights made to sum to 2^16 (k_0 + 2 (k_1
 * + ... + k_r) = 65536), and
 *
 *   h(x, y)  = sum_i k_|i| src(reflect (x + i), y)        exact, < 2^32
 *   v(x, y)  = sum_j k_|j| h(x, reflect (y + j))          exact, < 2^48
 *   dst      = (v + 2^31) >> 32                           <= 65535
 *
 * h <= 65535 * 65536 = 2^32 - 2^16 fits 32 bits and v <= 65535 * 2^32
 * fits 64, and (65535 * 2^32 + 2^31) >> 32 = 65535. */

#ifndef __CIP_BLUR_H__
#define __CIP_BLUR_H__

#include <math.h>
#include <stdint.h>
#include <stdlib.h>

#include "cip.h"
#include "cip-format.h"
#include "cip-pixel.h"

/* Weights sum to 2^CIP_BLUR_WEIGHT_BITS (GRAY16: 2^CIP_BLUR16_WEIGHT_BITS);
 * the result is v >> (2 x that). */
#define CIP_BLUR_WEIGHT_BITS 8
#define CIP_BLUR16_WEIGHT_BITS 16
#define CIP_BLUR_RADIUS_MAX 128
/* ceil (4 sigma) ignores this much excess, so that a sigma one rounding
 * error above k/4 still gives the radius k. */
#define CIP_BLUR_RADIUS_SLACK 1e-9

/* The half-kernel: w[0] the centre tap, w[i] the taps at distance i. */
typedef struct
{
  int radius;
  int32_t w[CIP_BLUR_RADIUS_MAX + 1];
} CipBlurKernel;

/* OpenCV's borderInterpolate for BORDER_REFLECT_101 (... 2 1 | 0 1 2 ...),
 * for any @p: the reflection is periodic with period 2 (len - 1), and a
 * single pixel reflects onto itself. */
CIP_HOST_DEVICE int
cip_blur_reflect (int p, int len)
{
  int period;

  if ((unsigned) p < (unsigned) len)
    return p;
  if (len == 1)
    return 0;
  period = 2 * (len - 1);
  p = (p < 0 ? -p : p) % period;
  return p < len ? p : period - p;
}

/* dst = (v + 2^15) >> 16. */
CIP_HOST_DEVICE uint8_t
cip_blur_round (uint32_t v)
{
  return (uint8_t) ((v + (1u << (2 * CIP_BLUR_WEIGHT_BITS - 1))) >>
      (2 * CIP_BLUR_WEIGHT_BITS));
}

/* GRAY16: dst = (v + 2^31) >> 32. */
CIP_HOST_DEVICE uint16_t
cip_blur16_round (uint64_t v)
{
  return (uint16_t) ((v + (1ull << (2 * CIP_BLUR16_WEIGHT_BITS - 1))) >>
      (2 * CIP_BLUR16_WEIGHT_BITS));
}

/* Host only from here: kernel weights and argument checks. */

/* Whether @sigma is in [CIP_BLUR_SIGMA_MIN, CIP_BLUR_SIGMA_MAX] (NaN is
 * not). */
static inline bool
cip_blur_sigma_valid (double sigma)
{
  return sigma >= CIP_BLUR_SIGMA_MIN && sigma <= CIP_BLUR_SIGMA_MAX;
}

/* ceil (4 sigma), at least 1; 0 for a sigma out of range. */
static inline int
cip_blur_radius_of (double sigma)
{
  int r;

  if (!cip_blur_sigma_valid (sigma))
    return 0;
  r = (int) ceil (4. * sigma - CIP_BLUR_RADIUS_SLACK);
  return r < 1 ? 1 : r > CIP_BLUR_RADIUS_MAX ? CIP_BLUR_RADIUS_MAX : r;
}

/* The weights of @sigma (valid) summing to 2^@bits (8 or 16), computed on
 * the host in double precision as OpenCV's getGaussianKernelBitExact and
 * its fixed-point conversion do: g_i = exp (-i^2 / (2 sigma^2)) over the
 * 2r+1 taps, normalized to sum 1; then, from the outermost tap inwards,
 * each g_i 2^bits plus the rounding error carried from the tap before is
 * rounded to nearest (ties to even), and the centre takes what is left of
 * 2^bits.  Every weight is >= 0: a rounded value is >= round (-0.5) = 0,
 * and the centre keeps about 2^bits g_0 (>= 3 at 8 bits, >= 800 at 16). */
static inline void
cip_blur_kernel_bits (double sigma, int bits, CipBlurKernel * kernel)
{
  int r = cip_blur_radius_of (sigma), n = 2 * r + 1, i;
  double values[2 * CIP_BLUR_RADIUS_MAX + 1];
  double scale = -0.125 / (sigma * sigma), sum = 0, inv, err = 0;
  int32_t side = 0;

  kernel->radius = r;
  /* x = 2 (i - r): the same products OpenCV forms. */
  for (i = 0; i < n; i++) {
    double x = 1 - n + 2 * i;

    values[i] = exp (x * x * scale);
    sum += values[i];
  }
  inv = 1. / sum;
  for (i = 0; i < r; i++) {
    double adjusted = values[i] * inv * (1 << bits) + err;
    double rounded = nearbyint (adjusted);

    err = adjusted - rounded;
    kernel->w[r - i] = (int32_t) rounded;
    side += (int32_t) rounded;
  }
  kernel->w[0] = (1 << bits) - 2 * side;
  for (i = r + 1; i <= CIP_BLUR_RADIUS_MAX; i++)
    kernel->w[i] = 0;
}

/* The weights of 8-bit samples (GRAY8 and the four-byte formats). */
static inline void
cip_blur_kernel (double sigma, CipBlurKernel * kernel)
{
  cip_blur_kernel_bits (sigma, CIP_BLUR_WEIGHT_BITS, kernel);
}

/* The weights for images of @format. */
static inline void
cip_blur_kernel_for (double sigma, CipFormat format, CipBlurKernel * kernel)
{
  cip_blur_kernel_bits (sigma, format == CIP_FORMAT_GRAY16 ?
      CIP_BLUR16_WEIGHT_BITS : CIP_BLUR_WEIGHT_BITS, kernel);
}

/* The checks of cip_blur and cip_ref_blur: cip_check_filter_pair() and
 * sigma in range. */
static inline CipStatus
cip_blur_check (const CipImage * src, const CipImage * dst, double sigma)
{
  if (cip_check_filter_pair (src, dst) != CIP_OK ||
      !cip_blur_sigma_valid (sigma))
    return CIP_ERROR_INVALID_ARGUMENT;
  return CIP_OK;
}

#endif /* __CIP_BLUR_H__ */
