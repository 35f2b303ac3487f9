/* gst-cuda-imgproc
 * Copyright (C) 2026 The gst-cuda-imgproc authors
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2 of the License, or (at your option) any later version.
 */

/* Internal to gpu/: helpers shared by the CUDA path and the reference. */

#ifndef __CIP_FORMAT_H__
#define __CIP_FORMAT_H__

#include "cip.h"
#include "cip-pixel.h"

#ifdef __cplusplus
extern "C" {
#endif

CipChannelLayout cip_format_layout (CipFormat format);

/* Validates an operation's two images: both well formed, the same size,
 * @dst GRAY8, and @src GRAY8 too when @src_must_be_gray. */
CipStatus cip_check_pair (const CipImage * src, const CipImage * dst,
    int src_must_be_gray);

/* Validates the two images of a filter that keeps the format (blur,
 * morphology): both well formed, of one size and format, GRAY8, GRAY16
 * or four bytes a pixel, and their spans (first row's start to last row's end)
 * apart: no operation runs in place, and interleaved rows are refused
 * too. */
CipStatus cip_check_filter_pair (const CipImage * src, const CipImage * dst);

CipStatus cip_check_gray_method (CipGrayMethod method);

/* Whether @format is luma of more than eight bits (GRAY16, GRAY16_BE,
 * GRAY10_MSB, GRAY10_LSB, GRAY12_LSB). */
int cip_format_is_deep_luma (CipFormat format);

/* Validates cip_gray()'s images: both well formed, the same size, @dst
 * GRAY8, or GRAY16 for deep luma. */
CipStatus cip_check_gray_pair (const CipImage * src, const CipImage * dst);

#ifdef __cplusplus
}
#endif

#endif /* __CIP_FORMAT_H__ */
