/* gst-cuda-imgproc
 * Copyright (C) 2026 The gst-cuda-imgproc authors
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2 of the License, or (at your option) any later version.
 */

/* The region table as scikit-image's regionprops_table gives it: one
 * column a value of a property (`bbox-0` ... `bbox-3`, `centroid-0`,
 * `area`, ...), each a GBytes of little-endian float64, one value a
 * region in label order; and the meta that carries it on a frame. */

#ifndef __GST_CUDA_IMGPROC_REGIONS_H__
#define __GST_CUDA_IMGPROC_REGIONS_H__

#include <gst/gst.h>

#include "cip.h"

G_BEGIN_DECLS

/* The properties asked for, in the order asked, and their columns'
 * names (`area`, `bbox-0`, ...), interned when they are parsed; the
 * element may add a column of its own after theirs (`track_id`). */
typedef struct
{
  CipRegionProperty props[CIP_N_PROPS];
  guint n_props;
  GQuark columns[CIP_N_PROPS * 4 + 1];
  guint n_columns;
  guint32 statistics;           /* CipLabelStatistics they need */
} GstCudaImgprocRegionProps;

/* The statistics of today's default. */
#define GST_CUDA_IMGPROC_DEFAULT_REGION_PROPS \
    "label,area,bbox,centroid,intensity_mean"

/* Parses comma-separated scikit-image names; FALSE (and @props left as
 * it was) for an unknown or repeated name, which @error_name then points
 * into @names at (free with g_free). */
gboolean gst_cuda_imgproc_region_props_parse (GstCudaImgprocRegionProps *
    props, const gchar * names, gchar ** error_name);

/* Every name gst_cuda_imgproc_region_props_parse() takes, ", " between
 * them (free with g_free). */
gchar *gst_cuda_imgproc_region_props_valid_names (void);

/* The names, comma-separated (free with g_free). */
gchar *gst_cuda_imgproc_region_props_to_string (const
    GstCudaImgprocRegionProps * props);

/* The table cip_label() writes, page-locked with a stream (the kernels
 * write it across the bus), else in system memory, and the size of its
 * columns' block. */
/* A frame's region table.  Its columns are written into a buffer of
 * @column_pool (page-locked memory of @allocator on the cuda backend),
 * which the frame's GstStructure then takes over, so that the columns are
 * not copied: the table takes the pool's next buffer for its next frame.
 * Set @allocator before the first reserve. */
typedef struct
{
  CipRegionTable cip;
  GstAllocator *allocator;
  GstBufferPool *column_pool;
  GstBuffer *column_buffer;
  GstMapInfo column_map;
} GstCudaImgprocRegionTable;

/* How much of a frame's regions a table holds: the statistics of the
 * first @max_region_stats (for their metas), the columns of the first
 * @max_regions. */
typedef struct
{
  guint32 max_regions;
  guint32 max_region_stats;
} GstCudaImgprocRegionLimits;

/* The `regionprops` structure of the first @n regions of @table: one
 * field a column, copied out of the table.  One allocation holds every
 * column. */
GstStructure *gst_cuda_imgproc_region_table_take (GstCudaImgprocRegionTable *
    table, const GstCudaImgprocRegionProps * props, guint n);

/* Room for the statistics of @capacity regions and @n_columns columns of
 * @column_capacity rows; kept when it is large enough already. */
CipStatus gst_cuda_imgproc_region_table_reserve (GstCudaImgprocRegionTable *
    table, guint32 capacity, guint32 column_capacity, guint n_columns,
    CipStream * stream);
void gst_cuda_imgproc_region_table_free (GstCudaImgprocRegionTable * table,
    CipStream * stream);

/* Labels @mask into @table, with the columns of @props: cip_label()
 * queued on @stream, or cip_ref_label() without a stream.  @labels, when
 * set, gets the label image too (a uint32 a pixel, rows of the mask's
 * width; where the backend computes). */
CipStatus gst_cuda_imgproc_region_table_label (GstCudaImgprocRegionTable *
    table, const GstCudaImgprocRegionLimits * limits,
    const GstCudaImgprocRegionProps * props, const CipImage * mask,
    const CipImage * intensity, const CipLabelParams * params,
    CipImage * dst, guint32 * labels, CipStream * stream);

/* Once that labelling is done: a frame with more regions than the table
 * holds grows it, up to @limits, and its table is made again (the same
 * @mask and @intensity, not its label images), waited for.  The table is
 * allocated only when the count reaches a new high.  Columns past those
 * of @props' properties (`track_id`) are left to the caller. */
CipStatus gst_cuda_imgproc_region_table_complete (GstCudaImgprocRegionTable *
    table, const GstCudaImgprocRegionLimits * limits,
    const GstCudaImgprocRegionProps * props, const CipImage * mask,
    const CipImage * intensity, const CipLabelParams * params,
    CipStream * stream);

/* The type of the regions' own metas (ROI and object detection),
 * "cudalabel-region". */
#define GST_CUDA_IMGPROC_REGION_TYPE (gst_cuda_imgproc_region_type ())
GQuark gst_cuda_imgproc_region_type (void);

/* One GstVideoRegionOfInterestMeta per region of @regions: its box, id
 * the label, with a `region-stats` parameter (label, area, centroid-x,
 * centroid-y, mean-intensity). */
void gst_cuda_imgproc_regions_add_roi_metas (GstBuffer * buffer,
    const CipRegion * regions, guint n);

/* The region table on each frame `cudalabel` labels: a GstCustomMeta of
 * this name whose structure is the message's `regionprops` structure (a
 * GBytes of little-endian float64 per column), so that any application
 * reads it with gst_buffer_get_custom_meta (), Python included, and C
 * needs no header of ours.  Tagged with the video geometry: elements that
 * move pixels drop it. */
#define GST_CUDA_IMGPROC_REGIONS_META_NAME "CudaImgprocRegions"

/* Registers the meta; once, at plugin load. */
void gst_cuda_imgproc_regions_meta_register (void);

/* Adds the meta to @buffer with the fields of @columns. */
void gst_buffer_add_cuda_imgproc_regions_meta (GstBuffer * buffer,
    const GstStructure * columns);

G_END_DECLS

#endif /* __GST_CUDA_IMGPROC_REGIONS_H__ */
