/* gst-cuda-imgproc
 * Copyright (C) 2026 The gst-cuda-imgproc authors
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2 of the License, or (at your option) any later version.
 */

/**
 * SECTION:element-cudalabel
 * @title: cudalabel
 *
 * Labels the connected regions of a mask's non-zero pixels on the GPU and
 * measures each: area, bounding box, centroid and mean intensity.  Regions
 * are numbered 1..N in raster order of their first pixel, as OpenCV's
 * `connectedComponents` (`CCL_WU`) and scikit-image's `label` number them;
 * regions smaller than `min-area` are dropped.
 *
 * The output (`mode`) is a colour image of the labels (each label its own
 * colour, as scikit-image's `label2rgb` paints it, background black), the
 * label ids as GRAY16_LE, or the mask itself.
 *
 * Every output frame carries its region table as a #GstCustomMeta named
 * `CudaImgprocRegions` (gst_buffer_get_custom_meta (), from Python too):
 * its structure has one field a column of scikit-image's
 * `regionprops_table` (`label`, `area`, `bbox-0` ... `bbox-3`,
 * `centroid-0`, `centroid-1`, `intensity_mean` by default; see
 * `properties`), each a #GBytes of little-endian float64, one value a
 * region in label order: the fields of the message's `regionprops`.
 * With `post-messages=true` the same table is posted as the
 * `regionprops` field of a `cudalabel` element message,
 * with `timestamp`, `duration`, `stream-time` and `running-time` (in a
 * TIME segment), `n-regions` and `n-dropped`.
 *
 * With `track=true` the table has one more column, `track_id`: a region
 * keeps the id of the region of the previous frame that it overlaps most
 * when that region overlaps it most too, and takes a new one otherwise
 * (docs/regionprops.md, "Tracks"); ids start at 1 and start again after a
 * flush or a discontinuity.
 *
 * The first `max-region-metas` regions also get a meta of their own: a
 * GstAnalyticsODMtd in a GstAnalyticsRelationMeta (GStreamer 1.24+,
 * `analytics-meta`), which `objectdetectionoverlay` draws (and from 1.26,
 * with `mode=labels`, the label image as its segmentation), or a
 * #GstVideoRegionOfInterestMeta (`roi-meta`, the default before 1.24):
 * roi type `cudalabel-region`, id the label, the bounding box as its
 * rectangle, with a `region-stats` parameter structure (`label`, `area`,
 * `centroid-x`, `centroid-y`, `mean-intensity`).  With `track=true` each
 * analytics object also gets a GstAnalyticsTrackingMtd of its track id,
 * which its GstAnalyticsODMtd relates to.
 *
 * The intensities (`intensity_mean`, `intensity_min`, `intensity_max`)
 * are those of the gray frame a mask was made from: `cudaotsu` and
 * `cudamask` attach their gray input to each mask
 * (#GstCudaImgprocIntensityMeta), GRAY8 or, from a 16-bit camera,
 * GRAY16_LE with its 16 bits, `cudamorph` and other elements pass it on,
 * and `cudalabel` measures it per region, as scikit-image's
 * `regionprops_table (labels, intensity_image=...)` does with the uint8
 * or uint16 frame.  Without one it measures the mask's own values.  Labelling and statistics stay on the
 * GPU; only the table comes back, once per frame.
 *
 * ## Example launch line
 * |[
 * gst-launch-1.0 filesrc location=coins.png ! pngdec ! videoconvert ! cudagray ! cudablur sigma=2 ! cudaotsu ! cudamorph operation=erode shape=disk radius=2 ! cudalabel post-messages=true ! videoconvert ! pngenc ! filesink location=labels.png
 * ]|
 *
 * Since: 0.1
 */

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <string.h>

#include "gstcudalabel.h"
#include "gstcudaimgprocframe.h"
#include "gstcudaimgproccompat.h"
#include "gstcudaimgprocregions.h"
#include "cip-label.h"
#include "cip-ref.h"

GST_DEBUG_CATEGORY_STATIC (gst_cuda_label_debug);
#define GST_CAT_DEFAULT gst_cuda_label_debug

enum
{
  PROP_0,
  PROP_MODE,
  PROP_CONNECTIVITY,
  PROP_MIN_AREA,
  PROP_POST_MESSAGES,
  PROP_N_REGIONS,
  PROP_PROPERTIES,
  PROP_MAX_REGIONS,
  PROP_ROI_META,
  PROP_ANALYTICS_META,
  PROP_MAX_REGION_METAS,
  PROP_TRACK,
};

#define DEFAULT_MODE GST_CUDA_LABEL_MODE_COLOR
#define DEFAULT_CONNECTIVITY GST_CUDA_LABEL_CONNECTIVITY_8
#define DEFAULT_MIN_AREA 0
#define DEFAULT_POST_MESSAGES FALSE
#define DEFAULT_MAX_REGIONS 100000
/* Regions as GstAnalyticsODMtd where GStreamer has them (1.24+), else as
 * GstVideoRegionOfInterestMeta. */
#define DEFAULT_ANALYTICS_META (gst_cuda_imgproc_have_analytics_meta ())
#define DEFAULT_ROI_META (!DEFAULT_ANALYTICS_META)
#define DEFAULT_MAX_REGION_METAS 256
#define DEFAULT_TRACK FALSE
/* The analytics meta keeps a matrix of its entries' relations, the square
 * of their number (16 MB at 4096), which GStreamer allocates or aborts:
 * past this, regions get no analytics entry of their own. */
