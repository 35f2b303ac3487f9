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

#include <string.h>


#include "gstcudaimgprocframe.h"
#include "cip-ref.h"

gboolean
gst_cuda_imgproc_cip_format (GstVideoFormat format, CipFormat * cip_format)
{
  switch (format) {
    case GST_VIDEO_FORMAT_GRAY8:
    case GST_VIDEO_FORMAT_NV12:
    case GST_VIDEO_FORMAT_NV21:
    case GST_VIDEO_FORMAT_NV16:
    case GST_VIDEO_FORMAT_NV61:
    case GST_VIDEO_FORMAT_NV24:
    case GST_VIDEO_FORMAT_I420:
    case GST_VIDEO_FORMAT_YV12:
    case GST_VIDEO_FORMAT_Y42B:
    case GST_VIDEO_FORMAT_Y444:
      *cip_format = CIP_FORMAT_GRAY8;   /* the luma plane */
      return TRUE;
    case GST_VIDEO_FORMAT_YUY2:
    case GST_VIDEO_FORMAT_YVYU:
      *cip_format = CIP_FORMAT_YUYV;
      return TRUE;
    case GST_VIDEO_FORMAT_UYVY:
      *cip_format = CIP_FORMAT_UYVY;
      return TRUE;
    case GST_VIDEO_FORMAT_GRAY16_LE:
    case GST_VIDEO_FORMAT_P016_LE:
      *cip_format = CIP_FORMAT_GRAY16;
      return TRUE;
    case GST_VIDEO_FORMAT_GRAY16_BE:
      *cip_format = CIP_FORMAT_GRAY16_BE;
      return TRUE;
    case GST_VIDEO_FORMAT_P010_10LE:
      *cip_format = CIP_FORMAT_GRAY10_MSB;
      return TRUE;
    case GST_VIDEO_FORMAT_I420_10LE:
      *cip_format = CIP_FORMAT_GRAY10_LSB;
      return TRUE;
    case GST_VIDEO_FORMAT_I420_12LE:
      *cip_format = CIP_FORMAT_GRAY12_LSB;
      return TRUE;
    case GST_VIDEO_FORMAT_RGBA:
      *cip_format = CIP_FORMAT_RGBA;
      return TRUE;
    case GST_VIDEO_FORMAT_BGRA:
      *cip_format = CIP_FORMAT_BGRA;
      return TRUE;
    case GST_VIDEO_FORMAT_RGBx:
      *cip_format = CIP_FORMAT_RGBX;
      return TRUE;
    case GST_VIDEO_FORMAT_BGRx:
      *cip_format = CIP_FORMAT_BGRX;
      return TRUE;
    case GST_VIDEO_FORMAT_ARGB:
      *cip_format = CIP_FORMAT_ARGB;
      return TRUE;
    case GST_VIDEO_FORMAT_ABGR:
      *cip_format = CIP_FORMAT_ABGR;
      return TRUE;
    case GST_VIDEO_FORMAT_RGB:
      *cip_format = CIP_FORMAT_RGB;
      return TRUE;
    case GST_VIDEO_FORMAT_BGR:
      *cip_format = CIP_FORMAT_BGR;
      return TRUE;
    default:
      return FALSE;
  }
}

/* Whether every plane of @frame lies within the memory mapped for it,
 * rows downwards and apart.  gst_video_frame_map() checks the buffer's
 * size only when there is no video meta: a meta's strides and offsets are
 * taken as they are, and each plane is mapped from the one memory its
 * offset falls in, so a short buffer, a wrong stride or a plane across
 * two memories would be read out of bounds. */
/* The bytes plane @plane of a frame of @info spans with rows @stride
 * apart, first row's start to last row's end; 0 for a stride shorter
 * than a row. */
