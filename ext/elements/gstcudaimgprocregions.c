/* gst-cuda-imgproc
 * Copyright (C) 2026 The gst-cuda-imgproc authors
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2 of the License, or (at your option) any later version.
 */

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <string.h>

#include <gst/video/video.h>

#include "gstcudaimgprocregions.h"
#include "cip-ref.h"

GST_DEBUG_CATEGORY_EXTERN (gst_cuda_imgproc_filter_debug);
#define GST_CAT_DEFAULT gst_cuda_imgproc_filter_debug

gboolean
gst_cuda_imgproc_region_props_parse (GstCudaImgprocRegionProps * props,
    const gchar * names, gchar ** error_name)
{
  GstCudaImgprocRegionProps parsed = { {0}, 0, {0}, 0, 0 };
  gchar **tokens = g_strsplit (names ? names : "", ",", -1);
  gboolean seen[CIP_N_PROPS] = { FALSE };
  guint n_columns, k;
  gchar **t;

  for (t = tokens; *t; t++) {
    gchar *name = g_strstrip (*t);
    gint prop;

    if (*name == '\0')
      continue;
    prop = cip_region_property_from_name (name);
    if (prop < 0 || seen[prop]) {
      if (error_name)
        *error_name = g_strdup (name);
      g_strfreev (tokens);
      return FALSE;
    }
    seen[prop] = TRUE;
    parsed.props[parsed.n_props++] = prop;
    parsed.statistics |= cip_region_property_statistics (prop);
    n_columns = cip_region_property_columns (prop);
    for (k = 0; k < n_columns; k++) {
      gchar *column = n_columns == 1 ? g_strdup (name) :
          g_strdup_printf ("%s-%u", name, k);

      parsed.columns[parsed.n_columns++] = g_quark_from_string (column);
      g_free (column);
    }
  }
  g_strfreev (tokens);
  *props = parsed;
  return TRUE;
}

gchar *
gst_cuda_imgproc_region_props_valid_names (void)
{
  GString *s = g_string_new (NULL);
  gint prop;

  for (prop = 0; prop < CIP_N_PROPS; prop++)
    g_string_append_printf (s, "%s%s", prop ? ", " : "",
        cip_region_property_name (prop));
  return g_string_free (s, FALSE);
}

gchar *
gst_cuda_imgproc_region_props_to_string (const GstCudaImgprocRegionProps *
    props)
{
  GString *s = g_string_new (NULL);
  guint i;

  for (i = 0; i < props->n_props; i++)
    g_string_append_printf (s, "%s%s", i ? "," : "",
        cip_region_property_name (props->props[i]));
  return g_string_free (s, FALSE);
}

/* A column's values as little-endian float64, in place. */
static void
to_little_endian (gdouble * values, guint n)
{
#if G_BYTE_ORDER == G_BIG_ENDIAN
  guint i;

  for (i = 0; i < n; i++) {
    guint64 bits;

    memcpy (&bits, &values[i], sizeof (bits));
    bits = GUINT64_TO_LE (bits);
    memcpy (&values[i], &bits, sizeof (bits));
  }
#else
  (void) values;
  (void) n;
#endif
}

/* Column buffers a table may have out, in its structures, at once, and the
 * bytes they may take together: past either, a frame's columns are
 * copied (an application that keeps every frame's table, or a queue of
 * many frames, holds page-locked memory no longer than that). */
#define MAX_COLUMN_BUFFERS 16
#define MAX_COLUMN_POOL_BYTES (64 << 20)

/* Whether the columns go to the structure without a copy.  Test-only:
 * CIP_COPY_REGION_TABLES=1, in a build with -Dtest-switches=true alone,
 * copies them, for the benchmark to measure both. */
static gboolean
columns_taken (void)
{
#if CIP_TEST_SWITCHES
  return g_strcmp0 (g_getenv ("CIP_COPY_REGION_TABLES"), "1") != 0;
#else
  return TRUE;
#endif
}

typedef struct
{
  GstBuffer *buffer;
  GstMapInfo map;
} ColumnBlock;

static void
column_block_free (gpointer data)
{
  ColumnBlock *block = data;

  gst_buffer_unmap (block->buffer, &block->map);
  gst_buffer_unref (block->buffer);
  g_free (block);
}

/* The table's next column buffer, mapped; FALSE where the pool has none
 * to spare. */
