/* gst-cuda-imgproc
 * Copyright (C) 2026 The gst-cuda-imgproc authors
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2 of the License, or (at your option) any later version.
 */

/* Injected faults (CIP_FAULT, see gpu/cip-cuda.cuh; read only by builds
 * configured with -Dtest-switches=true, elsewhere this program skips with
 * 77 saying so): a failed allocation
 * or a failed launch in one of several pipelines running at once.  The
 * pipeline that took it posts a clear error (LIBRARY or RESOURCE, from one
 * of the plugin's elements) and stops; the others deliver every frame,
 * equal to the cpu backend's; a pipeline started afterwards works.
 *
 * Without CIP_FAULT, runs itself once per fault of the list (or of
 * --faults) and prints the table; with it, runs that one case.
 *
 *   test-gpu-faults [--faults alloc:1,launch:10,...]
 */

#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include "gpu-host.h"
#include "test-util.h"

#define N_FRAMES 60

/* Each pipeline makes several allocations at start and caps time, and
 * several launches per frame: these land in different places. */
static const gchar *default_faults = "alloc:1,alloc:2,alloc:3,alloc:5,"
    "alloc:8,alloc:13,alloc:21,alloc:34,launch:1,launch:10,launch:100,"
    "launch:1000";

/* A single element, then chains with scratch users (blur, morph, label). */
static const guint chain_indices[] = { 0, 7, 8, 9 };

static gchar *faults_arg;

static GOptionEntry entries[] = {
  {"faults", 0, 0, G_OPTION_ARG_STRING, &faults_arg,
      "Comma-separated faults to inject, one run each", "LIST"},
  {NULL}
};

/* From one of the plugin's elements (the source's path ends in
 * "GstCudaGray:cudagray3"), not appsrc's "Internal data stream error". */
static gboolean
clear_error (GhRun * run)
{
  return run->error && (run->error->domain == GST_LIBRARY_ERROR ||
      run->error->domain == GST_RESOURCE_ERROR) &&
      run->error_source && strstr (run->error_source, ":cuda") != NULL;
}

/* With CIP_FAULT set: one case; prints one row of the table. */
static int
run_case (const gchar * fault)
{
  GhRun *runs[G_N_ELEMENTS (chain_indices)], *fresh;
  guint i, n_failed = 0, n_clean = 0;
  GhRun *failed = NULL;
  gboolean finished, fresh_ok, ok;
  gchar *failed_what;

  for (i = 0; i < G_N_ELEMENTS (chain_indices); i++)
    gh_reference (&gh_chains[chain_indices[i]]);

  for (i = 0; i < G_N_ELEMENTS (runs); i++) {
    const GhChain *chain = &gh_chains[chain_indices[i]];

    runs[i] = gh_run_new (chain, gh_backend (), N_FRAMES, gh_reference (chain));
  }
  for (i = 0; i < G_N_ELEMENTS (runs); i++)
    gh_run_start (runs[i]);
  finished = gh_runs_wait (runs, G_N_ELEMENTS (runs), 120 * GST_SECOND);

  for (i = 0; i < G_N_ELEMENTS (runs); i++) {
    gh_run_stop (runs[i]);
    if (runs[i]->n_errors > 0) {
      n_failed++;
      failed = runs[i];
    } else if (gh_run_clean (runs[i])) {
      n_clean++;
    }
  }

  /* The process is still usable. */
  fresh = gh_run_new (&gh_chains[chain_indices[2]], gh_backend (), N_FRAMES,
      gh_reference (&gh_chains[chain_indices[2]]));
  fresh_ok = gh_run_start (fresh) && gh_runs_wait (&fresh, 1,
      60 * GST_SECOND) && gh_run_clean (fresh);
  gh_run_free (fresh);

  ok = finished && n_failed == 1 && n_clean == G_N_ELEMENTS (runs) - 1 &&
      clear_error (failed) && failed->mismatches == 0 && fresh_ok;
  if (failed)
    failed_what = g_strdup_printf ("%s | %s %s/%d | %s | %" G_GINT64_FORMAT
        " of %" G_GINT64_FORMAT, failed->chain->name, failed->error_source,
        g_quark_to_string (failed->error->domain), failed->error->code,
        failed->error->message, failed->received, failed->pushed);
  else
    failed_what = g_strdup ("none | - | - | -");
  g_print ("| %s | %s | %u of %u | %s |%s\n", fault, failed_what, n_clean,
      (guint) G_N_ELEMENTS (runs) - (failed ? 1 : 0),
      fresh_ok ? "yes" : "no", ok ? "" : " FAILED");
  if (failed)
    g_printerr ("%s: %s (%s)\n", fault, failed->error->message,
        failed->error_debug);
  if (!finished)
    g_printerr ("%s: a pipeline neither ended nor failed\n", fault);
  g_free (failed_what);
  for (i = 0; i < G_N_ELEMENTS (runs); i++)
    gh_run_free (runs[i]);
  return ok ? 0 : 1;
}

int
main (int argc, char **argv)
{
  const gchar *fault = g_getenv ("CIP_FAULT");
  GError *error = NULL;
  gchar **faults;
  gboolean all_ok = TRUE;
  guint i;

#if !CIP_TEST_SWITCHES
  /* The plugin and libcip of this build never read CIP_FAULT: every run
   * would go through without a fault, and pass for nothing. */
  g_print ("built without -Dtest-switches=true, so CIP_FAULT is not read "
      "and no fault can be injected (meson configure BUILD "
      "-Dtest-switches=true): skipped\n");
  return CIP_TEST_SKIP;
#endif
  if (!gh_init (&argc, &argv, entries, "- injected faults"))
    return CIP_TEST_SKIP;
  if (fault && *fault)
    return run_case (fault);

  g_print ("| fault | pipeline that failed | error from, domain/code | "
      "message | its frames out of in | others clean | new pipeline "
      "works |\n|---|---|---|---|---|---|---|\n");
  faults = g_strsplit (faults_arg ? faults_arg : default_faults, ",", -1);
  for (i = 0; faults[i]; i++) {
    gchar *child_argv[] = { argv[0], NULL };
    gchar **envp = g_environ_setenv (g_get_environ (), "CIP_FAULT",
        faults[i], TRUE);
    gchar *out = NULL;
    gint status = 0;

    if (!g_spawn_sync (NULL, child_argv, envp, G_SPAWN_CHILD_INHERITS_STDIN,
            NULL, NULL, &out, NULL, &status, &error))
      g_error ("%s", error->message);
    if (!WIFEXITED (status) || WEXITSTATUS (status) != 0) {
      all_ok = FALSE;
      /* A crash prints no row. */
      if (out == NULL || strstr (out, "| ") == NULL)
        g_print ("| %s | crashed or hung (wait status %d) |||||%s\n",
            faults[i], status, " FAILED");
    }
    if (out)
      g_print ("%s", out);
    g_free (out);
    g_strfreev (envp);
  }
  g_strfreev (faults);
  g_free (faults_arg);
  g_print ("%s\n", all_ok ? "faults: PASS" : "faults: FAIL");
  return all_ok ? 0 : 1;
}