#define MAX_ANALYTICS_REGIONS 4096
/* With tracks each region has two entries, its detection and its track. */
#define MAX_ANALYTICS_TRACKED_REGIONS (MAX_ANALYTICS_REGIONS / 2)

/* The track_id column's name. */
#define TRACK_ID_COLUMN "track_id"

static const gchar *const input_formats[] = { "GRAY8", NULL };

/* The output formats of each mode; the source template gives any of
 * them. */
static const gchar *const color_formats[] = { "RGBA", NULL };
static const gchar *const labels_formats[] = { "GRAY16_LE", NULL };
static const gchar *const passthrough_formats[] = { "GRAY8", NULL };

static const gchar *const *const mode_formats[] = {
  [GST_CUDA_LABEL_MODE_COLOR] = color_formats,
  [GST_CUDA_LABEL_MODE_LABELS] = labels_formats,
  [GST_CUDA_LABEL_MODE_PASSTHROUGH] = passthrough_formats,
  NULL
};

/* A frame in flight: what it was labelled from, with what settings, and
 * its region table (page-locked on the cuda backend; grown, and the frame
 * labelled again, when a frame has more regions than it ever held). */
typedef struct
{
  GstCudaImgprocRegionTable table;
  CipImage mask;
  CipImage intensity;
  gboolean with_intensity;
  CipLabelParams params;
  GstCudaImgprocRegionProps props;
  GstCudaImgprocRegionLimits limits;
  /* track=true: the frame's label image, its regions' track ids and its
   * tracking state, in one buffer where the backend computes (kept from
   * frame to frame: the next frame reads them) */
  gboolean tracked;
  gboolean track_restart;       /* its ids started again from 1 */
  CipTrackFrame track;
  gint track_width, track_height;
  guint32 *track_buffer;
  gsize track_buffer_words;
  /* the rows of the table's column when the ids were written into it */
  guint32 track_column_capacity;
} GstCudaLabelFrame;

/* When the tracks of a frame were first seen, by id: open addressing, at
 * most half full (track ids start at 1: id 0 is a free slot). */
typedef struct
{
  GstCudaImgprocTrack *slots;
  guint size;                   /* a power of two, or 0 */
  guint n;
  /* the largest id held: ids are given in increasing order, so a larger
   * one is a track that starts on a later frame */
  guint64 max_id;
} GstCudaLabelTrackTimes;

struct _GstCudaLabel
{
  GstCudaImgprocFilter parent;

  /* Properties, under the object lock. */
  GstCudaLabelMode mode;
  GstCudaLabelConnectivity connectivity;
  guint min_area;
  gboolean post_messages;
  guint n_regions;
  GstCudaImgprocRegionProps props;
  guint max_regions;
  gboolean roi_meta;
  gboolean analytics_meta;
  guint max_region_metas;
  gboolean track;
  /* A name of `properties` refused before start: start posts the error. */
  gchar *refused_props;

  /* Streaming thread: the last frame tracked (its state in the queue),
   * NULL when the next frame starts the ids again; and the tracks of the
   * regions with an analytics entry, of this frame (by region) and of
   * the last and this one by id, for when each was first seen. */
  GstCudaLabelFrame *track_prev;
  GArray *tracks;
  GstCudaLabelTrackTimes track_times[2];
  GstCudaLabelTrackTimes *tracks_seen;

  gboolean warned_saturated;
  gboolean warned_dropped;
  gboolean warned_analytics;
};

GType
gst_cuda_label_mode_get_type (void)
{
  static GType type = 0;
  static const GEnumValue values[] = {
    {GST_CUDA_LABEL_MODE_COLOR,
        "RGBA: a colour per label, background black", "color"},
    {GST_CUDA_LABEL_MODE_LABELS, "GRAY16_LE label ids, background 0",
        "labels"},
    {GST_CUDA_LABEL_MODE_PASSTHROUGH, "The input mask, unchanged",
        "passthrough"},
    {0, NULL, NULL},
  };

  if (g_once_init_enter (&type)) {
    GType t = g_enum_register_static ("GstCudaLabelMode", values);
    g_once_init_leave (&type, t);
  }
  return type;
}

GType
gst_cuda_label_connectivity_get_type (void)
{
  static GType type = 0;
  static const GEnumValue values[] = {
    {GST_CUDA_LABEL_CONNECTIVITY_4, "Pixels touching by an edge", "4"},
    {GST_CUDA_LABEL_CONNECTIVITY_8,
        "Pixels touching by an edge or a corner", "8"},
    {0, NULL, NULL},
  };

  if (g_once_init_enter (&type)) {
    GType t = g_enum_register_static ("GstCudaLabelConnectivity", values);
    g_once_init_leave (&type, t);
  }
  return type;
}

G_DEFINE_TYPE_WITH_CODE (GstCudaLabel, gst_cuda_label,
    GST_TYPE_CUDA_IMGPROC_FILTER,
    GST_DEBUG_CATEGORY_INIT (gst_cuda_label_debug, "cudalabel", 0,
        "cudalabel element"));
GST_ELEMENT_REGISTER_DEFINE (cudalabel, "cudalabel", GST_RANK_NONE,
    GST_TYPE_CUDA_LABEL);

static void gst_cuda_label_set_property (GObject * object, guint prop_id,
    const GValue * value, GParamSpec * pspec);
static void gst_cuda_label_finalize (GObject * object);
static void gst_cuda_label_get_property (GObject * object, guint prop_id,
    GValue * value, GParamSpec * pspec);
static const gchar *const *gst_cuda_label_get_output_formats
    (GstCudaImgprocFilter * filter);
