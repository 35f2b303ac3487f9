/* gst-cuda-imgproc
 * Copyright (C) 2026 The gst-cuda-imgproc authors
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2 of the License, or (at your option) any later version.
 */

#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <cuda_runtime_api.h>

#include "gpu-host.h"
#include "test-util.h"

#define FRAME_DURATION (GST_SECOND / 30)

const GhChain gh_chains[] = {
  {"cudagray", GST_VIDEO_FORMAT_RGBA, "cudagray backend=%s"},
  {"cudamask", GST_VIDEO_FORMAT_GRAY8, "cudamask backend=%s threshold=100"},
  {"cudaequalize", GST_VIDEO_FORMAT_GRAY8, "cudaequalize backend=%s"},
  {"cudaotsu", GST_VIDEO_FORMAT_GRAY8, "cudaotsu backend=%s"},
  {"cudablur", GST_VIDEO_FORMAT_RGBA, "cudablur backend=%s sigma=2.5"},
  {"cudamorph", GST_VIDEO_FORMAT_RGBA,
      "cudamorph backend=%s operation=open shape=disk radius=3"},
  {"cudalabel", GST_VIDEO_FORMAT_GRAY8, "cudalabel backend=%s mode=labels"},
  /* Chains: device frames between the elements. */
  {"gray-equalize-otsu-mask", GST_VIDEO_FORMAT_RGBA,
      "cudagray backend=%s ! cudaequalize backend=%s ! cudaotsu backend=%s "
        "! cudamask backend=%s"},
  {"blur-gray-otsu-label", GST_VIDEO_FORMAT_RGBA,
      "cudablur backend=%s sigma=1.5 ! cudagray backend=%s ! "
        "cudaotsu backend=%s ! cudalabel backend=%s mode=color"},
  {"otsu-morph-label", GST_VIDEO_FORMAT_GRAY8,
      "cudaotsu backend=%s ! cudamorph backend=%s operation=close "
        "shape=square radius=2 ! cudalabel backend=%s mode=labels "
        "connectivity=4"},
  {"morph-blur", GST_VIDEO_FORMAT_RGBA,
      "cudamorph backend=%s operation=erode shape=cross radius=5 ! "
        "cudablur backend=%s sigma=4"},
};

const guint gh_n_single_chains = 7;
const guint gh_n_chains = G_N_ELEMENTS (gh_chains);

/* Input frames per format, made once. */
static GstBuffer *gray_frames[GH_N_FRAMES];
static GstBuffer *rgba_frames[GH_N_FRAMES];
static GstVideoInfo gray_info, rgba_info;

static GHashTable *references;
static GMutex references_lock;

/* Frame @index of @image, a frame of @info: its rows rotated, so that
 * every frame differs.  Padding bytes get a value no operation should
 * depend on. */
static GstBuffer *
rotated_frame (const CipImage * image, const GstVideoInfo * info, guint index)
{
  GstBuffer *buffer = gst_buffer_new_allocate (NULL,
      GST_VIDEO_INFO_SIZE (info), NULL);
  int shift = (index * 37) % image->height, y;
  size_t row_bytes = (size_t) image->width *
      cip_format_bytes_per_pixel (image->format);
  GstVideoFrame frame;

  gst_buffer_memset (buffer, 0, 0xa5, GST_VIDEO_INFO_SIZE (info));
  if (!gst_video_frame_map (&frame, info, buffer, GST_MAP_WRITE))
    g_error ("cannot map a new %s frame", GST_VIDEO_INFO_NAME (info));
  for (y = 0; y < image->height; y++)
    memcpy ((guint8 *) GST_VIDEO_FRAME_PLANE_DATA (&frame, 0) +
        (gsize) y * GST_VIDEO_FRAME_PLANE_STRIDE (&frame, 0),
        (const guint8 *) image->data +
        (size_t) ((y + shift) % image->height) * image->stride, row_bytes);
  gst_video_frame_unmap (&frame);
  return buffer;
}

static void
make_frames (void)
{
  CipImage gray = cip_test_image_load ("coins.pgm");
  CipImage rgb = cip_test_image_load ("chelsea.ppm");
  CipImage rgba = cip_test_image_repack (&rgb, CIP_FORMAT_RGBA, 255, 0);
  guint i;

  gst_video_info_set_format (&gray_info, GST_VIDEO_FORMAT_GRAY8, gray.width,
      gray.height);
  gst_video_info_set_format (&rgba_info, GST_VIDEO_FORMAT_RGBA, rgba.width,
      rgba.height);
  GST_VIDEO_INFO_FPS_N (&gray_info) = GST_VIDEO_INFO_FPS_N (&rgba_info) = 30;
  GST_VIDEO_INFO_FPS_D (&gray_info) = GST_VIDEO_INFO_FPS_D (&rgba_info) = 1;
  for (i = 0; i < GH_N_FRAMES; i++) {
    gray_frames[i] = rotated_frame (&gray, &gray_info, i);
    rgba_frames[i] = rotated_frame (&rgba, &rgba_info, i);
  }
  cip_test_image_free (&gray);
  cip_test_image_free (&rgb);
  cip_test_image_free (&rgba);
}

