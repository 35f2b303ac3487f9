/* gst-cuda-imgproc
 * Copyright (C) 2026 The gst-cuda-imgproc authors
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2 of the License, or (at your option) any later version.
 */

/* Uploads of pageable host frames at page-locked speed.  The driver
 * copies pageable memory through small staging buffers of its own, on
 * one thread; the stager instead copies the frame, in chunks of rows of
 * about 1 MiB, into the element's own page-locked staging memory with
 * several threads at once (the calling thread and a few helpers that all
 * stagers of the process share), and queues the copy of each chunk to the
 * device on the element's stream as soon as the chunk is there, so that
 * host copies and the bus overlap.
 *
 * The staging memory is a ring of chunk slots, allocated by the first
 * upload that needs it (and again only for a frame that needs more): a
 * slot is written again only once the device copy that reads it has run
 * (an event recorded after each one).  An upload returns once every
 * chunk has been copied on the host and queued: from then on only the
 * GPU reads the staging memory, and nothing reads the frame. */

#ifndef __GST_CUDA_IMGPROC_STAGER_H__
#define __GST_CUDA_IMGPROC_STAGER_H__

#include <glib.h>

#include "cip.h"

G_BEGIN_DECLS

typedef struct _GstCudaImgprocStager GstCudaImgprocStager;

/* A stager whose staging memory and copies go through @ops on @stream:
 * cip_cuda_ops, page-locked memory and device copies, events in between;
 * cip_ref_ops (@stream NULL), host memory and copies done on return, for
 * tests without a GPU.  Allocates nothing yet. */
GstCudaImgprocStager *gst_cuda_imgproc_stager_new (const CipOps * ops,
    CipStream * stream);
/* Waits for the helpers that may still look at @stager and for the
 * copies that read its staging memory, then frees it; with the context
 * current. */
void gst_cuda_imgproc_stager_free (GstCudaImgprocStager * stager);

/* Copies @src, an image in host memory, into @dst (of the same size and
 * format: a device image with cip_cuda_ops) on the stream, through the
 * staging memory.  Returns once @src is read; the copies into @dst run
 * in stream order.  With the context current. */
CipStatus gst_cuda_imgproc_stager_upload (GstCudaImgprocStager * stager,
    const CipImage * src, CipImage * dst);

G_END_DECLS

#endif /* __GST_CUDA_IMGPROC_STAGER_H__ */
