/* gst-cuda-imgproc
 * Copyright (C) 2026 The gst-cuda-imgproc authors
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2 of the License, or (at your option) any later version.
 */

#ifndef __GST_CUDA_LABEL_H__
#define __GST_CUDA_LABEL_H__

#include "gstcudaimgprocfilter.h"

G_BEGIN_DECLS

/**
 * GstCudaLabelMode:
 * @GST_CUDA_LABEL_MODE_COLOR: RGBA, a colour per label, background black
 * @GST_CUDA_LABEL_MODE_LABELS: GRAY16_LE label ids, background 0
 * @GST_CUDA_LABEL_MODE_PASSTHROUGH: the input mask, unchanged
 *
 * What `cudalabel` outputs; the statistics are the same in every mode.
 *
 * Since: 0.1
 */
typedef enum
{
  GST_CUDA_LABEL_MODE_COLOR,
  GST_CUDA_LABEL_MODE_LABELS,
  GST_CUDA_LABEL_MODE_PASSTHROUGH,
} GstCudaLabelMode;

/**
 * GstCudaLabelConnectivity:
 * @GST_CUDA_LABEL_CONNECTIVITY_4: pixels touching by an edge
 * @GST_CUDA_LABEL_CONNECTIVITY_8: pixels touching by an edge or a corner
 *
 * Since: 0.1
 */
typedef enum
{
  GST_CUDA_LABEL_CONNECTIVITY_4 = 4,
  GST_CUDA_LABEL_CONNECTIVITY_8 = 8,
} GstCudaLabelConnectivity;

#define GST_TYPE_CUDA_LABEL_MODE (gst_cuda_label_mode_get_type ())
GType gst_cuda_label_mode_get_type (void);
#define GST_TYPE_CUDA_LABEL_CONNECTIVITY \
  (gst_cuda_label_connectivity_get_type ())
GType gst_cuda_label_connectivity_get_type (void);

#define GST_TYPE_CUDA_LABEL (gst_cuda_label_get_type ())
G_DECLARE_FINAL_TYPE (GstCudaLabel, gst_cuda_label, GST, CUDA_LABEL,
    GstCudaImgprocFilter);

GST_ELEMENT_REGISTER_DECLARE (cudalabel);

G_END_DECLS

#endif /* __GST_CUDA_LABEL_H__ */
