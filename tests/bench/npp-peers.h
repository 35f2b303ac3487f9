/* gst-cuda-imgproc
 * Copyright (C) 2026 The gst-cuda-imgproc authors
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2 of the License, or (at your option) any later version.
 */

/* NPP's nearest equivalents of the cip operations, for bench-kernels.
 *
 * Only npp-peers.c sees NPP, and only when built with -DHAVE_NPP (NPP is
 * installed on the GPU host, not where CI builds); without it every call
 * fails.  All calls are asynchronous on the stream given to
 * npp_peers_init(); images are device memory, pitches in bytes.  Each call
 * returns 0 on success, -1 on failure (npp_peers_error() says why). */

#ifndef __NPP_PEERS_H__
#define __NPP_PEERS_H__

#include <stdint.h>

#include <cuda_runtime_api.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Fills the NppStreamContext for @stream on the current device and
 * allocates HistogramEven's scratch for images up to @max_width x
 * @max_height. */
int npp_peers_init (cudaStream_t stream, int max_width, int max_height);
void npp_peers_free (void);
const char *npp_peers_error (void);

/* nppiRGBToGray_8u_AC4C1R_Ctx: RGBA (alpha ignored) to GRAY8. */
int npp_rgba_to_gray (const void *src, int src_pitch, void *dst,
    int dst_pitch, int width, int height);

/* The other 8-bit colour layouts to GRAY8, for bench-kernels' gray rows:
 * nppiRGBToGray_8u_C3C1R_Ctx for RGB (NPP_GRAY_RGB); otherwise
 * nppiColorToGray_8u_{C3C1R,AC4C1R,C4C1R}_Ctx with BT.601 weights by
 * channel, @weights[i] for byte i of a pixel (the fourth ignored by
 * AC4C1R). */
typedef enum
{
  NPP_GRAY_RGB,                 /* RGBToGray_8u_C3C1R */
  NPP_GRAY_C3,                  /* ColorToGray_8u_C3C1R: 3 bytes a pixel */
  NPP_GRAY_AC4,                 /* ColorToGray_8u_AC4C1R: byte 3 ignored */
  NPP_GRAY_C4,                  /* ColorToGray_8u_C4C1R: 4 weights */
} NppGrayCall;

int npp_color_to_gray (NppGrayCall call, const float weights[4],
    const void *src, int src_pitch, void *dst, int dst_pitch, int width,
    int height);

/* nppiHistogramEven_8u_C1R_Ctx with 257 levels from 0 to 256: one bin per
 * value, into @hist (device, 256 counters). */
int npp_histogram_even (const void *src, int src_pitch, int width,
    int height, int32_t * hist);

/* nppiHistogramEven_16u_C1R_Ctx with 65537 levels from 0 to 65536: one
 * bin per 16-bit value; @hist is a device array of 65536. */
int npp_histogram_even_16u (const void *src, int src_pitch, int width,
    int height, int32_t * hist);

/* nppiLUTPalette_16u_C1R_Ctx with a 16-bit table: @table is a device
 * array of 65536 values. */
int npp_lut_palette_16u (const void *src, int src_pitch, void *dst,
    int dst_pitch, int width, int height, const uint16_t * table);

/* nppiLUT_Linear_8u_C1R_Ctx: @values and @levels are device arrays of
 * @n_levels entries. */
int npp_lut_linear (const void *src, int src_pitch, void *dst, int dst_pitch,
    int width, int height, const int32_t * values, const int32_t * levels,
    int n_levels);

/* nppiThreshold_GTVal_8u_C1R_Ctx: pixels above @threshold become @value,
 * the others are copied. */
int npp_threshold_gtval (const void *src, int src_pitch, void *dst,
    int dst_pitch, int width, int height, uint8_t threshold, uint8_t value);

/* nppiFilterGauss_8u_C1R_Ctx, 5x5, over the image less a 2-pixel frame
 * (the filter reads 2 pixels around its ROI). */
int npp_filter_gauss_5x5 (const void *src, int src_pitch, void *dst,
    int dst_pitch, int width, int height);

/* nppiErode3x3_8u_C1R_Ctx over the image less a 1-pixel frame. */
int npp_erode_3x3 (const void *src, int src_pitch, void *dst, int dst_pitch,
    int width, int height);

/* nppiLabelMarkersUF_8u32u_C1R_Ctx, 8-connectivity (nppiNormInf), into a
 * 32-bit label image and scratch of npp_peers_init()'s size. */
int npp_label_markers_uf (const void *src, int src_pitch, int width,
    int height);

/* npp_label_markers_uf() then nppiCompressMarkerLabelsUF_32u_C1IR_Ctx,
 * which renumbers the labels 1..N (it returns N on the host, so it waits
 * for the stream). */
int npp_label_and_compress (const void *src, int src_pitch, int width,
    int height);

#ifdef __cplusplus
}
#endif

#endif /* __NPP_PEERS_H__ */
