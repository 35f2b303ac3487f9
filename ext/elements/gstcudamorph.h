/* gst-cuda-imgproc
 * Copyright (C) 2026 The gst-cuda-imgproc authors
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2 of the License, or (at your option) any later version.
 */

#ifndef __GST_CUDA_MORPH_H__
#define __GST_CUDA_MORPH_H__

#include "gstcudaimgprocfilter.h"

G_BEGIN_DECLS

/**
 * GstCudaMorphOperation:
 * @GST_CUDA_MORPH_OPERATION_ERODE: the minimum over the structuring
 *   element: bright regions shrink
 * @GST_CUDA_MORPH_OPERATION_DILATE: the maximum: bright regions grow
 * @GST_CUDA_MORPH_OPERATION_OPEN: erode, then dilate: removes bright
 *   details smaller than the element
 * @GST_CUDA_MORPH_OPERATION_CLOSE: dilate, then erode: fills dark details
 *   smaller than the element
 *
 * The morphological operation, as OpenCV's erode, dilate and morphologyEx.
 */
typedef enum
{
  GST_CUDA_MORPH_OPERATION_ERODE = CIP_MORPH_ERODE,
  GST_CUDA_MORPH_OPERATION_DILATE = CIP_MORPH_DILATE,
  GST_CUDA_MORPH_OPERATION_OPEN = CIP_MORPH_OPEN,
  GST_CUDA_MORPH_OPERATION_CLOSE = CIP_MORPH_CLOSE,
} GstCudaMorphOperation;

#define GST_TYPE_CUDA_MORPH_OPERATION (gst_cuda_morph_operation_get_type ())
GType gst_cuda_morph_operation_get_type (void);

/**
 * GstCudaMorphShape:
 * @GST_CUDA_MORPH_SHAPE_DISK: the pixels within the radius of the centre,
 *   x^2 + y^2 <= r^2 (scikit-image's disk)
 * @GST_CUDA_MORPH_SHAPE_SQUARE: the whole (2r+1) x (2r+1) square
 * @GST_CUDA_MORPH_SHAPE_CROSS: the centre row and column (OpenCV's
 *   MORPH_CROSS)
 *
 * The structuring element's shape.
 */
typedef enum
{
  GST_CUDA_MORPH_SHAPE_DISK = CIP_SHAPE_DISK,
  GST_CUDA_MORPH_SHAPE_SQUARE = CIP_SHAPE_SQUARE,
  GST_CUDA_MORPH_SHAPE_CROSS = CIP_SHAPE_CROSS,
} GstCudaMorphShape;

#define GST_TYPE_CUDA_MORPH_SHAPE (gst_cuda_morph_shape_get_type ())
GType gst_cuda_morph_shape_get_type (void);

#define GST_TYPE_CUDA_MORPH (gst_cuda_morph_get_type ())
G_DECLARE_FINAL_TYPE (GstCudaMorph, gst_cuda_morph, GST, CUDA_MORPH,
    GstCudaImgprocFilter);

GST_ELEMENT_REGISTER_DECLARE (cudamorph);

G_END_DECLS

#endif /* __GST_CUDA_MORPH_H__ */
