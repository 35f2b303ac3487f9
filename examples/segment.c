/* gst-cuda-imgproc
 * Copyright (C) 2026 The gst-cuda-imgproc authors
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2 of the License, or (at your option) any later version.
 */

/* Segments an image or a clip as scikit-image's classic recipe does (gray,
 * Gaussian blur, Otsu threshold, erosion with a disk, labelling), prints
 * every region's statistics as CSV and writes the coloured labels as PNG.
 *
 *   segment [--backend auto|cuda|cpu] [--sigma S] [--radius R]
 *           [--min-area N] INPUT OUTPUT.png
 *
 * --backend defaults to auto, the elements' default: the GPU where a
 * usable CUDA device is there, otherwise the CPU (the same output), with
 * a note on stderr that says so.
 * INPUT is an image or a clip, a file or a URI: anything decodebin
 * decodes.  OUTPUT receives the label image; for a clip it holds the last
 * frame, unless it has a printf pattern such as labels-%05d.png, which
 * writes frame N to its own file (N counts from 0, as the CSV's frame
 * column does).
 *
 * Standard output gets one line per region and frame:
 *
 *   frame,timestamp,label,area,x,y,width,height,centroid_x,centroid_y,
 *   mean_intensity
 *
 * timestamp in seconds (empty where the frame has none), x, y, width and
 * height the bounding box, the centroid in pixels, the mean intensity that
 * of the blurred gray frame Otsu thresholded (0-255), as regionprops_table
 * measures it with that frame as intensity image.  The table is read from
 * the GstVideoRegionOfInterestMeta that cudalabel attaches to each frame,
 * in a probe on its source pad, so it comes with the very buffer it
 * describes. */

#include <stdlib.h>
#include <string.h>

#include <gst/gst.h>
#include <gst/video/video.h>

#include "example-util.h"

#define DEFAULT_SIGMA 2.0
#define DEFAULT_RADIUS 2

typedef struct
{
  guint label, area;
  guint x, y, width, height;
  gdouble centroid_x, centroid_y, mean_intensity;
} Region;

typedef struct
{
  GMainLoop *loop;
  GstElement *label;
  guint64 frame;
  gboolean failed;
  gboolean told_cpu;
} Segment;

static gint
compare_regions (gconstpointer a, gconstpointer b)
{
  const Region *ra = a, *rb = b;

  return ra->label < rb->label ? -1 : ra->label > rb->label;
}

/* Prints the region table of each frame leaving cudalabel. */
static GstPadProbeReturn
print_regions (GstPad * pad, GstPadProbeInfo * info, gpointer user_data)
{
  Segment *segment = user_data;
  GstBuffer *buffer = GST_PAD_PROBE_INFO_BUFFER (info);
  GQuark region_type = g_quark_from_static_string ("cudalabel-region");
  GArray *regions = g_array_new (FALSE, FALSE, sizeof (Region));
  GstClockTime pts = GST_BUFFER_PTS (buffer);
  gchar timestamp[32] = "";
  gpointer state = NULL;
  GstMeta *meta;
  guint i, n_regions = 0;

  while ((meta = gst_buffer_iterate_meta_filtered (buffer, &state,
              GST_VIDEO_REGION_OF_INTEREST_META_API_TYPE))) {
    GstVideoRegionOfInterestMeta *roi = (GstVideoRegionOfInterestMeta *) meta;
    GstStructure *stats;
    Region r;

    if (roi->roi_type != region_type)
      continue;
    stats = gst_video_region_of_interest_meta_get_param (roi, "region-stats");
    if (!stats || !gst_structure_get (stats,
            "label", G_TYPE_UINT, &r.label,
            "area", G_TYPE_UINT, &r.area,
            "centroid-x", G_TYPE_DOUBLE, &r.centroid_x,
            "centroid-y", G_TYPE_DOUBLE, &r.centroid_y,
            "mean-intensity", G_TYPE_DOUBLE, &r.mean_intensity, NULL)) {
      g_printerr ("error: frame %" G_GUINT64_FORMAT ": a region without "
          "region-stats\n", segment->frame);
      segment->failed = TRUE;
      continue;
    }
    r.x = roi->x;
    r.y = roi->y;
    r.width = roi->w;
    r.height = roi->h;
    g_array_append_val (regions, r);
  }
  /* In label order, whatever order the metas come in. */
  g_array_sort (regions, compare_regions);
  /* n-regions follows the frame being pushed: past max-regions the table,
   * and the metas, hold the first regions only. */
  g_object_get (segment->label, "n-regions", &n_regions, NULL);
  if (regions->len < n_regions) {
    g_printerr ("error: frame %" G_GUINT64_FORMAT ": %u regions, %u listed "
        "(more than cudalabel's max-regions)\n", segment->frame, n_regions,
        regions->len);
    segment->failed = TRUE;
  }

  if (GST_CLOCK_TIME_IS_VALID (pts))
    g_snprintf (timestamp, sizeof (timestamp), "%" G_GUINT64_FORMAT ".%09"
        G_GUINT64_FORMAT, pts / GST_SECOND, pts % GST_SECOND);
  for (i = 0; i < regions->len; i++) {
    const Region *r = &g_array_index (regions, Region, i);

    g_print ("%" G_GUINT64_FORMAT ",%s,%u,%u,%u,%u,%u,%u,%.3f,%.3f,%.3f\n",
        segment->frame, timestamp, r->label, r->area, r->x, r->y, r->width,
        r->height, r->centroid_x, r->centroid_y, r->mean_intensity);
  }
  g_array_free (regions, TRUE);
  segment->frame++;
  return GST_PAD_PROBE_OK;
}