static gboolean
column_buffer_acquire (GstCudaImgprocRegionTable * table, GstBuffer ** buffer,
    GstMapInfo * map)
{
  GstBufferPoolAcquireParams params = { 0, };

  params.flags = GST_BUFFER_POOL_ACQUIRE_FLAG_DONTWAIT;
  *buffer = NULL;
  if (table->column_pool == NULL ||
      gst_buffer_pool_acquire_buffer (table->column_pool, buffer,
          &params) != GST_FLOW_OK)
    return FALSE;
  if (!gst_buffer_map (*buffer, map, GST_MAP_READWRITE)) {
    gst_clear_buffer (buffer);
    return FALSE;
  }
  return TRUE;
}

static void
column_buffer_release (GstCudaImgprocRegionTable * table)
{
  if (table->column_buffer) {
    gst_buffer_unmap (table->column_buffer, &table->column_map);
    gst_clear_buffer (&table->column_buffer);
  }
  table->cip.columns = NULL;
  table->cip.column_capacity = 0;
}

/* The columns' first @n rows each, as a structure of GBytes over @all. */
static GstStructure *
columns_structure (const GstCudaImgprocRegionProps * props, GBytes * all,
    gsize column_stride, guint n)
{
  GstStructure *structure = gst_structure_new_empty ("regionprops");
  gsize column_bytes = (gsize) n * sizeof (gdouble);
  guint c;

  for (c = 0; c < props->n_columns; c++) {
    GValue column = G_VALUE_INIT;

    g_value_init (&column, G_TYPE_BYTES);
    g_value_take_boxed (&column, g_bytes_new_from_bytes (all,
            (gsize) c * column_stride, column_bytes));
    gst_structure_id_take_value (structure, props->columns[c], &column);
  }
  return structure;
}

GstStructure *
gst_cuda_imgproc_region_table_take (GstCudaImgprocRegionTable * table,
    const GstCudaImgprocRegionProps * props, guint n)
{
  CipRegionTable *cip = &table->cip;
  gsize column_stride = (gsize) cip->column_capacity * sizeof (gdouble);
  ColumnBlock *block;
  GstBuffer *next;
  GstMapInfo next_map;
  GBytes *all;
  GstStructure *structure;
  guint c;

  for (c = 0; c < props->n_columns; c++)
    to_little_endian (&cip->columns[(gsize) c * cip->column_capacity], n);

  /* The structure takes the buffer the columns were written into, and
   * the table the pool's next: nothing copied. */
  if (columns_taken () && column_buffer_acquire (table, &next, &next_map)) {
    block = g_new (ColumnBlock, 1);
    block->buffer = table->column_buffer;
    block->map = table->column_map;
    all = g_bytes_new_with_free_func (block->map.data, block->map.size,
        column_block_free, block);
    table->column_buffer = next;
    table->column_map = next_map;
    cip->columns = (gdouble *) next_map.data;
  } else {
    /* every buffer out (or none to be had): a copy of the first @n rows */
    gsize column_bytes = (gsize) n * sizeof (gdouble);
    guint8 *copy = g_malloc (MAX (column_bytes * props->n_columns, 1));

    for (c = 0; c < props->n_columns; c++)
      memcpy (copy + c * column_bytes,
          &cip->columns[(gsize) c * cip->column_capacity], column_bytes);
    all = g_bytes_new_take (copy, column_bytes * props->n_columns);
    column_stride = column_bytes;
  }
  structure = columns_structure (props, all, column_stride, n);
  g_bytes_unref (all);
  return structure;
}

/* Frees *@ptr and clears it: a failed allocation after it leaves no
 * pointer behind to free again. */
static void
host_free (gpointer * ptr, CipStream * stream)
{
  if (stream)
    cip_host_free (*ptr, stream);
  else
    g_free (*ptr);
  *ptr = NULL;
}

/* Page-locked with a stream (the kernels write it across the bus), else
 * system memory. */
static CipStatus
host_alloc (gpointer * ptr, gsize size, CipStream * stream)
{
  if (stream)
    return cip_host_alloc (ptr, size, stream);
  *ptr = g_try_malloc (size);
  return *ptr ? CIP_OK : CIP_ERROR_OUT_OF_MEMORY;
}

void
gst_cuda_imgproc_region_table_free (GstCudaImgprocRegionTable * table,
    CipStream * stream)
{
  GstAllocator *allocator = table->allocator;

  host_free ((gpointer *) & table->cip.regions, stream);
  column_buffer_release (table);
  /* inactive: buffers still out in structures are freed as they return */
  if (table->column_pool)
    gst_buffer_pool_set_active (table->column_pool, FALSE);
  gst_clear_object (&table->column_pool);
  host_free ((gpointer *) & table->cip.count, stream);
  memset (table, 0, sizeof (*table));
  table->allocator = allocator;
}

