/* gst-cuda-imgproc
 * Copyright (C) 2026 The gst-cuda-imgproc authors
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2 of the License, or (at your option) any later version.
 */

/* Frames per second through the elements, their chain, and GStreamer's
 * own elements doing comparable work, after start-up.
 *
 *   bench-elements [--quick] [--csv FILE]
 *
 * The source is an appsrc that pushes the same few pre-filled frames over
 * and over, so it costs next to nothing: in page-locked memory (as the
 * elements' own pool gives upstream), in ordinary pageable memory (which
 * the elements page-lock once it comes back), in pageable memory each
 * frame a memory the elements have not seen (as a source that allocates
 * every frame gives it), or in CUDA memory.  Each case runs for a fixed time after a warm-up; frames
 * are counted where they leave the pipeline.  --quick runs a few small
 * cases on the CPU only (what CI runs to keep this program working).
 *
 * A row whose source format an element of it does not take yet (its
 * Case's needs) reads "n/a: ELEMENT does not take FORMAT yet" and counts
 * neither as passed nor as failed: it would fail to link.  Once the
 * element's sink template lists the format, the row runs, and a failure
 * is a failure.  With CIP_BENCH_THREADS=1 each row also prints the share
 * of its window that each thread of the process ran, which tells a row
 * bound by one streaming thread from one bound by the GPU. */

#include <stdio.h>
#include <string.h>
#include <time.h>
#include <stdlib.h>
#include <unistd.h>

#include <gst/gst.h>
#include <gst/app/gstappsrc.h>
#include <gst/video/video.h>
#include <gst/cuda/gstcudacontext.h>
#include <gst/cuda/gstcudaloader.h>
#include <gst/cuda/gstcudamemory.h>
#include <gst/cuda/gstcudautils.h>

#include "gstcudaimgproccompat.h"

#include "cip.h"
#include "bench-cells.h"

#define N_SOURCE_FRAMES 4
/* Frames of pageable memory seen once: pixels in more than the host's
 * caches, so that they come from its memory as a new frame's would. */
#define N_ONCE_FRAMES 32

typedef enum
{
  SOURCE_PAGEABLE,
  SOURCE_PINNED,
  SOURCE_CUDA,
  SOURCE_H264,                  /* the --clip file, decoded by NVDEC */
  SOURCE_CUDA_CELLS,            /* CUDA memory, cell-like RGBA frames */
  /* pageable, every frame a new memory over one of N_ONCE_FRAMES */
  SOURCE_PAGEABLE_ONCE,
} SourceMemory;

static const gchar *source_names[] = { "pageable", "pinned", "cuda", "h264",
  "cuda, cells", "pageable, seen once"
};

static const gchar *clip_path;

typedef struct
{
  const gchar *name;            /* what the row is called */
  const gchar *format;          /* of the source frames */
  SourceMemory memory;
  /* Between the source and the sink; %s stands for the backend. */
  const gchar *chain;
  const gchar *backend;
  /* the oldest GStreamer 1.x it runs on, 0 for any */
  guint since_minor;
  /* Elements (names separated by spaces) that must take the source
   * format, or NULL: where one's sink template does not list it, the row
   * is expected to fail to link and is left out as n/a. */
  const gchar *needs;
  /* The source pushes one frame and ends; the chain starts with an
   * "imagefreeze name=freeze" that repeats it. */
  gboolean one_frame;
} Case;

/* Frames each source pushes before it waits for the others: enough for
 * every element's pools to reach their size. */
#define N_START_FRAMES 16

/* Holds the sources of a run's pipelines once they have started, until
 * all have: a pipeline that starts while others run flat out waits for
 * its allocations behind their calls into the driver (the start is not
 * what the run measures). */
typedef struct
{
  GMutex lock;
  GCond cond;
  gboolean open;
} StartGate;

typedef struct
{
  /* what the source pushes, in turn */
  GstBuffer *frames[N_ONCE_FRAMES];
  guint n_frames;
  /* SOURCE_PAGEABLE_ONCE: each push a new buffer over their pixels */
  gboolean seen_once;
  /* one frame, repeated by imagefreeze: the end of the stream goes in
   * after it, which holds the source's */
  gboolean one_frame;
  GstPad *after_freeze;
  guint next;
  gint frames_out;              /* atomic: frames that reached the sink */
  gint ended;                   /* atomic: the source pushes no more */
  gint waiting;                 /* atomic: the source waits at the gate */
  GstAppSrc *src;
  StartGate *gate;
  GstCudaContext *context;      /* the device the pipeline runs on */
} Run;

/* The devices of --devices (device 0 alone without it), a context each:
 * a pipeline of the streams table runs on the k-th modulo their number,
 * every element on it through the context set on the pipeline. */
#define MAX_DEVICES 16
static GstCudaContext *cuda_contexts[MAX_DEVICES];
static guint n_devices;
#define cuda_context (cuda_contexts[0])

static void
fill_random (guint8 * data, gsize size, guint32 seed)
{
  GRand *rand = g_rand_new_with_seed (seed);
  gsize i;

  for (i = 0; i + 4 <= size; i += 4) {
    guint32 v = g_rand_int (rand);

    memcpy (data + i, &v, 4);
  }
  for (; i < size; i++)
    data[i] = g_rand_int (rand);
  g_rand_free (rand);
}

static void
free_pinned (gpointer data)
{
  cip_host_free (data, NULL);
}

static GstBuffer *
make_frame (const GstVideoInfo * info, SourceMemory memory,
    GstCudaContext * context, guint32 seed)
{
  gsize size = GST_VIDEO_INFO_SIZE (info);
  GstBuffer *buffer;
  guint8 *data;

  if (memory == SOURCE_PAGEABLE) {
    data = g_malloc (size);
    fill_random (data, size, seed);
    return gst_buffer_new_wrapped (data, size);
  }

  if (memory == SOURCE_PINNED) {
    gst_cuda_context_push (context);
    if (cip_host_alloc ((void **) &data, size, NULL) != CIP_OK)
      g_error ("could not allocate page-locked memory");
    gst_cuda_context_pop (NULL);
    fill_random (data, size, seed);
    return gst_buffer_new_wrapped_full (0, data, size, 0, size, data,
        free_pinned);
  } else {
    GstAllocator *allocator = gst_allocator_find (GST_CUDA_MEMORY_TYPE_NAME);
    gboolean gray = GST_VIDEO_INFO_FORMAT (info) == GST_VIDEO_FORMAT_GRAY8 ||
        GST_VIDEO_INFO_FORMAT (info) == GST_VIDEO_FORMAT_GRAY16_LE;
    GstVideoInfo alloc_info = *info;
    GstMemory *mem;
    GstCudaMemory *cmem;
    GstVideoFrame frame;
    guint plane;

    /* GRAY8 and GRAY16_LE as the elements carry them on the device: the
     * bytes of an RGBA frame a quarter (a half) as wide, described by the
     * meta. */
    if (gray)
      gst_video_info_set_format (&alloc_info, GST_VIDEO_FORMAT_RGBA,
          GST_ROUND_UP_4 (GST_VIDEO_INFO_WIDTH (info) *
              GST_VIDEO_INFO_COMP_PSTRIDE (info, 0)) / 4,
          GST_VIDEO_INFO_HEIGHT (info));
    mem = gst_cuda_imgproc_memory_alloc (allocator, context, NULL, &alloc_info);
    g_assert (mem != NULL);
    cmem = GST_CUDA_MEMORY_CAST (mem);
    gst_object_unref (allocator);
    buffer = gst_buffer_new ();
    gst_buffer_append_memory (buffer, mem);
    gst_buffer_add_video_meta_full (buffer, GST_VIDEO_FRAME_FLAG_NONE,
        GST_VIDEO_INFO_FORMAT (info), GST_VIDEO_INFO_WIDTH (info),
        GST_VIDEO_INFO_HEIGHT (info), GST_VIDEO_INFO_N_PLANES (info),
        cmem->info.offset, cmem->info.stride);
    /* Written through the host copy, uploaded on first device use. */
    g_assert (gst_video_frame_map (&frame, (GstVideoInfo *) info, buffer,
            GST_MAP_WRITE));
    if (memory == SOURCE_CUDA_CELLS) {
      bench_draw_cells (GST_VIDEO_FRAME_PLANE_DATA (&frame, 0),
          GST_VIDEO_FRAME_WIDTH (&frame), GST_VIDEO_FRAME_HEIGHT (&frame),
          GST_VIDEO_FRAME_PLANE_STRIDE (&frame, 0), seed);
      gst_video_frame_unmap (&frame);
      return buffer;
    }
    for (plane = 0; plane < GST_VIDEO_FRAME_N_PLANES (&frame); plane++)
      fill_random (GST_VIDEO_FRAME_PLANE_DATA (&frame, plane),
          GST_VIDEO_FRAME_PLANE_STRIDE (&frame, plane) *
          GST_VIDEO_FRAME_COMP_HEIGHT (&frame,
              plane == 0 ? 0 : plane), seed + plane);
    gst_video_frame_unmap (&frame);
    return buffer;
  }
}