const gchar *
gh_backend (void)
{
  return g_strcmp0 (g_getenv ("CIP_GPU_HOST_BACKEND"), "cpu") == 0 ?
      "cpu" : "cuda";
}

gboolean
gh_init (int *argc, char ***argv, const GOptionEntry * entries,
    const gchar * summary)
{
  GOptionContext *options = g_option_context_new (summary);
  GError *error = NULL;

  g_option_context_add_main_entries (options, entries, NULL);
  g_option_context_add_group (options, gst_init_get_option_group ());
  if (!g_option_context_parse (options, argc, argv, &error))
    g_error ("%s", error->message);
  g_option_context_free (options);
  if (g_strcmp0 (gh_backend (), "cuda") == 0 && !cip_test_have_cuda_device ()) {
    g_print ("no usable CUDA device: skipped\n");
    return FALSE;
  }
  make_frames ();
  references = g_hash_table_new_full (g_str_hash, g_str_equal, NULL,
      (GDestroyNotify) g_array_unref);
  return TRUE;
}

gint64
gh_device_memory_used (void)
{
  size_t free_bytes = 0, total_bytes = 0;

  if (g_strcmp0 (gh_backend (), "cpu") == 0)
    return 0;
  if (cudaMemGetInfo (&free_bytes, &total_bytes) != cudaSuccess)
    g_error ("cudaMemGetInfo failed");
  return (gint64) (total_bytes - free_bytes);
}

gint64
gh_host_memory_used (void)
{
  gchar *statm = NULL;
  long long pages = 0, resident = 0;

  if (g_file_get_contents ("/proc/self/statm", &statm, NULL, NULL))
    sscanf (statm, "%lld %lld", &pages, &resident);
  g_free (statm);
  return resident * sysconf (_SC_PAGESIZE);
}

gdouble
gh_mib (gint64 bytes)
{
  return bytes / (1024.0 * 1024.0);
}

/* FNV-1a over the visible bytes of every plane. */
static guint64
frame_hash (GstVideoFrame * frame)
{
  guint64 hash = G_GUINT64_CONSTANT (14695981039346656037);
  guint plane, comp, y, x;

  for (plane = 0; plane < GST_VIDEO_FRAME_N_PLANES (frame); plane++) {
    guint rows = 0, row_bytes = 0;

    for (comp = 0; comp < GST_VIDEO_FRAME_N_COMPONENTS (frame); comp++)
      if (GST_VIDEO_FORMAT_INFO_PLANE (frame->info.finfo, comp) == plane) {
        rows = GST_VIDEO_FRAME_COMP_HEIGHT (frame, comp);
        row_bytes = GST_VIDEO_FRAME_COMP_WIDTH (frame, comp) *
            GST_VIDEO_FRAME_COMP_PSTRIDE (frame, comp);
        break;
      }
    for (y = 0; y < rows; y++) {
      const guint8 *row = (const guint8 *) GST_VIDEO_FRAME_PLANE_DATA (frame,
          plane) + (gsize) y * GST_VIDEO_FRAME_PLANE_STRIDE (frame, plane);

      for (x = 0; x < row_bytes; x++)
        hash = (hash ^ row[x]) * G_GUINT64_CONSTANT (1099511628211);
    }
  }
  return hash;
}

static GstFlowReturn
on_new_sample (GstAppSink * sink, gpointer user_data)
{
  GhRun *run = user_data;
  GstSample *sample = gst_app_sink_pull_sample (sink);
  GstBuffer *buffer;
  GstVideoInfo info;
  GstVideoFrame frame;
  guint64 hash, index;

  if (sample == NULL)
    return GST_FLOW_EOS;
  buffer = gst_sample_get_buffer (sample);
  if (!gst_video_info_from_caps (&info, gst_sample_get_caps (sample)) ||
      !gst_video_frame_map (&frame, &info, buffer, GST_MAP_READ)) {
    __atomic_fetch_add (&run->mismatches, 1, __ATOMIC_RELAXED);
    gst_sample_unref (sample);
    return GST_FLOW_OK;
  }
  hash = frame_hash (&frame);
  gst_video_frame_unmap (&frame);

  /* Timestamps pass through the chain: they say which input it was. */
  index = (GST_BUFFER_PTS (buffer) + FRAME_DURATION / 2) / FRAME_DURATION;
  if (run->recorded)
    g_array_append_val (run->recorded, hash);
  else if (run->expected &&
      hash != g_array_index (run->expected, guint64, index % GH_N_FRAMES))
    __atomic_fetch_add (&run->mismatches, 1, __ATOMIC_RELAXED);
  __atomic_fetch_add (&run->received, 1, __ATOMIC_RELAXED);
  gst_sample_unref (sample);
  return GST_FLOW_OK;
}

