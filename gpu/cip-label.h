/* gst-cuda-imgproc
 * Copyright (C) 2026 The gst-cuda-imgproc authors
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2 of the License, or (at your option) any later version.
 */

/* Connected-component labelling: what the kernels and the reference share,
 * the argument checks, the colours and the encoding of the label images. */

#ifndef __CIP_LABEL_H__
#define __CIP_LABEL_H__

#include "cip.h"
#include "cip-format.h"
#include "cip-pixel.h"

/* The largest id a GRAY16 label image holds; later ids saturate to it. */
#define CIP_LABEL_GRAY16_MAX 65535u

/* The ten colours of scikit-image's label2rgb (DEFAULT_COLORS: red, blue,
 * yellow, magenta, green, indigo, darkorange, cyan, pink, yellowgreen) as
 * img_as_ubyte rounds them, 0xRRGGBB.  label2rgb gives the k-th smallest
 * label colour (k - 1) mod 10, so on ids 1..N label id gets colour
 * (id - 1) mod 10. */
CIP_HOST_DEVICE uint32_t
cip_label_rgb (uint32_t label)
{
  if (label == 0)
    return 0;
  switch ((label - 1) % 10) {
    case 0:
      return 0xff0000;          /* red */
    case 1:
      return 0x0000ff;          /* blue */
    case 2:
      return 0xffff00;          /* yellow */
    case 3:
      return 0xff00ff;          /* magenta */
    case 4:
      return 0x008000;          /* green (0, 0.502, 0) */
    case 5:
      return 0x4b0082;          /* indigo (0.294, 0, 0.51) */
    case 6:
      return 0xff8c00;          /* darkorange (1, 0.549, 0) */
    case 7:
      return 0x00ffff;          /* cyan */
    case 8:
      return 0xffc0cb;          /* pink (1, 0.753, 0.796) */
    default:
      return 0x9acd32;          /* yellowgreen (0.604, 0.804, 0.196) */
  }
}

/* The four bytes of an RGBA label pixel, in memory order, alpha 255. */
CIP_HOST_DEVICE void
cip_label_rgba (uint32_t label, uint8_t * out)
{
  uint32_t rgb = cip_label_rgb (label);

  out[0] = (uint8_t) (rgb >> 16);
  out[1] = (uint8_t) (rgb >> 8);
  out[2] = (uint8_t) rgb;
  out[3] = 255;
}

/* The GRAY16 value of a label. */
CIP_HOST_DEVICE uint16_t
cip_label_gray16 (uint32_t label)
{
  return (uint16_t) (label < CIP_LABEL_GRAY16_MAX ? label :
      CIP_LABEL_GRAY16_MAX);
}

/* The most regions an image can hold: pixels that touch no other (every
 * second one for 4-connectivity, one in each 2x2 square for 8). */
CIP_HOST_DEVICE uint32_t
cip_label_max_regions (int width, int height, int connectivity)
{
  if (connectivity == 4)
    return (uint32_t) (((uint64_t) width * height + 1) / 2);
  return (uint32_t) (((width + 1) / 2) * (uint64_t) ((height + 1) / 2));
}

/* The checks both sides make before touching anything. */
static inline CipStatus
cip_label_check (const CipImage * mask, const CipImage * intensity,
    const CipLabelParams * params, const CipImage * dst,
    const CipRegionTable * table)
{
  if (params == NULL || table == NULL || table->count == NULL)
    return CIP_ERROR_INVALID_ARGUMENT;
  if (params->connectivity != 4 && params->connectivity != 8)
    return CIP_ERROR_INVALID_ARGUMENT;
  if (table->capacity > 0 && table->regions == NULL)
    return CIP_ERROR_INVALID_ARGUMENT;
  if (cip_image_validate (mask) != CIP_OK ||
      mask->format != CIP_FORMAT_GRAY8)
    return CIP_ERROR_INVALID_ARGUMENT;
  if (intensity && (cip_image_validate (intensity) != CIP_OK ||
          intensity->format != CIP_FORMAT_GRAY8 ||
          intensity->width != mask->width ||
          intensity->height != mask->height))
    return CIP_ERROR_INVALID_ARGUMENT;
  if (dst && (cip_image_validate (dst) != CIP_OK ||
          (dst->format != CIP_FORMAT_GRAY16 &&
              dst->format != CIP_FORMAT_RGBA) ||
          dst->width != mask->width || dst->height != mask->height))
    return CIP_ERROR_INVALID_ARGUMENT;
  return CIP_OK;
}

/* The class of a border pixel of a region for its perimeter, from its
 * code: 1 + 2 x (its border 4-neighbours in the region) + 10 x (its border
 * diagonal neighbours in the region), scikit-image's perimeter() histogram
 * bins.  0: counts nothing; 1, 2, 3: perimeter_counts[0, 1, 2]. */
CIP_HOST_DEVICE int
cip_label_perimeter_class (uint32_t code)
{
  switch (code) {
    case 5:
    case 7:
    case 15:
    case 17:
    case 25:
    case 27:
      return 1;
    case 21:
    case 33:
      return 2;
    case 13:
    case 23:
      return 3;
    default:
      return 0;
  }
}

/* What a 2x2 quad adds to four times the 8-connected Euler number of a
 * region, from the quad's pixels in the region (bit 0 bottom right, 1 top
 * right, 2 bottom left, 3 top left): +1 for one pixel, -1 for three, -2
 * for a diagonal pair (Gray's bit quads). */
CIP_HOST_DEVICE int
cip_label_euler_pattern (uint32_t pattern)
{
  switch (pattern) {
    case 1:
    case 2:
    case 4:
    case 8:
      return 1;
    case 7:
    case 11:
    case 13:
    case 14:
      return -1;
    case 6:
    case 9:
      return -2;
    default:
      return 0;
  }
}

/* What the quad of ids @quad (in the bit order above) adds to the region
 * of its corner @corner: 0 for background, and for a region already met
 * at an earlier corner (each region of a quad counts once). */
CIP_HOST_DEVICE int
cip_label_euler_quad (const uint32_t * quad, int corner)
{
  uint32_t pattern = 0;
  int j;

  if (quad[corner] == 0)
    return 0;
  for (j = 0; j < corner; j++)
    if (quad[j] == quad[corner])
      return 0;
  for (j = 0; j < 4; j++)
    pattern |= (uint32_t) (quad[j] == quad[corner]) << j;
  return cip_label_euler_pattern (pattern);
}

#endif /* __CIP_LABEL_H__ */