static gboolean gst_cuda_label_start (GstBaseTransform * trans);
static void post_refused_props (GstCudaLabel * self, const gchar * name,
    gboolean running);
static CipStatus gst_cuda_label_process (GstCudaImgprocFilter * filter,
    GstCudaImgprocFrame * frame);
static CipStatus gst_cuda_label_frame_done (GstCudaImgprocFilter * filter,
    GstCudaImgprocFrame * frame, GstBuffer * outbuf);
static void gst_cuda_label_clear_frame_state (GstCudaImgprocFilter * filter,
    GstCudaImgprocFrame * frame);

static void
gst_cuda_label_class_init (GstCudaLabelClass * klass)
{
  GObjectClass *gobject_class = G_OBJECT_CLASS (klass);
  GstElementClass *element_class = GST_ELEMENT_CLASS (klass);
  GstCudaImgprocFilterClass *filter_class =
      GST_CUDA_IMGPROC_FILTER_CLASS (klass);

  gobject_class->set_property = gst_cuda_label_set_property;
  gobject_class->get_property = gst_cuda_label_get_property;
  gobject_class->finalize = gst_cuda_label_finalize;

  gst_cuda_imgproc_regions_meta_register ();

  /**
   * GstCudaLabel:mode:
   *
   * What the source pad gives: a colour image of the labels (RGBA), the
   * label ids (GRAY16_LE; ids above 65535 are written as 65535 and a
   * warning is posted), or the mask itself (GRAY8).
   *
   * Since: 0.1
   */
  g_object_class_install_property (gobject_class, PROP_MODE,
      g_param_spec_enum ("mode", "Output mode",
          "Output a colour image of the labels (RGBA), the label ids "
          "(GRAY16_LE) or the input mask (GRAY8)",
          GST_TYPE_CUDA_LABEL_MODE, DEFAULT_MODE,
          G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS |
          GST_PARAM_MUTABLE_READY));

  /**
   * GstCudaLabel:connectivity:
   *
   * Whether pixels touching only by a corner belong to the same region.
   *
   * Since: 0.1
   */
  g_object_class_install_property (gobject_class, PROP_CONNECTIVITY,
      g_param_spec_enum ("connectivity", "Connectivity",
          "4: pixels touching by an edge are connected; 8: by an edge or a "
          "corner", GST_TYPE_CUDA_LABEL_CONNECTIVITY, DEFAULT_CONNECTIVITY,
          G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS |
          GST_PARAM_MUTABLE_PLAYING));

  /**
   * GstCudaLabel:min-area:
   *
   * Regions of fewer pixels become background; the others are numbered
   * 1..N in the same order.
   *
   * Since: 0.1
   */
  g_object_class_install_property (gobject_class, PROP_MIN_AREA,
      g_param_spec_uint ("min-area", "Minimum area",
          "Regions of fewer pixels than this become background (0 and 1 "
          "keep every region)", 0, G_MAXUINT, DEFAULT_MIN_AREA,
          G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS |
          GST_PARAM_MUTABLE_PLAYING | GST_PARAM_CONTROLLABLE));

  /**
   * GstCudaLabel:post-messages:
   *
   * Post each frame's region table as a `cudalabel` element message.
   *
   * Since: 0.1
   */
  g_object_class_install_property (gobject_class, PROP_POST_MESSAGES,
      g_param_spec_boolean ("post-messages", "Post messages",
          "Post each frame's region table, with its timestamps, as a "
          "'cudalabel' element message", DEFAULT_POST_MESSAGES,
          G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS |
          GST_PARAM_MUTABLE_PLAYING));

  /**
   * GstCudaLabel:n-regions:
   *
   * The number of regions of the last frame processed.
   *
   * Since: 0.1
   */
  g_object_class_install_property (gobject_class, PROP_N_REGIONS,
      g_param_spec_uint ("n-regions", "Regions",
          "Number of regions in the last frame processed (0 before the first)",
          0, G_MAXUINT, 0, G_PARAM_READABLE | G_PARAM_STATIC_STRINGS));

  /**
   * GstCudaLabel:properties:
   *
   * The region properties of the table, comma-separated, named as
   * scikit-image's `regionprops_table` names them: `label`, `area`,
   * `area_bbox`, `axis_major_length`, `axis_minor_length`, `bbox`,
   * `centroid`, `eccentricity`, `equivalent_diameter_area`, `extent`,
   * `intensity_max`, `intensity_mean`, `intensity_min`, `orientation`,
   * `perimeter`, `euler_number`, `area_convex`, `area_filled`,
   * `feret_diameter_max`, `solidity`.
   * A property not asked for is not computed.  An unknown name (or one
   * named twice) is refused: the element does not start, and posts a
   * `RESOURCE/SETTINGS` error that names it and lists the valid names;
   * set while running, the table keeps its columns and a warning says
   * so.
   *
   * Since: 0.2
   */
  g_object_class_install_property (gobject_class, PROP_PROPERTIES,
      g_param_spec_string ("properties", "Region properties",
          "Comma-separated scikit-image regionprops names of the table's "
          "properties: label, area, area_bbox, axis_major_length, "
          "axis_minor_length, bbox, centroid, eccentricity, "
          "equivalent_diameter_area, extent, intensity_max, intensity_mean, "
          "intensity_min, orientation, perimeter, euler_number, area_convex, "
          "area_filled, feret_diameter_max, solidity (an unknown name: an "
          "error at start)", GST_CUDA_IMGPROC_DEFAULT_REGION_PROPS,
          G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS |
          GST_PARAM_MUTABLE_PLAYING));

  /**
   * GstCudaLabel:max-regions:
   *
   * The most regions a frame's table holds: the first ones, in label
   * order (raster order of their first pixel).  Past it the table's
   * `n-dropped` says how many were left out, and a warning is posted
   * once.  The label image still holds every region.
   *
   * Since: 0.2
   */
  g_object_class_install_property (gobject_class, PROP_MAX_REGIONS,
      g_param_spec_uint ("max-regions", "Maximum regions",
          "Regions a frame's table holds at most (the first, in label "
          "order); the label image holds them all", 1, G_MAXINT32,
          DEFAULT_MAX_REGIONS,
          G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS |
          GST_PARAM_MUTABLE_PLAYING));

  /**
   * GstCudaLabel:roi-meta:
   *
   * Attach a #GstVideoRegionOfInterestMeta per region (the first
   * `max-region-metas`).  Default: on where GStreamer has no analytics
   * meta (before 1.24), off where it has.
   *
   * Since: 0.2
   */
  g_object_class_install_property (gobject_class, PROP_ROI_META,
      g_param_spec_boolean ("roi-meta", "Region of interest metas",
          "Attach a GstVideoRegionOfInterestMeta per region (default: only "
          "where GStreamer has no analytics meta)", DEFAULT_ROI_META,
          G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS |
          GST_PARAM_MUTABLE_PLAYING));

  /**
   * GstCudaLabel:analytics-meta:
   *
   * Attach one GstAnalyticsODMtd per region (the first
   * `max-region-metas`: its bounding box, type `cudalabel-region`,
   * confidence 1) in a GstAnalyticsRelationMeta, which
   * `objectdetectionoverlay` draws.  GStreamer 1.24 and later; before, it
   * reads %FALSE and setting it does nothing.
   *
   * From GStreamer 1.26, with `mode=labels`, the same relation meta also
   * holds the label image as an instance GstAnalyticsSegmentationMtd:
   * region ids 0 (background) to the largest label (at most 65535), the
   * whole frame.  Its mask is a buffer that shares the frame's memory
   * (read-only once shared): keep the frame while reading the mask.
   *
   * Since: 0.2
   */
  g_object_class_install_property (gobject_class, PROP_ANALYTICS_META,
      g_param_spec_boolean ("analytics-meta", "Analytics metas",
          "Attach a GstAnalyticsODMtd per region (GStreamer 1.24+)",
          DEFAULT_ANALYTICS_META, G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS |
          GST_PARAM_MUTABLE_PLAYING));

  /**
   * GstCudaLabel:max-region-metas:
   *
   * The most regions that get a meta of their own (`roi-meta`,
   * `analytics-meta`): the first, in label order.  A region of interest
   * meta costs about half a microsecond (a structure each), an analytics
   * entry a few tens of nanoseconds, but the analytics meta also keeps a
   * matrix of its entries' relations, whose size grows with their square
   * (1 MB at 1000, made or cleared with every frame), so it holds 4096 at
   * most, with a warning where more would have come.  The region table
   * (`max-regions`) holds them all.
   *
   * Since: 0.2
   */
  g_object_class_install_property (gobject_class, PROP_MAX_REGION_METAS,
      g_param_spec_uint ("max-region-metas", "Maximum region metas",
          "Regions that get a meta of their own at most (the first, in "
          "label order)", 0, G_MAXINT32, DEFAULT_MAX_REGION_METAS,
          G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS |
          GST_PARAM_MUTABLE_PLAYING));

  /**
   * GstCudaLabel:track:
   *
   * Follow the regions from frame to frame: the table gets a `track_id`
   * column (float64, as the others), where a region keeps the id of the
   * previous frame's region it overlaps in the most pixels when that
   * region overlaps it in the most pixels too (ties to the lower label,
   * both ways), and any other region takes a new id, one more than the
   * largest given so far.  Ids start at 1, and again after a flush, a
   * discontinuity or a caps change; turned on while playing, with the
   * next frame.  On GStreamer 1.24+ each region's GstAnalyticsODMtd
   * relates to a GstAnalyticsTrackingMtd of its id (first seen: the
   * first frame it had one).  The overlaps are counted where the labels
   * are: on the GPU as the labelling writes its label image, then one
   * small pass numbers the regions.
   *
   * Since: 0.2
   */
  g_object_class_install_property (gobject_class, PROP_TRACK,
      g_param_spec_boolean ("track", "Track regions",
          "Add a track_id column: a region keeps the id of the previous "
          "frame's region when each overlaps the other most, else takes a "
          "new id (from 1, again after a flush or a discontinuity)",
          DEFAULT_TRACK, G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS |
          GST_PARAM_MUTABLE_PLAYING));

  gst_cuda_imgproc_caps_add_pad_templates_by_mode (element_class,
      input_formats, mode_formats);
  gst_element_class_set_static_metadata (element_class,
      "CUDA connected-component labelling", "Filter/Analyzer/Video/Hardware",
      "Labels the regions of a mask and measures them, on the GPU",
      "gst-cuda-imgproc authors");

  filter_class->get_output_formats =
      GST_DEBUG_FUNCPTR (gst_cuda_label_get_output_formats);
  GST_BASE_TRANSFORM_CLASS (klass)->start =
      GST_DEBUG_FUNCPTR (gst_cuda_label_start);

  filter_class->process = GST_DEBUG_FUNCPTR (gst_cuda_label_process);
  filter_class->frame_done = GST_DEBUG_FUNCPTR (gst_cuda_label_frame_done);
  filter_class->clear_frame_state =
      GST_DEBUG_FUNCPTR (gst_cuda_label_clear_frame_state);
  filter_class->frame_state_size = sizeof (GstCudaLabelFrame);
  filter_class->attaches_results = TRUE;
  filter_class->input_formats = input_formats;
  filter_class->reads_intensity = TRUE;

  gst_type_mark_as_plugin_api (GST_TYPE_CUDA_LABEL_MODE, 0);
  gst_type_mark_as_plugin_api (GST_TYPE_CUDA_LABEL_CONNECTIVITY, 0);
}

