/* gst-cuda-imgproc
 * Copyright (C) 2026 The gst-cuda-imgproc authors
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2 of the License, or (at your option) any later version.
 */

/* Otsu binarization without a host round trip: histogram, threshold and
 * binarization run on the stream; only the threshold byte comes back. */

#include "cip-cuda.cuh"

/* One thread: the reference's recurrence is sequential in double
 * precision, and its rounding decides ties. */
__global__ void
otsu_threshold_kernel (const uint32_t * hist, uint8_t * threshold)
{
  *threshold = cip_otsu_threshold (hist);
}

extern "C" CipStatus
cip_otsu (const CipImage * src, CipImage * dst, bool invert,
    uint8_t * threshold, CipStream * stream)
{
  CipStatus status;

  if (stream == NULL || threshold == NULL ||
      cip_check_pair (src, dst, 1) != CIP_OK)
    return CIP_ERROR_INVALID_ARGUMENT;

  status = cip_cuda_histogram (src, stream);
  if (status != CIP_OK)
    return status;

  otsu_threshold_kernel <<<1, 1, 0, stream->stream >>> (stream->hist,
      stream->threshold);
  CIP_CUDA_TRY_LAUNCH (stream, "Otsu threshold kernel");

  status = cip_cuda_binarize_at (src, dst, stream->threshold, 255, invert,
      stream);
  if (status != CIP_OK)
    return status;

  CIP_CUDA_TRY (stream, cudaMemcpyAsync (threshold, stream->threshold, 1,
          cudaMemcpyDeviceToHost, stream->stream));
  return CIP_OK;
}