/* A new buffer, of a new memory, over the pixels of @frame (pageable
 * memory that outlives it): a memory no element has seen, as a source
 * that allocates every frame makes them, at no cost to the source. */
static GstBuffer *
wrap_anew (GstBuffer * frame)
{
  GstMapInfo map;
  GstBuffer *buffer;

  if (!gst_buffer_map (frame, &map, GST_MAP_READ))
    g_error ("could not map a source frame");
  buffer = gst_buffer_new_wrapped_full (GST_MEMORY_FLAG_READONLY, map.data,
      map.size, 0, map.size, NULL, NULL);
  gst_buffer_unmap (frame, &map);
  return buffer;
}

static void
need_data (GstAppSrc * src, guint length, gpointer user_data)
{
  Run *run = user_data;
  StartGate *gate = run->gate;
  GstBuffer *frame;

  if (run->one_frame) {
    if (run->next++ == 0) {
      gst_app_src_push_buffer (src, gst_buffer_ref (run->frames[0]));
      gst_app_src_end_of_stream (src);
    }
    g_atomic_int_set (&run->waiting, TRUE);
    return;
  }
  if (run->next == N_START_FRAMES) {
    g_mutex_lock (&gate->lock);
    g_atomic_int_set (&run->waiting, TRUE);
    while (!gate->open && !g_atomic_int_get (&run->ended))
      g_cond_wait (&gate->cond, &gate->lock);
    g_mutex_unlock (&gate->lock);
  }
  if (g_atomic_int_get (&run->ended))
    return;
  frame = run->frames[run->next++ % run->n_frames];
  if (gst_app_src_push_buffer (src, run->seen_once ? wrap_anew (frame) :
          gst_buffer_ref (frame)) != GST_FLOW_OK)
    g_atomic_int_set (&run->ended, TRUE);
}

static gint64
process_cpu_ns (void)
{
  struct timespec t;

  clock_gettime (CLOCK_PROCESS_CPUTIME_ID, &t);
  return (gint64) t.tv_sec * 1000000000 + t.tv_nsec;
}

/* CIP_BENCH_THREADS=1: each thread's CPU time in the window, from
 * /proc/self/task (clock ticks), to find the one that bounds a row. */
#define MAX_THREADS 256
typedef struct
{
  gint tid;
  gchar name[32];
  guint64 ticks;
} ThreadTime;

static guint
thread_times (ThreadTime * times)
{
  GDir *dir = g_dir_open ("/proc/self/task", 0, NULL);
  const gchar *entry;
  guint n = 0;

  while (dir && (entry = g_dir_read_name (dir)) && n < MAX_THREADS) {
    gchar *path = g_strdup_printf ("/proc/self/task/%s/stat", entry);
    gchar *text = NULL, *lparen, *rparen;
    unsigned long utime, stime;

    /* the name may hold spaces and parentheses: it ends at the last ')' */
    if (g_file_get_contents (path, &text, NULL, NULL) &&
        (lparen = strchr (text, '(')) != NULL &&
        (rparen = strrchr (text, ')')) != NULL && rparen > lparen &&
        rparen[1] == ' ' &&
        sscanf (rparen + 2, "%*c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u "
            "%lu %lu", &utime, &stime) == 2) {
      times[n].tid = atoi (entry);
      g_strlcpy (times[n].name, lparen + 1, MIN ((gsize) (rparen - lparen),
              sizeof (times[n].name)));
      times[n].ticks = utime + stime;
      n++;
    }
    g_free (text);
    g_free (path);
  }
  if (dir)
    g_dir_close (dir);
  if (n == MAX_THREADS)
    g_printerr ("more than %d threads: only the first are shown\n",
        MAX_THREADS);
  return n;
}

static void
print_thread_times (const ThreadTime * from, guint n_from,
    const ThreadTime * to, guint n_to, gint64 window_us)
{
  gdouble tick_us = 1e6 / sysconf (_SC_CLK_TCK);
  guint i, j;

  for (i = 0; i < n_to; i++) {
    guint64 before = 0;

    for (j = 0; j < n_from; j++)
      if (from[j].tid == to[i].tid)
        before = from[j].ticks;
    if (to[i].ticks > before)
      g_printerr ("  thread %-16s (%d) %5.1f%% of the window\n",
          to[i].name, to[i].tid,
          100.0 * (to[i].ticks - before) * tick_us / window_us);
  }
}

static GstPadProbeReturn
count_frame (GstPad * pad, GstPadProbeInfo * info, gpointer user_data)
{
  Run *run = user_data;

  g_atomic_int_inc (&run->frames_out);
  return GST_PAD_PROBE_OK;
}

/* One pipeline of a run: @c's chain between its source and a fakesink
 * whose frames @run counts. */
