/* gst-cuda-imgproc
 * Copyright (C) 2026 The gst-cuda-imgproc authors
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2 of the License, or (at your option) any later version.
 */

/* NPP peers for bench-kernels: see npp-peers.h.
 *
 * Prototypes used (CUDA 12/13 NPP, application-managed stream context; the
 * non-_Ctx forms are gone in CUDA 13), as matched against:
 *  - nppi_statistics_functions.h of the CUDA 13 toolkit (NVIDIA header,
 *    copyright 2009-2025, as mirrored in leomaxwell972/CU13ToolKit_Includes,
 *    include/nppi_statistics_functions.h):
 *      NppStatus nppiHistogramEven_8u_C1R_Ctx (const Npp8u * pSrc,
 *          int nSrcStep, NppiSize oSizeROI, Npp32s * pHist, int nLevels,
 *          Npp32s nLowerLevel, Npp32s nUpperLevel, Npp8u * pBuffer,
 *          NppStreamContext nppStreamCtx);
 *      NppStatus nppiHistogramEvenGetBufferSize_8u_C1R_Ctx (
 *          NppiSize oSizeROI, int nLevels, size_t * hpBufferSize,
 *          NppStreamContext nppStreamCtx);
 *  - NVIDIA's NPP documentation (docs.nvidia.com/cuda/npp, "Image Color
 *    Conversion" and "Image Threshold And Compare Operations", _Ctx forms;
 *    the LUT form also in the NPP 11 group__image__color___l_u_t___linear
 *    page):
 *      NppStatus nppiRGBToGray_8u_AC4C1R_Ctx (const Npp8u * pSrc,
 *          int nSrcStep, Npp8u * pDst, int nDstStep, NppiSize oSizeROI,
 *          NppStreamContext nppStreamCtx);
 *      NppStatus nppiRGBToGray_8u_C3C1R_Ctx (the same arguments);
 *      NppStatus nppiColorToGray_8u_C3C1R_Ctx (const Npp8u * pSrc,
 *          int nSrcStep, Npp8u * pDst, int nDstStep, NppiSize oSizeROI,
 *          const Npp32f aCoeffs[3], NppStreamContext nppStreamCtx);
 *      (_AC4C1R_Ctx likewise with aCoeffs[3], _C4C1R_Ctx with aCoeffs[4])
 *      NppStatus nppiLUT_Linear_8u_C1R_Ctx (const Npp8u * pSrc,
 *          int nSrcStep, Npp8u * pDst, int nDstStep, NppiSize oSizeROI,
 *          const Npp32s * pValues, const Npp32s * pLevels, int nLevels,
 *          NppStreamContext nppStreamCtx);
 *      NppStatus nppiThreshold_GTVal_8u_C1R_Ctx (const Npp8u * pSrc,
 *          int nSrcStep, Npp8u * pDst, int nDstStep, NppiSize oSizeROI,
 *          const Npp8u nThreshold, const Npp8u nValue,
 *          NppStreamContext nppStreamCtx);
 *  - NppStreamContext (nppdefs.h, CUDA 12+): hStream, nCudaDeviceId,
 *    nMultiProcessorCount, nMaxThreadsPerMultiProcessor,
 *    nMaxThreadsPerBlock, nSharedMemPerBlock (size_t),
 *    nCudaDevAttrComputeCapabilityMajor/Minor, nStreamFlags, nReserved0.
 *
 *  - the 16-bit forms, same headers and pages:
 *      NppStatus nppiHistogramEven_16u_C1R_Ctx (const Npp16u * pSrc, ...)
 *          and nppiHistogramEvenGetBufferSize_16u_C1R_Ctx, the arguments
 *          of the 8-bit forms;
 *      NppStatus nppiLUTPalette_16u_C1R_Ctx (const Npp16u * pSrc,
 *          int nSrcStep, Npp16u * pDst, int nDstStep, NppiSize oSizeROI,
 *          const Npp16u * pTable, int nBitSize,
 *          NppStreamContext nppStreamCtx);
 *
 * Libraries: nppc (core), nppicc (RGBToGray, ColorToGray, LUT_Linear,
 * LUTPalette), nppif (FilterGauss, LabelMarkersUF), nppim (Erode3x3),
 * nppist (HistogramEven), nppitc (Threshold_GTVal). */

#include <stdio.h>
#include <string.h>

#include "npp-peers.h"

static char error_text[256];

const char *
npp_peers_error (void)
{
  return error_text[0] ? error_text : "no error";
}

