/* gst-cuda-imgproc
 * Copyright (C) 2026 The gst-cuda-imgproc authors
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2 of the License, or (at your option) any later version.
 */

/* What the GPU-host robustness programs share: element chains fed by an
 * appsrc and drained by an appsink, each output frame checked against what
 * the cpu backend makes of the same input, device memory figures. */

#ifndef __CIP_GPU_HOST_H__
#define __CIP_GPU_HOST_H__

#include <gst/gst.h>
#include <gst/app/gstappsink.h>
#include <gst/app/gstappsrc.h>
#include <gst/video/video.h>

G_BEGIN_DECLS

/* Distinct input frames per format; frame i is frame i % GH_N_FRAMES. */
#define GH_N_FRAMES 8

typedef struct
{
  const gchar *name;
  GstVideoFormat format;        /* of the frames appsrc pushes */
  const gchar *chain;           /* launch syntax, "%s" for the backend */
} GhChain;

/* Each element alone, then chains of several. */
extern const GhChain gh_chains[];
extern const guint gh_n_single_chains;
extern const guint gh_n_chains;

typedef struct
{
  const GhChain *chain;
  const gchar *backend;
  GstElement *pipeline;
  GstElement *src;
  guint n_frames;               /* to push; 0: until gh_run_stop() */
  gint stop;                    /* atomic: the feeder stops pushing */
  GThread *feeder;

  /* The cpu backend's output hashes, one per input frame, to check
   * against; NULL: not checked.  Or, when @record is set, where the
   * output hashes are kept, in order. */
  GArray *expected;
  GArray *recorded;

  /* Counters, updated atomically by the streaming threads. */
  gint64 pushed;
  gint64 received;
  gint64 mismatches;

  /* From the bus. */
  gboolean eos;
  GError *error;
  gchar *error_debug;
  gchar *error_source;
  guint n_errors;
  guint n_warnings;
} GhRun;

/* Parses the command line (@entries and GStreamer's options; a bad one is
 * fatal), then the checks every program starts with; FALSE when there is
 * no usable CUDA device (the program exits with 77). */
gboolean gh_init (int *argc, char ***argv, const GOptionEntry * entries,
    const gchar * summary);

/* The backend under test: "cuda", or "cpu" when CIP_GPU_HOST_BACKEND=cpu
 * (which checks the programs themselves where there is no GPU). */
const gchar *gh_backend (void);

/* Device memory in use on device 0, in bytes (total minus free, as
 * cudaMemGetInfo() says: every process and context included). */
gint64 gh_device_memory_used (void);
/* Resident memory of this process, in bytes. */
gint64 gh_host_memory_used (void);

/* A pipeline "appsrc ! @chain (backend @backend) ! video/x-raw ! appsink",
 * stopped.  @expected: hashes to check the output against (borrowed), or
 * NULL. */
GhRun *gh_run_new (const GhChain * chain, const gchar * backend,
    guint n_frames, GArray * expected);
/* Clears the counters and the bus figures, for another start. */
void gh_run_reset (GhRun * run);
/* Sets the pipeline PLAYING and starts pushing frames. */
gboolean gh_run_start (GhRun * run);
/* Pops what is on the bus, waiting up to @timeout for the first message. */
void gh_run_poll (GhRun * run, GstClockTime timeout);
/* TRUE once the run reached EOS or posted an error. */
gboolean gh_run_done (GhRun * run);
/* Polls every run until each is done; FALSE if @timeout passed first. */
gboolean gh_runs_wait (GhRun ** runs, guint n_runs, GstClockTime timeout);
/* Asks the feeder to end the stream after the frame in flight. */
void gh_run_finish (GhRun * run);
/* Sets the pipeline to NULL and joins the feeder. */
void gh_run_stop (GhRun * run);
void gh_run_free (GhRun * run);

/* The sums of the "stats" fields device-allocations and device-frees over
 * the run's cudaimgproc elements. */
void gh_run_allocations (GhRun * run, guint64 * allocations,
    guint64 * frees);
/* TRUE when the run reached EOS with every pushed frame out, and equal to
 * the cpu backend's. */
gboolean gh_run_clean (GhRun * run);

/* The cpu backend's output hashes for @chain, one per input frame (cached;
 * owned by the cache). */
GArray *gh_reference (const GhChain * chain);

/* "%.1f" of @bytes in MiB. */
gdouble gh_mib (gint64 bytes);

G_END_DECLS

#endif /* __CIP_GPU_HOST_H__ */
