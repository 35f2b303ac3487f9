/* gst-cuda-imgproc
 * Copyright (C) 2026 The gst-cuda-imgproc authors
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2 of the License, or (at your option) any later version.
 */

#ifndef __GST_CUDA_IMGPROC_META_H__
#define __GST_CUDA_IMGPROC_META_H__

#include <gst/gst.h>
#include <gst/video/video.h>

G_BEGIN_DECLS

/**
 * GstCudaImgprocIntensityMeta:
 * @meta: the parent #GstMeta
 * @buffer: the gray frame a mask was made from (a reference)
 * @info: its layout: GRAY8, or GRAY16_LE for a 16-bit frame
 *
 * Travels with a mask: `cudaotsu` and `cudamask` attach their gray input
 * frame (8 or 16 bits, as it came) to each mask they output, elements that
 * transform masks pass it on, and `cudalabel` measures that frame's values
 * per region (intensity_mean, intensity_min, intensity_max).  It is tagged
 * with the video geometry (video, orientation, size): elements that move
 * pixels (videoflip, videoscale, videocrop) drop it, the plugin's elements
 * and those that only change values keep it.
 *
 * Since: 0.1
 */
typedef struct
{
  GstMeta meta;

  GstBuffer *buffer;
  GstVideoInfo info;
} GstCudaImgprocIntensityMeta;

#define GST_CUDA_IMGPROC_INTENSITY_META_API_TYPE \
  (gst_cuda_imgproc_intensity_meta_api_get_type ())
#define GST_CUDA_IMGPROC_INTENSITY_META_INFO \
  (gst_cuda_imgproc_intensity_meta_get_info ())

GType gst_cuda_imgproc_intensity_meta_api_get_type (void);
const GstMetaInfo *gst_cuda_imgproc_intensity_meta_get_info (void);

GstCudaImgprocIntensityMeta *gst_buffer_add_cuda_imgproc_intensity_meta
    (GstBuffer * buffer, GstBuffer * gray, const GstVideoInfo * info);

#define gst_buffer_get_cuda_imgproc_intensity_meta(b) \
  ((GstCudaImgprocIntensityMeta *) gst_buffer_get_meta ((b), \
      GST_CUDA_IMGPROC_INTENSITY_META_API_TYPE))

/* Whether @meta stays valid through one of the plugin's elements: untagged,
 * or tagged only with the frame's geometry (video, orientation, size),
 * which no element here changes.  Any other tag (colorspace, a custom one)
 * may no longer hold. */
gboolean gst_cuda_imgproc_meta_survives_filter (GstMeta * meta);

G_END_DECLS

#endif /* __GST_CUDA_IMGPROC_META_H__ */