static gsize
plane_extent (const GstVideoInfo * info, guint plane, gint stride)
{
  gsize row_bytes, rows;
  guint comp;

  for (comp = 0; comp < GST_VIDEO_INFO_N_COMPONENTS (info); comp++)
    if (GST_VIDEO_FORMAT_INFO_PLANE (info->finfo, comp) == plane)
      break;
  row_bytes = (gsize) GST_VIDEO_INFO_COMP_WIDTH (info, comp) *
      GST_VIDEO_INFO_COMP_PSTRIDE (info, comp);
  /* packed 4:2:2: an odd width's last pixel has a macropixel of its own */
  if (GST_VIDEO_INFO_FORMAT (info) == GST_VIDEO_FORMAT_YUY2 ||
      GST_VIDEO_INFO_FORMAT (info) == GST_VIDEO_FORMAT_YVYU ||
      GST_VIDEO_INFO_FORMAT (info) == GST_VIDEO_FORMAT_UYVY)
    row_bytes = 4 * (gsize) ((GST_VIDEO_INFO_WIDTH (info) + 1) / 2);
  if (stride < 0 || (gsize) stride < row_bytes)
    return 0;
  rows = GST_VIDEO_INFO_COMP_HEIGHT (info, comp);
  return (gsize) stride *(rows - 1) + row_bytes;
}

static gboolean
frame_fits (const GstVideoFrame * frame)
{
  guint plane;

  if (frame->meta == NULL)
    return TRUE;
  for (plane = 0; plane < GST_VIDEO_FRAME_N_PLANES (frame); plane++) {
    const GstMapInfo *map = &frame->map[plane];
    const guint8 *data = GST_VIDEO_FRAME_PLANE_DATA (frame, plane);
    gsize extent = plane_extent (&frame->info, plane,
        GST_VIDEO_FRAME_PLANE_STRIDE (frame, plane));

    if (extent == 0 || extent > map->size - (gsize) (data - map->data))
      return FALSE;
  }
  return TRUE;
}

/* A meta of another frame than the caps' one: GStreamer would map it
 * with a critical warning, or at the meta's size. */
static gboolean
meta_describes (const GstVideoMeta * meta, const GstVideoInfo * info)
{
  return meta->format == GST_VIDEO_INFO_FORMAT (info) &&
      meta->width == (guint) GST_VIDEO_INFO_WIDTH (info) &&
      meta->height == (guint) GST_VIDEO_INFO_HEIGHT (info) &&
      meta->n_planes == GST_VIDEO_INFO_N_PLANES (info);
}

/* Whether each plane's rows, as @meta places them, start at a whole
 * sample: a 16-bit plane at an odd offset or stride would be read across
 * its samples. */
static gboolean
meta_rows_aligned (const GstVideoMeta * meta, const GstVideoInfo * info)
{
  guint comp;

  for (comp = 0; comp < GST_VIDEO_INFO_N_COMPONENTS (info); comp++) {
    guint plane = GST_VIDEO_FORMAT_INFO_PLANE (info->finfo, comp);

    if (GST_VIDEO_FORMAT_INFO_DEPTH (info->finfo, comp) > 8 &&
        (meta->stride[plane] % 2 != 0 || meta->offset[plane] % 2 != 0))
      return FALSE;
  }
  return TRUE;
}

#define WHY_META "its video meta describes another frame"
#define WHY_ALIGN "its video meta puts 16-bit rows at odd strides or offsets"
#define WHY_SHORT "it is smaller than its caps say"
#define WHY_MEMORY "a plane does not lie within one of its memories " \
  "(split across memories, or past the end of one)"

gboolean
gst_cuda_imgproc_frame_map_checked (GstVideoFrame * frame,
    const GstVideoInfo * info, GstBuffer * buffer, GstMapFlags flags,
    const gchar ** why)
{
  GstVideoMeta *meta = gst_buffer_get_video_meta (buffer);

  if (meta && !meta_describes (meta, info)) {
    *why = WHY_META;
    return FALSE;
  }
  if (meta && !meta_rows_aligned (meta, info)) {
    *why = WHY_ALIGN;
    return FALSE;
  }
  if (!gst_video_frame_map (frame, (GstVideoInfo *) info, buffer, flags)) {
    *why = meta ? WHY_MEMORY : WHY_SHORT;
    return FALSE;
  }
  if (!frame_fits (frame)) {
    gst_video_frame_unmap (frame);
    *why = WHY_MEMORY;
    return FALSE;
  }
  return TRUE;
}