static GstElement *
stream_new (const Case * c, gint width, gint height, Run * run)
{
  gchar **parts = g_strsplit (c->chain, "%s", -1);
  gchar *chain = g_strjoinv (c->backend ? c->backend : "cuda", parts);
  gchar *caps_str = g_strdup_printf ("video/x-raw%s,format=%s,width=%d,"
      "height=%d,framerate=0/1", c->memory == SOURCE_CUDA ||
      c->memory == SOURCE_CUDA_CELLS ?
      "(memory:CUDAMemory)" : "", c->format, width, height);
  gchar *launch = c->memory == SOURCE_H264 ?
      g_strdup_printf ("filesrc location=%s ! h264parse ! nvh264dec ! %s ! "
      "fakesink name=sink sync=false async=false", clip_path, chain) :
      g_strdup_printf ("appsrc name=src is-live=false "
      "format=time max-bytes=0 max-buffers=4 caps=%s ! %s ! fakesink "
      "name=sink sync=false async=false", caps_str, chain);
  static GstAppSrcCallbacks callbacks = { need_data, NULL, NULL };
  GError *error = NULL;
  GstElement *pipeline = gst_parse_launch (launch, &error);
  GstElement *sink;
  GstPad *pad;
  GstVideoInfo info;
  guint i;

  /* A pipeline whose elements could not be linked (an element that does
   * not take the format) comes back with the error: it would not run. */
  if (pipeline == NULL || g_error_matches (error, GST_PARSE_ERROR,
          GST_PARSE_ERROR_LINK)) {
    g_printerr ("%s: %s\n", launch, error ? error->message : "failed");
    g_clear_error (&error);
    gst_clear_object (&pipeline);
    goto out;
  }
  g_clear_error (&error);
  if (run->context) {
    GstContext *context = gst_context_new_cuda_context (run->context);

    gst_element_set_context (pipeline, context);
    gst_context_unref (context);
  }

  if (c->memory != SOURCE_H264) {
    gst_video_info_set_format (&info,
        gst_video_format_from_string (c->format), width, height);
    run->seen_once = c->memory == SOURCE_PAGEABLE_ONCE;
    run->one_frame = c->one_frame;
    run->n_frames = c->one_frame ? 1 : run->seen_once ? N_ONCE_FRAMES :
        N_SOURCE_FRAMES;
    for (i = 0; i < MIN (run->n_frames, N_SOURCE_FRAMES); i++)
      run->frames[i] = make_frame (&info, run->seen_once ? SOURCE_PAGEABLE :
          c->memory, run->context, i + 1);
    /* the rest of the ring: copies, whose pages are written, so resident */
    for (; i < run->n_frames; i++)
      run->frames[i] = gst_buffer_copy_deep (run->frames[i % N_SOURCE_FRAMES]);
    run->src = GST_APP_SRC (gst_bin_get_by_name (GST_BIN (pipeline), "src"));
    gst_app_src_set_callbacks (run->src, &callbacks, run, NULL);
  }
  if (c->one_frame) {
    GstElement *freeze = gst_bin_get_by_name (GST_BIN (pipeline), "freeze");
    GstPad *src_pad = gst_element_get_static_pad (freeze, "src");

    run->after_freeze = gst_pad_get_peer (src_pad);
    gst_object_unref (src_pad);
    gst_object_unref (freeze);
  }
  sink = gst_bin_get_by_name (GST_BIN (pipeline), "sink");
  pad = gst_element_get_static_pad (sink, "sink");
  gst_pad_add_probe (pad, GST_PAD_PROBE_TYPE_BUFFER, count_frame, run, NULL);
  gst_object_unref (pad);
  gst_object_unref (sink);
out:
  g_free (launch);
  g_free (caps_str);
  g_free (chain);
  g_strfreev (parts);
  return pipeline;
}

/* Whether any of the @n pipelines posted an error or reached its end;
 * an error is printed. */
static gboolean
any_stopped (GstElement ** pipelines, guint n, const Case * c)
{
  gboolean stopped = FALSE;
  guint k;

  for (k = 0; k < n; k++) {
    GstBus *bus = gst_element_get_bus (pipelines[k]);
    GstMessage *msg = gst_bus_pop_filtered (bus,
        GST_MESSAGE_EOS | GST_MESSAGE_ERROR);

    if (msg && GST_MESSAGE_TYPE (msg) == GST_MESSAGE_ERROR) {
      GError *error = NULL;
      gchar *debug = NULL;

      gst_message_parse_error (msg, &error, &debug);
      g_printerr ("%s: %s (%s)\n", c->name, error->message, debug);
      g_clear_error (&error);
      g_free (debug);
    } else if (msg) {
      g_printerr ("%s: a pipeline ended before its frames were counted\n",
          c->name);
    }
    stopped |= msg != NULL;
    gst_clear_message (&msg);
    gst_object_unref (bus);
  }
  return stopped;
}

/* Ends each of the @n pipelines' streams and waits for the end to reach
 * its sink.  Returns FALSE where one failed instead. */
static gboolean
end_streams (GstElement ** pipelines, Run * runs, guint n, const Case * c)
{
  gboolean ok = TRUE;
  guint k;

  for (k = 0; k < n; k++) {
    g_mutex_lock (&runs[k].gate->lock);
    g_atomic_int_set (&runs[k].ended, TRUE);
    g_cond_broadcast (&runs[k].gate->cond);
    g_mutex_unlock (&runs[k].gate->lock);
    /* imagefreeze drops the end of its input's stream */
    if (runs[k].after_freeze)
      gst_pad_send_event (runs[k].after_freeze, gst_event_new_eos ());
    else if (runs[k].src)
      gst_app_src_end_of_stream (runs[k].src);
    else
      gst_element_send_event (pipelines[k], gst_event_new_eos ());
  }
  for (k = 0; k < n; k++) {
    GstBus *bus = gst_element_get_bus (pipelines[k]);
    GstMessage *msg = gst_bus_timed_pop_filtered (bus, 120 * GST_SECOND,
        GST_MESSAGE_EOS | GST_MESSAGE_ERROR);

    if (msg == NULL || GST_MESSAGE_TYPE (msg) != GST_MESSAGE_EOS) {
      g_printerr ("%s: a pipeline failed to end\n", c->name);
      ok = FALSE;
    }
    gst_clear_message (&msg);
    gst_object_unref (bus);
  }
  return ok;
}

/* Says where a pipeline that put out no frame in the window stands: the
 * frames each of its elements processed, and its source's queue. */
static void
report_stalled (GstElement * pipeline, guint k, const Run * run)
{
  GstIterator *it = gst_bin_iterate_elements (GST_BIN (pipeline));
  GValue item = G_VALUE_INIT;
  GString *line = g_string_new (NULL);

  g_string_append_printf (line, "stream %u: no frame in the window (%d "
      "out in all)", k, g_atomic_int_get (&run->frames_out));
  while (gst_iterator_next (it, &item) == GST_ITERATOR_OK) {
    GstElement *element = g_value_get_object (&item);
    GstStructure *stats = NULL;
    guint64 frames = 0;

    if (g_object_class_find_property (G_OBJECT_GET_CLASS (element), "stats")) {
      g_object_get (element, "stats", &stats, NULL);
      if (stats && gst_structure_get_uint64 (stats, "frames", &frames))
        g_string_append_printf (line, "; %s %" G_GUINT64_FORMAT,
            GST_OBJECT_NAME (element), frames);
      g_clear_pointer (&stats, gst_structure_free);
    }
    g_value_reset (&item);
  }
  g_value_unset (&item);
  gst_iterator_free (it);
  if (run->src)
    g_string_append_printf (line, "; source queue %" G_GUINT64_FORMAT,
        gst_app_src_get_current_level_buffers (run->src));
  g_printerr ("%s\n", line->str);
  g_string_free (line, TRUE);
}

/* Whether an element called @name can be made here. */
static gboolean
have_element (const gchar * name)
{
  GstElementFactory *factory = gst_element_factory_find (name);
  gboolean found = factory != NULL;

  gst_clear_object (&factory);
  return found;
}

/* The first element of @needs (names separated by spaces) whose sink pad
 * template does not list @format, or NULL when all take it (an element
 * that is not there at all is left to fail the row).  Free with
 * g_free(). */
static gchar *
element_lacking (const gchar * needs, const gchar * format)
{
  gchar **names = g_strsplit (needs, " ", -1);
  GstCaps *want = gst_caps_new_simple ("video/x-raw", "format",
      G_TYPE_STRING, format, NULL);
  gchar *lacking = NULL;
  guint i;

  for (i = 0; names[i] && lacking == NULL; i++) {
    GstElementFactory *factory = gst_element_factory_find (names[i]);
    gboolean takes = factory == NULL;
    const GList *t;

    if (factory) {
      for (t = gst_element_factory_get_static_pad_templates (factory); t;
          t = t->next) {
        GstStaticPadTemplate *tmpl = t->data;
        GstCaps *caps;

        if (tmpl->direction != GST_PAD_SINK)
          continue;
        caps = gst_static_pad_template_get_caps (tmpl);
        takes |= gst_caps_can_intersect (caps, want);
        gst_caps_unref (caps);
      }
      gst_object_unref (factory);
    }
    if (!takes)
      lacking = g_strdup (names[i]);
  }
  gst_caps_unref (want);
  g_strfreev (names);
  return lacking;
}