static void
print_error (GstMessage * message)
{
  GError *error = NULL;
  gchar *debug = NULL;

  gst_message_parse_error (message, &error, &debug);
  g_printerr ("error: %s\n", error->message);
  if (debug)
    g_printerr ("(%s)\n", debug);
  g_error_free (error);
  g_free (debug);
}

/* backend=auto without a usable CUDA device: each element says, once,
 * that it runs on the CPU (RESOURCE/NOT_FOUND); told once.  Other
 * warnings as they come. */
static void
print_warning (Segment * segment, GstMessage * message)
{
  GError *error = NULL;
  gboolean on_cpu;

  gst_message_parse_warning (message, &error, NULL);
  on_cpu = g_error_matches (error, GST_RESOURCE_ERROR,
      GST_RESOURCE_ERROR_NOT_FOUND);
  if (!on_cpu)
    g_printerr ("warning: %s\n", error->message);
  else if (!segment->told_cpu)
    g_printerr ("note: %s\n", error->message);
  segment->told_cpu |= on_cpu;
  g_error_free (error);
}

static gboolean
watch_bus (GstBus * bus, GstMessage * message, gpointer user_data)
{
  Segment *segment = user_data;

  switch (GST_MESSAGE_TYPE (message)) {
    case GST_MESSAGE_ERROR:
      print_error (message);
      segment->failed = TRUE;
      g_main_loop_quit (segment->loop);
      break;
    case GST_MESSAGE_EOS:
      g_main_loop_quit (segment->loop);
      break;
    case GST_MESSAGE_WARNING:
      print_warning (segment, message);
      break;
    default:
      break;
  }
  return TRUE;
}

/* Sets @property of the element named @name to @value, which must lie in
 * the property's range: a launch line would only warn and keep the
 * default. */
static gboolean
set_in_range (GstBin * bin, const gchar * name, const gchar * property,
    const GValue * value)
{
  GstElement *element = gst_bin_get_by_name (bin, name);
  GParamSpec *pspec = g_object_class_find_property (G_OBJECT_GET_CLASS
      (element), property);
  GValue v = G_VALUE_INIT;
  gboolean valid;

  g_value_init (&v, pspec->value_type);
  valid = g_value_transform (value, &v) && !g_param_value_validate (pspec, &v);
  if (valid) {
    g_object_set_property (G_OBJECT (element), property, &v);
  } else {
    gchar *text = g_strdup_value_contents (value);

    g_printerr ("error: --%s=%s is out of range\n", property, text);
    g_free (text);
  }
  g_value_unset (&v);
  gst_object_unref (element);
  return valid;
}