gboolean
gst_cuda_imgproc_frame_check (const GstVideoInfo * info, GstBuffer * buffer,
    const gchar ** why)
{
  GstVideoMeta *meta = gst_buffer_get_video_meta (buffer);
  gsize size = gst_buffer_get_size (buffer);
  guint plane;

  if (meta == NULL) {
    *why = WHY_SHORT;
    return size >= GST_VIDEO_INFO_SIZE (info);
  }
  if (!meta_describes (meta, info)) {
    *why = WHY_META;
    return FALSE;
  }
  if (!meta_rows_aligned (meta, info)) {
    *why = WHY_ALIGN;
    return FALSE;
  }
  *why = WHY_MEMORY;
  for (plane = 0; plane < meta->n_planes; plane++) {
    gsize extent = plane_extent (info, plane, meta->stride[plane]), skip;
    guint first, n_memories;

    if (extent == 0 || meta->offset[plane] + extent > size ||
        !gst_buffer_find_memory (buffer, meta->offset[plane], extent, &first,
            &n_memories, &skip) || n_memories != 1)
      return FALSE;
  }
  return TRUE;
}

/* Plane @plane of @frame as an image: the first plane in @format, the
 * others as rows of bytes (they are only ever copied). */
GstFlowReturn
gst_cuda_imgproc_frame_refuse (GstElement * element, const GstVideoInfo * info,
    GstBuffer * buffer, const gchar * what, const gchar * why)
{
  GST_ELEMENT_ERROR (element, STREAM, FORMAT,
      ("%s buffer does not hold a %dx%d %s frame.", what,
          GST_VIDEO_INFO_WIDTH (info), GST_VIDEO_INFO_HEIGHT (info),
          GST_VIDEO_INFO_NAME (info)),
      ("%s (buffer of %" G_GSIZE_FORMAT " bytes in %u memories, caps need %"
          G_GSIZE_FORMAT ")", why, gst_buffer_get_size (buffer),
          gst_buffer_n_memory (buffer), GST_VIDEO_INFO_SIZE (info)));
  return GST_FLOW_ERROR;
}

CipImage
gst_cuda_imgproc_plane_image (GstVideoFrame * frame, guint plane,
    CipFormat format)
{
  const GstVideoFormatInfo *finfo = frame->info.finfo;
  CipImage image;
  guint comp;

  image.data = GST_VIDEO_FRAME_PLANE_DATA (frame, plane);
  image.stride = GST_VIDEO_FRAME_PLANE_STRIDE (frame, plane);
  image.format = format;
  for (comp = 0; comp < GST_VIDEO_FRAME_N_COMPONENTS (frame); comp++)
    if (GST_VIDEO_FORMAT_INFO_PLANE (finfo, comp) == plane)
      break;
  image.width = GST_VIDEO_FRAME_COMP_WIDTH (frame, comp);
  image.height = GST_VIDEO_FRAME_COMP_HEIGHT (frame, comp);
  if (plane > 0)
    image.width *= GST_VIDEO_FRAME_COMP_PSTRIDE (frame, comp);
  return image;
}

/* Ordinary memory page-locked for the kernels and the copies, kept on the
 * GstMemory until upstream frees it.  Before that a memory may carry one of
 * three marks instead: seen once (the copy path registers what comes
 * back), page-locked already (a pool's, ours or upstream's) or not system
 * memory (never registered): nothing to do for the last two. */
typedef struct
{
  gpointer host;                /* NULL: the driver refused it */
  gsize size;
  GstCudaContext *context;
} HostRegistration;

G_DEFINE_QUARK (GstCudaImgprocHostRegistration, host_registration);
static GMutex registration_lock;
static const gchar memory_seen_once[] = "seen once";
static const gchar memory_page_locked[] = "page-locked";
static const gchar memory_not_system[] = "not system memory";

/* What the registrations of the process may hold at once: page-locked
 * memory is taken from what the system can page, so a source that never
 * reuses its memory must not pin it all. */
#define MAX_REGISTRATIONS 256
#define MAX_REGISTERED_BYTES (G_GUINT64_CONSTANT (4) << 30)

static GMutex budget_lock;
static guint registrations;
static guint64 registered_bytes;

