/* gst-cuda-imgproc
 * Copyright (C) 2026 The gst-cuda-imgproc authors
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2 of the License, or (at your option) any later version.
 */

/* An allocator of page-locked host memory, for the buffer pools the
 * elements propose upstream and use for system-memory output. */

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "gstcudaimgprochostallocator.h"
#include "cip.h"

GST_DEBUG_CATEGORY_STATIC (gst_cuda_imgproc_host_allocator_debug);
#define GST_CAT_DEFAULT gst_cuda_imgproc_host_allocator_debug

struct _GstCudaImgprocHostAllocator
{
  GstAllocator parent;

  /* Made current around cudaHostAlloc and cudaFreeHost. */
  GstCudaContext *context;
};

typedef struct
{
  GstMemory mem;

  gpointer data;                /* the page-locked block; NULL for shares */
} HostMemory;

G_DEFINE_TYPE_WITH_CODE (GstCudaImgprocHostAllocator,
    gst_cuda_imgproc_host_allocator, GST_TYPE_ALLOCATOR,
    GST_DEBUG_CATEGORY_INIT (gst_cuda_imgproc_host_allocator_debug,
        "cudaimgprochostallocator", 0, "page-locked host memory"));

static GstMemory *
host_memory_new (GstAllocator * allocator, GstMemory * parent,
    GstMemoryFlags flags, gpointer data, gsize maxsize, gsize align,
    gsize offset, gsize size)
{
  HostMemory *mem = g_new0 (HostMemory, 1);

  gst_memory_init (GST_MEMORY_CAST (mem), flags, allocator, parent, maxsize,
      align, offset, size);
  mem->data = data;
  return GST_MEMORY_CAST (mem);
}

static GstMemory *
gst_cuda_imgproc_host_allocator_alloc (GstAllocator * allocator, gsize size,
    GstAllocationParams * params)
{
  GstCudaImgprocHostAllocator *self =
      GST_CUDA_IMGPROC_HOST_ALLOCATOR (allocator);
  gsize maxsize = size + params->prefix + params->padding;
  gpointer data = NULL;
  CipStatus status = CIP_ERROR_CUDA;

  /* cudaHostAlloc returns page-aligned blocks: any alignment asked for up
   * to a page holds. */
  if (params->align >= 4096)
    return NULL;

  if (gst_cuda_context_push (self->context)) {
    status = cip_host_alloc (&data, MAX (maxsize, 1), NULL);
    gst_cuda_context_pop (NULL);
  }
  if (status != CIP_OK) {
    GST_ERROR_OBJECT (self, "could not allocate %" G_GSIZE_FORMAT
        " page-locked bytes: %s", maxsize, cip_status_name (status));
    return NULL;
  }

  return host_memory_new (allocator, NULL, params->flags, data, maxsize,
      params->align, params->prefix, size);
}

static void
gst_cuda_imgproc_host_allocator_free (GstAllocator * allocator,
    GstMemory * memory)
{
  GstCudaImgprocHostAllocator *self =
      GST_CUDA_IMGPROC_HOST_ALLOCATOR (allocator);
  HostMemory *mem = (HostMemory *) memory;

  if (memory->parent == NULL && gst_cuda_context_push (self->context)) {
    cip_host_free (mem->data, NULL);
    gst_cuda_context_pop (NULL);
  }
  g_free (mem);
}

static gpointer
host_memory_map (GstMemory * memory, gsize maxsize, GstMapFlags flags)
{
  HostMemory *mem = (HostMemory *) memory;

  while (memory->parent) {
    memory = memory->parent;
    mem = (HostMemory *) memory;
  }
  return mem->data;
}

static void
host_memory_unmap (GstMemory * memory)
{
}

static GstMemory *
host_memory_share (GstMemory * memory, gssize offset, gssize size)
{
  GstMemory *parent = memory->parent ? memory->parent : memory;

  if (size == -1)
    size = memory->size - offset;
  return host_memory_new (memory->allocator, parent,
      GST_MINI_OBJECT_FLAGS (parent) | GST_MINI_OBJECT_FLAG_LOCK_READONLY,
      NULL, memory->maxsize, memory->align, memory->offset + offset, size);
}

static void
gst_cuda_imgproc_host_allocator_finalize (GObject * object)
{
  GstCudaImgprocHostAllocator *self = GST_CUDA_IMGPROC_HOST_ALLOCATOR (object);

  gst_clear_object (&self->context);
  G_OBJECT_CLASS (gst_cuda_imgproc_host_allocator_parent_class)->finalize
      (object);
}

static void
gst_cuda_imgproc_host_allocator_class_init (GstCudaImgprocHostAllocatorClass
    * klass)
{
  GObjectClass *gobject_class = G_OBJECT_CLASS (klass);
  GstAllocatorClass *allocator_class = GST_ALLOCATOR_CLASS (klass);

  gobject_class->finalize = gst_cuda_imgproc_host_allocator_finalize;
  allocator_class->alloc = gst_cuda_imgproc_host_allocator_alloc;
  allocator_class->free = gst_cuda_imgproc_host_allocator_free;
}

static void
gst_cuda_imgproc_host_allocator_init (GstCudaImgprocHostAllocator * self)
{
  GstAllocator *allocator = GST_ALLOCATOR_CAST (self);

  allocator->mem_type = GST_CUDA_IMGPROC_HOST_MEMORY_TYPE_NAME;
  allocator->mem_map = host_memory_map;
  allocator->mem_unmap = host_memory_unmap;
  allocator->mem_share = host_memory_share;
  GST_OBJECT_FLAG_SET (self, GST_ALLOCATOR_FLAG_CUSTOM_ALLOC);
}

GstAllocator *
gst_cuda_imgproc_host_allocator_new (GstCudaContext * context)
{
  GstCudaImgprocHostAllocator *self =
      g_object_new (GST_TYPE_CUDA_IMGPROC_HOST_ALLOCATOR, NULL);

  gst_object_ref_sink (self);
  self->context = gst_object_ref (context);
  return GST_ALLOCATOR_CAST (self);
}

gboolean
gst_is_cuda_imgproc_host_memory (GstMemory * mem)
{
  return mem != NULL && mem->allocator != NULL &&
      GST_IS_CUDA_IMGPROC_HOST_ALLOCATOR (mem->allocator);
}