static void
gst_cuda_label_init (GstCudaLabel * self)
{
  self->mode = DEFAULT_MODE;
  self->connectivity = DEFAULT_CONNECTIVITY;
  self->min_area = DEFAULT_MIN_AREA;
  self->post_messages = DEFAULT_POST_MESSAGES;
  self->max_regions = DEFAULT_MAX_REGIONS;
  self->roi_meta = DEFAULT_ROI_META;
  self->analytics_meta = DEFAULT_ANALYTICS_META;
  self->max_region_metas = DEFAULT_MAX_REGION_METAS;
  self->track = DEFAULT_TRACK;
  self->tracks = g_array_new (FALSE, FALSE, sizeof (GstCudaImgprocTrack));
  self->tracks_seen = &self->track_times[0];
  gst_cuda_imgproc_region_props_parse (&self->props,
      GST_CUDA_IMGPROC_DEFAULT_REGION_PROPS, NULL);
}

static void
gst_cuda_label_finalize (GObject * object)
{
  GstCudaLabel *self = GST_CUDA_LABEL (object);

  g_free (self->refused_props);
  g_array_unref (self->tracks);
  g_free (self->track_times[0].slots);
  g_free (self->track_times[1].slots);

  G_OBJECT_CLASS (gst_cuda_label_parent_class)->finalize (object);
}

