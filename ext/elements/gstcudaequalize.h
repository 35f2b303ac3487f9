/* gst-cuda-imgproc
 * Copyright (C) 2026 The gst-cuda-imgproc authors
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2 of the License, or (at your option) any later version.
 */

#ifndef __GST_CUDA_EQUALIZE_H__
#define __GST_CUDA_EQUALIZE_H__

#include "gstcudaimgprocfilter.h"

G_BEGIN_DECLS

#define GST_TYPE_CUDA_EQUALIZE (gst_cuda_equalize_get_type ())
G_DECLARE_FINAL_TYPE (GstCudaEqualize, gst_cuda_equalize, GST, CUDA_EQUALIZE,
    GstCudaImgprocFilter);

GST_ELEMENT_REGISTER_DECLARE (cudaequalize);

G_END_DECLS

#endif /* __GST_CUDA_EQUALIZE_H__ */