GhRun *
gh_run_new (const GhChain * chain, const gchar * backend, guint n_frames,
    GArray * expected)
{
  GhRun *run = g_new0 (GhRun, 1);
  gchar **parts = g_strsplit (chain->chain, "%s", -1);
  gchar *elements = g_strjoinv (backend, parts);
  gchar *launch;
  GError *error = NULL;
  GstVideoInfo *info = chain->format == GST_VIDEO_FORMAT_GRAY8 ?
      &gray_info : &rgba_info;
  GstCaps *caps = gst_video_info_to_caps (info);
  GstElement *sink;
  GstAppSinkCallbacks callbacks = { NULL, };

  run->chain = chain;
  run->backend = backend;
  run->n_frames = n_frames;
  run->expected = expected;
  launch = g_strdup_printf ("appsrc name=src format=time block=true "
      "max-bytes=%" G_GSIZE_FORMAT " ! %s ! video/x-raw ! "
      "appsink name=sink sync=false", 4 * GST_VIDEO_INFO_SIZE (info), elements);
  run->pipeline = gst_parse_launch (launch, &error);
  if (run->pipeline == NULL || error)
    g_error ("%s: %s", launch, error ? error->message : "no pipeline");
  run->src = gst_bin_get_by_name (GST_BIN (run->pipeline), "src");
  gst_app_src_set_caps (GST_APP_SRC (run->src), caps);
  sink = gst_bin_get_by_name (GST_BIN (run->pipeline), "sink");
  callbacks.new_sample = on_new_sample;
  gst_app_sink_set_callbacks (GST_APP_SINK (sink), &callbacks, run, NULL);
  gst_object_unref (sink);

  gst_caps_unref (caps);
  g_free (launch);
  g_free (elements);
  g_strfreev (parts);
  return run;
}

void
gh_run_reset (GhRun * run)
{
  run->stop = 0;
  run->pushed = run->received = run->mismatches = 0;
  run->eos = FALSE;
  g_clear_error (&run->error);
  g_clear_pointer (&run->error_debug, g_free);
  g_clear_pointer (&run->error_source, g_free);
  run->n_errors = run->n_warnings = 0;
  if (run->recorded)
    g_array_set_size (run->recorded, 0);
}

static gpointer
feed (gpointer user_data)
{
  GhRun *run = user_data;
  GstBuffer **frames = run->chain->format == GST_VIDEO_FORMAT_GRAY8 ?
      gray_frames : rgba_frames;
  guint64 i;

  for (i = 0; run->n_frames == 0 || i < run->n_frames; i++) {
    /* A new buffer around the same (read-only) memory. */
    GstBuffer *buffer = gst_buffer_copy (frames[i % GH_N_FRAMES]);

    if (g_atomic_int_get (&run->stop)) {
      gst_buffer_unref (buffer);
      break;
    }
    GST_BUFFER_PTS (buffer) = i * FRAME_DURATION;
    GST_BUFFER_DURATION (buffer) = FRAME_DURATION;
    if (gst_app_src_push_buffer (GST_APP_SRC (run->src), buffer) != GST_FLOW_OK)
      return NULL;
    __atomic_fetch_add (&run->pushed, 1, __ATOMIC_RELAXED);
  }
  gst_app_src_end_of_stream (GST_APP_SRC (run->src));
  return NULL;
}

gboolean
gh_run_start (GhRun * run)
{
  if (gst_element_set_state (run->pipeline, GST_STATE_PLAYING) ==
      GST_STATE_CHANGE_FAILURE) {
    /* The element posted why. */
    gh_run_poll (run, 0);
    return FALSE;
  }
  run->feeder = g_thread_new ("feeder", feed, run);
  return TRUE;
}