/* A pool of @size-byte column buffers, and the table's first. */
static CipStatus
column_pool_new (GstCudaImgprocRegionTable * table, gsize size)
{
  GstBufferPool *pool = gst_buffer_pool_new ();
  GstStructure *config = gst_buffer_pool_get_config (pool);
  guint max = CLAMP (MAX_COLUMN_POOL_BYTES / size, 2, MAX_COLUMN_BUFFERS);

  gst_buffer_pool_config_set_params (config, NULL, (guint) size, 0, max);
  if (table->allocator)
    gst_buffer_pool_config_set_allocator (config, table->allocator, NULL);
  if (!gst_buffer_pool_set_config (pool, config) ||
      !gst_buffer_pool_set_active (pool, TRUE)) {
    gst_object_unref (pool);
    return CIP_ERROR_OUT_OF_MEMORY;
  }
  table->column_pool = pool;
  if (!column_buffer_acquire (table, &table->column_buffer, &table->column_map))
    return CIP_ERROR_OUT_OF_MEMORY;
  table->cip.columns = (gdouble *) table->column_map.data;
  return CIP_OK;
}

CipStatus
gst_cuda_imgproc_region_table_reserve (GstCudaImgprocRegionTable * table,
    guint32 capacity, guint32 column_capacity, guint n_columns,
    CipStream * stream)
{
  CipRegionTable *cip = &table->cip;
  CipStatus status;

  if (cip->count == NULL) {
    status = host_alloc ((gpointer *) & cip->count, sizeof (guint32), stream);
    if (status != CIP_OK)
      return status;
    *cip->count = 0;
  }
  if (capacity > cip->capacity) {
    GST_DEBUG ("region table: statistics of %u regions", capacity);
    host_free ((gpointer *) & cip->regions, stream);
    cip->capacity = 0;
    status = host_alloc ((gpointer *) & cip->regions,
        (gsize) capacity * sizeof (CipRegion), stream);
    if (status != CIP_OK)
      return status;
    cip->capacity = capacity;
  }
  column_capacity = MAX (column_capacity, cip->column_capacity);
  if ((gsize) column_capacity * n_columns * sizeof (gdouble) >
      (table->column_buffer ? table->column_map.size : 0) ||
      column_capacity > cip->column_capacity) {
    gsize size = (gsize) column_capacity * MAX (n_columns, 1) *
        sizeof (gdouble);

    GST_DEBUG ("region table: %u columns of %u rows", n_columns,
        column_capacity);
    column_buffer_release (table);
    if (table->column_pool)
      gst_buffer_pool_set_active (table->column_pool, FALSE);
    gst_clear_object (&table->column_pool);
    if (size > G_MAXUINT)
      return CIP_ERROR_OUT_OF_MEMORY;
    status = column_pool_new (table, size);
    if (status != CIP_OK)
      return status;
    cip->column_capacity = column_capacity;
  }
  return CIP_OK;
}

/* Regions a table holds before it first grows. */
#define INITIAL_CAPACITY 1024

/* Room for @n of at most @max, with a quarter to spare. */
static guint32
grown (guint32 n, guint32 max)
{
  return MIN ((guint64) n + n / 4, max);
}

static CipStatus
label_once (GstCudaImgprocRegionTable * table,
    const GstCudaImgprocRegionProps * props, const CipImage * mask,
    const CipImage * intensity, const CipLabelParams * params,
    CipImage * dst, CipStream * stream)
{
  CipRegionTable *cip = &table->cip;

  cip->props = props->props;
  cip->n_props = props->n_props;
  if (stream == NULL)
    return cip_ref_label (mask, intensity, params, dst, cip, NULL);
  return cip_label (mask, intensity, params, dst, cip, stream);
}

CipStatus
gst_cuda_imgproc_region_table_label (GstCudaImgprocRegionTable * table,
    const GstCudaImgprocRegionLimits * limits,
    const GstCudaImgprocRegionProps * props, const CipImage * mask,
    const CipImage * intensity, const CipLabelParams * params,
    CipImage * dst, guint32 * labels, CipStream * stream)
{
  CipStatus status = gst_cuda_imgproc_region_table_reserve (table,
      MIN (INITIAL_CAPACITY, limits->max_region_stats),
      props->n_columns ? MIN (INITIAL_CAPACITY, limits->max_regions) : 0,
      props->n_columns, stream);

  if (status != CIP_OK)
    return status;
  /* this labelling only: making the table again (table_complete) needs
   * no label image */
  table->cip.labels = labels;
  table->cip.labels_stride = mask->width;
  status = label_once (table, props, mask, intensity, params, dst, stream);
  table->cip.labels = NULL;
  table->cip.labels_stride = 0;
  return status;
}