#ifdef HAVE_NPP

#include <npp.h>

#define N_LEVELS 257            /* one bin per 8-bit value */
#define N_LEVELS_16 65537       /* one bin per 16-bit value */

static NppStreamContext ctx;
static Npp8u *hist_buffer;      /* HistogramEven's scratch */
static size_t hist_buffer_size;
static Npp8u *hist16_buffer;    /* the same for 16 bits, largest image */
static size_t hist16_buffer_size;
/* The ROI last checked against hist_buffer_size: the size query is a host
 * call, kept out of the timed path. */
static NppiSize checked_roi;
/* LabelMarkersUF's output and scratch, for the largest image. */
static Npp32u *labels;
static int labels_pitch;
static Npp8u *label_buffer;
static Npp8u *compress_buffer;

static int
fail_npp (const char *call, NppStatus status)
{
  snprintf (error_text, sizeof (error_text), "%s failed: NppStatus %d",
      call, (int) status);
  return -1;
}

static int
fail_cuda (const char *call, cudaError_t err)
{
  snprintf (error_text, sizeof (error_text), "%s failed: %s", call,
      cudaGetErrorName (err));
  return -1;
}

/* Negative statuses are errors, positive ones warnings. */
#define NPP_TRY(call) do {                                       \
    NppStatus _status = (call);                                  \
    if (_status < 0)                                             \
      return fail_npp (#call, _status);                          \
  } while (0)

#define CUDA_TRY(call) do {                                      \
    cudaError_t _err = (call);                                   \
    if (_err != cudaSuccess)                                     \
      return fail_cuda (#call, _err);                            \
  } while (0)

int
npp_peers_init (cudaStream_t stream, int max_width, int max_height)
{
  NppiSize roi = { max_width, max_height };
  int device, value;

  memset (&ctx, 0, sizeof (ctx));
  ctx.hStream = stream;
  CUDA_TRY (cudaGetDevice (&device));
  ctx.nCudaDeviceId = device;
  /* Attributes rather than cudaDeviceProp: the same values, and stable
   * across the CUDA 12 -> 13 cudaDeviceProp changes. */
  CUDA_TRY (cudaDeviceGetAttribute (&ctx.nMultiProcessorCount,
          cudaDevAttrMultiProcessorCount, device));
  CUDA_TRY (cudaDeviceGetAttribute (&ctx.nMaxThreadsPerMultiProcessor,
          cudaDevAttrMaxThreadsPerMultiProcessor, device));
  CUDA_TRY (cudaDeviceGetAttribute (&ctx.nMaxThreadsPerBlock,
          cudaDevAttrMaxThreadsPerBlock, device));
  CUDA_TRY (cudaDeviceGetAttribute (&value,
          cudaDevAttrMaxSharedMemoryPerBlock, device));
  ctx.nSharedMemPerBlock = (size_t) value;
  CUDA_TRY (cudaDeviceGetAttribute (&ctx.nCudaDevAttrComputeCapabilityMajor,
          cudaDevAttrComputeCapabilityMajor, device));
  CUDA_TRY (cudaDeviceGetAttribute (&ctx.nCudaDevAttrComputeCapabilityMinor,
          cudaDevAttrComputeCapabilityMinor, device));
  CUDA_TRY (cudaStreamGetFlags (stream, &ctx.nStreamFlags));

  NPP_TRY (nppiHistogramEvenGetBufferSize_8u_C1R_Ctx (roi, N_LEVELS,
          &hist_buffer_size, ctx));
  CUDA_TRY (cudaMalloc ((void **) &hist_buffer, hist_buffer_size));
  checked_roi = roi;
  NPP_TRY (nppiHistogramEvenGetBufferSize_16u_C1R_Ctx (roi, N_LEVELS_16,
          &hist16_buffer_size, ctx));
  CUDA_TRY (cudaMalloc ((void **) &hist16_buffer, hist16_buffer_size));

  {
    int size;
    size_t pitch;

    NPP_TRY (nppiLabelMarkersUFGetBufferSize_32u_C1R (roi, &size));
    CUDA_TRY (cudaMalloc ((void **) &label_buffer, size));
    /* Labels are at most the pixel count. */
    NPP_TRY (nppiCompressMarkerLabelsGetBufferSize_32u_C1R (max_width *
            max_height, &size));
    CUDA_TRY (cudaMalloc ((void **) &compress_buffer, size));
    CUDA_TRY (cudaMallocPitch ((void **) &labels, &pitch,
            (size_t) max_width * sizeof (Npp32u), max_height));
    labels_pitch = (int) pitch;
  }
  return 0;
}

