/* gst-cuda-imgproc
 * Copyright (C) 2026 The gst-cuda-imgproc authors
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2 of the License, or (at your option) any later version.
 */

/* Caps: which formats each pad may have given the other's, in CUDA or
 * system memory, and how they are fixed.  An element's formats are what
 * its class says; an element whose output is GRAY8 may also give the
 * same gray frame as the luma of NV12 or I420, with neutral chroma, for
 * neighbours that take no GRAY8. */

#ifndef __GST_CUDA_IMGPROC_CAPS_H__
#define __GST_CUDA_IMGPROC_CAPS_H__

#include <gst/gst.h>
#include <gst/video/video.h>

G_BEGIN_DECLS

/* Raw video within the sizes every operation accepts, in CUDA memory
 * (preferred) or in system memory. */
#define GST_CUDA_IMGPROC_VIDEO_FIELDS(format)                   \
    "format = (string) " format ", "                            \
    "width = (int) [ 1, 16384 ], height = (int) [ 1, 16384 ], " \
    "framerate = " GST_VIDEO_FPS_RANGE
/* The formats of a gray output: GRAY8, or the same frame as the luma of
 * NV12 or I420 with neutral chroma, for neighbours that take no GRAY8. */
#define GST_CUDA_IMGPROC_GRAY_FORMATS "{ GRAY8, NV12, I420 }"
/* The formats of the neighbourhood operations (cudablur, cudamorph): gray
 * or one byte a channel with four channels in, and, as every gray output,
 * also the luma of NV12 or I420 out. */
#define GST_CUDA_IMGPROC_PACKED_FORMATS \
    "{ GRAY8, RGBA, BGRA, RGBx, BGRx, ARGB, ABGR }"
#define GST_CUDA_IMGPROC_PACKED_OUTPUT_FORMATS \
    "{ GRAY8, NV12, I420, RGBA, BGRA, RGBx, BGRx, ARGB, ABGR }"

#define GST_CUDA_IMGPROC_CAPS_MAKE(format)                      \
    "video/x-raw(memory:CUDAMemory), "                          \
    GST_CUDA_IMGPROC_VIDEO_FIELDS (format) "; "                 \
    "video/x-raw, " GST_CUDA_IMGPROC_VIDEO_FIELDS (format)

typedef struct
{
  /* What the sink pad takes and the source pad gives, when they differ
   * (NULL-terminated); both NULL: the output has the input's format. */
  const gchar *const *input_formats;
  const gchar *const *output_formats;
  /* NV12 and I420 input keeps its chroma in an output of its format. */
  gboolean passes_chroma;
} GstCudaImgprocFormats;

/* The caps the other pad may have when the one on @direction has @caps:
 * in CUDA memory first, then in system memory (@cuda), or in system
 * memory only. */
GstCaps *gst_cuda_imgproc_caps_transform (const GstCudaImgprocFormats *
    element, GstPadDirection direction, GstCaps * caps, gboolean cuda);

/* Of @othercaps, those in CUDA memory, when there are any. */
GstCaps *gst_cuda_imgproc_caps_prefer_cuda (GstCaps * othercaps);

/* @othercaps (fixed output caps for input @caps) with the colorimetry of
 * a gray frame as YUV when it is one: full range, BT.601 matrix, so that
 * any converter gives R = G = B = Y. */
GstCaps *gst_cuda_imgproc_caps_fixate_gray_as_yuv (const GstCudaImgprocFormats
    * element, GstCaps * caps, GstCaps * othercaps);

/* Whether frames of @in_format become frames of @out_format (NV12 or
 * I420) whose luma is the gray output and whose chroma is neutral, rather
 * than keeping the input's chroma. */
gboolean gst_cuda_imgproc_caps_is_gray_as_yuv (const GstCudaImgprocFormats *
    element, GstVideoFormat in_format, GstVideoFormat out_format);

/* Whether @caps are video/x-raw(memory:CUDAMemory). */
gboolean gst_cuda_imgproc_caps_are_cuda (GstCaps * caps);

/* Adds an element's "sink" and "src" templates: raw video of
 * @sink_formats and @src_formats (caps format lists such as
 * "{ GRAY8, NV12 }"), in CUDA memory first, then in system memory. */
void gst_cuda_imgproc_caps_add_pad_templates (GstElementClass * klass,
    const gchar * sink_formats, const gchar * src_formats);

G_END_DECLS

#endif /* __GST_CUDA_IMGPROC_CAPS_H__ */
