/* gst-cuda-imgproc
 * Copyright (C) 2026 The gst-cuda-imgproc authors
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2 of the License, or (at your option) any later version.
 */

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <gst/gst.h>

#include "gstcudagray.h"
#include "gstcudamask.h"
#include "gstcudaequalize.h"
#include "gstcudaotsu.h"
#include "gstcudablur.h"
#include "gstcudamorph.h"
#include "gstcudalabel.h"

/* Registration needs no driver: elements look for CUDA when they start. */
static gboolean
plugin_init (GstPlugin * plugin)
{
  gboolean ret = FALSE;

  ret |= GST_ELEMENT_REGISTER (cudagray, plugin);
  ret |= GST_ELEMENT_REGISTER (cudamask, plugin);
  ret |= GST_ELEMENT_REGISTER (cudaequalize, plugin);
  ret |= GST_ELEMENT_REGISTER (cudaotsu, plugin);
  ret |= GST_ELEMENT_REGISTER (cudablur, plugin);
  ret |= GST_ELEMENT_REGISTER (cudamorph, plugin);
  ret |= GST_ELEMENT_REGISTER (cudalabel, plugin);

  return ret;
}

GST_PLUGIN_DEFINE (GST_VERSION_MAJOR, GST_VERSION_MINOR, cudaimgproc,
    "GPU image processing with CUDA: gray, mask, equalize, Otsu, blur, "
    "morphology, labelling",
    plugin_init, VERSION, GST_LICENSE, GST_PACKAGE_NAME, GST_PACKAGE_ORIGIN)
