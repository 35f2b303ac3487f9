/* gst-cuda-imgproc
 * Copyright (C) 2026 The gst-cuda-imgproc authors
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2 of the License, or (at your option) any later version.
 */

/* Histogram equalization without a host round trip: histogram and lookup
 * table in one launch, its application in a second (cip-histogram.cuh).
 * Packed 4:2:2 (YUYV, UYVY) counts only the Y bytes and its second launch
 * copies whole rows, the Y bytes through the table; GRAY16 has a 16-bit
 * histogram and table of its own (equalize16 below). */

#include "cip-histogram.cuh"
#include "cip-ref.h"

/* Writes OpenCV's equalizeHist table for the finished histogram into
 * @table, with a thread per bin: the running sums are exact integers, so a
 * parallel scan gives the reference's table bit for bit. */
__device__ __forceinline__ void
equalize_table (const uint32_t * hist, uint8_t * table,
    const CipSmoothing & smoothing)
{
  __shared__ uint32_t scratch[CIP_BIN_THREADS / 32];
  __shared__ uint32_t cumulative_at[CIP_HIST_BINS];
  __shared__ int first;
  int bin = threadIdx.x;
  uint32_t count = __ldcg (&hist[bin]);
  uint32_t cumulative, total, first_cumulative, first_count;

  /* temporal smoothing: the bin's history in place of its count */
  if (smoothing.history)
    count = cip_smooth_bin (&smoothing, bin, count);

  if (bin == 0)
    first = CIP_HIST_BINS - 1;
  __syncthreads ();
  if (count > 0)
    atomicMin (&first, bin);

  cumulative = cip_block_inclusive_scan (count, scratch);
  cumulative_at[bin] = cumulative;
  __syncthreads ();

  total = cumulative_at[CIP_HIST_BINS - 1];
  first_cumulative = cumulative_at[first];
  first_count = first_cumulative - (first > 0 ? cumulative_at[first - 1] : 0);
  if (first_count == total)
    table[bin] = bin == first ? (uint8_t) first : 0;
  else if (bin <= first)
    table[bin] = 0;
  else
    table[bin] = cip_equalize_lut_value (cumulative - first_cumulative,
        cip_equalize_scale (total, first_count));
}

__global__ void
__launch_bounds__ (CIP_HISTOGRAM_THREADS)
equalize_count_kernel (CipHistogramPass p, CipSmoothing smoothing)
{
  __shared__ uint32_t warp_hists[CIP_HISTOGRAM_WARPS * CIP_HIST_BINS];

  if (cip_histogram_count (p, warp_hists))
    equalize_table (p.hist, p.table, smoothing);
}

/* Packed 4:2:2 rows through the table: a block covers CIP_ROW_SPAN bytes
 * of a row, a thread CIP_UNIT (one 16-byte load and store where the rows
 * are 16-byte aligned).  The Y bytes of the image's pixels (below
 * @luma_end, at @luma_offset of every two) are mapped, the U and V bytes
 * (and an odd width's unused Y) copied. */
__global__ void
equalize_packed_apply_kernel (const uint8_t * __restrict__ src,
    size_t src_stride, uint8_t * __restrict__ dst, size_t dst_stride,
    int row_bytes, int luma_end, int luma_offset, bool src_aligned,
    bool dst_aligned, const uint8_t * __restrict__ lut)
{
  __shared__ uint8_t table[CIP_HIST_BINS];
  int x = blockIdx.x * CIP_ROW_SPAN + threadIdx.x * CIP_UNIT;
  int y = blockIdx.y;
  CipUnit v;

  for (int i = threadIdx.x; i < CIP_HIST_BINS; i += blockDim.x)
    table[i] = lut[i];
  __syncthreads ();

  if (x >= row_bytes)
    return;

  v = cip_load16 (src + y * src_stride, x, row_bytes, src_aligned);
#pragma unroll
  for (int i = 0; i < CIP_UNIT; i++)
    if ((i & 1) == luma_offset && x + i < luma_end)
      v.b[i] = table[v.b[i]];
  cip_store16 (dst + y * dst_stride, x, row_bytes, dst_aligned, v);
}