static gboolean
registration_budget_take (gsize size)
{
  gboolean ok;

  g_mutex_lock (&budget_lock);
  ok = registrations < MAX_REGISTRATIONS &&
      registered_bytes + size <= MAX_REGISTERED_BYTES;
  if (ok) {
    registrations++;
    registered_bytes += size;
  }
  g_mutex_unlock (&budget_lock);
  return ok;
}

static void
registration_budget_give (gsize size)
{
  g_mutex_lock (&budget_lock);
  registrations--;
  registered_bytes -= size;
  g_mutex_unlock (&budget_lock);
}

static void
host_registration_free (HostRegistration * registration)
{
  if (registration->host) {
    if (gst_cuda_context_push (registration->context)) {
      cip_host_unregister (registration->host);
      gst_cuda_context_pop (NULL);
    }
    registration_budget_give (registration->size);
  }
  gst_object_unref (registration->context);
  g_free (registration);
}

/* Page-locks @frame's one memory @memory, with registration_lock held,
 * where the budget allows; a refusal is kept on the memory, not asked
 * again.  Whether it is page-locked now.  Only system memory: its mapping
 * is its allocation, at one address for its life, where other memories
 * (file descriptors, other devices') may be mapped elsewhere next time,
 * or their address reused once unmapped, under a registration that
 * outlives the mapping. */
static gboolean
host_register_locked (GstMiniObject * memory, GstVideoFrame * frame,
    GstCudaImgprocDevice * device)
{
  /* the frame's mapping of its one memory covers all of it */
  gsize size = frame->map[0].size;
  HostRegistration *registration;

  if (!gst_memory_is_type ((GstMemory *) memory, GST_ALLOCATOR_SYSMEM)) {
    gst_mini_object_set_qdata (memory, host_registration_quark (),
        (gpointer) memory_not_system, NULL);
    return FALSE;
  }
  if (!registration_budget_take (size)) {
    GST_DEBUG ("no more memory may be page-locked: leaving the frame's "
        "pageable");
    return FALSE;
  }
  registration = g_new0 (HostRegistration, 1);
  registration->context = gst_object_ref (device->context);
  registration->size = size;
  if (cip_host_register (frame->map[0].data, size, device->stream) == CIP_OK) {
    registration->host = frame->map[0].data;
  } else {
    GST_DEBUG ("could not page-lock the frame's memory: %s",
        cip_stream_error (device->stream));
    registration_budget_give (size);
  }
  gst_mini_object_set_qdata (memory, host_registration_quark (),
      registration, (GDestroyNotify) host_registration_free);
  return registration->host != NULL;
}

gboolean
gst_cuda_imgproc_frame_in_place (GstVideoFrame * frame, CipImage * image,
    GstCudaImgprocDevice * device)
{
  GstMiniObject *memory;
  gpointer mark;
  void *address;

  if (cip_host_device_address (image->data, &address))
    goto found;
  if (gst_buffer_n_memory (frame->buffer) != 1)
    return FALSE;
  memory = GST_MINI_OBJECT (gst_buffer_peek_memory (frame->buffer, 0));

  /* one registration a memory: elements on two branches of a tee read the
   * same frame at once */
  g_mutex_lock (&registration_lock);
  mark = gst_mini_object_get_qdata (memory, host_registration_quark ());
  if (mark == NULL || mark == memory_seen_once)
    host_register_locked (memory, frame, device);
  g_mutex_unlock (&registration_lock);
  if (!cip_host_device_address (image->data, &address))
    return FALSE;

found:
  image->data = address;
  return TRUE;
}

