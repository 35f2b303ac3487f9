/* gst-cuda-imgproc
 * Copyright (C) 2026 The gst-cuda-imgproc authors
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2 of the License, or (at your option) any later version.
 */

/* The gray frame a mask carries (its GstCudaImgprocIntensityMeta, GRAY8
 * or GRAY16_LE), where an element that reads it (cudalabel's intensity
 * columns) can: in place when it is a device frame of the element's
 * context, else mapped on the host and, on the cuda backend, uploaded into
 * a device image of the frame's format. */

#ifndef __GST_CUDA_IMGPROC_INTENSITY_H__
#define __GST_CUDA_IMGPROC_INTENSITY_H__

#include <gst/gst.h>
#include <gst/video/video.h>

#include "cip.h"
#include "gstcudaimgprocdevice.h"

G_BEGIN_DECLS

typedef struct
{
  /* Between map and unmap. */
  GstVideoFrame frame;
  gboolean mapped;
  CipImage image;               /* plane 0 of frame: GRAY8 or GRAY16 */
  gboolean on_device;           /* image is a device frame of our context */
} GstCudaImgprocIntensity;

/* Maps the gray frame of @inbuf's intensity meta, once its writer is done
 * with it (on the GPU when it is a device frame of @device's context).
 * @device is NULL on the cpu backend.  FALSE when there is none, or it is
 * not a GRAY8 or GRAY16_LE frame of @info's size: the element then uses
 * its input's own values. */
gboolean gst_cuda_imgproc_intensity_map (GstCudaImgprocIntensity * intensity,
    GstElement * element, GstBuffer * inbuf, const GstVideoInfo * info,
    GstCudaImgprocDevice * device);
/* The mapped frame where kernels on @stream can read it: in place, or
 * uploaded into @copy (allocated, or reallocated for another size or
 * format, here; the frame's own, kept until the frame is done).  With the
 * context current. */
CipStatus gst_cuda_imgproc_intensity_to_device (GstCudaImgprocIntensity *
    intensity, CipImage * copy, CipStream * stream, const CipImage ** image);
void gst_cuda_imgproc_intensity_unmap (GstCudaImgprocIntensity * intensity);

G_END_DECLS

#endif /* __GST_CUDA_IMGPROC_INTENSITY_H__ */