static CipStatus
equalize_packed (const CipImage * src, CipImage * dst,
    const CipSmoothing & smoothing, CipStream * stream)
{
  CipHistogramPass p = cip_histogram_pass (src, stream);
  int offset = src->format == CIP_FORMAT_UYVY ? 1 : 0;
  int row_bytes = cip_packed_row_bytes (src->width);

  /* the histogram of the Y bytes: every other byte of the pixels' */
  p.width = 2 * src->width;
  p.units_per_row = CIP_DIV_UP (p.width, CIP_UNIT);
  p.units = p.units_per_row * src->height;
  p.luma_mask = 1;
  p.luma_offset = offset;
  equalize_count_kernel <<<cip_histogram_blocks (p, stream),
      CIP_HISTOGRAM_THREADS, 0, stream->stream >>> (p, smoothing);
  CIP_CUDA_TRY_LAUNCH (stream, "equalize histogram kernel");

  stream->hist_turn++;
  equalize_packed_apply_kernel <<<dim3 (cip_row_segments (row_bytes),
          src->height), CIP_ROW_THREADS, 0, stream->stream >>> (
      (const uint8_t *) src->data, src->stride, (uint8_t *) dst->data,
      dst->stride, row_bytes, p.width, offset, cip_rows_aligned (src, 16),
      cip_rows_aligned (dst, 16), stream->table);
  CIP_CUDA_TRY_LAUNCH (stream, "packed lookup-table kernel");
  return CIP_OK;
}

/* GRAY16 (cip_equalize16_value), without a host round trip:
 *
 * 1. the 16-bit histogram and its segments' summary
 *    (cip_histogram16_count) into the stream's scratch;
 * 2. (smoothing) a thread a bin replaces its count by the history's;
 * 3. a block a segment: from the summary, the total, the first occupied
 *    level and the count before its own bins; it scans its bins for the
 *    exact running sums and writes their table entries;
 * 4. every pixel through the 16-bit table (128 KiB, from L2).
 *
 * The scratch is allocated once, by the first call. */

typedef struct
{
  uint32_t hist[CIP_HIST16_BINS];
  CipHistogram16Summary summary;
  uint16_t table[CIP_HIST16_BINS];
} Equalize16Scratch;

__global__ void
__launch_bounds__ (CIP_HIST16_SEGMENT_BINS)
equalize16_table_kernel (Equalize16Scratch * s)
{
  __shared__ uint32_t scratch[32];
  int bin = blockIdx.x * CIP_HIST16_SEGMENT_BINS + threadIdx.x;
  uint32_t total = 0, before = 0, first = CIP_HIST16_BINS - 1;
  uint32_t count, cumulative, first_count;

  /* the total, the first occupied level and what lies before this
   * block's bins, from the segments' summaries */
  if (threadIdx.x < CIP_HIST16_SEGMENTS) {
    total = __ldcg (&s->summary.count[threadIdx.x]);
    before = threadIdx.x < blockIdx.x ? total : 0;
    first = min (first, (uint32_t) __ldcg (&s->summary.first[threadIdx.x]));
  }
  total = cip_block_reduce (total, scratch, CipSum ());
  before = cip_block_reduce (before, scratch, CipSum ());
  first = cip_block_reduce (first, scratch, CipMin ());

  count = __ldcg (&s->hist[bin]);
  cumulative = before + cip_block_inclusive_scan (count, scratch);
  first_count = __ldcg (&s->hist[first]);
  if (first_count == total)
    s->table[bin] = (uint32_t) bin == first ? (uint16_t) first : 0;
  else if ((uint32_t) bin <= first)
    s->table[bin] = 0;
  else
    s->table[bin] = cip_equalize16_value (cumulative - first_count,
        total - first_count);
}

/* GRAY16 through the table: a block covers CIP_ROW_SPAN pixels of a row,
 * a thread CIP_UNIT (two 16-byte loads and stores where the rows are
 * 16-byte aligned). */
