/* gst-cuda-imgproc
 * Copyright (C) 2026 The gst-cuda-imgproc authors
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2 of the License, or (at your option) any later version.
 */

/* Prints the Otsu threshold of every frame of a video, as cudaotsu posts
 * it on the bus, and writes the binarized frames as PNG files if asked.
 *
 *   otsu-monitor [--backend auto|cuda|cpu] [--num-buffers N]
 *                [--png PATTERN] [URI or file]
 *
 * Without a file it reads GStreamer's test pattern, --num-buffers frames
 * of it.  Each line printed is "timestamp threshold".  An application can
 * read the same messages, or the element's read-only "threshold"
 * property.  --backend defaults to auto, the elements' default: the GPU
 * where a usable CUDA device is there, otherwise the CPU (the same
 * thresholds), with a note on stderr that says so. */

#include <gst/gst.h>

#include "example-util.h"

static gboolean failed, told_cpu;

static gboolean
print_threshold (GstBus * bus, GstMessage * message, gpointer user_data)
{
  GMainLoop *loop = user_data;
  const GstStructure *s;
  GError *error = NULL;
  gchar *debug = NULL;
  guint threshold;
  guint64 timestamp;

  switch (GST_MESSAGE_TYPE (message)) {
    case GST_MESSAGE_ELEMENT:
      s = gst_message_get_structure (message);
      if (gst_structure_has_name (s, "cudaotsu") &&
          gst_structure_get_uint (s, "threshold", &threshold) &&
          gst_structure_get_uint64 (s, "timestamp", &timestamp))
        g_print ("%" GST_TIME_FORMAT " %u\n", GST_TIME_ARGS (timestamp),
            threshold);
      break;
    case GST_MESSAGE_ERROR:
      gst_message_parse_error (message, &error, &debug);
      g_printerr ("error: %s\n(%s)\n", error->message, debug);
      g_clear_error (&error);
      g_free (debug);
      failed = TRUE;
      g_main_loop_quit (loop);
      break;
    case GST_MESSAGE_WARNING:
      /* backend=auto without a usable CUDA device: each element says it
       * runs on the CPU (RESOURCE/NOT_FOUND); told once. */
      gst_message_parse_warning (message, &error, NULL);
      if (!g_error_matches (error, GST_RESOURCE_ERROR,
              GST_RESOURCE_ERROR_NOT_FOUND))
        g_printerr ("warning: %s\n", error->message);
      else if (!told_cpu)
        g_printerr ("note: %s\n", error->message);
      told_cpu |= g_error_matches (error, GST_RESOURCE_ERROR,
          GST_RESOURCE_ERROR_NOT_FOUND);
      g_clear_error (&error);
      break;
    case GST_MESSAGE_EOS:
      g_main_loop_quit (loop);
      break;
    default:
      break;
  }
  return TRUE;
}

int
main (int argc, char **argv)
{
  gchar *backend = NULL, *png = NULL;
  gint num_buffers = -1;
  GOptionEntry entries[] = {
    {"backend", 0, 0, G_OPTION_ARG_STRING, &backend,
          "auto (default: the GPU if there is one, else the CPU), cuda or cpu",
        "NAME"},
    {"num-buffers", 0, 0, G_OPTION_ARG_INT, &num_buffers,
        "Stop after N frames of the test pattern (without a file)", "N"},
    {"png", 0, 0, G_OPTION_ARG_STRING, &png,
          "Write the binarized frames to PATTERN (e.g. otsu-%05d.png)",
        "PATTERN"},
    {NULL}
  };
  GOptionContext *options = g_option_context_new ("[URI or file]");
  GError *error = NULL;
  GstElement *pipeline;
  GMainLoop *loop;
  GstBus *bus;
  gchar *source, *sink, *launch;
  int ret = 0;

  g_option_context_add_main_entries (options, entries, NULL);
  g_option_context_add_group (options, gst_init_get_option_group ());
  if (!g_option_context_parse (options, &argc, &argv, &error)) {
    g_printerr ("%s\n", error->message);
    return 2;
  }
  if (argc > 2 || (argc == 2 && num_buffers >= 0)) {
    gchar *help = g_option_context_get_help (options, TRUE, NULL);

    g_printerr ("%s", help);
    g_free (help);
    return 2;
  }
  g_option_context_free (options);
  if (backend && !g_str_equal (backend, "auto") &&
      !g_str_equal (backend, "cuda") && !g_str_equal (backend, "cpu")) {
    g_printerr ("error: --backend=%s: auto, cuda or cpu\n", backend);
    return 2;
  }
  if (png && !example_is_file_pattern (png)) {
    g_printerr ("error: --png=%s: one integer pattern such as %%05d at "
        "most, and %%%% for a %%\n", png);
    return 2;
  }

  if (argc == 2) {
    gchar *uri = example_input_uri (argv[1], &error), *quoted;

    if (!uri) {
      g_printerr ("%s: %s\n", argv[1], error->message);
      g_error_free (error);
      return 1;
    }
    quoted = example_quote (uri);
    source = g_strdup_printf ("uridecodebin uri=\"%s\" ! videoconvert", quoted);
    g_free (quoted);
    g_free (uri);
  } else {
    source = g_strdup_printf ("videotestsrc pattern=ball num-buffers=%d ! "
        "video/x-raw,format=RGBA,width=640,height=480", num_buffers);
  }
  if (png) {
    gchar *quoted = example_quote (png);

    sink = g_strdup_printf ("video/x-raw ! videoconvert ! pngenc ! "
        "multifilesink location=\"%s\"", quoted);
    g_free (quoted);
  } else {
    sink = g_strdup ("fakesink");
  }
  launch = g_strdup_printf ("%s ! cudagray backend=%s ! cudaotsu "
      "backend=%s post-messages=true ! %s", source, backend ? backend : "auto",
      backend ? backend : "auto", sink);

  pipeline = gst_parse_launch (launch, &error);
  if (error) {
    /* e.g. the plugin is not installed: see GST_PLUGIN_PATH */
    g_printerr ("%s: %s\n", launch, error->message);
    g_error_free (error);
    if (pipeline)
      gst_object_unref (pipeline);
    return 1;
  }

  loop = g_main_loop_new (NULL, FALSE);
  bus = gst_element_get_bus (pipeline);
  gst_bus_add_watch (bus, print_threshold, loop);
  if (gst_element_set_state (pipeline, GST_STATE_PLAYING) ==
      GST_STATE_CHANGE_FAILURE) {
    /* The element posted why (no driver or device, say). */
    GstMessage *msg = gst_bus_pop_filtered (bus, GST_MESSAGE_ERROR);

    if (msg) {
      gst_message_parse_error (msg, &error, NULL);
      g_printerr ("error: %s\n", error->message);
      g_clear_error (&error);
      gst_message_unref (msg);
    }
    ret = 1;
  } else {
    g_main_loop_run (loop);
    ret = failed ? 1 : 0;
  }

  gst_element_set_state (pipeline, GST_STATE_NULL);
  gst_bus_remove_watch (bus);
  gst_object_unref (bus);
  gst_object_unref (pipeline);
  g_main_loop_unref (loop);
  g_free (launch);
  g_free (sink);
  g_free (source);
  g_free (backend);
  g_free (png);
  return ret;
}
