/* gst-cuda-imgproc
 * Copyright (C) 2026 The gst-cuda-imgproc authors
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2 of the License, or (at your option) any later version.
 */

/* Allocation: the pools the element offers upstream and picks for its
 * output.  Upstream gets device frames of our context for CUDA caps, and
 * page-locked frames for system memory, so that uploads run at full
 * speed; the output comes from our CUDA pool (our context, and GRAY8,
 * which no other CUDA pool has), or from a page-locked pool when
 * downstream offers none. */

#ifndef __GST_CUDA_IMGPROC_ALLOCATION_H__
#define __GST_CUDA_IMGPROC_ALLOCATION_H__

#include <gst/gst.h>

#include "gstcudaimgprocdevice.h"

G_BEGIN_DECLS

/* Adds our pool, allocator and metas to upstream's allocation @query;
 * the element holds up to @held of upstream's frames (asked for as the
 * pool's minimum for CUDA memory). */
void gst_cuda_imgproc_allocation_propose (GstCudaImgprocDevice * device,
    GstQuery * query, guint held);

/* Whether downstream, in its answer to our allocation @query, waits for
 * our frames' ready events. */
gboolean gst_cuda_imgproc_allocation_downstream_waits (GstQuery * query);

/* Whether our output comes from a pool of ours rather than downstream's:
 * always for CUDA memory, for system memory when downstream has none. */
gboolean gst_cuda_imgproc_allocation_wants_own_pool (GstQuery * query);

/* Sets our pool as the first of @query, with the frames downstream holds
 * and, for CUDA memory, the @held outputs of the element, made when it
 * is activated; FALSE when none could be made. */
gboolean gst_cuda_imgproc_allocation_decide (GstCudaImgprocDevice * device,
    GstQuery * query, guint held);

G_END_DECLS

#endif /* __GST_CUDA_IMGPROC_ALLOCATION_H__ */