void
npp_peers_free (void)
{
  cudaFree (hist_buffer);
  cudaFree (hist16_buffer);
  cudaFree (label_buffer);
  cudaFree (compress_buffer);
  cudaFree (labels);
  hist_buffer = NULL;
  label_buffer = NULL;
  compress_buffer = NULL;
  labels = NULL;
  hist_buffer_size = 0;
}

int
npp_rgba_to_gray (const void *src, int src_pitch, void *dst, int dst_pitch,
    int width, int height)
{
  NppiSize roi = { width, height };

  NPP_TRY (nppiRGBToGray_8u_AC4C1R_Ctx ((const Npp8u *) src, src_pitch,
          (Npp8u *) dst, dst_pitch, roi, ctx));
  return 0;
}

int
npp_color_to_gray (NppGrayCall call, const float weights[4],
    const void *src, int src_pitch, void *dst, int dst_pitch, int width,
    int height)
{
  NppiSize roi = { width, height };
  const Npp8u *in = (const Npp8u *) src;
  Npp8u *out = (Npp8u *) dst;
  const Npp32f coeffs[4] = { weights[0], weights[1], weights[2],
    weights[3]
  };

  switch (call) {
    case NPP_GRAY_RGB:
      NPP_TRY (nppiRGBToGray_8u_C3C1R_Ctx (in, src_pitch, out, dst_pitch,
              roi, ctx));
      return 0;
    case NPP_GRAY_C3:
      NPP_TRY (nppiColorToGray_8u_C3C1R_Ctx (in, src_pitch, out, dst_pitch,
              roi, coeffs, ctx));
      return 0;
    case NPP_GRAY_AC4:
      NPP_TRY (nppiColorToGray_8u_AC4C1R_Ctx (in, src_pitch, out,
              dst_pitch, roi, coeffs, ctx));
      return 0;
    case NPP_GRAY_C4:
      NPP_TRY (nppiColorToGray_8u_C4C1R_Ctx (in, src_pitch, out, dst_pitch,
              roi, coeffs, ctx));
      return 0;
  }
  snprintf (error_text, sizeof (error_text), "unknown gray call %d",
      (int) call);
  return -1;
}

int
npp_histogram_even (const void *src, int src_pitch, int width, int height,
    int32_t * hist)
{
  NppiSize roi = { width, height };

  if (roi.width != checked_roi.width || roi.height != checked_roi.height) {
    size_t size;

    NPP_TRY (nppiHistogramEvenGetBufferSize_8u_C1R_Ctx (roi, N_LEVELS,
            &size, ctx));
    if (size > hist_buffer_size) {
      snprintf (error_text, sizeof (error_text), "HistogramEven needs %zu "
          "bytes of scratch for %dx%d, %zu allocated", size, width, height,
          hist_buffer_size);
      return -1;
    }
    checked_roi = roi;
  }
  NPP_TRY (nppiHistogramEven_8u_C1R_Ctx ((const Npp8u *) src, src_pitch, roi,
          (Npp32s *) hist, N_LEVELS, 0, 256, hist_buffer, ctx));
  return 0;
}

/* The scratch was sized at init for the largest image: the size query is a
 * host call, kept out of the timed path. */
int
npp_histogram_even_16u (const void *src, int src_pitch, int width,
    int height, int32_t * hist)
{
  NppiSize roi = { width, height };

  NPP_TRY (nppiHistogramEven_16u_C1R_Ctx ((const Npp16u *) src, src_pitch,
          roi, (Npp32s *) hist, N_LEVELS_16, 0, 65536, hist16_buffer, ctx));
  return 0;
}

int
npp_lut_palette_16u (const void *src, int src_pitch, void *dst,
    int dst_pitch, int width, int height, const uint16_t * table)
{
  NppiSize roi = { width, height };

  NPP_TRY (nppiLUTPalette_16u_C1R_Ctx ((const Npp16u *) src, src_pitch,
          (Npp16u *) dst, dst_pitch, roi, (const Npp16u *) table, 16, ctx));
  return 0;
}

int
npp_lut_linear (const void *src, int src_pitch, void *dst, int dst_pitch,
    int width, int height, const int32_t * values, const int32_t * levels,
    int n_levels)
{
  NppiSize roi = { width, height };

  NPP_TRY (nppiLUT_Linear_8u_C1R_Ctx ((const Npp8u *) src, src_pitch,
          (Npp8u *) dst, dst_pitch, roi, (const Npp32s *) values,
          (const Npp32s *) levels, n_levels, ctx));
  return 0;
}

