/* gst-cuda-imgproc
 * Copyright (C) 2026 The gst-cuda-imgproc authors
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2 of the License, or (at your option) any later version.
 */

/**
 * SECTION:element-cudaequalize
 * @title: cudaequalize
 *
 * Global histogram equalization on the GPU, equal to OpenCV's
 * `equalizeHist` bit for bit.  The histogram, its cumulative sum and the
 * lookup table are all computed on the GPU: nothing returns to the host
 * within a frame.  Of 8-bit YUV in planes (NV12, NV21, NV16, NV61, NV24,
 * I420, YV12, Y42B, Y444) the luma plane is equalized and the chroma
 * planes pass untouched.
 *
 * ## Example launch line
 * |[
 * gst-launch-1.0 filesrc location=moon.png ! pngdec ! videoconvert ! cudagray ! cudaequalize ! videoconvert ! autovideosink
 * ]|
 *
 * Since: 0.1
 */

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "gstcudaequalize.h"

GST_DEBUG_CATEGORY_STATIC (gst_cuda_equalize_debug);
#define GST_CAT_DEFAULT gst_cuda_equalize_debug

/* The formats of both pads: the output has the input's; of YUV the
 * luma plane is equalized and the chroma planes pass untouched. */
static const gchar *const formats[] = {
  "GRAY8", "NV12", "NV21", "NV16", "NV61", "NV24", "I420", "YV12", "Y42B",
  "Y444", NULL
};

struct _GstCudaEqualize
{
  GstCudaImgprocFilter parent;
};

G_DEFINE_TYPE_WITH_CODE (GstCudaEqualize, gst_cuda_equalize,
    GST_TYPE_CUDA_IMGPROC_FILTER,
    GST_DEBUG_CATEGORY_INIT (gst_cuda_equalize_debug, "cudaequalize", 0,
        "cudaequalize element"));
GST_ELEMENT_REGISTER_DEFINE (cudaequalize, "cudaequalize", GST_RANK_NONE,
    GST_TYPE_CUDA_EQUALIZE);

static CipStatus gst_cuda_equalize_process (GstCudaImgprocFilter * filter,
    GstCudaImgprocFrame * frame);

static void
gst_cuda_equalize_class_init (GstCudaEqualizeClass * klass)
{
  GstElementClass *element_class = GST_ELEMENT_CLASS (klass);
  GstCudaImgprocFilterClass *filter_class =
      GST_CUDA_IMGPROC_FILTER_CLASS (klass);

  gst_cuda_imgproc_caps_add_pad_templates (element_class, formats, NULL);
  gst_element_class_set_static_metadata (element_class,
      "CUDA histogram equalization", "Filter/Effect/Video/Hardware",
      "Equalizes the histogram of gray video or of the luma plane, "
      "on the GPU", "gst-cuda-imgproc authors");

  filter_class->process = GST_DEBUG_FUNCPTR (gst_cuda_equalize_process);
  filter_class->passes_chroma = TRUE;
}

static void
gst_cuda_equalize_init (GstCudaEqualize * self)
{
}

static CipStatus
gst_cuda_equalize_process (GstCudaImgprocFilter * filter,
    GstCudaImgprocFrame * frame)
{
  return frame->ops->equalize (frame->src, frame->dst, frame->stream);
}
