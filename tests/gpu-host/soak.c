/* gst-cuda-imgproc
 * Copyright (C) 2026 The gst-cuda-imgproc authors
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2 of the License, or (at your option) any later version.
 */

/* Pipelines pushing frames as fast as they go, for minutes: device memory
 * does not grow after the first interval, no pipeline stalls, and at the
 * end every frame pushed came out, equal to the cpu backend's.
 *
 *   test-gpu-soak [--minutes M] [--pipelines N] [--interval S]
 */

#include "gpu-host.h"
#include "test-util.h"

/* Device memory is handed out in pages of up to 2 MiB: allow a few. */
#define GROWTH_ALLOWED (8 * 1024 * 1024)

static gdouble minutes = 10;
static gint n_pipelines = 8;
static gint interval = 30;

static GOptionEntry entries[] = {
  {"minutes", 0, 0, G_OPTION_ARG_DOUBLE, &minutes, "Duration", "M"},
  {"pipelines", 0, 0, G_OPTION_ARG_INT, &n_pipelines, "Pipelines at once",
      "N"},
  {"interval", 0, 0, G_OPTION_ARG_INT, &interval,
      "Seconds between samples", "S"},
  {NULL}
};

static gint64
frames_out (GhRun * run)
{
  return __atomic_load_n (&run->received, __ATOMIC_RELAXED);
}

int
main (int argc, char **argv)
{
  GhRun **runs;
  gint64 *last;
  gint64 t0, end_time, previous_total = 0, previous_time;
  gint64 device_reference = -1, device_last = 0, host_reference = -1;
  gint64 host_last = 0, device_max = 0, total_in = 0, total_out = 0;
  guint stalls = 0;
  gboolean all_ok = TRUE, failed_early = FALSE, finished;
  gint i;

  if (!gh_init (&argc, &argv, entries, "- soak"))
    return CIP_TEST_SKIP;
  if (n_pipelines < 1 || interval < 1 || minutes <= 0)
    g_error ("--pipelines, --interval and --minutes must be positive");

  runs = g_new0 (GhRun *, n_pipelines);
  last = g_new0 (gint64, n_pipelines);
  for (i = 0; i < n_pipelines; i++) {
    const GhChain *chain = &gh_chains[i % gh_n_chains];

    runs[i] = gh_run_new (chain, gh_backend (), 0, gh_reference (chain));
  }

  g_print ("| minute | frames out | frames/s | device MiB | host RSS MiB |\n"
      "|---|---|---|---|---|\n");
  t0 = previous_time = g_get_monotonic_time ();
  end_time = t0 + (gint64) (minutes * 60e6);
  for (i = 0; i < n_pipelines; i++)
    gh_run_start (runs[i]);

  while (g_get_monotonic_time () < end_time && !failed_early) {
    gint64 now, total = 0, device, host;

    g_usleep (MIN ((gint64) interval * G_USEC_PER_SEC,
            MAX (end_time - g_get_monotonic_time (), 1)));
    now = g_get_monotonic_time ();
    for (i = 0; i < n_pipelines; i++) {
      gint64 out = frames_out (runs[i]);

      gh_run_poll (runs[i], 0);
      failed_early |= gh_run_done (runs[i]);
      if (out == last[i]) {
        g_printerr ("pipeline %d (%s) made no frame in %d s\n", i,
            runs[i]->chain->name, interval);
        stalls++;
      }
      last[i] = out;
      total += out;
    }
    device = gh_device_memory_used ();
    host = gh_host_memory_used ();
    /* After the first interval, every buffer and pool is in place. */
    if (device_reference < 0) {
      device_reference = device;
      host_reference = host;
    }
    device_max = MAX (device_max, device);
    device_last = device;
    host_last = host;
    g_print ("| %.1f | %" G_GINT64_FORMAT " | %.0f | %.1f | %.1f |\n",
        (now - t0) / 60e6, total, (total - previous_total) /
        ((now - previous_time) / 1e6), gh_mib (device), gh_mib (host));
    previous_total = total;
    previous_time = now;
  }

  /* Each feeder ends its stream; everything pushed must come out. */
  for (i = 0; i < n_pipelines; i++)
    gh_run_finish (runs[i]);
  finished = gh_runs_wait (runs, n_pipelines, 60 * GST_SECOND);

  g_print ("\n| pipeline | chain | frames in | frames out | differing from "
      "cpu | errors | warnings |\n|---|---|---|---|---|---|---|\n");
  for (i = 0; i < n_pipelines; i++) {
    GhRun *run = runs[i];
    gboolean ok;

    gh_run_stop (run);
    ok = gh_run_clean (run);
    all_ok &= ok;
    total_in += run->pushed;
    total_out += run->received;
    g_print ("| %d | %s | %" G_GINT64_FORMAT " | %" G_GINT64_FORMAT " | %"
        G_GINT64_FORMAT " | %u | %u |%s\n", i, run->chain->name, run->pushed,
        run->received, run->mismatches, run->n_errors, run->n_warnings,
        ok ? "" : " FAILED");
    if (run->error)
      g_print ("  error from %s: %s (%s)\n", run->error_source,
          run->error->message, run->error_debug);
    gh_run_free (run);
  }

  all_ok &= finished && !failed_early && stalls == 0 &&
      device_last - device_reference <= GROWTH_ALLOWED;
  g_print ("\n%.1f minutes, %d pipelines: %" G_GINT64_FORMAT " frames in, %"
      G_GINT64_FORMAT " out (%" G_GINT64_FORMAT " lost); device memory %.1f "
      "MiB after the first interval, %.1f at the end (%+.1f, peak %.1f); "
      "host RSS %.1f -> %.1f MiB (%+.1f); %u stalls\n",
      (g_get_monotonic_time () - t0) / 60e6, n_pipelines, total_in,
      total_out, total_in - total_out, gh_mib (device_reference),
      gh_mib (device_last), gh_mib (device_last - device_reference),
      gh_mib (device_max), gh_mib (host_reference), gh_mib (host_last),
      gh_mib (host_last - host_reference), stalls);
  g_free (runs);
  g_free (last);
  g_print ("%s\n", all_ok ? "soak: PASS" : "soak: FAIL");
  return all_ok ? 0 : 1;
}