CipStatus
gst_cuda_imgproc_region_table_complete (GstCudaImgprocRegionTable * table,
    const GstCudaImgprocRegionLimits * limits,
    const GstCudaImgprocRegionProps * props, const CipImage * mask,
    const CipImage * intensity, const CipLabelParams * params,
    CipStream * stream)
{
  CipRegionTable *cip = &table->cip;
  guint32 count = *cip->count;
  guint32 stats = MIN (count, limits->max_region_stats);
  guint32 rows = props->n_columns ? MIN (count, limits->max_regions) : 0;
  CipStatus status;

  if (stats <= cip->capacity && rows <= cip->column_capacity)
    return CIP_OK;
  status = gst_cuda_imgproc_region_table_reserve (table,
      grown (stats, limits->max_region_stats), grown (rows,
          limits->max_regions), props->n_columns, stream);
  if (status == CIP_OK)
    status = label_once (table, props, mask, intensity, params, NULL, stream);
  if (status == CIP_OK && stream)
    status = cip_stream_synchronize (stream);
  return status;
}

/* Names of the per-region metas and fields, interned once: a frame may
 * carry thousands of regions, and interning them per region doubled the
 * cost of attaching the metas. */
static struct
{
  GQuark region_type, stats, label, area, centroid_x, centroid_y;
  GQuark mean_intensity;
} quarks;

static void
intern_quarks (void)
{
  static gsize done = 0;

  if (g_once_init_enter (&done)) {
    quarks.stats = g_quark_from_static_string ("region-stats");
    quarks.label = g_quark_from_static_string ("label");
    quarks.area = g_quark_from_static_string ("area");
    quarks.centroid_x = g_quark_from_static_string ("centroid-x");
    quarks.centroid_y = g_quark_from_static_string ("centroid-y");
    quarks.mean_intensity = g_quark_from_static_string ("mean-intensity");
    quarks.region_type = g_quark_from_static_string ("cudalabel-region");
    g_once_init_leave (&done, 1);
  }
}

GQuark
gst_cuda_imgproc_region_type (void)
{
  intern_quarks ();
  return quarks.region_type;
}

void
gst_cuda_imgproc_regions_add_roi_metas (GstBuffer * buffer,
    const CipRegion * regions, guint n)
{
  guint i;

  intern_quarks ();
  for (i = 0; i < n; i++) {
    const CipRegion *region = &regions[i];
    GstVideoRegionOfInterestMeta *roi;
    gdouble area = region->area;
    GstStructure *s;

    roi = gst_buffer_add_video_region_of_interest_meta_id (buffer,
        quarks.region_type, region->left, region->top, region->width,
        region->height);
    roi->id = (gint) region->label;
    s = gst_structure_new_id (quarks.stats,
        quarks.label, G_TYPE_UINT, region->label,
        quarks.area, G_TYPE_UINT, region->area,
        quarks.centroid_x, G_TYPE_DOUBLE, region->sum_x / area,
        quarks.centroid_y, G_TYPE_DOUBLE, region->sum_y / area,
        quarks.mean_intensity, G_TYPE_DOUBLE, region->sum_intensity / area,
        NULL);
    gst_video_region_of_interest_meta_add_param (roi, s);
  }
}

void
gst_cuda_imgproc_regions_meta_register (void)
{
  /* Boxes and centroids are in the frame's coordinates.  Without a
   * transform function a custom meta is copied with its buffer, and
   * dropped by any other transform. */
  static const gchar *tags[] = { GST_META_TAG_VIDEO_STR,
    GST_META_TAG_VIDEO_ORIENTATION_STR, GST_META_TAG_VIDEO_SIZE_STR, NULL
  };

  gst_meta_register_custom (GST_CUDA_IMGPROC_REGIONS_META_NAME, tags, NULL,
      NULL, NULL);
}

static gboolean
copy_field (GQuark field, const GValue * value, gpointer table)
{
  gst_structure_id_set_value (table, field, value);
  return TRUE;
}

void
gst_buffer_add_cuda_imgproc_regions_meta (GstBuffer * buffer,
    const GstStructure * columns)
{
  GstCustomMeta *meta = gst_buffer_add_custom_meta (buffer,
      GST_CUDA_IMGPROC_REGIONS_META_NAME);

  g_return_if_fail (meta != NULL);
  gst_structure_foreach (columns, copy_field,
      gst_custom_meta_get_structure (meta));
}
