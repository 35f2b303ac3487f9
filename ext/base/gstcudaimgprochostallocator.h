/* gst-cuda-imgproc
 * Copyright (C) 2026 The gst-cuda-imgproc authors
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2 of the License, or (at your option) any later version.
 */

#ifndef __GST_CUDA_IMGPROC_HOST_ALLOCATOR_H__
#define __GST_CUDA_IMGPROC_HOST_ALLOCATOR_H__

#include <gst/gst.h>

#include "gstcudaimgproccompat.h"

G_BEGIN_DECLS
#define GST_CUDA_IMGPROC_HOST_MEMORY_TYPE_NAME "cudaimgproc.host.memory"
#define GST_TYPE_CUDA_IMGPROC_HOST_ALLOCATOR \
    (gst_cuda_imgproc_host_allocator_get_type ())
G_DECLARE_FINAL_TYPE (GstCudaImgprocHostAllocator,
    gst_cuda_imgproc_host_allocator, GST, CUDA_IMGPROC_HOST_ALLOCATOR,
    GstAllocator);

/* Page-locked host memory, pinned for every CUDA context: copies between it
 * and the device run at full PCIe speed and asynchronously. */
GstAllocator *gst_cuda_imgproc_host_allocator_new (GstCudaContext * context);

gboolean gst_is_cuda_imgproc_host_memory (GstMemory * mem);

G_END_DECLS
#endif /* __GST_CUDA_IMGPROC_HOST_ALLOCATOR_H__ */