int
npp_threshold_gtval (const void *src, int src_pitch, void *dst,
    int dst_pitch, int width, int height, uint8_t threshold, uint8_t value)
{
  NppiSize roi = { width, height };

  NPP_TRY (nppiThreshold_GTVal_8u_C1R_Ctx ((const Npp8u *) src, src_pitch,
          (Npp8u *) dst, dst_pitch, roi, threshold, value, ctx));
  return 0;
}

int
npp_filter_gauss_5x5 (const void *src, int src_pitch, void *dst,
    int dst_pitch, int width, int height)
{
  NppiSize roi = { width - 4, height - 4 };

  NPP_TRY (nppiFilterGauss_8u_C1R_Ctx ((const Npp8u *) src + 2 * src_pitch +
          2, src_pitch, (Npp8u *) dst + 2 * dst_pitch + 2, dst_pitch, roi,
          NPP_MASK_SIZE_5_X_5, ctx));
  return 0;
}

int
npp_erode_3x3 (const void *src, int src_pitch, void *dst, int dst_pitch,
    int width, int height)
{
  NppiSize roi = { width - 2, height - 2 };

  NPP_TRY (nppiErode3x3_8u_C1R_Ctx ((const Npp8u *) src + src_pitch + 1,
          src_pitch, (Npp8u *) dst + dst_pitch + 1, dst_pitch, roi, ctx));
  return 0;
}

int
npp_label_markers_uf (const void *src, int src_pitch, int width, int height)
{
  NppiSize roi = { width, height };

  NPP_TRY (nppiLabelMarkersUF_8u32u_C1R_Ctx ((Npp8u *) src, src_pitch,
          labels, labels_pitch, roi, nppiNormInf, label_buffer, ctx));
  return 0;
}

int
npp_label_and_compress (const void *src, int src_pitch, int width, int height)
{
  NppiSize roi = { width, height };
  int count;

  if (npp_label_markers_uf (src, src_pitch, width, height) != 0)
    return -1;
  NPP_TRY (nppiCompressMarkerLabelsUF_32u_C1IR_Ctx (labels, labels_pitch,
          roi, width * height, &count, compress_buffer, ctx));
  return 0;
}

#else /* !HAVE_NPP */

/* Stubs, so that this file builds (and can be linked) anywhere. */

static int
no_npp (void)
{
  snprintf (error_text, sizeof (error_text), "built without NPP "
      "(-DHAVE_NPP)");
  return -1;
}

int
npp_peers_init (cudaStream_t stream, int max_width, int max_height)
{
  return no_npp ();
}

void
npp_peers_free (void)
{
}

int
npp_rgba_to_gray (const void *src, int src_pitch, void *dst, int dst_pitch,
    int width, int height)
{
  return no_npp ();
}

int
npp_color_to_gray (NppGrayCall call, const float weights[4],
    const void *src, int src_pitch, void *dst, int dst_pitch, int width,
    int height)
{
  return no_npp ();
}

int
npp_histogram_even (const void *src, int src_pitch, int width, int height,
    int32_t * hist)
{
  return no_npp ();
}

int
npp_histogram_even_16u (const void *src, int src_pitch, int width,
    int height, int32_t * hist)
{
  return no_npp ();
}

int
npp_lut_palette_16u (const void *src, int src_pitch, void *dst,
    int dst_pitch, int width, int height, const uint16_t * table)
{
  return no_npp ();
}

int
npp_lut_linear (const void *src, int src_pitch, void *dst, int dst_pitch,
    int width, int height, const int32_t * values, const int32_t * levels,
    int n_levels)
{
  return no_npp ();
}

int
npp_threshold_gtval (const void *src, int src_pitch, void *dst,
    int dst_pitch, int width, int height, uint8_t threshold, uint8_t value)
{
  return no_npp ();
}

int
npp_filter_gauss_5x5 (const void *src, int src_pitch, void *dst,
    int dst_pitch, int width, int height)
{
  return no_npp ();
}

int
npp_erode_3x3 (const void *src, int src_pitch, void *dst, int dst_pitch,
    int width, int height)
{
  return no_npp ();
}

int
npp_label_markers_uf (const void *src, int src_pitch, int width, int height)
{
  return no_npp ();
}

int
npp_label_and_compress (const void *src, int src_pitch, int width, int height)
{
  return no_npp ();
}

#endif /* HAVE_NPP */
