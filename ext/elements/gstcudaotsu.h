/* gst-cuda-imgproc
 * Copyright (C) 2026 The gst-cuda-imgproc authors
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2 of the License, or (at your option) any later version.
 */

#ifndef __GST_CUDA_OTSU_H__
#define __GST_CUDA_OTSU_H__

#include "gstcudaimgprocfilter.h"

G_BEGIN_DECLS

#define GST_TYPE_CUDA_OTSU (gst_cuda_otsu_get_type ())
G_DECLARE_FINAL_TYPE (GstCudaOtsu, gst_cuda_otsu, GST, CUDA_OTSU,
    GstCudaImgprocFilter);

GST_ELEMENT_REGISTER_DECLARE (cudaotsu);

G_END_DECLS

#endif /* __GST_CUDA_OTSU_H__ */
