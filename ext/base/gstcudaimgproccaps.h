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
 * neighbours that take no GRAY8.  Its pad templates are made here from
 * the same lists, raw video of 1 to CIP_MAX_DIMENSION pixels a side. */

#ifndef __GST_CUDA_IMGPROC_CAPS_H__
#define __GST_CUDA_IMGPROC_CAPS_H__

#include <gst/gst.h>
#include <gst/video/video.h>

G_BEGIN_DECLS

typedef struct
{
  /* What the sink pad takes and the source pad gives, when they differ
   * (NULL-terminated); both NULL: the output has the input's format. */
  const gchar *const *input_formats;
  const gchar *const *output_formats;
  /* Inputs of more than eight bits: the only ones a GRAY16_LE output
   * comes from (NULL: any input). */
  const gchar *const *deep_formats;
  /* YUV input keeps its chroma in an output of its format. */
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

/* @othercaps (fixed output caps for input @caps) with the input's
 * colorimetry when they are gray taken from YUV: the luma's own. */
GstCaps *gst_cuda_imgproc_caps_fixate_luma (GstCaps * caps,
    GstCaps * othercaps);

/* Whether frames of @in_format become frames of @out_format (NV12 or
 * I420) whose luma is the gray output and whose chroma is neutral, rather
 * than keeping the input's chroma. */
gboolean gst_cuda_imgproc_caps_is_gray_as_yuv (const GstCudaImgprocFormats *
    element, GstVideoFormat in_format, GstVideoFormat out_format);

/* Whether @caps are video/x-raw(memory:CUDAMemory). */
gboolean gst_cuda_imgproc_caps_are_cuda (GstCaps * caps);

/* Adds an element's "sink" and "src" templates, raw video in CUDA memory
 * first, then in system memory, from the element's one list of formats
 * (NULL-terminated, in the order the templates list them): the sink pad
 * takes @input_formats; the source pad gives, for each of them in turn,
 * what gst_cuda_imgproc_caps_transform() makes of it: the formats of
 * @output_formats, or the input's format where @output_formats is NULL
 * (an element whose output has its input's format), a GRAY8 output
 * followed by NV12 and I420, the gray frame as YUV.  The class then says
 * the same arrays (input_formats and output_formats), or, where
 * @output_formats is NULL, neither. */
void gst_cuda_imgproc_caps_add_pad_templates (GstElementClass * klass,
    const gchar * const *input_formats, const gchar * const *output_formats);

/* The same for an element whose output formats depend on a mode (its
 * get_output_formats): the source pad gives any of the formats of
 * @mode_formats (a NULL-terminated array of each mode's NULL-terminated
 * formats), in the order of the modes, as they are: no gray as YUV (the
 * template leaves NV12 and I420 out of what a GRAY8 mode's transform
 * offers). */
void gst_cuda_imgproc_caps_add_pad_templates_by_mode (GstElementClass *
    klass, const gchar * const *input_formats,
    const gchar * const *const *mode_formats);

G_END_DECLS

#endif /* __GST_CUDA_IMGPROC_CAPS_H__ */