void
gh_run_poll (GhRun * run, GstClockTime timeout)
{
  GstBus *bus = gst_element_get_bus (run->pipeline);
  GstMessage *msg;

  while ((msg = gst_bus_timed_pop_filtered (bus, timeout, GST_MESSAGE_EOS |
              GST_MESSAGE_ERROR | GST_MESSAGE_WARNING))) {
    timeout = 0;
    switch (GST_MESSAGE_TYPE (msg)) {
      case GST_MESSAGE_EOS:
        run->eos = TRUE;
        break;
      case GST_MESSAGE_ERROR:
        if (run->n_errors++ == 0) {
          gst_message_parse_error (msg, &run->error, &run->error_debug);
          run->error_source = gst_object_get_path_string (msg->src);
        }
        break;
      case GST_MESSAGE_WARNING:{
        GError *warning = NULL;
        gchar *debug = NULL;

        gst_message_parse_warning (msg, &warning, &debug);
        g_printerr ("warning from %s: %s (%s)\n", GST_OBJECT_NAME (msg->src),
            warning->message, debug ? debug : "");
        g_clear_error (&warning);
        g_free (debug);
        run->n_warnings++;
        break;
      }
      default:
        break;
    }
    gst_message_unref (msg);
  }
  gst_object_unref (bus);
}

gboolean
gh_run_done (GhRun * run)
{
  return run->eos || run->n_errors > 0;
}

gboolean
gh_runs_wait (GhRun ** runs, guint n_runs, GstClockTime timeout)
{
  gint64 deadline = g_get_monotonic_time () + timeout / GST_USECOND;

  for (;;) {
    gboolean all_done = TRUE;
    guint i;

    for (i = 0; i < n_runs; i++) {
      if (!gh_run_done (runs[i]))
        gh_run_poll (runs[i], 0);
      all_done &= gh_run_done (runs[i]);
    }
    if (all_done)
      return TRUE;
    if (g_get_monotonic_time () > deadline)
      return FALSE;
    g_usleep (2000);
  }
}

void
gh_run_finish (GhRun * run)
{
  g_atomic_int_set (&run->stop, 1);
}

void
gh_run_stop (GhRun * run)
{
  g_atomic_int_set (&run->stop, 1);
  /* Unblocks a feeder waiting for room in appsrc. */
  gst_element_set_state (run->pipeline, GST_STATE_NULL);
  if (run->feeder)
    g_thread_join (run->feeder);
  run->feeder = NULL;
}

void
gh_run_free (GhRun * run)
{
  gh_run_stop (run);
  gst_object_unref (run->src);
  gst_object_unref (run->pipeline);
  gh_run_reset (run);
  if (run->recorded)
    g_array_unref (run->recorded);
  g_free (run);
}

void
gh_run_allocations (GhRun * run, guint64 * allocations, guint64 * frees)
{
  GstIterator *it = gst_bin_iterate_elements (GST_BIN (run->pipeline));
  GValue item = G_VALUE_INIT;

  *allocations = *frees = 0;
  while (gst_iterator_next (it, &item) == GST_ITERATOR_OK) {
    GstElement *element = g_value_get_object (&item);
    GstStructure *stats = NULL;
    guint64 value;

    if (g_object_class_find_property (G_OBJECT_GET_CLASS (element), "stats"))
      g_object_get (element, "stats", &stats, NULL);
    if (stats) {
      if (gst_structure_get_uint64 (stats, "device-allocations", &value))
        *allocations += value;
      if (gst_structure_get_uint64 (stats, "device-frees", &value))
        *frees += value;
      gst_structure_free (stats);
    }
    g_value_reset (&item);
  }
  g_value_unset (&item);
  gst_iterator_free (it);
}

gboolean
gh_run_clean (GhRun * run)
{
  return run->eos && run->n_errors == 0 && run->n_warnings == 0 &&
      run->mismatches == 0 && run->pushed == run->received &&
      (run->n_frames == 0 || run->received == run->n_frames);
}

GArray *
gh_reference (const GhChain * chain)
{
  GArray *hashes;
  GhRun *run;

  g_mutex_lock (&references_lock);
  hashes = g_hash_table_lookup (references, chain->name);
  if (hashes) {
    g_mutex_unlock (&references_lock);
    return hashes;
  }

  run = gh_run_new (chain, "cpu", GH_N_FRAMES, NULL);
  run->recorded = g_array_new (FALSE, FALSE, sizeof (guint64));
  if (!gh_run_start (run) || !gh_runs_wait (&run, 1, 60 * GST_SECOND) ||
      !run->eos || run->recorded->len != GH_N_FRAMES)
    g_error ("the cpu backend's run of %s failed: %s", chain->name,
        run->error ? run->error->message : "no EOS");
  hashes = g_array_ref (run->recorded);
  gh_run_free (run);
  g_hash_table_insert (references, (gpointer) chain->name, hashes);
  g_mutex_unlock (&references_lock);
  return hashes;
}
