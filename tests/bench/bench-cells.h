/* gst-cuda-imgproc
 * Copyright (C) 2026 The gst-cuda-imgproc authors
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2 of the License, or (at your option) any later version.
 */

/* The cell-like frames both benchmarks run the segmentation workflow on. */

#ifndef __BENCH_CELLS_H__
#define __BENCH_CELLS_H__

#include <glib.h>

G_BEGIN_DECLS

void bench_draw_cells (guint8 * rgba, gint width, gint height, gsize stride,
    guint32 seed);

G_END_DECLS

#endif /* __BENCH_CELLS_H__ */