static void
gst_cuda_label_set_property (GObject * object, guint prop_id,
    const GValue * value, GParamSpec * pspec)
{
  GstCudaLabel *self = GST_CUDA_LABEL (object);

  GST_OBJECT_LOCK (self);
  switch (prop_id) {
    case PROP_MODE:
      self->mode = g_value_get_enum (value);
      break;
    case PROP_CONNECTIVITY:
      self->connectivity = g_value_get_enum (value);
      break;
    case PROP_MIN_AREA:
      self->min_area = g_value_get_uint (value);
      break;
    case PROP_POST_MESSAGES:
      self->post_messages = g_value_get_boolean (value);
      break;
    case PROP_PROPERTIES:{
      gchar *unknown = NULL;

      g_clear_pointer (&self->refused_props, g_free);
      if (!gst_cuda_imgproc_region_props_parse (&self->props,
              g_value_get_string (value), &unknown))
        self->refused_props = unknown;
      break;
    }
    case PROP_MAX_REGIONS:
      self->max_regions = g_value_get_uint (value);
      break;
    case PROP_ROI_META:
      self->roi_meta = g_value_get_boolean (value);
      break;
    case PROP_ANALYTICS_META:
      self->analytics_meta = g_value_get_boolean (value) &&
          gst_cuda_imgproc_have_analytics_meta ();
      break;
    case PROP_MAX_REGION_METAS:
      self->max_region_metas = g_value_get_uint (value);
      break;
    case PROP_TRACK:
      self->track = g_value_get_boolean (value);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
      break;
  }
  GST_OBJECT_UNLOCK (self);

  /* The source pad's format follows the mode. */
  if (prop_id == PROP_MODE)
    gst_base_transform_reconfigure_src (GST_BASE_TRANSFORM (self));
  /* running, a refused name changes nothing and is said at once; before,
   * start says it */
  if (prop_id == PROP_PROPERTIES && GST_STATE (self) > GST_STATE_READY) {
    gchar *refused;

    GST_OBJECT_LOCK (self);
    refused = self->refused_props;
    self->refused_props = NULL;
    GST_OBJECT_UNLOCK (self);
    if (refused)
      post_refused_props (self, refused, TRUE);
    g_free (refused);
  }
}

static void
gst_cuda_label_get_property (GObject * object, guint prop_id, GValue * value,
    GParamSpec * pspec)
{
  GstCudaLabel *self = GST_CUDA_LABEL (object);

  GST_OBJECT_LOCK (self);
  switch (prop_id) {
    case PROP_MODE:
      g_value_set_enum (value, self->mode);
      break;
    case PROP_CONNECTIVITY:
      g_value_set_enum (value, self->connectivity);
      break;
    case PROP_MIN_AREA:
      g_value_set_uint (value, self->min_area);
      break;
    case PROP_POST_MESSAGES:
      g_value_set_boolean (value, self->post_messages);
      break;
    case PROP_N_REGIONS:
      g_value_set_uint (value, self->n_regions);
      break;
    case PROP_PROPERTIES:
      g_value_take_string (value,
          gst_cuda_imgproc_region_props_to_string (&self->props));
      break;
    case PROP_MAX_REGIONS:
      g_value_set_uint (value, self->max_regions);
      break;
    case PROP_ROI_META:
      g_value_set_boolean (value, self->roi_meta);
      break;
    case PROP_ANALYTICS_META:
      g_value_set_boolean (value, self->analytics_meta);
      break;
    case PROP_MAX_REGION_METAS:
      g_value_set_uint (value, self->max_region_metas);
      break;
    case PROP_TRACK:
      g_value_set_boolean (value, self->track);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
      break;
  }
  GST_OBJECT_UNLOCK (self);
}

