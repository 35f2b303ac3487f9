/* gst-cuda-imgproc
 * Copyright (C) 2026 The gst-cuda-imgproc authors
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2 of the License, or (at your option) any later version.
 */

#include "bench-cells.h"

/* A cell-like RGBA frame, as microscopy gives: a dim noisy background and
 * bright round cells with noisy insides, one per 6,900 pixels (300 at
 * 1080p), most of them apart. */
void
bench_draw_cells (guint8 * rgba, gint width, gint height, gsize stride,
    guint32 seed)
{
  GRand *rand = g_rand_new_with_seed (seed);
  guint n = (guint) ((gint64) width * height / 6900), i;
  gint x, y;

  for (y = 0; y < height; y++)
    for (x = 0; x < width; x++) {
      guint8 v = 20 + g_rand_int_range (rand, 0, 20);
      guint8 *px = rgba + (gsize) y * stride + 4 * x;

      px[0] = px[1] = px[2] = v;
      px[3] = 255;
    }
  for (i = 0; i < n; i++) {
    gint cx = g_rand_int_range (rand, 0, width);
    gint cy = g_rand_int_range (rand, 0, height);
    gint r = g_rand_int_range (rand, 8, 22);

    for (y = MAX (cy - r, 0); y <= MIN (cy + r, height - 1); y++)
      for (x = MAX (cx - r, 0); x <= MIN (cx + r, width - 1); x++) {
        guint8 *px = rgba + (gsize) y * stride + 4 * x;

        if ((x - cx) * (x - cx) + (y - cy) * (y - cy) <= r * r)
          px[0] = px[1] = px[2] = 150 + g_rand_int_range (rand, 0, 60);
      }
  }
  g_rand_free (rand);
}
