/* gst-cuda-imgproc
 * Copyright (C) 2026 The gst-cuda-imgproc authors
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2 of the License, or (at your option) any later version.
 */

/* Many pipelines in one process at once, each with its own elements (and
 * so its own CUDA context and streams): every frame comes out, equal to
 * the cpu backend's, with no error or warning.
 *
 *   test-gpu-parallel [--pipelines N] [--frames N]
 */

#include "gpu-host.h"
#include "test-util.h"

static gint n_pipelines = 16;
static gint n_frames = 300;

static GOptionEntry entries[] = {
  {"pipelines", 0, 0, G_OPTION_ARG_INT, &n_pipelines, "Pipelines at once",
      "N"},
  {"frames", 0, 0, G_OPTION_ARG_INT, &n_frames, "Frames per pipeline", "N"},
  {NULL}
};

int
main (int argc, char **argv)
{
  GhRun **runs;
  gint64 memory_before, memory_after, t0, t1;
  gint64 total_in = 0, total_out = 0;
  gboolean all_ok = TRUE, finished;
  gint i;

  if (!gh_init (&argc, &argv, entries, "- parallel pipelines"))
    return CIP_TEST_SKIP;
  if (n_pipelines < 1 || n_frames < 1)
    g_error ("--pipelines and --frames must be positive");

  runs = g_new0 (GhRun *, n_pipelines);
  for (i = 0; i < n_pipelines; i++)
    gh_reference (&gh_chains[i % gh_n_chains]);
  memory_before = gh_device_memory_used ();

  t0 = g_get_monotonic_time ();
  for (i = 0; i < n_pipelines; i++) {
    const GhChain *chain = &gh_chains[i % gh_n_chains];

    runs[i] = gh_run_new (chain, gh_backend (), n_frames, gh_reference (chain));
  }
  /* Started together: contexts, streams and buffers are made at once. */
  for (i = 0; i < n_pipelines; i++)
    gh_run_start (runs[i]);
  finished = gh_runs_wait (runs, n_pipelines, 300 * GST_SECOND);
  t1 = g_get_monotonic_time ();
  memory_after = gh_device_memory_used ();

  g_print ("| pipeline | chain | frames in | frames out | differing from "
      "cpu | errors | warnings | allocations / frees |\n");
  g_print ("|---|---|---|---|---|---|---|---|\n");
  for (i = 0; i < n_pipelines; i++) {
    GhRun *run = runs[i];
    guint64 allocations, frees;
    gboolean ok;

    gh_run_stop (run);
    gh_run_allocations (run, &allocations, &frees);
    ok = gh_run_clean (run) && allocations == frees;
    all_ok &= ok;
    total_in += run->pushed;
    total_out += run->received;
    g_print ("| %d | %s | %" G_GINT64_FORMAT " | %" G_GINT64_FORMAT " | %"
        G_GINT64_FORMAT " | %u | %u | %" G_GUINT64_FORMAT " / %"
        G_GUINT64_FORMAT " |%s\n", i, run->chain->name, run->pushed,
        run->received, run->mismatches, run->n_errors, run->n_warnings,
        allocations, frees, ok ? "" : " FAILED");
    if (run->error)
      g_print ("  error from %s: %s (%s)\n", run->error_source,
          run->error->message, run->error_debug);
    gh_run_free (run);
  }
  all_ok &= finished;

  g_print ("\n%d pipelines at once: %" G_GINT64_FORMAT " frames in, %"
      G_GINT64_FORMAT " out in %.1f s (%.0f frames/s); device memory %.1f "
      "MiB before, %.1f MiB at the end (all pipelines still allocated)%s\n",
      n_pipelines, total_in, total_out, (t1 - t0) / 1e6,
      total_out / ((t1 - t0) / 1e6), gh_mib (memory_before),
      gh_mib (memory_after), finished ? "" : "; TIMED OUT");
  g_print ("device memory after teardown: %.1f MiB\n",
      gh_mib (gh_device_memory_used ()));
  g_free (runs);
  g_print ("%s\n", all_ok ? "parallel: PASS" : "parallel: FAIL");
  return all_ok ? 0 : 1;
}
