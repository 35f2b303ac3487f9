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
 * (row, column): centroid-0 is the mean y, bbox-0 the top row. */

#include <math.h>
#include <string.h>

#include "cip.h"

static const struct
{
  const char *name;
  unsigned columns;
  uint32_t statistics;
} properties[CIP_N_PROPS] = {
  [CIP_PROP_LABEL] = {"label", 1, 0},
  [CIP_PROP_AREA] = {"area", 1, 0},
  [CIP_PROP_AREA_BBOX] = {"area_bbox", 1, 0},
  [CIP_PROP_AXIS_MAJOR_LENGTH] = {"axis_major_length", 1, CIP_LABEL_MOMENTS},
  [CIP_PROP_AXIS_MINOR_LENGTH] = {"axis_minor_length", 1, CIP_LABEL_MOMENTS},
  [CIP_PROP_BBOX] = {"bbox", 4, 0},
  [CIP_PROP_CENTROID] = {"centroid", 2, 0},
  [CIP_PROP_ECCENTRICITY] = {"eccentricity", 1, CIP_LABEL_MOMENTS},
  [CIP_PROP_EQUIVALENT_DIAMETER_AREA] = {"equivalent_diameter_area", 1, 0},
  [CIP_PROP_EXTENT] = {"extent", 1, 0},
  [CIP_PROP_INTENSITY_MAX] = {"intensity_max", 1, CIP_LABEL_INTENSITY_RANGE},
  [CIP_PROP_INTENSITY_MEAN] = {"intensity_mean", 1, 0},
  [CIP_PROP_INTENSITY_MIN] = {"intensity_min", 1, CIP_LABEL_INTENSITY_RANGE},
  [CIP_PROP_ORIENTATION] = {"orientation", 1, CIP_LABEL_MOMENTS},
  [CIP_PROP_PERIMETER] = {"perimeter", 1, CIP_LABEL_CONTOURS},
  [CIP_PROP_EULER_NUMBER] = {"euler_number", 1, CIP_LABEL_CONTOURS},
  [CIP_PROP_AREA_CONVEX] = {"area_convex", 1, CIP_LABEL_CONVEX},
  [CIP_PROP_AREA_FILLED] = {"area_filled", 1, CIP_LABEL_FILLED},
  [CIP_PROP_FERET_DIAMETER_MAX] = {"feret_diameter_max", 1, CIP_LABEL_CONVEX},
  [CIP_PROP_SOLIDITY] = {"solidity", 1, CIP_LABEL_CONVEX},
};

const char *
cip_region_property_name (CipRegionProperty prop)
{
  return (unsigned) prop < CIP_N_PROPS ? properties[prop].name : NULL;
}

int
cip_region_property_from_name (const char *name)
{
  int i;

  for (i = 0; name && i < CIP_N_PROPS; i++)
    if (strcmp (name, properties[i].name) == 0)
      return i;
  return -1;
}

unsigned
cip_region_property_columns (CipRegionProperty prop)
{
  return (unsigned) prop < CIP_N_PROPS ? properties[prop].columns : 0;
}

uint32_t
cip_region_property_statistics (CipRegionProperty prop)
{
  return (unsigned) prop < CIP_N_PROPS ? properties[prop].statistics : 0;
}

/* n^2 times the central second moment of a coordinate (or of two):
 * n * sum(a b) - sum(a) sum(b), exact in 128 bits, where sum(a b) up to
 * 2^56 and n up to 2^28 overflow 64. */
static double
scaled_central_moment (uint64_t n, uint64_t sum_ab, uint64_t sum_a,
    uint64_t sum_b)
{
  __int128 v = (__int128) n * sum_ab - (__int128) sum_a * sum_b;

  return (double) v;
}

/* scikit-image's inertia tensor of the region, [[a, b], [b, c]]: a the
 * variance of the columns, c that of the rows, b minus their covariance. */
static void
inertia_tensor (const CipRegion * r, double *a, double *b, double *c)
{
  double n2 = (double) r->area * (double) r->area;

  *a = scaled_central_moment (r->area, r->sum_xx, r->sum_x, r->sum_x) / n2;
  *c = scaled_central_moment (r->area, r->sum_yy, r->sum_y, r->sum_y) / n2;
  *b = -scaled_central_moment (r->area, r->sum_xy, r->sum_x, r->sum_y) / n2;
}

/* Its eigenvalues, largest first, clipped at 0 as scikit-image does. */
static void
inertia_eigenvalues (const CipRegion * r, double *l1, double *l2)
{
  double a, b, c, mean, radius;

  inertia_tensor (r, &a, &b, &c);
  mean = (a + c) / 2;
  radius = hypot ((a - c) / 2, b);
  *l1 = fmax (mean + radius, 0);
  *l2 = fmax (mean - radius, 0);
}

/* Inlined into the table's loop below. */
static inline void
region_property_values (const CipRegion * r, CipRegionProperty prop,
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
      inertia_eigenvalues (r, &l1, &l2);
      v[0] = 4 * sqrt (l1);
      break;
    case CIP_PROP_AXIS_MINOR_LENGTH:
      inertia_eigenvalues (r, &l1, &l2);
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
      inertia_eigenvalues (r, &l1, &l2);
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
      inertia_tensor (r, &a, &b, &c);
      if (a - c == 0)
        v[0] = b < 0 ? -M_PI / 4 : M_PI / 4;
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

void
cip_region_property_values (const CipRegion * region, CipRegionProperty prop,
    double *values)
{
  region_property_values (region, prop, values);
}

void
cip_region_property_table (const CipRegion * regions, unsigned n,
    const CipRegionProperty * props, unsigned n_props, double *columns)
{
  unsigned r, p, k;

  /* One pass over the regions, each read once (thousands of them are
   * more than the caches hold), scattered into the columns. */
  for (r = 0; r < n; r++) {
    double *out = columns + r;

    for (p = 0; p < n_props; p++) {
      double values[4];

      region_property_values (&regions[r], props[p], values);
      for (k = 0; k < properties[props[p]].columns; k++, out += n)
        *out = values[k];
    }
  }
}