/* Runs @n_streams pipelines of @c at @width x @height at once, in this
 * process.  Once every pipeline has put out its first frame and
 * @warm_up_us more have passed, the frames of all of them are counted
 * over one window of @measure_us, the same for every pipeline: pipelines
 * that start late neither lower nor raise the rate.  Returns the frames
 * per second of all of them together in that window, or a negative
 * number when one failed; @slowest gets the slowest pipeline's rate in
 * the window, @host_us the CPU time the process spent per frame in it
 * (every thread: the sources, the elements, the sinks, and waits on the
 * GPU).  A pipeline at less than half the mean rate of the others is
 * starved: it is printed, and @starved set. */
static gdouble
run_streams (const Case * c, gint width, gint height, guint n_streams,
    gint64 warm_up_us, gint64 measure_us, gdouble * slowest, gdouble * host_us,
    gboolean * starved)
{
  GstElement **pipelines = g_new0 (GstElement *, n_streams);
  Run *runs = g_new0 (Run, n_streams);
  gint *counted_from = g_new0 (gint, n_streams);
  gint64 deadline_us, from_us, to_us, cpu_from_ns, cpu_to_ns;
  guint64 frames = 0;
  gdouble fps = -1;
  gboolean failed = FALSE;
  guint k, i, started = 0, waiting = 0, n_threads_from = 0;
  StartGate gate = { 0 };
  ThreadTime *threads_from =
      g_strcmp0 (g_getenv ("CIP_BENCH_THREADS"), "1") == 0 ?
      g_new0 (ThreadTime, MAX_THREADS) : NULL;

  *slowest = -1;
  *host_us = 0;
  *starved = FALSE;
  g_mutex_init (&gate.lock);
  g_cond_init (&gate.cond);
  for (k = 0; k < n_streams && !failed; k++) {
    runs[k].gate = &gate;
    runs[k].context = cuda_contexts[k % MAX (n_devices, 1)];
    pipelines[k] = stream_new (c, width, height, &runs[k]);
    failed = pipelines[k] == NULL;
  }
  for (k = 0; k < n_streams && !failed; k++)
    gst_element_set_state (pipelines[k], GST_STATE_PLAYING);

  /* Every pipeline started (decoders are not held), then running, then
   * warmed up. */
  deadline_us = g_get_monotonic_time () + 120 * G_USEC_PER_SEC;
  while (!failed && waiting < n_streams) {
    g_usleep (1000);
    for (k = 0, waiting = 0; k < n_streams; k++)
      waiting += runs[k].src == NULL || g_atomic_int_get (&runs[k].waiting);
    failed = any_stopped (pipelines, n_streams, c) ||
        g_get_monotonic_time () > deadline_us;
  }
  g_mutex_lock (&gate.lock);
  gate.open = TRUE;
  g_cond_broadcast (&gate.cond);
  g_mutex_unlock (&gate.lock);
  while (!failed && started < n_streams) {
    g_usleep (1000);
    for (k = 0, started = 0; k < n_streams; k++)
      started += g_atomic_int_get (&runs[k].frames_out) > 0;
    failed = any_stopped (pipelines, n_streams, c) ||
        g_get_monotonic_time () > deadline_us;
  }
  if (failed)
    goto out;
  g_usleep (warm_up_us);

  if (threads_from)
    n_threads_from = thread_times (threads_from);
  from_us = g_get_monotonic_time ();
  cpu_from_ns = process_cpu_ns ();
  for (k = 0; k < n_streams; k++)
    counted_from[k] = g_atomic_int_get (&runs[k].frames_out);
  g_usleep (measure_us);
  to_us = g_get_monotonic_time ();
  cpu_to_ns = process_cpu_ns ();
  if (threads_from) {
    ThreadTime *threads_to = g_new0 (ThreadTime, MAX_THREADS);
    guint n_to = thread_times (threads_to);

    g_printerr ("%s, %dx%d, %u pipelines:\n", c->name, width, height,
        n_streams);
    print_thread_times (threads_from, n_threads_from, threads_to, n_to,
        to_us - from_us);
    g_free (threads_to);
  }
  for (k = 0; k < n_streams; k++) {
    guint counted = g_atomic_int_get (&runs[k].frames_out) - counted_from[k];
    gdouble stream_fps = counted * 1e6 / (gdouble) (to_us - from_us);

    if (*slowest < 0 || stream_fps < *slowest)
      *slowest = stream_fps;
    if (counted == 0)
      report_stalled (pipelines[k], k, &runs[k]);
    frames += counted;
  }

  for (k = 0; k < n_streams && n_streams > 1; k++) {
    guint mine = g_atomic_int_get (&runs[k].frames_out) - counted_from[k];
    gdouble others = (gdouble) (frames - mine) / (n_streams - 1);

    if (mine < others / 2) {
      g_printerr ("stream %u of %u starved: %u frames in the window, the "
          "others %.0f on average\n", k, n_streams, mine, others);
      *starved = TRUE;
    }
  }

  /* A pipeline that stopped inside the window was not counted over all
   * of it. */
  failed = any_stopped (pipelines, n_streams, c) || frames == 0;
  failed |= !end_streams (pipelines, runs, n_streams, c);
  if (!failed) {
    *host_us = (cpu_to_ns - cpu_from_ns) / 1e3 / frames;
    fps = frames * 1e6 / (gdouble) (to_us - from_us);
  }

out:
  for (k = 0; k < n_streams; k++) {
    if (pipelines[k]) {
      gst_element_set_state (pipelines[k], GST_STATE_NULL);
      gst_object_unref (pipelines[k]);
    }
    gst_clear_object (&runs[k].src);
    gst_clear_object (&runs[k].after_freeze);
    for (i = 0; i < N_ONCE_FRAMES; i++)
      gst_clear_buffer (&runs[k].frames[i]);
  }
  g_free (counted_from);
  g_free (threads_from);
  g_free (pipelines);
  g_free (runs);
  g_mutex_clear (&gate.lock);
  g_cond_clear (&gate.cond);
  if (failed)
    *slowest = -1;
  return fps;
}

/* Frames per second of @c at @width x @height, or a negative number when
 * the pipeline failed; @host_us as run_streams() gives it. */
static gdouble
run_case (const Case * c, gint width, gint height, gint64 warm_up_us,
    gint64 measure_us, gdouble * host_us)
{
  gdouble slowest;
  gboolean starved;

  return run_streams (c, width, height, 1, warm_up_us, measure_us, &slowest,
      host_us, &starved);
}

#define GRAY_CHAIN "cudagray backend=%s ! video/x-raw"
/* YUY2 to gray as it had to be done before cudagray took YUY2: what
 * videoconvert negotiates in front of cudagray's former formats (RGBA to
 * BGR, NV12, I420, GRAY8) from YUY2, pinned so that the row stays that
 * baseline once cudagray takes YUY2 itself. */
#define VIDEOCONVERT_GRAY_CHAIN "videoconvert ! video/x-raw,format=BGRx ! " \
  "cudagray backend=%s ! video/x-raw"
/* The GRAY16 chain against the GRAY8 one: the same elements, CUDA memory
 * in and out. */
#define EQUALIZE_OTSU_CHAIN "cudaequalize backend=%s ! cudaotsu backend=%s ! " \
  "video/x-raw(memory:CUDAMemory)"
#define DEVICE_CHAIN "cudagray backend=%s ! cudaequalize backend=%s ! " \
  "cudaotsu backend=%s ! video/x-raw(memory:CUDAMemory)"

/* The scikit-image segmentation workflow: blur, Otsu, erosion by disk(2),
 * labels painted in colour, region statistics. */
#define SEED_CHAIN "cudagray ! cudablur sigma=2 ! cudaotsu ! cudamorph " \
  "operation=erode shape=disk radius=2 ! cudalabel"
#define SEED_CHAIN_WITHOUT_LABEL "cudagray ! cudablur sigma=2 ! cudaotsu ! " \
  "cudamorph operation=erode shape=disk radius=2"