__global__ void
equalize16_apply_kernel (const uint8_t * __restrict__ src, size_t src_stride,
    uint8_t * __restrict__ dst, size_t dst_stride, int width,
    bool src_aligned, bool dst_aligned, Equalize16Scratch * s)
{
  int x = blockIdx.x * CIP_ROW_SPAN + threadIdx.x * CIP_UNIT;
  int y = blockIdx.y;
  uint8_t *row = dst + y * dst_stride;
  union
  {
    uint4 v[2];
    uint16_t w[CIP_UNIT];
  } u;

  if (x >= width)
    return;

  cip_load16_words (src + y * src_stride, x, width, src_aligned, u.w);
#pragma unroll
  for (int i = 0; i < CIP_UNIT; i++)
    u.w[i] = __ldg (&s->table[u.w[i]]);
  if (dst_aligned && x + CIP_UNIT <= width) {
    ((uint4 *) (row + 2 * x))[0] = u.v[0];
    ((uint4 *) (row + 2 * x))[1] = u.v[1];
  } else {
#pragma unroll
    for (int i = 0; i < CIP_UNIT; i++)
      if (x + i < width) {
        row[2 * (x + i)] = (uint8_t) u.w[i];
        row[2 * (x + i) + 1] = (uint8_t) (u.w[i] >> 8);
      }
  }
}

static CipStatus
equalize16 (const CipImage * src, CipImage * dst,
    const CipSmoothing * smoothing, CipStream * stream)
{
  Equalize16Scratch *s;
  void *scratch;
  CipStatus status;

  status = cip_cuda_scratch (stream, CIP_SCRATCH_EQUALIZE16,
      sizeof (Equalize16Scratch), &scratch);
  if (status != CIP_OK)
    return status;
  s = (Equalize16Scratch *) scratch;

  status = cip_histogram16_count (src, s->hist, &s->summary, stream);
  if (status != CIP_OK)
    return status;
  if (smoothing) {
    status = cip_histogram16_smooth (s->hist, &s->summary, smoothing,
        stream);
    if (status != CIP_OK)
      return status;
  }
  equalize16_table_kernel <<<CIP_HIST16_SEGMENTS, CIP_HIST16_SEGMENT_BINS,
      0, stream->stream >>> (s);
  CIP_CUDA_TRY_LAUNCH (stream, "equalize 16-bit table kernel");
  equalize16_apply_kernel <<<dim3 (cip_row_segments (src->width),
          src->height), CIP_ROW_THREADS, 0, stream->stream >>> (
      (const uint8_t *) src->data, src->stride, (uint8_t *) dst->data,
      dst->stride, src->width, cip_rows_aligned (src, 16),
      cip_rows_aligned (dst, 16), s);
  CIP_CUDA_TRY_LAUNCH (stream, "equalize 16-bit lookup-table kernel");
  return CIP_OK;
}

extern "C" CipStatus
cip_equalize (const CipImage * src, CipImage * dst, CipStream * stream)
{
  return cip_equalize_smoothed (src, dst, NULL, stream);
}

extern "C" CipStatus
cip_equalize_smoothed (const CipImage * src, CipImage * dst,
    const CipSmoothing * smoothing, CipStream * stream)
{
  CipHistogramPass p;
  CipSmoothing args = { NULL, 0, true };

  if (stream == NULL || cip_check_equalize_pair (src, dst) != CIP_OK ||
      !cip_smoothing_valid (smoothing))
    return CIP_ERROR_INVALID_ARGUMENT;

  if (src->format == CIP_FORMAT_GRAY16)
    return equalize16 (src, dst, smoothing, stream);
  if (smoothing)
    args = *smoothing;
  if (src->format != CIP_FORMAT_GRAY8)
    return equalize_packed (src, dst, args, stream);

  p = cip_histogram_pass (src, stream);
  equalize_count_kernel <<<cip_histogram_blocks (p, stream),
      CIP_HISTOGRAM_THREADS, 0, stream->stream >>> (p, args);
  CIP_CUDA_TRY_LAUNCH (stream, "equalize histogram kernel");
  return cip_histogram_finish (src, dst, stream);
}
