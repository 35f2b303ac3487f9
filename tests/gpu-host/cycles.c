/* gst-cuda-imgproc
 * Copyright (C) 2026 The gst-cuda-imgproc authors
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2 of the License, or (at your option) any later version.
 */

/* Each element, NULL -> PLAYING -> NULL many times with a frame each time:
 * device memory stays flat, every allocation is freed, every frame is
 * right.
 *
 *   test-gpu-cycles [--cycles N] [--element NAME]
 */

#include "gstcudaimgproccompat.h"

#include "gpu-host.h"
#include "test-util.h"

#define WARM_UP_CYCLES 10
/* Device memory is handed out in pages of up to 2 MiB: allow a few. */
#define GROWTH_ALLOWED (8 * 1024 * 1024)

static gint n_cycles = 1000;
static gchar *only_element;

static GOptionEntry entries[] = {
  {"cycles", 0, 0, G_OPTION_ARG_INT, &n_cycles, "Cycles per element", "N"},
  {"element", 0, 0, G_OPTION_ARG_STRING, &only_element,
      "Only this element", "NAME"},
  {NULL}
};

/* One NULL -> PLAYING -> EOS -> NULL cycle with one frame; TRUE when the
 * frame came out right. */
static gboolean
cycle (GhRun * run, GstContext * context)
{
  gboolean ok;

  gh_run_reset (run);
  /* The application's context, as it would share one: the elements find
   * it instead of making a context per start. */
  if (context)
    gst_element_set_context (run->pipeline, context);
  ok = gh_run_start (run) && gh_runs_wait (&run, 1, 20 * GST_SECOND) &&
      gh_run_clean (run);
  gh_run_stop (run);
  return ok;
}

int
main (int argc, char **argv)
{
  GstCudaContext *cuda = NULL;
  GstContext *context = NULL;
  gboolean all_ok = TRUE;
  guint i;

  if (!gh_init (&argc, &argv, entries, "- state cycles"))
    return CIP_TEST_SKIP;
#if HAVE_GST_CUDA
  /* Without libgstcuda (GStreamer 1.20) there is no context to hand the
   * pipelines: each element takes the device's primary context. */
  if (g_strcmp0 (gh_backend (), "cuda") == 0) {
    if (!gst_cuda_load_library () || !(cuda = gst_cuda_context_new (0)))
      g_error ("no GstCudaContext for device 0");
    context = gst_context_new_cuda_context (cuda);
  }
#endif

  g_print ("| element | cycles | frames right | device allocations | "
      "device frees | device MiB at start | after %d cycles | after all | "
      "growth MiB | after teardown | ms per cycle |\n", WARM_UP_CYCLES);
  g_print ("|---|---|---|---|---|---|---|---|---|---|---|\n");

  for (i = 0; i < gh_n_single_chains; i++) {
    const GhChain *chain = &gh_chains[i];
    GArray *expected;
    GhRun *run;
    gint64 start, warm, end, teardown, t0, t1;
    guint64 allocations, frees;
    gint c, right = 0;
    gboolean ok;

    if (only_element && g_strcmp0 (only_element, chain->name) != 0)
      continue;
    expected = gh_reference (chain);
    start = gh_device_memory_used ();
    run = gh_run_new (chain, gh_backend (), 1, expected);
    for (c = 0; c < WARM_UP_CYCLES; c++)
      right += cycle (run, context);
    warm = gh_device_memory_used ();
    t0 = g_get_monotonic_time ();
    for (; c < n_cycles; c++)
      right += cycle (run, context);
    t1 = g_get_monotonic_time ();
    end = gh_device_memory_used ();
    gh_run_allocations (run, &allocations, &frees);
    gh_run_free (run);
    teardown = gh_device_memory_used ();

    ok = right == MAX (n_cycles, WARM_UP_CYCLES) && allocations == frees &&
        (allocations > 0 || context == NULL) && end - warm <= GROWTH_ALLOWED;
    all_ok &= ok;
    g_print ("| %s | %d | %d | %" G_GUINT64_FORMAT " | %" G_GUINT64_FORMAT
        " | %.1f | %.1f | %.1f | %+.1f | %.1f | %.2f |%s\n", chain->name,
        MAX (n_cycles, WARM_UP_CYCLES), right, allocations, frees,
        gh_mib (start), gh_mib (warm), gh_mib (end), gh_mib (end - warm),
        gh_mib (teardown), n_cycles > WARM_UP_CYCLES ?
        (t1 - t0) / 1000.0 / (n_cycles - WARM_UP_CYCLES) : 0.0,
        ok ? "" : " FAILED");
  }

  if (context)
    gst_context_unref (context);
  gst_clear_object (&cuda);
  g_free (only_element);
  g_print ("%s\n", all_ok ? "cycles: PASS" : "cycles: FAIL");
  return all_ok ? 0 : 1;
}