#define ALL_PROPERTIES "label,area,area_bbox,axis_major_length," \
  "axis_minor_length,bbox,centroid,eccentricity,equivalent_diameter_area," \
  "extent,intensity_max,intensity_mean,intensity_min,orientation," \
  "perimeter,euler_number,area_convex,area_filled,feret_diameter_max," \
  "solidity"
#define LABEL_ROW(what, props) \
  {"cudaotsu ! cudalabel " what ", CUDA memory", "GRAY8", SOURCE_CUDA, \
      "cudaotsu ! cudalabel properties=" props \
      " ! video/x-raw(memory:CUDAMemory)", NULL}

static const Case gpu_cases[] = {
  {"cudagray, system memory", "RGBA", SOURCE_PINNED, GRAY_CHAIN, NULL},
  {"cudagray, system memory (pageable source)", "RGBA", SOURCE_PAGEABLE,
      GRAY_CHAIN, NULL},
  /* Pageable frames each seen once (a source that allocates every frame),
   * uploaded through the element's staging; with CIP_STAGE_PAGEABLE=0
   * (-Dtest-switches=true builds) through the driver's.  The frame that
   * imagefreeze repeats is page-locked the second time. */
  {"cudagray, system memory (pageable source, seen once)", "RGBA",
      SOURCE_PAGEABLE_ONCE, GRAY_CHAIN, NULL},
  {"imagefreeze ! cudagray, system memory (one pageable frame)", "RGBA",
        SOURCE_PAGEABLE, "imagefreeze name=freeze ! " GRAY_CHAIN, NULL, 0,
      NULL, TRUE},
  /* What the source, the sink and GStreamer's own hand-over cost: the
   * host time of every other CUDA-memory row is this plus its elements'. */
  {"source and sink alone (identity), CUDA memory", "RGBA", SOURCE_CUDA,
      "identity", NULL},
  /* GStreamer's own CUDA element with one kernel a frame (nvcodec): what
   * a transform in CUDA memory costs the host there. */
  {"nvcodec cudaconvert RGBA to BGRA, CUDA memory", "RGBA", SOURCE_CUDA,
      "cudaconvert ! video/x-raw(memory:CUDAMemory),format=BGRA", NULL, 24},
  {"cudagray, CUDA memory", "RGBA", SOURCE_CUDA,
      "cudagray ! video/x-raw(memory:CUDAMemory)", NULL},
  {"cudamask, system memory", "GRAY8", SOURCE_PINNED,
      "cudamask ! video/x-raw", NULL},
  {"cudaequalize, system memory", "GRAY8", SOURCE_PINNED,
      "cudaequalize ! video/x-raw", NULL},
  {"cudaotsu, system memory", "GRAY8", SOURCE_PINNED,
      "cudaotsu ! video/x-raw", NULL},
  {"cudagray ! cudaequalize ! cudaotsu, CUDA memory", "RGBA", SOURCE_CUDA,
      DEVICE_CHAIN, NULL},
  {"cudamask, CUDA memory", "GRAY8", SOURCE_CUDA,
      "cudamask ! video/x-raw(memory:CUDAMemory)", NULL},
  {"cudaequalize, CUDA memory", "GRAY8", SOURCE_CUDA,
      "cudaequalize ! video/x-raw(memory:CUDAMemory)", NULL},
  {"cudaotsu, CUDA memory", "GRAY8", SOURCE_CUDA,
      "cudaotsu ! video/x-raw(memory:CUDAMemory)", NULL},
  /* Equalize and Otsu on 16-bit gray against 8-bit (target: GRAY16 at
   * least half the GRAY8 rate).  Expected to fail to link, n/a, until
   * cudaequalize and cudaotsu take GRAY16_LE.  --only "cudaequalize !
   * cudaotsu, GRAY" runs the two. */
  {"cudaequalize ! cudaotsu, GRAY8, CUDA memory", "GRAY8", SOURCE_CUDA,
      EQUALIZE_OTSU_CHAIN, NULL},
  {"cudaequalize ! cudaotsu, GRAY16_LE, CUDA memory", "GRAY16_LE",
      SOURCE_CUDA, EQUALIZE_OTSU_CHAIN, NULL, 0, "cudaequalize cudaotsu"},
  {"four-element chain, CUDA memory", "RGBA", SOURCE_CUDA,
      "cudagray ! cudaequalize ! cudaotsu ! cudamask ! "
        "video/x-raw(memory:CUDAMemory)", NULL},
  {"four-element chain, system memory ends", "RGBA", SOURCE_PINNED,
        "cudagray ! cudaequalize ! cudaotsu ! cudamask ! video/x-raw",
      NULL},
  {"nvcodec cudaupload ! cudadownload (no processing)", "RGBA",
      SOURCE_PINNED, "cudaupload ! video/x-raw(memory:CUDAMemory) ! "
        "cudadownload ! video/x-raw", NULL},
  {"nvcodec cudaupload ! cudaequalize ! cudadownload", "NV12",
      SOURCE_PINNED, "cudaupload ! cudaequalize ! "
        "video/x-raw(memory:CUDAMemory) ! cudadownload ! video/x-raw", NULL},
  {"nvcodec cudaupload ! cudagray ! cudaequalize ! cudaotsu ! cudadownload",
      "RGBA", SOURCE_PINNED, "cudaupload ! cudagray ! cudaequalize ! "
        "cudaotsu ! video/x-raw(memory:CUDAMemory) ! cudadownload ! "
        "video/x-raw", NULL},
  {"nvh264dec ! cudadownload (decode only)", "NV12", SOURCE_H264,
      "cudadownload ! video/x-raw", NULL},
  {"nvh264dec ! cudagray ! cudaequalize ! cudaotsu ! cudadownload", "NV12",
      SOURCE_H264, "cudagray ! cudaequalize ! cudaotsu ! "
        "video/x-raw(memory:CUDAMemory) ! cudadownload ! video/x-raw", NULL},
  {"nvh264dec ! cudagray ! cudaequalize ! cudaotsu, CUDA memory out",
      "NV12", SOURCE_H264, "cudagray ! cudaequalize ! cudaotsu ! "
        "video/x-raw(memory:CUDAMemory)", NULL},
  {"cudagray, system memory in, CUDA memory out", "RGBA", SOURCE_PINNED,
      "cudagray ! video/x-raw(memory:CUDAMemory)", NULL},
  /* A camera's YUY2 against RGBA, page-locked in, CUDA memory out (the
   * RGBA row is the one above under a name that pairs with YUY2's; the
   * target: YUY2 at least 1.5 times the RGBA rate).  --only "page-locked
   * in, CUDA memory out" runs the two. */
  {"cudagray, RGBA page-locked in, CUDA memory out", "RGBA", SOURCE_PINNED,
      "cudagray ! video/x-raw(memory:CUDAMemory)", NULL},
  {"cudagray, YUY2 page-locked in, CUDA memory out", "YUY2", SOURCE_PINNED,
      "cudagray ! video/x-raw(memory:CUDAMemory)", NULL, 0, "cudagray"},
  /* YUY2 from pageable memory, system memory out, against videoconvert
   * in front of cudagray (target: 10 times its rate).  --only "YUY2
   * pageable" runs the two. */
  {"cudagray, YUY2 pageable", "YUY2", SOURCE_PAGEABLE, GRAY_CHAIN, NULL, 0,
      "cudagray"},
  {"videoconvert ! cudagray, YUY2 pageable", "YUY2", SOURCE_PAGEABLE,
      VIDEOCONVERT_GRAY_CHAIN, NULL},
  /* System memory in and out, the kernels reading and writing it in place
   * across the bus (zero-copy=on) against copies to and from device
   * memory; --only "zero-copy" runs the four. */
  {"cudagray, RGBA page-locked, zero-copy off", "RGBA", SOURCE_PINNED,
      "cudagray backend=%s zero-copy=off ! video/x-raw", NULL},
  {"cudagray, RGBA page-locked, zero-copy on", "RGBA", SOURCE_PINNED,
      "cudagray backend=%s zero-copy=on ! video/x-raw", NULL},
  {"cudaequalize ! cudaotsu, GRAY8 page-locked, zero-copy off", "GRAY8",
        SOURCE_PINNED,
      "cudaequalize backend=%s zero-copy=off ! cudaotsu zero-copy=off ! "
        "video/x-raw", NULL},
  {"cudaequalize ! cudaotsu, GRAY8 page-locked, zero-copy on", "GRAY8",
        SOURCE_PINNED,
      "cudaequalize backend=%s zero-copy=on ! cudaotsu zero-copy=on ! "
        "video/x-raw", NULL},
  {"cudagray ! cudamask, CUDA memory in, system memory out", "RGBA",
      SOURCE_CUDA, "cudagray ! cudamask ! video/x-raw", NULL},
  {"videoconvert to GRAY8 (CPU)", "RGBA", SOURCE_PAGEABLE,
      "videoconvert ! video/x-raw,format=GRAY8", NULL},
  {"cudagray backend=cpu", "RGBA", SOURCE_PAGEABLE, GRAY_CHAIN, "cpu"},
  {"cudablur sigma=2, CUDA memory", "GRAY8", SOURCE_CUDA,
      "cudablur sigma=2 ! video/x-raw(memory:CUDAMemory)", NULL},
  {"cudamorph erode disk 2, CUDA memory", "GRAY8", SOURCE_CUDA,
      "cudamorph operation=erode shape=disk radius=2 ! "
        "video/x-raw(memory:CUDAMemory)", NULL},
  {"cudaotsu ! cudalabel, CUDA memory", "GRAY8", SOURCE_CUDA,
      "cudaotsu ! cudalabel ! video/x-raw(memory:CUDAMemory)", NULL},
  {"seed workflow, CUDA memory", "RGBA", SOURCE_CUDA, SEED_CHAIN
        " ! video/x-raw(memory:CUDAMemory)", NULL},
  {"seed workflow, system memory ends", "RGBA", SOURCE_PINNED, SEED_CHAIN
        " ! video/x-raw", NULL},
  /* What the region table costs: the workflow without cudalabel, with its
   * default table and messages, with every property. */
  {"seed workflow without cudalabel, CUDA memory", "RGBA", SOURCE_CUDA,
      SEED_CHAIN_WITHOUT_LABEL " ! video/x-raw(memory:CUDAMemory)", NULL},
  {"seed workflow, messages on, CUDA memory", "RGBA", SOURCE_CUDA,
      SEED_CHAIN " post-messages=true ! video/x-raw(memory:CUDAMemory)", NULL},
  {"seed workflow, solidity, messages on, CUDA memory", "RGBA",
        SOURCE_CUDA, SEED_CHAIN " post-messages=true properties="
        "label,area,intensity_mean,solidity ! video/x-raw(memory:CUDAMemory)",
      NULL},
  {"seed workflow, every property, messages on, CUDA memory", "RGBA",
      SOURCE_CUDA, SEED_CHAIN " post-messages=true properties="
        ALL_PROPERTIES " ! video/x-raw(memory:CUDAMemory)", NULL},
  /* The workflow on cell-like frames (about 300 regions at 1080p, 1200 at
   * 4K), the case its targets are set for. */
  {"seed workflow without cudalabel, cell-like frames", "RGBA",
      SOURCE_CUDA_CELLS, SEED_CHAIN_WITHOUT_LABEL
        " ! video/x-raw(memory:CUDAMemory)", NULL},
  {"seed workflow, messages on, cell-like frames", "RGBA", SOURCE_CUDA_CELLS,
      SEED_CHAIN " post-messages=true ! video/x-raw(memory:CUDAMemory)", NULL},
  /* What tracks cost (track=true) on the same frames: Otsu and labels
   * alone, then the whole workflow. */
  {"cudagray ! cudaotsu ! cudalabel, cell-like frames", "RGBA",
      SOURCE_CUDA_CELLS, "cudagray ! cudaotsu ! cudalabel"
        " ! video/x-raw(memory:CUDAMemory)", NULL},
  {"cudagray ! cudaotsu ! cudalabel track=true, cell-like frames", "RGBA",
      SOURCE_CUDA_CELLS, "cudagray ! cudaotsu ! cudalabel track=true"
        " ! video/x-raw(memory:CUDAMemory)", NULL},
  {"cudagray ! cudaotsu ! cudalabel analytics-meta=false, cell-like frames",
        "RGBA", SOURCE_CUDA_CELLS, "cudagray ! cudaotsu ! cudalabel "
        "analytics-meta=false ! video/x-raw(memory:CUDAMemory)", NULL},
  {"cudagray ! cudaotsu ! cudalabel analytics-meta=false track=true, "
        "cell-like frames", "RGBA", SOURCE_CUDA_CELLS, "cudagray ! cudaotsu ! "
        "cudalabel analytics-meta=false track=true ! "
        "video/x-raw(memory:CUDAMemory)", NULL},
  {"seed workflow, messages on, track=true, cell-like frames", "RGBA",
      SOURCE_CUDA_CELLS, SEED_CHAIN " post-messages=true track=true"
        " ! video/x-raw(memory:CUDAMemory)", NULL},
  /* What any fifth element costs the workflow on one streaming thread:
   * GStreamer's identity (no work), cudamask (one kernel). */
  {"seed workflow without cudalabel, + identity, cell-like frames", "RGBA",
      SOURCE_CUDA_CELLS, SEED_CHAIN_WITHOUT_LABEL
        " ! identity ! video/x-raw(memory:CUDAMemory)", NULL},
  {"seed workflow without cudalabel, + cudamask, cell-like frames", "RGBA",
      SOURCE_CUDA_CELLS, SEED_CHAIN_WITHOUT_LABEL
        " ! cudamask ! video/x-raw(memory:CUDAMemory)", NULL},
  /* Each set of statistics on random masks (many regions). */
  LABEL_ROW ("label,area", "label,area"),
  LABEL_ROW ("+ moments", "label,area,axis_major_length,orientation"),
  LABEL_ROW ("+ intensity range", "label,area,intensity_min,intensity_max"),
  LABEL_ROW ("+ contours", "label,area,perimeter,euler_number"),
  LABEL_ROW ("+ convex hull", "label,area,area_convex,solidity,"
      "feret_diameter_max"),
  LABEL_ROW ("+ holes", "label,area,area_filled"),
  LABEL_ROW ("every property", ALL_PROPERTIES),
  /* The per-region metas' cap: each region up to it costs an entry, and
   * the analytics meta a matrix of the cap's square. */
  LABEL_ROW ("default table, 512 region metas",
      "label,area,bbox,centroid,intensity_mean max-region-metas=512"),
  LABEL_ROW ("default table, 1000 region metas",
      "label,area,bbox,centroid,intensity_mean max-region-metas=1000"),
  /* Without a meta per region: the table alone. */
  LABEL_ROW ("default table, no per-region metas",
      "label,area,bbox,centroid,intensity_mean max-region-metas=0"),
  LABEL_ROW ("label,area, no per-region metas",
      "label,area max-region-metas=0"),
};