static const gchar *const *
gst_cuda_label_get_output_formats (GstCudaImgprocFilter * filter)
{
  GstCudaLabel *self = GST_CUDA_LABEL (filter);
  GstCudaLabelMode mode;

  GST_OBJECT_LOCK (self);
  mode = self->mode;
  GST_OBJECT_UNLOCK (self);
  return mode_formats[mode];
}

/* A name `properties` refused: an error that names it and lists the
 * valid ones, or with @running a warning (the table keeps its columns). */
static void
post_refused_props (GstCudaLabel * self, const gchar * name, gboolean running)
{
  gchar *valid = gst_cuda_imgproc_region_props_valid_names ();

  if (running)
    GST_ELEMENT_WARNING (self, RESOURCE, SETTINGS,
        ("'%s' is not a region property, or is named twice: the table keeps "
            "its columns.  Region properties: %s.", name, valid), (NULL));
  else
    GST_ELEMENT_ERROR (self, RESOURCE, SETTINGS,
        ("'%s' is not a region property, or is named twice.  Region "
            "properties: %s.", name, valid), (NULL));
  g_free (valid);
}

/* Each run warns anew. */
static gboolean
gst_cuda_label_start (GstBaseTransform * trans)
{
  GstCudaLabel *self = GST_CUDA_LABEL (trans);
  gchar *refused;

  GST_OBJECT_LOCK (self);
  refused = g_strdup (self->refused_props);
  GST_OBJECT_UNLOCK (self);
  if (refused) {
    post_refused_props (self, refused, FALSE);
    g_free (refused);
    return FALSE;
  }
  self->warned_saturated = FALSE;
  self->warned_dropped = FALSE;
  self->warned_analytics = FALSE;
  /* the frames' states are made anew */
  self->track_prev = NULL;
  self->tracks_seen->n = 0;
  return GST_BASE_TRANSFORM_CLASS (gst_cuda_label_parent_class)->start (trans);
}

/* Room in @label's track buffer for a frame of @frame's size: the state,
 * an id per possible region, the label image.  Made once, and again only
 * for a larger frame. */
static CipStatus
track_reserve (GstCudaLabel * self, GstCudaLabelFrame * label,
    GstCudaImgprocFrame * frame)
{
  gint width = frame->src->width, height = frame->src->height;
  gsize regions = MAX (cip_label_max_regions (width, height, 4), 1);
  gsize words = CIP_TRACK_STATE_WORDS + regions + (gsize) width * height;
  CipStatus status;

  if (words > label->track_buffer_words) {
    if (label->track_buffer) {
      /* the next frame's tracking, still queued, may read it */
      if (frame->stream)
        cip_stream_synchronize (frame->stream);
      frame->ops->buffer_free (label->track_buffer, frame->stream);
      label->track_buffer = NULL;
      label->track_buffer_words = 0;
    }
    GST_DEBUG_OBJECT (self, "track buffer of %" G_GSIZE_FORMAT " words", words);
    status = frame->ops->buffer_alloc ((void **) &label->track_buffer,
        words * sizeof (guint32), frame->stream);
    if (status != CIP_OK)
      return status;
    label->track_buffer_words = words;
  }
  label->track.state = label->track_buffer;
  label->track.ids = label->track_buffer + CIP_TRACK_STATE_WORDS;
  label->track.labels = label->track.ids + regions;
  label->track.stride = width;
  label->track_width = width;
  label->track_height = height;
  return CIP_OK;
}

/* The table's track_id column: the last. */
static gdouble *
track_column (GstCudaLabelFrame * label)
{
  const CipRegionTable *table = &label->table.cip;

  return table->columns + (gsize) (label->props.n_columns - 1) *
      table->column_capacity;
}

/* The frame @label is tracked from: none after a restart. */
static GstCudaLabelFrame *
track_prev_frame (GstCudaLabel * self, GstCudaLabelFrame * label,
    GstCudaImgprocFrame * frame)
{
  GstCudaLabelFrame *prev = self->track_prev;

  if (frame->restart || prev == NULL || prev == label ||
      prev->track_width != label->track_width ||
      prev->track_height != label->track_height)
    return NULL;
  return prev;
}

/* The track ids of @label's regions from those of the frame before (none
 * after a restart), into its column too. */
static CipStatus
track_frame (GstCudaLabel * self, GstCudaLabelFrame * label,
    GstCudaImgprocFrame * frame)
{
  GstCudaLabelFrame *prev = track_prev_frame (self, label, frame);
  CipStatus status;

  label->track_restart = prev == NULL;
  label->track.column = track_column (label);
  label->track.column_capacity = label->table.cip.column_capacity;
  label->track_column_capacity = label->track.column_capacity;
  if (frame->stream)
    status = cip_track_frame (prev ? &prev->track : NULL, &label->track,
        label->table.cip.count, label->track_width, label->track_height,
        frame->stream);
  else
    status = cip_ref_track_frame (prev ? &prev->track : NULL, &label->track,
        label->table.cip.count, label->track_width, label->track_height, NULL);
  self->track_prev = status == CIP_OK ? label : NULL;
  return status;
}

