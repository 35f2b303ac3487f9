/* gst-cuda-imgproc
 * Copyright (C) 2026 The gst-cuda-imgproc authors
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2 of the License, or (at your option) any later version.
 */

/* Region properties from a region's statistics, as scikit-image's
 * regionprops defines them (docs/regionprops.md).  Its coordinates are
 * (row, column): centroid-0 is the mean y, bbox-0 the top row.
 *
 * Compiled by the reference (regionprops.c, ref/label.c) and by the
 * labelling kernels, which write the table's columns on the GPU: both
 * without floating-point contraction, so that every value has the same
 * bits on both backends, orientation aside (CUDA's atan2 is within 2 ulp,
 * not correctly rounded). */

#ifndef __CIP_REGIONPROPS_H__
#define __CIP_REGIONPROPS_H__

#include "cip-pixel.h"

/* Columns of @prop: 4 for bbox, 2 for centroid, 1 for the others. */
CIP_HOST_DEVICE unsigned
cip_region_property_n_columns (CipRegionProperty prop)
{
  return prop == CIP_PROP_BBOX ? 4 : prop == CIP_PROP_CENTROID ? 2 : 1;
}

/* n^2 times the central second moment of a coordinate (or of two):
 * n * sum(a b) - sum(a) sum(b), exact in 128 bits, where sum(a b) up to
 * 2^56 and n up to 2^28 overflow 64. */
CIP_HOST_DEVICE double
cip_scaled_central_moment (uint64_t n, uint64_t sum_ab, uint64_t sum_a,
    uint64_t sum_b)
{
  __int128 v = (__int128) n * sum_ab - (__int128) sum_a * sum_b;

  return (double) v;
}

/* scikit-image's inertia tensor of the region, [[a, b], [b, c]]: a the
 * variance of the columns, c that of the rows, b minus their covariance. */
CIP_HOST_DEVICE void
cip_inertia_tensor (const CipRegion * r, double *a, double *b, double *c)
{
  double n2 = (double) r->area * (double) r->area;

  *a = cip_scaled_central_moment (r->area, r->sum_xx, r->sum_x,
      r->sum_x) / n2;
  *c = cip_scaled_central_moment (r->area, r->sum_yy, r->sum_y,
      r->sum_y) / n2;
  *b = -cip_scaled_central_moment (r->area, r->sum_xy, r->sum_x,
      r->sum_y) / n2;
}

/* Its eigenvalues, largest first, clipped at 0, as scikit-image's
 * inertia_tensor_eigvals computes them. */
CIP_HOST_DEVICE void
cip_inertia_eigenvalues (const CipRegion * r, double *l1, double *l2)
{
  double a, b, c, mean, half, radius;

  cip_inertia_tensor (r, &a, &b, &c);
  mean = (a + c) / 2;
  half = (a - c) / 2;
  radius = sqrt (half * half + b * b);
  *l1 = fmax (mean + radius, 0.0);
  *l2 = fmax (mean - radius, 0.0);
}

/* The values of @prop for @r into @v, in scikit-image's column order. */
CIP_HOST_DEVICE void
cip_region_property_compute (const CipRegion * r, CipRegionProperty prop,
    double *v)
{
  double area = r->area, l1, l2, a, b, c;

  switch (prop) {
    case CIP_PROP_LABEL:
      v[0] = r->label;
      break;
    case CIP_PROP_AREA:
      v[0] = area;
      break;
    case CIP_PROP_AREA_BBOX:
      v[0] = (double) r->width * r->height;
      break;
    case CIP_PROP_AXIS_MAJOR_LENGTH:
      cip_inertia_eigenvalues (r, &l1, &l2);
      v[0] = 4 * sqrt (l1);
      break;
    case CIP_PROP_AXIS_MINOR_LENGTH:
      cip_inertia_eigenvalues (r, &l1, &l2);
      v[0] = 4 * sqrt (l2);
      break;
    case CIP_PROP_BBOX:
      v[0] = r->top;
      v[1] = r->left;
      v[2] = (double) r->top + r->height;
      v[3] = (double) r->left + r->width;
      break;
    case CIP_PROP_CENTROID:
      v[0] = r->sum_y / area;
      v[1] = r->sum_x / area;
      break;
    case CIP_PROP_ECCENTRICITY:
      cip_inertia_eigenvalues (r, &l1, &l2);
      v[0] = l1 == 0 ? 0 : sqrt (1 - l2 / l1);
      break;
    case CIP_PROP_EQUIVALENT_DIAMETER_AREA:
      v[0] = sqrt (4 * area / M_PI);
      break;
    case CIP_PROP_EXTENT:
      v[0] = area / ((double) r->width * r->height);
      break;
    case CIP_PROP_INTENSITY_MAX:
      v[0] = r->intensity_max;
      break;
    case CIP_PROP_INTENSITY_MEAN:
      v[0] = r->sum_intensity / area;
      break;
    case CIP_PROP_INTENSITY_MIN:
      v[0] = r->intensity_min;
      break;
    case CIP_PROP_ORIENTATION:
      cip_inertia_tensor (r, &a, &b, &c);
      /* an exact tie as scikit-image 0.21+ has it (0.19's signs were
       * the other way round, its issue #6815) */
      if (a - c == 0)
        v[0] = b < 0 ? M_PI / 4 : -M_PI / 4;
      else
        v[0] = 0.5 * atan2 (-2 * b, c - a);
      break;
    case CIP_PROP_PERIMETER:
      v[0] = r->perimeter_counts[0] + M_SQRT2 * r->perimeter_counts[1] +
          (1 + M_SQRT2) / 2 * r->perimeter_counts[2];
      break;
    case CIP_PROP_EULER_NUMBER:
      v[0] = r->euler_quads / 4.0;
      break;
    case CIP_PROP_AREA_CONVEX:
      v[0] = r->area_convex;
      break;
    case CIP_PROP_AREA_FILLED:
      v[0] = r->area_filled;
      break;
    case CIP_PROP_FERET_DIAMETER_MAX:
      /* scikit-image: the square root of the largest squared distance */
      v[0] = sqrt (r->feret_sq4 / 4.0);
      break;
    case CIP_PROP_SOLIDITY:
      v[0] = area / r->area_convex;
      break;
    default:
      break;
  }
}

/* Row @row of a table of @stride rows: @r's values of each of @props,
 * each column @stride values after the one before. */
CIP_HOST_DEVICE void
cip_region_property_row (const CipRegion * r, const CipRegionProperty *
    props, unsigned n_props, double *columns, size_t stride, size_t row)
{
  double *out = columns + row;
  unsigned p, k;

  for (p = 0; p < n_props; p++) {
    double values[4];

    cip_region_property_compute (r, props[p], values);
    for (k = 0; k < cip_region_property_n_columns (props[p]); k++,
        out += stride)
      *out = values[k];
  }
}

#endif /* __CIP_REGIONPROPS_H__ */