gboolean
gst_cuda_imgproc_frame_pin_recurring (GstVideoFrame * frame,
    GstCudaImgprocDevice * device, gboolean * page_locked)
{
  GstMiniObject *memory;
  gboolean pinned = FALSE, locked;
  gpointer mark;
  void *address;

  if (gst_buffer_n_memory (frame->buffer) != 1) {
    if (page_locked)
      *page_locked = cip_host_device_address (frame->map[0].data, &address);
    return FALSE;
  }
  memory = GST_MINI_OBJECT (gst_buffer_peek_memory (frame->buffer, 0));

  g_mutex_lock (&registration_lock);
  mark = gst_mini_object_get_qdata (memory, host_registration_quark ());
  if (mark == memory_seen_once) {
    pinned = locked = host_register_locked (memory, frame, device);
  } else if (mark == NULL) {
    /* the driver is asked once a memory */
    locked = cip_host_device_address (frame->map[0].data, &address);
    gst_mini_object_set_qdata (memory, host_registration_quark (),
        (gpointer) (locked ? memory_page_locked : memory_seen_once), NULL);
  } else if (mark == memory_page_locked || mark == memory_not_system) {
    locked = mark == memory_page_locked;
  } else {
    locked = ((HostRegistration *) mark)->host != NULL;
  }
  g_mutex_unlock (&registration_lock);
  if (page_locked)
    *page_locked = locked;
  return pinned;
}

/* Whether @buffer holds device memory of @context, whose pointers the
 * element's kernels can use as they are. */
gboolean
gst_cuda_imgproc_is_device_frame (GstBuffer * buffer, GstCudaContext * context)
{
  GstMemory *mem = gst_buffer_peek_memory (buffer, 0);

  return gst_buffer_n_memory (buffer) == 1 &&
      gst_cuda_imgproc_memory_is_of_context (mem, context);
}

/* Row by row: gst_video_frame_copy_plane() copies whole strides at once
 * where the two frames' match (1.28), reading past a last row that a
 * video meta ends at its pixels. */
static void
copy_plane_rows (const CipImage * src, CipImage * dst)
{
  gint y;

  for (y = 0; y < dst->height; y++)
    memcpy ((guint8 *) dst->data + (gsize) y * dst->stride,
        (const guint8 *) src->data + (gsize) y * src->stride, dst->width);
}

CipStatus
gst_cuda_imgproc_frame_finish_chroma (GstVideoFrame * in, GstVideoFrame * out,
    gboolean neutral, CipStream * stream)
{
  CipStatus status = CIP_OK;
  guint plane;

  if (!neutral && GST_VIDEO_FRAME_FORMAT (in) != GST_VIDEO_FRAME_FORMAT (out))
    return CIP_OK;
  for (plane = 1; status == CIP_OK &&
      plane < GST_VIDEO_FRAME_N_PLANES (out); plane++) {
    CipImage out_plane = gst_cuda_imgproc_plane_image (out, plane,
        CIP_FORMAT_GRAY8);

    if (neutral) {
      status = stream ? cip_fill (&out_plane, CIP_NEUTRAL_CHROMA, stream) :
          cip_ref_fill (&out_plane, CIP_NEUTRAL_CHROMA, NULL);
    } else {
      CipImage in_plane = gst_cuda_imgproc_plane_image (in, plane,
          CIP_FORMAT_GRAY8);

      if (stream)
        status = cip_copy (&in_plane, &out_plane, stream);
      else
        copy_plane_rows (&in_plane, &out_plane);
    }
  }
  return status;
}

GstStructure *
gst_cuda_imgproc_frame_message_new (const gchar * name,
    const GstSegment * segment, GstBuffer * buffer)
{
  return gst_cuda_imgproc_frame_message_new_at (name, segment,
      GST_BUFFER_PTS (buffer), GST_BUFFER_DURATION (buffer));
}

GstStructure *
gst_cuda_imgproc_frame_message_new_at (const gchar * name,
    const GstSegment * segment, GstClockTime pts, GstClockTime duration)
{
  GstStructure *s = gst_structure_new (name,
      "timestamp", G_TYPE_UINT64, pts,
      "duration", G_TYPE_UINT64, duration, NULL);

  if (segment->format != GST_FORMAT_TIME)
    return s;
  gst_structure_set (s, "stream-time", G_TYPE_UINT64,
      gst_segment_to_stream_time (segment, GST_FORMAT_TIME, pts), NULL);
  /* a reversed segment's running time counts back from its stop: none
   * without one */
  if (segment->rate > 0 || GST_CLOCK_TIME_IS_VALID (segment->stop))
    gst_structure_set (s, "running-time", G_TYPE_UINT64,
        gst_segment_to_running_time (segment, GST_FORMAT_TIME, pts), NULL);
  return s;
}