static CipStatus
gst_cuda_label_process (GstCudaImgprocFilter * filter,
    GstCudaImgprocFrame * frame)
{
  GstCudaLabel *self = GST_CUDA_LABEL (filter);
  GstCudaLabelFrame *label = frame->state;
  CipImage *label_dst;
  CipStatus status = CIP_OK;

  GST_OBJECT_LOCK (self);
  label->params.connectivity = self->connectivity;
  label->params.min_area = self->min_area;
  label->params.statistics = self->props.statistics;
  label->props = self->props;
  label->limits.max_regions = self->max_regions;
  /* the regions that get a meta of their own need their statistics */
  label->limits.max_region_stats = self->roi_meta || self->analytics_meta ?
      MIN (self->max_region_metas, self->max_regions) : 0;
  label->tracked = self->track;
  GST_OBJECT_UNLOCK (self);

  /* The negotiated format decides: GRAY8 is the mask passed through. */
  label_dst = frame->dst->format == CIP_FORMAT_GRAY8 ? NULL : frame->dst;
  /* the table's columns leave with the frame, in memory that outlives us */
  label->table.allocator = frame->host_allocator;

  label->mask = *frame->src;
  label->with_intensity = frame->intensity != NULL;
  if (frame->intensity)
    label->intensity = *frame->intensity;

  /* tracks: one more column, after the properties' */
  if (label->tracked) {
    label->props.columns[label->props.n_columns++] =
        g_quark_from_static_string (TRACK_ID_COLUMN);
    status = track_reserve (self, label, frame);
  } else {
    self->track_prev = NULL;
  }

  if (status == CIP_OK) {
    GstCudaLabelFrame *prev = label->tracked ?
        track_prev_frame (self, label, frame) : NULL;

    /* the overlaps with the frame before are counted as the labels are
     * written: track_frame() then only numbers the regions */
    label->table.cip.track_prev = prev ? &prev->track : NULL;
    status = gst_cuda_imgproc_region_table_label (&label->table,
        &label->limits, &label->props, frame->src, frame->intensity,
        &label->params, label_dst, label->tracked ?
        (guint32 *) label->track.labels : NULL, frame->stream);
    label->table.cip.track_prev = NULL;
  }
  /* On the host the frames are unmapped before frame_done(), and an
   * unmapped memory may be gone (a dmabuf or memfd is unmapped from the
   * process): the table is completed while they are readable.  On the
   * device the mask outlives the map (the frame's upload or its input). */
  if (status == CIP_OK && frame->stream == NULL)
    status = gst_cuda_imgproc_region_table_complete (&label->table,
        &label->limits, &label->props, frame->src, frame->intensity,
        &label->params, NULL);
  /* on the device, queued after the labelling; the column refilled in
   * frame_done() if the table grows */
  if (status == CIP_OK && label->tracked)
    status = track_frame (self, label, frame);
  if (status == CIP_OK && label_dst == NULL)
    status = frame->ops->copy (frame->src, frame->dst, frame->stream);
  if (status != CIP_OK)
    self->track_prev = NULL;
  return status;
}

/* The slot of @id in @times, or the free slot where it goes. */
static GstCudaImgprocTrack *
track_times_slot (const GstCudaLabelTrackTimes * times, guint64 id)
{
  guint mask = times->size - 1;
  guint i = (guint) ((id * G_GUINT64_CONSTANT (0x9e3779b97f4a7c15)) >> 32);

  for (i &= mask; times->slots[i].id != id && times->slots[i].id != 0;)
    i = (i + 1) & mask;
  return &times->slots[i];
}

/* @times emptied, with room for @n tracks. */
static void
track_times_reset (GstCudaLabelTrackTimes * times, guint n)
{
  guint size = 16;

  while (size < 2 * n)
    size *= 2;
  /* grown when it would be more than half full, shrunk when far larger
   * than needed (it is cleared every frame) */
  if (size > times->size || 4 * size < times->size) {
    g_free (times->slots);
    times->slots = g_new0 (GstCudaImgprocTrack, size);
    times->size = size;
  } else {
    memset (times->slots, 0, times->size * sizeof (GstCudaImgprocTrack));
  }
  times->n = 0;
  times->max_id = 0;
}

/* The tracks of the first @n regions of @label for their analytics
 * entries: each id, first seen when the last frame's entry of that id was
 * (@pts when it had none).  self->tracks holds them in region order, and
 * self->tracks_seen by id for the next frame. */
static const GstCudaImgprocTrack *
analytics_tracks (GstCudaLabel * self, GstCudaLabelFrame * label, guint n,
    GstClockTime pts)
{
  const gdouble *column = track_column (label);
  GstCudaLabelTrackTimes *seen = self->tracks_seen;
  GstCudaLabelTrackTimes *seeing = seen == &self->track_times[0] ?
      &self->track_times[1] : &self->track_times[0];
  GstCudaImgprocTrack *tracks;
  guint i;

  if (label->track_restart)
    seen->n = 0;
  g_array_set_size (self->tracks, n);
  tracks = (GstCudaImgprocTrack *) self->tracks->data;
  track_times_reset (seeing, n);
  for (i = 0; i < n; i++) {
    GstCudaImgprocTrack *t = &tracks[i], *slot;

    t->id = (guint64) column[i];
    t->first_seen = pts;
    if (t->id == 0)
      continue;
    /* an id above any of the last frame's table is not in it */
    if (seen->n > 0 && t->id <= seen->max_id) {
      slot = track_times_slot (seen, t->id);
      if (slot->id == t->id)
        t->first_seen = slot->first_seen;
    }
    slot = track_times_slot (seeing, t->id);
    seeing->n += slot->id == 0;
    seeing->max_id = MAX (seeing->max_id, t->id);
    *slot = *t;
  }
  self->tracks_seen = seeing;
  return tracks;
}

