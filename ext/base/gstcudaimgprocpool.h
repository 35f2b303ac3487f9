/* gst-cuda-imgproc
 * Copyright (C) 2026 The gst-cuda-imgproc authors
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2 of the License, or (at your option) any later version.
 */

#ifndef __GST_CUDA_IMGPROC_POOL_H__
#define __GST_CUDA_IMGPROC_POOL_H__

#include <gst/gst.h>
#include <gst/video/video.h>

#include "gstcudaimgproccompat.h"

#include "cip.h"

G_BEGIN_DECLS
#define GST_TYPE_CUDA_IMGPROC_POOL (gst_cuda_imgproc_pool_get_type ())
G_DECLARE_FINAL_TYPE (GstCudaImgprocPool, gst_cuda_imgproc_pool, GST,
    CUDA_IMGPROC_POOL, GstBufferPool);

/* A pool of GstCudaMemory frames in @context, for every format the
 * elements output, GRAY8 included; each buffer carries a GstVideoMeta
 * describing its layout.  With @stream (GStreamer 1.24+) the frames carry
 * it: their writer's work is ordered on it, and readers wait for it. */
GstBufferPool *gst_cuda_imgproc_pool_new (GstCudaContext * context,
    GstCudaStream * stream);

/* The event a frame of this pool carries: its writer records it once the
 * frame's kernels are enqueued, and a reader in CUDA waits for it instead
 * of the writer synchronizing.  NULL for other buffers. */
CipEvent *gst_cuda_imgproc_buffer_ready_event (GstBuffer * buffer);

/* The meta API an element adds to an allocation query to say it waits for
 * the ready events of its input frames: its upstream neighbour then need
 * not synchronize before pushing. */
#define GST_CUDA_IMGPROC_READY_EVENT_API_TYPE \
    (gst_cuda_imgproc_ready_event_api_get_type ())
GType gst_cuda_imgproc_ready_event_api_get_type (void);

G_END_DECLS
#endif /* __GST_CUDA_IMGPROC_POOL_H__ */
