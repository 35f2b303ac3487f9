/* gst-cuda-imgproc
 * Copyright (C) 2026 The gst-cuda-imgproc authors
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2 of the License, or (at your option) any later version.
 */

/* Formats, statuses and image checks shared by the GPU path and the
 * reference. */

#include "cip.h"
#include "cip-format.h"

static const struct
{
  const char *name;
  CipChannelLayout layout;
} formats[CIP_N_FORMATS] = {
  [CIP_FORMAT_GRAY8] = {"GRAY8", {0, 0, 0, 1}},
  [CIP_FORMAT_RGBA] = {"RGBA", {0, 1, 2, 4}},
  [CIP_FORMAT_BGRA] = {"BGRA", {2, 1, 0, 4}},
  [CIP_FORMAT_RGBX] = {"RGBx", {0, 1, 2, 4}},
  [CIP_FORMAT_BGRX] = {"BGRx", {2, 1, 0, 4}},
  [CIP_FORMAT_ARGB] = {"ARGB", {1, 2, 3, 4}},
  [CIP_FORMAT_ABGR] = {"ABGR", {3, 2, 1, 4}},
  [CIP_FORMAT_RGB] = {"RGB", {0, 1, 2, 3}},
  [CIP_FORMAT_BGR] = {"BGR", {2, 1, 0, 3}},
  [CIP_FORMAT_GRAY16] = {"GRAY16", {0, 0, 0, 2}},
  [CIP_FORMAT_YUYV] = {"YUYV", {0, 0, 0, 2}},
  [CIP_FORMAT_UYVY] = {"UYVY", {1, 1, 1, 2}},
  [CIP_FORMAT_GRAY16_BE] = {"GRAY16_BE", {0, 0, 0, 2}},
  [CIP_FORMAT_GRAY10_MSB] = {"GRAY10_MSB", {0, 0, 0, 2}},
  [CIP_FORMAT_GRAY10_LSB] = {"GRAY10_LSB", {0, 0, 0, 2}},
  [CIP_FORMAT_GRAY12_LSB] = {"GRAY12_LSB", {0, 0, 0, 2}},
};

static int
format_is_valid (CipFormat format)
{
  return (unsigned) format < CIP_N_FORMATS;
}

int
cip_format_bytes_per_pixel (CipFormat format)
{
  return format_is_valid (format) ? formats[format].layout.bytes_per_pixel : 0;
}

const char *
cip_format_name (CipFormat format)
{
  return format_is_valid (format) ? formats[format].name : "invalid";
}

CipChannelLayout
cip_format_layout (CipFormat format)
{
  return formats[format_is_valid (format) ? format : CIP_FORMAT_GRAY8].layout;
}

const char *
cip_status_name (CipStatus status)
{
  switch (status) {
    case CIP_OK:
      return "ok";
    case CIP_ERROR_INVALID_ARGUMENT:
      return "invalid argument";
    case CIP_ERROR_NO_DEVICE:
      return "no CUDA device";
    case CIP_ERROR_OUT_OF_MEMORY:
      return "out of memory";
    case CIP_ERROR_CUDA:
      return "CUDA error";
  }
  return "unknown status";
}

CipStatus
cip_image_validate (const CipImage * image)
{
  size_t row;

  if (image == NULL || image->data == NULL || !format_is_valid (image->format))
    return CIP_ERROR_INVALID_ARGUMENT;
  if (image->width < 1 || image->width > CIP_MAX_DIMENSION ||
      image->height < 1 || image->height > CIP_MAX_DIMENSION)
    return CIP_ERROR_INVALID_ARGUMENT;
  row = (size_t) image->width * cip_format_bytes_per_pixel (image->format);
  if (image->stride < row)
    return CIP_ERROR_INVALID_ARGUMENT;
  /* the last row's end must be addressable: a negative stride cast to
   * size_t would wrap around */
  if (image->height > 1 &&
      image->stride > (PTRDIFF_MAX - row) / (size_t) (image->height - 1))
    return CIP_ERROR_INVALID_ARGUMENT;
  return CIP_OK;
}

CipStatus
cip_check_gray_method (CipGrayMethod method)
{
  switch (method) {
    case CIP_GRAY_BT601:
    case CIP_GRAY_BT709:
    case CIP_GRAY_LUMINOSITY:
    case CIP_GRAY_AVERAGE:
      return CIP_OK;
  }
  return CIP_ERROR_INVALID_ARGUMENT;
}

CipStatus
cip_check_pair (const CipImage * src, const CipImage * dst,
    int src_must_be_gray)
{
  if (cip_image_validate (src) != CIP_OK || cip_image_validate (dst) != CIP_OK)
    return CIP_ERROR_INVALID_ARGUMENT;
  if (src->width != dst->width || src->height != dst->height)
    return CIP_ERROR_INVALID_ARGUMENT;
  if (dst->format != CIP_FORMAT_GRAY8 || src->format >= CIP_N_INPUT_FORMATS)
    return CIP_ERROR_INVALID_ARGUMENT;
  if (src_must_be_gray && src->format != CIP_FORMAT_GRAY8)
    return CIP_ERROR_INVALID_ARGUMENT;
  return CIP_OK;
}

int
cip_format_is_deep_luma (CipFormat format)
{
  return format == CIP_FORMAT_GRAY16 || (format >= CIP_FORMAT_GRAY16_BE &&
      format <= CIP_FORMAT_GRAY12_LSB);
}

CipStatus
cip_check_gray_pair (const CipImage * src, const CipImage * dst)
{
  if (cip_image_validate (src) != CIP_OK || cip_image_validate (dst) != CIP_OK)
    return CIP_ERROR_INVALID_ARGUMENT;
  if (src->width != dst->width || src->height != dst->height)
    return CIP_ERROR_INVALID_ARGUMENT;
  if (dst->format == CIP_FORMAT_GRAY8)
    return CIP_OK;
  if (dst->format == CIP_FORMAT_GRAY16 && cip_format_is_deep_luma (src->format))
    return CIP_OK;
  return CIP_ERROR_INVALID_ARGUMENT;
}

CipStatus
cip_check_filter_pair (const CipImage * src, const CipImage * dst)
{
  size_t row;
  uintptr_t s, d;

  if (cip_image_validate (src) != CIP_OK || cip_image_validate (dst) != CIP_OK)
    return CIP_ERROR_INVALID_ARGUMENT;
  if (src->width != dst->width || src->height != dst->height ||
      src->format != dst->format)
    return CIP_ERROR_INVALID_ARGUMENT;
  if (src->format != CIP_FORMAT_GRAY8 && src->format != CIP_FORMAT_GRAY16 &&
      cip_format_bytes_per_pixel (src->format) != 4)
    return CIP_ERROR_INVALID_ARGUMENT;

  row = (size_t) src->width * cip_format_bytes_per_pixel (src->format);
  s = (uintptr_t) src->data;
  d = (uintptr_t) dst->data;
  if (s < d + (size_t) (dst->height - 1) * dst->stride + row &&
      d < s + (size_t) (src->height - 1) * src->stride + row)
    return CIP_ERROR_INVALID_ARGUMENT;
  return CIP_OK;
}