static CipStatus
gst_cuda_label_frame_done (GstCudaImgprocFilter * filter,
    GstCudaImgprocFrame * frame, GstBuffer * outbuf)
{
  GstCudaLabel *self = GST_CUDA_LABEL (filter);
  GstCudaLabelFrame *label = frame->state;
  const CipRegionTable *table = &label->table.cip;
  guint32 count, n, dropped;
  gboolean post, labels, saturated, roi_meta, analytics_meta, segmentation;
  guint n_metas, n_analytics;
  GstStructure *columns, *s;
  CipStatus status;

  status = gst_cuda_imgproc_region_table_complete (&label->table,
      &label->limits, &label->props, &label->mask,
      label->with_intensity ? &label->intensity : NULL, &label->params,
      frame->stream);
  /* a table grown since has no ids yet: they are the frame's still */
  if (status == CIP_OK && label->tracked &&
      table->column_capacity != label->track_column_capacity) {
    status = cip_track_column (label->track.ids, table->count,
        track_column (label), table->column_capacity, frame->stream);
    if (status == CIP_OK)
      status = cip_stream_synchronize (frame->stream);
    label->track_column_capacity = table->column_capacity;
  }
  if (status != CIP_OK)
    return status;
  count = *table->count;
  /* what the table holds: each frame as it was asked for */
  n = MIN (count, label->limits.max_regions);
  n_metas = MIN (count, label->limits.max_region_stats);

  GST_OBJECT_LOCK (self);
  self->n_regions = count;
  post = self->post_messages;
  roi_meta = self->roi_meta;
  analytics_meta = self->analytics_meta;
  GST_OBJECT_UNLOCK (self);
  /* the negotiated format, not the mode: a new mode waits for new caps */
  labels = GST_VIDEO_INFO_FORMAT (gst_cuda_imgproc_filter_get_output_info
      (filter)) == GST_VIDEO_FORMAT_GRAY16_LE;
  saturated = labels && count > G_MAXUINT16;
  n_analytics = analytics_meta ? MIN (n_metas, label->tracked ?
      MAX_ANALYTICS_TRACKED_REGIONS : MAX_ANALYTICS_REGIONS) : 0;
  dropped = count - n;

  GST_LOG_OBJECT (self, "%u regions at %" GST_TIME_FORMAT, count,
      GST_TIME_ARGS (frame->pts));

  if (saturated && !self->warned_saturated)
    GST_ELEMENT_WARNING (self, STREAM, FORMAT,
        ("%u regions do not fit in 16-bit label ids: those past %u are "
            "written as %u.", count, G_MAXUINT16, G_MAXUINT16),
        ("use mode=color or a larger min-area"));
  self->warned_saturated = saturated;
  if (dropped > 0 && !self->warned_dropped)
    GST_ELEMENT_WARNING (self, STREAM, FAILED,
        ("%u regions, more than max-regions: the table holds the first %u.",
            count, n), ("raise max-regions or min-area"));
  self->warned_dropped = dropped > 0;
  if (n_analytics < n_metas && analytics_meta && !self->warned_analytics)
    GST_ELEMENT_WARNING (self, STREAM, FAILED,
        ("%u regions with a meta of their own: the analytics meta holds the "
            "first %u.", n_metas, n_analytics),
        ("its relation matrix grows with the square of its entries; the "
            "region table and roi-meta hold more"));
  self->warned_analytics = n_analytics < n_metas && analytics_meta;

  if (roi_meta)
    gst_cuda_imgproc_regions_add_roi_metas (outbuf, table->regions, n_metas);
  segmentation = analytics_meta && labels &&
      gst_cuda_imgproc_have_analytics_segmentation ();
  if (analytics_meta)
    gst_cuda_imgproc_add_analytics_regions (outbuf,
        GST_CUDA_IMGPROC_REGION_TYPE, table->regions, n_analytics,
        label->tracked ? analytics_tracks (self, label, n_analytics,
            frame->pts) : NULL, frame->pts, segmentation ? 1 : 0);
  if (segmentation && !gst_cuda_imgproc_add_analytics_segmentation (outbuf,
          gst_cuda_imgproc_filter_get_output_info (filter),
          MIN (count, G_MAXUINT16)))
    GST_WARNING_OBJECT (self, "could not add the segmentation meta");
  columns = gst_cuda_imgproc_region_table_take (&label->table, &label->props,
      n);
  if (post) {
    s = gst_cuda_imgproc_frame_message_new_at ("cudalabel", &frame->segment,
        frame->pts, frame->duration);
    gst_structure_set (s, "n-regions", G_TYPE_UINT, count,
        "n-dropped", G_TYPE_UINT, dropped,
        "regionprops", GST_TYPE_STRUCTURE, columns, NULL);
    gst_element_post_message (GST_ELEMENT (self),
        gst_message_new_element (GST_OBJECT (self), s));
  }
  gst_buffer_add_cuda_imgproc_regions_meta (outbuf, columns);
  gst_structure_free (columns);
  return CIP_OK;
}

static void
gst_cuda_label_clear_frame_state (GstCudaImgprocFilter * filter,
    GstCudaImgprocFrame * frame)
{
  GstCudaLabel *self = GST_CUDA_LABEL (filter);
  GstCudaLabelFrame *label = frame->state;

  gst_cuda_imgproc_region_table_free (&label->table, frame->stream);
  if (label->track_buffer)
    frame->ops->buffer_free (label->track_buffer, frame->stream);
  label->track_buffer = NULL;
  label->track_buffer_words = 0;
  memset (&label->track, 0, sizeof (label->track));
  if (self->track_prev == label)
    self->track_prev = NULL;
}