/* Many streams at once (--streams): the chain in one pipeline per stream,
 * from each kind of source. */
static const Case stream_cases[] = {
  {"cudagray ! cudaequalize ! cudaotsu, CUDA memory", "RGBA", SOURCE_CUDA,
      DEVICE_CHAIN, NULL},
  {"cudagray ! cudaequalize ! cudaotsu, page-locked system memory", "RGBA",
        SOURCE_PINNED, "cudagray ! cudaequalize ! cudaotsu ! video/x-raw",
      NULL},
  {"cudagray ! cudaequalize ! cudaotsu, pageable system memory", "RGBA",
        SOURCE_PAGEABLE, "cudagray ! cudaequalize ! cudaotsu ! video/x-raw",
      NULL},
  {"cudagray ! cudaequalize ! cudaotsu, pageable system memory, seen once",
        "RGBA", SOURCE_PAGEABLE_ONCE,
      "cudagray ! cudaequalize ! cudaotsu ! video/x-raw", NULL},
  {"imagefreeze ! cudagray ! cudaequalize ! cudaotsu, one pageable frame",
      "RGBA", SOURCE_PAGEABLE, "imagefreeze name=freeze ! cudagray ! "
        "cudaequalize ! cudaotsu ! video/x-raw", NULL, 0, NULL, TRUE},
  {"nvh264dec ! cudagray ! cudaequalize ! cudaotsu, CUDA memory out", "NV12",
      SOURCE_H264, "cudagray ! cudaequalize ! cudaotsu ! "
        "video/x-raw(memory:CUDAMemory)", NULL},
};