int
main (int argc, char **argv)
{
  gchar *backend = NULL;
  gdouble sigma = DEFAULT_SIGMA;
  gint radius = DEFAULT_RADIUS, min_area = 0;
  GOptionEntry entries[] = {
    {"backend", 0, 0, G_OPTION_ARG_STRING, &backend,
          "auto (default: the GPU if there is one, else the CPU), cuda or cpu",
        "NAME"},
    {"sigma", 0, 0, G_OPTION_ARG_DOUBLE, &sigma,
        "Standard deviation of the Gaussian blur in pixels (default 2)", "S"},
    {"radius", 0, 0, G_OPTION_ARG_INT, &radius,
        "Radius of the disk the mask is eroded with (default 2)", "R"},
    {"min-area", 0, 0, G_OPTION_ARG_INT, &min_area,
        "Drop regions of fewer pixels (default 0: keep all)", "N"},
    {NULL}
  };
  GOptionContext *options = g_option_context_new ("INPUT OUTPUT.png");
  Segment segment = { NULL, NULL, 0, FALSE, FALSE };
  GError *error = NULL;
  GstElement *pipeline, *label;
  GstPad *pad;
  GstBus *bus;
  gchar *uri, *quoted_uri, *quoted_output, *launch;
  GValue value = G_VALUE_INIT;
  gboolean valid;
  int ret;

  g_option_context_set_summary (options, "Segments an image or a clip "
      "(gray, blur, Otsu, erosion, labels), prints the regions as CSV and "
      "writes the coloured labels as PNG.");
  g_option_context_add_main_entries (options, entries, NULL);
  g_option_context_add_group (options, gst_init_get_option_group ());
  if (!g_option_context_parse (options, &argc, &argv, &error)) {
    g_printerr ("%s\n", error->message);
    return 2;
  }
  if (argc == 3 && !example_is_file_pattern (argv[2])) {
    g_printerr ("error: %s: OUTPUT may hold one integer pattern such as "
        "%%05d, and %%%% for a %%\n", argv[2]);
    return 2;
  }
  if (min_area < 0) {
    g_printerr ("error: --min-area=%d: a number of pixels, 0 (keep every "
        "region) or more\n", min_area);
    return 2;
  }
  if (argc != 3) {
    gchar *help = g_option_context_get_help (options, TRUE, NULL);

    g_printerr ("%s", help);
    g_free (help);
    return 2;
  }
  g_option_context_free (options);

  uri = example_input_uri (argv[1], &error);
  if (!uri) {
    g_printerr ("%s: %s\n", argv[1], error->message);
    return 1;
  }
  if (!backend)
    backend = g_strdup ("auto");
  if (!g_str_equal (backend, "auto") && !g_str_equal (backend, "cuda") &&
      !g_str_equal (backend, "cpu")) {
    g_printerr ("error: --backend=%s: auto, cuda or cpu\n", backend);
    return 2;
  }

  quoted_uri = example_quote (uri);
  quoted_output = example_quote (argv[2]);
  /* Only the video is decoded and exposed: an audio track would stay
   * unlinked and stop the stream.  RGBA, so that the gray frame is made
   * from the colours whatever the source's format (as regionprops.py
   * does), not taken from a YUV source's luma.  A ROI meta for every
   * region in the table, and no analytics meta (its relation matrix
   * grows with the square of its entries). */
  launch = g_strdup_printf ("uridecodebin uri=\"%s\" "
      "caps=\"video/x-raw(ANY)\" expose-all-streams=false ! videoconvert ! "
      "video/x-raw,format=RGBA ! "
      "cudagray backend=%s ! cudablur name=blur backend=%s ! "
      "cudaotsu backend=%s ! "
      "cudamorph name=morph backend=%s operation=erode shape=disk ! "
      "cudalabel name=label backend=%s roi-meta=true analytics-meta=false "
      "max-region-metas=2147483647 ! "
      "videoconvert ! pngenc ! multifilesink location=\"%s\"",
      quoted_uri, backend, backend, backend, backend, backend, quoted_output);

  pipeline = gst_parse_launch (launch, &error);
  if (error) {
    /* e.g. the plugin is not installed (see GST_PLUGIN_PATH) */
    g_printerr ("%s: %s\n", launch, error->message);
    return 1;
  }

  g_value_init (&value, G_TYPE_DOUBLE);
  g_value_set_double (&value, sigma);
  valid = set_in_range (GST_BIN (pipeline), "blur", "sigma", &value);
  g_value_unset (&value);
  g_value_init (&value, G_TYPE_INT);
  g_value_set_int (&value, radius);
  valid &= set_in_range (GST_BIN (pipeline), "morph", "radius", &value);
  g_value_set_int (&value, min_area);
  valid &= set_in_range (GST_BIN (pipeline), "label", "min-area", &value);
  g_value_unset (&value);
  if (!valid) {
    gst_object_unref (pipeline);
    return 2;
  }

  label = gst_bin_get_by_name (GST_BIN (pipeline), "label");
  segment.label = label;
  pad = gst_element_get_static_pad (label, "src");
  gst_pad_add_probe (pad, GST_PAD_PROBE_TYPE_BUFFER, print_regions,
      &segment, NULL);
  gst_object_unref (pad);

  g_print ("frame,timestamp,label,area,x,y,width,height,centroid_x,"
      "centroid_y,mean_intensity\n");

  segment.loop = g_main_loop_new (NULL, FALSE);
  bus = gst_element_get_bus (pipeline);
  gst_bus_add_watch (bus, watch_bus, &segment);
  if (gst_element_set_state (pipeline, GST_STATE_PLAYING) ==
      GST_STATE_CHANGE_FAILURE) {
    /* The element posted why (no driver or device, say). */
    GstMessage *msg = gst_bus_pop_filtered (bus, GST_MESSAGE_ERROR);

    if (msg) {
      print_error (msg);
      gst_message_unref (msg);
    }
    segment.failed = TRUE;
  } else {
    g_main_loop_run (segment.loop);
  }
  gst_element_set_state (pipeline, GST_STATE_NULL);

  if (!segment.failed && segment.frame == 0) {
    g_printerr ("error: %s: no video frames\n", argv[1]);
    segment.failed = TRUE;
  }
  ret = segment.failed ? 1 : 0;

  gst_bus_remove_watch (bus);
  gst_object_unref (bus);
  gst_object_unref (segment.label);
  gst_object_unref (pipeline);
  g_main_loop_unref (segment.loop);
  g_free (launch);
  g_free (quoted_output);
  g_free (quoted_uri);
  g_free (uri);
  g_free (backend);
  return ret;
}
