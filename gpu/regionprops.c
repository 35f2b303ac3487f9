/* gst-cuda-imgproc
 * Copyright (C) 2026 The gst-cuda-imgproc authors
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2 of the License, or (at your option) any later version.
 */

/* The region properties' names and needs; their formulas are in
 * cip-regionprops.h, shared with the kernels. */

#include <string.h>

#include "cip-regionprops.h"

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

void
cip_region_property_values (const CipRegion * region, CipRegionProperty prop,
    double *values)
{
  if ((unsigned) prop < CIP_N_PROPS)
    cip_region_property_compute (region, prop, values);
}

void
cip_region_property_table (const CipRegion * regions, unsigned n,
    const CipRegionProperty * props, unsigned n_props, double *columns)
{
  unsigned r;

  /* One pass over the regions, each read once (thousands of them are
   * more than the caches hold), scattered into the columns. */
  for (r = 0; r < n; r++)
    cip_region_property_row (&regions[r], props, n_props, columns, n, r);
}