/* --quick --streams: the chain on the CPU, to keep the table working where
 * there is no GPU. */
static const Case cpu_stream_cases[] = {
  {"cudagray ! cudaequalize ! cudaotsu backend=cpu", "RGBA",
      SOURCE_PAGEABLE, "cudagray backend=%s ! cudaequalize backend=%s ! "
        "cudaotsu backend=%s ! video/x-raw", "cpu"},
  {"cudagray ! cudaequalize ! cudaotsu backend=cpu, seen once", "RGBA",
      SOURCE_PAGEABLE_ONCE, "cudagray backend=%s ! cudaequalize backend=%s ! "
        "cudaotsu backend=%s ! video/x-raw", "cpu"},
  {"imagefreeze ! cudagray ! cudaequalize ! cudaotsu backend=cpu", "RGBA",
        SOURCE_PAGEABLE, "imagefreeze name=freeze ! cudagray backend=%s ! "
        "cudaequalize backend=%s ! cudaotsu backend=%s ! video/x-raw", "cpu",
      0, NULL, TRUE},
};

/* The --streams table: 1080p frames (an eighth of the size with @quick),
 * each stream count of @counts. */
static void
run_stream_table (const gchar * counts, const gchar * only, gboolean quick,
    FILE * csv, guint * ok, guint * failed)
{
  const Case *cases = quick ? cpu_stream_cases : stream_cases;
  guint n_cases = quick ? G_N_ELEMENTS (cpu_stream_cases) :
      G_N_ELEMENTS (stream_cases);
  gint scale = quick ? 8 : 1;
  gchar **list = g_strsplit (counts, ",", -1);
  guint i, k;

  g_print ("| pipeline | source | streams | frames/s, all | frames/s, "
      "slowest stream | host µs/frame | 1080p30 streams |\n"
      "|---|---|---:|---:|---:|---:|---:|\n");
  for (i = 0; i < n_cases; i++) {
    const Case *c = &cases[i];

    /* nvh264dec decodes on one device whatever the pipeline's context:
     * left out when the pipelines are spread */
    if ((only && !strstr (c->name, only)) ||
        (c->memory == SOURCE_H264 && (clip_path == NULL || n_devices > 1)) ||
        (c->one_frame && !have_element ("imagefreeze")))
      continue;
    for (k = 0; list[k]; k++) {
      guint n = (guint) g_ascii_strtoull (list[k], NULL, 10);
      gdouble slowest, host_us, fps;
      gboolean starved;
      gchar *devices_label;

      if (n == 0)
        continue;
      devices_label = MIN (n, n_devices) > 1 ?
          g_strdup_printf (", %u GPUs", MIN (n, n_devices)) : g_strdup ("");
      fps = run_streams (c, 1920 / scale, 1080 / scale, n,
          quick ? 50000 : 500000, quick ? 200000 : 2000000, &slowest, &host_us,
          &starved);
      /* --quick (CI: the reference on small frames, on shared or
       * emulated cores) keeps the table working; fairness is measured on
       * the GPU host */
      g_print ("| %s%s | %s | %u | %.0f | %.0f%s | %.1f | %.0f |\n", c->name,
          devices_label, source_names[c->memory], n, fps, slowest,
          starved ? (quick ? " (starved)" : " (starved: failed)") : "",
          host_us, fps > 0 ? fps / 30 : 0);
      if (csv)
        fprintf (csv, "\"%s%s\",\"%s\",1080p,%u,%.1f,%.1f,%.1f\n", c->name,
            devices_label, source_names[c->memory], n, fps, slowest, host_us);
      if (fps > 0 && (!starved || quick))
        (*ok)++;
      else
        (*failed)++;
      g_free (devices_label);
    }
  }
  g_strfreev (list);
}

static const Case cpu_cases[] = {
  {"cudagray backend=cpu", "RGBA", SOURCE_PAGEABLE, GRAY_CHAIN, "cpu"},
  {"cudagray backend=cpu, pageable seen once", "RGBA", SOURCE_PAGEABLE_ONCE,
      GRAY_CHAIN, "cpu"},
  {"imagefreeze ! cudagray backend=cpu", "RGBA", SOURCE_PAGEABLE,
      "imagefreeze name=freeze ! " GRAY_CHAIN, "cpu", 0, NULL, TRUE},
  {"four-element chain backend=cpu", "RGBA", SOURCE_PAGEABLE,
      "cudagray backend=%s ! cudaequalize backend=%s ! cudaotsu "
        "backend=%s ! cudamask backend=%s ! video/x-raw", "cpu"},
  {"videoconvert to GRAY8 (CPU)", "RGBA", SOURCE_PAGEABLE,
      "videoconvert ! video/x-raw,format=GRAY8", NULL},
  /* The camera-format rows on the CPU: n/a where an element does not take
   * the format yet. */
  {"cudagray backend=cpu, YUY2 pageable", "YUY2", SOURCE_PAGEABLE,
      GRAY_CHAIN, "cpu", 0, "cudagray"},
  {"videoconvert ! cudagray backend=cpu, YUY2 pageable", "YUY2",
      SOURCE_PAGEABLE, VIDEOCONVERT_GRAY_CHAIN, "cpu"},
  {"cudaequalize ! cudaotsu backend=cpu, GRAY8", "GRAY8", SOURCE_PAGEABLE,
      "cudaequalize backend=%s ! cudaotsu backend=%s ! video/x-raw", "cpu"},
  {"cudaequalize ! cudaotsu backend=cpu, GRAY16_LE", "GRAY16_LE",
      SOURCE_PAGEABLE, "cudaequalize backend=%s ! cudaotsu backend=%s ! "
        "video/x-raw", "cpu", 0, "cudaequalize cudaotsu"},
};

static const struct
{
  const gchar *name;
  gint width, height;
} sizes[] = {
  {"1080p", 1920, 1080},
  {"4K", 3840, 2160},
};

static void
close_devices (void)
{
  guint i;

  for (i = 0; i < n_devices; i++)
    gst_clear_object (&cuda_contexts[i]);
  n_devices = 0;
}

/* A context for each device of @list (ids separated by commas, each
 * once), of the @count the driver has: 0, else 2 for a malformed list or
 * 77 (skipped) for a device that is not there. */
static int
open_devices (const gchar * list, int count)
{
  gchar **ids = g_strsplit (list, ",", -1);
  guint64 seen = 0;
  int ret = 0;
  guint k;

  for (k = 0; ids[k] && ret == 0; k++) {
    gchar *end;
    gint64 id = g_ascii_strtoll (ids[k], &end, 10);

    if (end == ids[k] || *end != '\0' || id < 0 || id >= 64 ||
        (seen & (G_GUINT64_CONSTANT (1) << id)) || n_devices == MAX_DEVICES) {
      g_printerr ("--devices: \"%s\": expected at most %d distinct device "
          "ids, from 0\n", list, MAX_DEVICES);
      ret = 2;
    } else if (id >= count) {
      g_printerr ("--devices: there is no device %s (%d found): skipped\n",
          ids[k], count);
      ret = 77;
    } else if (!(cuda_contexts[n_devices] = gst_cuda_context_new (id))) {
      g_printerr ("--devices: no CUDA context on device %s\n", ids[k]);
      ret = 2;
    } else {
      seen |= G_GUINT64_CONSTANT (1) << id;
      n_devices++;
    }
  }
  g_strfreev (ids);
  if (ret == 0 && n_devices == 0)
    ret = 2;
  if (ret != 0)
    close_devices ();
  return ret;
}

