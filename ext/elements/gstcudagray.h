/* gst-cuda-imgproc
 * Copyright (C) 2026 The gst-cuda-imgproc authors
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2 of the License, or (at your option) any later version.
 */

#ifndef __GST_CUDA_GRAY_H__
#define __GST_CUDA_GRAY_H__

#include "gstcudaimgprocfilter.h"

G_BEGIN_DECLS

/**
 * GstCudaGrayMethod:
 * @GST_CUDA_GRAY_METHOD_BT601: 0.299 R + 0.587 G + 0.114 B, bit for bit as
 *   OpenCV's cvtColor COLOR_RGB2GRAY
 * @GST_CUDA_GRAY_METHOD_BT709: 0.2126 R + 0.7152 G + 0.0722 B
 * @GST_CUDA_GRAY_METHOD_LUMINOSITY: 0.21 R + 0.71 G + 0.07 B
 * @GST_CUDA_GRAY_METHOD_AVERAGE: (R + G + B) / 3
 *
 * How colour becomes gray.
 */
typedef enum
{
  GST_CUDA_GRAY_METHOD_BT601 = CIP_GRAY_BT601,
  GST_CUDA_GRAY_METHOD_BT709 = CIP_GRAY_BT709,
  GST_CUDA_GRAY_METHOD_LUMINOSITY = CIP_GRAY_LUMINOSITY,
  GST_CUDA_GRAY_METHOD_AVERAGE = CIP_GRAY_AVERAGE,
} GstCudaGrayMethod;

#define GST_TYPE_CUDA_GRAY_METHOD (gst_cuda_gray_method_get_type ())
GType gst_cuda_gray_method_get_type (void);

#define GST_TYPE_CUDA_GRAY (gst_cuda_gray_get_type ())
G_DECLARE_FINAL_TYPE (GstCudaGray, gst_cuda_gray, GST, CUDA_GRAY,
    GstCudaImgprocFilter);

GST_ELEMENT_REGISTER_DECLARE (cudagray);

G_END_DECLS

#endif /* __GST_CUDA_GRAY_H__ */
