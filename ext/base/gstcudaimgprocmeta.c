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

#include "gstcudaimgprocmeta.h"

GType
gst_cuda_imgproc_intensity_meta_api_get_type (void)
{
  static GType type = 0;
  /* The gray frame stands pixel for pixel under the mask: an element that
   * moves pixels (videoflip, videoscale, videocrop, a rotation) drops it,
   * one that only changes their values (videoconvert, a filter) keeps
   * it. */
  static const gchar *tags[] = { GST_META_TAG_VIDEO_STR,
    GST_META_TAG_VIDEO_ORIENTATION_STR, GST_META_TAG_VIDEO_SIZE_STR, NULL
  };

  if (g_once_init_enter (&type)) {
    GType t = gst_meta_api_type_register ("GstCudaImgprocIntensityMetaAPI",
        tags);
    g_once_init_leave (&type, t);
  }
  return type;
}

static gboolean
intensity_meta_init (GstMeta * meta, gpointer params, GstBuffer * buffer)
{
  GstCudaImgprocIntensityMeta *self = (GstCudaImgprocIntensityMeta *) meta;

  self->buffer = NULL;
  gst_video_info_init (&self->info);
  return TRUE;
}

static void
intensity_meta_free (GstMeta * meta, GstBuffer * buffer)
{
  GstCudaImgprocIntensityMeta *self = (GstCudaImgprocIntensityMeta *) meta;

  gst_clear_buffer (&self->buffer);
}

/* Copies only: a scaled or cropped mask no longer matches the frame. */
static gboolean
intensity_meta_transform (GstBuffer * dest, GstMeta * meta,
    GstBuffer * buffer, GQuark type, gpointer data)
{
  GstCudaImgprocIntensityMeta *self = (GstCudaImgprocIntensityMeta *) meta;

  if (!GST_META_TRANSFORM_IS_COPY (type))
    return FALSE;
  return gst_buffer_add_cuda_imgproc_intensity_meta (dest, self->buffer,
      &self->info) != NULL;
}

const GstMetaInfo *
gst_cuda_imgproc_intensity_meta_get_info (void)
{
  static const GstMetaInfo *info = NULL;

  if (g_once_init_enter (&info)) {
    const GstMetaInfo *i =
        gst_meta_register (GST_CUDA_IMGPROC_INTENSITY_META_API_TYPE,
        "GstCudaImgprocIntensityMeta", sizeof (GstCudaImgprocIntensityMeta),
        intensity_meta_init, intensity_meta_free, intensity_meta_transform);
    g_once_init_leave (&info, i);
  }
  return info;
}

/**
 * gst_buffer_add_cuda_imgproc_intensity_meta:
 * @buffer: a mask
 * @gray: the gray frame it was made from; a reference is taken
 * @info: @gray's layout
 *
 * Returns: (transfer none): the new meta
 *
 * Since: 0.1
 */
GstCudaImgprocIntensityMeta *
gst_buffer_add_cuda_imgproc_intensity_meta (GstBuffer * buffer,
    GstBuffer * gray, const GstVideoInfo * info)
{
  GstCudaImgprocIntensityMeta *meta;

  g_return_val_if_fail (GST_IS_BUFFER (gray), NULL);

  meta = (GstCudaImgprocIntensityMeta *) gst_buffer_add_meta (buffer,
      GST_CUDA_IMGPROC_INTENSITY_META_INFO, NULL);
  if (meta == NULL)
    return NULL;
  meta->buffer = gst_buffer_ref (gray);
  meta->info = *info;
  return meta;
}

gboolean
gst_cuda_imgproc_meta_survives_filter (GstMeta * meta)
{
  static const gchar *geometry_tags[] = { GST_META_TAG_VIDEO_STR,
    GST_META_TAG_VIDEO_ORIENTATION_STR, GST_META_TAG_VIDEO_SIZE_STR, NULL
  };
  const gchar *const *tags = gst_meta_api_type_get_tags (meta->info->api);

  for (; tags && *tags; tags++)
    if (!g_strv_contains (geometry_tags, *tags))
      return FALSE;
  return TRUE;
}