int
main (int argc, char **argv)
{
  gboolean quick = FALSE;
  gchar *csv_path = NULL, *only = NULL, *streams = NULL, *device_list = NULL;
  GOptionEntry entries[] = {
    {"quick", 0, 0, G_OPTION_ARG_NONE, &quick,
        "A few small CPU cases (no GPU needed)", NULL},
    {"csv", 0, 0, G_OPTION_ARG_FILENAME, &csv_path, "Write the rows as CSV",
        "FILE"},
    {"only", 0, 0, G_OPTION_ARG_STRING, &only,
        "Run only the cases whose name contains TEXT", "TEXT"},
    {"clip", 0, 0, G_OPTION_ARG_FILENAME, &clip_path,
          "An H.264 byte stream for the NVDEC cases (left out without it)",
        "FILE"},
    {"streams", 0, 0, G_OPTION_ARG_STRING, &streams,
        "Run the chain in N pipelines at once, for each N of the list "
          "(1080p), instead of the element table", "N,N..."},
    {"devices", 0, 0, G_OPTION_ARG_STRING, &device_list,
        "Spread the pipelines over these CUDA devices, in turn (default: "
          "device 0)", "ID,ID..."},
    {NULL}
  };
  GOptionContext *options = g_option_context_new ("- element benchmark");
  GError *error = NULL;
  const Case *cases;
  guint n_cases, i, s, ok = 0, failed = 0, not_yet = 0;
  FILE *csv = NULL;
  int devices = 0;

  g_option_context_add_main_entries (options, entries, NULL);
  g_option_context_add_group (options, gst_init_get_option_group ());
  if (!g_option_context_parse (options, &argc, &argv, &error)) {
    g_printerr ("%s\n", error->message);
    return 2;
  }
  g_option_context_free (options);

#if !CIP_TEST_SWITCHES
  /* A test-only switch that the plugin of this build never reads: its
   * rows would be the stream hand-over's, under the synchronized label. */
  if (g_getenv ("CIP_SYNC_HANDOVER")) {
    g_printerr ("CIP_SYNC_HANDOVER is set, but this build was configured "
        "without -Dtest-switches=true and its plugin does not read it: "
        "skipped\n");
    return 77;
  }
  if (g_getenv ("CIP_STAGE_PAGEABLE")) {
    g_printerr ("CIP_STAGE_PAGEABLE is set, but this build was configured "
        "without -Dtest-switches=true and its plugin does not read it: "
        "skipped\n");
    return 77;
  }
#endif

  if (!quick) {
    if (cip_device_count (&devices) != CIP_OK || !gst_cuda_load_library ()) {
      g_printerr ("no usable CUDA device: use --quick\n");
      return 77;
    }
    gst_cuda_memory_init_once ();
    int opened = open_devices (device_list ? device_list : "0", devices);

    if (opened != 0)
      return opened;
  }
  cases = quick ? cpu_cases : gpu_cases;
  n_cases = quick ? G_N_ELEMENTS (cpu_cases) : G_N_ELEMENTS (gpu_cases);

  if (csv_path) {
    csv = fopen (csv_path, "w");
    if (csv == NULL) {
      g_printerr ("cannot write %s\n", csv_path);
      return 2;
    }
    fprintf (csv, streams ? "case,source,size,streams,fps,slowest_fps,"
        "host_us\n" : "case,source,size,width,height,fps,host_us\n");
  }
  if (streams) {
    run_stream_table (streams, only, quick, csv, &ok, &failed);
    n_cases = 0;
  }

  if (n_cases > 0)
    g_print ("| pipeline | source | size | frames/s | host µs/frame |\n"
        "|---|---|---|---:|---:|\n");
  for (i = 0; i < n_cases; i++) {
    guint major, minor, micro, nano;

    if ((only && !strstr (cases[i].name, only)) ||
        (cases[i].memory == SOURCE_H264 && clip_path == NULL))
      continue;
    gst_version (&major, &minor, &micro, &nano);
    if (minor < cases[i].since_minor) {
      g_print ("| %s | %s | | n/a before GStreamer 1.%u | |\n",
          cases[i].name, source_names[cases[i].memory], cases[i].since_minor);
      continue;
    }
    /* imagefreeze is gst-plugins-good's: not every installation has it */
    if (cases[i].one_frame && !have_element ("imagefreeze")) {
      g_print ("| %s | %s | | n/a: no imagefreeze here | |\n",
          cases[i].name, source_names[cases[i].memory]);
      continue;
    }
    if (cases[i].needs) {
      gchar *lacking = element_lacking (cases[i].needs, cases[i].format);

      if (lacking) {
        g_print ("| %s | %s | | n/a: %s does not take %s yet | |\n",
            cases[i].name, source_names[cases[i].memory], lacking,
            cases[i].format);
        g_free (lacking);
        not_yet++;
        continue;
      }
    }
    for (s = 0; s < G_N_ELEMENTS (sizes); s++) {
      gint width = quick ? sizes[s].width / 8 : sizes[s].width;
      gint height = quick ? sizes[s].height / 8 : sizes[s].height;
      gdouble fps, host_us;

      /* The clip has one size: the first row's. */
      if (cases[i].memory == SOURCE_H264 && s > 0)
        break;
      fps = run_case (&cases[i], width, height, quick ? 50000 : 500000,
          quick ? 200000 : 2000000, &host_us);

      g_print ("| %s | %s | %dx%d | %.0f | %.1f |\n", cases[i].name,
          source_names[cases[i].memory], width, height, fps, host_us);
      if (csv)
        fprintf (csv, "\"%s\",\"%s\",%s,%d,%d,%.1f,%.1f\n", cases[i].name,
            source_names[cases[i].memory], sizes[s].name, width, height,
            fps, host_us);
      if (fps > 0)
        ok++;
      else
        failed++;
    }
  }

  /* The PyCUDA article's sizes, RGBA to gray, system memory end to end. */
  if (!quick && !only && !streams) {
    static const gint large[][2] = { {4096, 2440}, {9000, 4637} };

    for (s = 0; s < G_N_ELEMENTS (large); s++) {
      for (i = 0; i < 2; i++) {
        gdouble host_us, fps = run_case (&gpu_cases[i], large[s][0],
            large[s][1], 500000, 2000000, &host_us);

        g_print ("| %s | %s | %dx%d | %.0f (%.2f ms/frame) | %.1f |\n",
            gpu_cases[i].name, source_names[gpu_cases[i].memory],
            large[s][0], large[s][1], fps, fps > 0 ? 1000.0 / fps : 0, host_us);
        if (csv)
          fprintf (csv, "\"%s\",\"%s\",%dx%d,%d,%d,%.1f,%.1f\n",
              gpu_cases[i].name, source_names[gpu_cases[i].memory],
              large[s][0], large[s][1], large[s][0], large[s][1], fps, host_us);
        if (fps > 0)
          ok++;
        else
          failed++;
      }
    }
  }

  if (csv)
    fclose (csv);
  close_devices ();
  g_print ("%u passed, %u failed", ok, failed);
  if (not_yet)
    g_print (", %u n/a (an element does not take the format yet)", not_yet);
  g_print ("\n");
  return failed ? 1 : 0;
}
