/* gst-cuda-imgproc
 * Copyright (C) 2026 The gst-cuda-imgproc authors
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2 of the License, or (at your option) any later version.
 */

#include <stdlib.h>
#include <string.h>

#include "cip-ref.h"

CipStatus
cip_ref_fill (CipImage * image, uint8_t value, CipStream * stream)
{
  size_t row;

  if (cip_image_validate (image) != CIP_OK)
    return CIP_ERROR_INVALID_ARGUMENT;
  row = (size_t) image->width * cip_format_bytes_per_pixel (image->format);
  for (int y = 0; y < image->height; y++)
    memset ((uint8_t *) image->data + (size_t) y * image->stride, value, row);
  return CIP_OK;
}

CipStatus
cip_ref_copy (const CipImage * src, CipImage * dst, CipStream * stream)
{
  size_t row;

  if (cip_image_validate (src) != CIP_OK || cip_image_validate (dst) != CIP_OK
      || src->width != dst->width || src->height != dst->height
      || src->format != dst->format)
    return CIP_ERROR_INVALID_ARGUMENT;
  row = (size_t) src->width * cip_format_bytes_per_pixel (src->format);
  for (int y = 0; y < src->height; y++)
    memcpy ((uint8_t *) dst->data + (size_t) y * dst->stride,
        (const uint8_t *) src->data + (size_t) y * src->stride, row);
  return CIP_OK;
}

CipStatus
cip_ref_host_alloc (void **ptr, size_t size, CipStream * stream)
{
  *ptr = calloc (1, size ? size : 1);
  return *ptr ? CIP_OK : CIP_ERROR_OUT_OF_MEMORY;
}

void
cip_ref_host_free (void *ptr, CipStream * stream)
{
  free (ptr);
}

CipStatus
cip_ref_buffer_alloc (void **ptr, size_t size, CipStream * stream)
{
  return cip_ref_host_alloc (ptr, size, stream);
}

void
cip_ref_buffer_free (void *ptr, CipStream * stream)
{
  free (ptr);
}
