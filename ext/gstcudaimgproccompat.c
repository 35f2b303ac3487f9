/* gst-cuda-imgproc
 * Copyright (C) 2026 The gst-cuda-imgproc authors
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2 of the License, or (at your option) any later version.
 */

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "gstcudaimgproccompat.h"

#if GST_CHECK_VERSION (1, 24, 0)

GstCudaStream *
gst_cuda_imgproc_stream_new (GstCudaContext * context)
{
  return gst_cuda_stream_new (context);
}

GstCudaStream *
gst_cuda_imgproc_stream_ref (GstCudaStream * stream)
{
  return stream ? gst_cuda_stream_ref (stream) : NULL;
}

void
gst_cuda_imgproc_clear_stream (GstCudaStream ** stream)
{
  gst_clear_cuda_stream (stream);
}

gpointer
gst_cuda_imgproc_stream_handle (GstCudaStream * stream)
{
  return stream ? (gpointer) gst_cuda_stream_get_handle (stream) : NULL;
}

GstMemory *
gst_cuda_imgproc_memory_alloc (GstAllocator * allocator,
    GstCudaContext * context, GstCudaStream * stream, const GstVideoInfo * info)
{
  return gst_cuda_allocator_alloc (GST_CUDA_ALLOCATOR (allocator), context,
      stream, info);
}

GstCudaStream *
gst_cuda_imgproc_memory_get_stream (GstMemory * mem)
{
  if (!gst_is_cuda_memory (mem))
    return NULL;
  return gst_cuda_memory_get_stream (GST_CUDA_MEMORY_CAST (mem));
}

#else /* GStreamer 1.22 */

GstCudaStream *
gst_cuda_imgproc_stream_new (GstCudaContext * context)
{
  return NULL;
}

GstCudaStream *
gst_cuda_imgproc_stream_ref (GstCudaStream * stream)
{
  return NULL;
}

void
gst_cuda_imgproc_clear_stream (GstCudaStream ** stream)
{
  *stream = NULL;
}

gpointer
gst_cuda_imgproc_stream_handle (GstCudaStream * stream)
{
  return NULL;
}

GstMemory *
gst_cuda_imgproc_memory_alloc (GstAllocator * allocator,
    GstCudaContext * context, GstCudaStream * stream, const GstVideoInfo * info)
{
  return gst_cuda_allocator_alloc (GST_CUDA_ALLOCATOR (allocator), context,
      info);
}

GstCudaStream *
gst_cuda_imgproc_memory_get_stream (GstMemory * mem)
{
  return NULL;
}

#endif
