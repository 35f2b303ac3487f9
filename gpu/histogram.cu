/* gst-cuda-imgproc
 * Copyright (C) 2026 The gst-cuda-imgproc authors
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2 of the License, or (at your option) any later version.
 */

/* The second launch of the histogram operations: see cip-histogram.cuh. */

#include "cip-histogram.cuh"

__global__ void
cip_histogram_apply_kernel (const uint8_t * __restrict__ src,
    size_t src_stride, uint8_t * __restrict__ dst, size_t dst_stride,
    int width, bool src_aligned, bool dst_aligned,
    const uint8_t * __restrict__ lut)
{
  __shared__ uint8_t table[CIP_HIST_BINS];
  int x = blockIdx.x * CIP_ROW_SPAN + threadIdx.x * CIP_UNIT;
  int y = blockIdx.y;
  CipUnit v;

  for (int i = threadIdx.x; i < CIP_HIST_BINS; i += blockDim.x)
    table[i] = lut[i];
  __syncthreads ();

  if (x >= width)
    return;

  v = cip_load16 (src + y * src_stride, x, width, src_aligned);
#pragma unroll
  for (int i = 0; i < CIP_UNIT; i++)
    v.b[i] = table[v.b[i]];
  cip_store16 (dst + y * dst_stride, x, width, dst_aligned, v);
}

CipStatus
cip_histogram_finish (const CipImage * src, CipImage * dst,
    CipStream * stream)
{
  stream->hist_turn++;
  cip_histogram_apply_kernel <<<dim3 (cip_row_segments (src->width),
          src->height), CIP_ROW_THREADS, 0, stream->stream >>> (
      (const uint8_t *) src->data, src->stride, (uint8_t *) dst->data,
      dst->stride, src->width, cip_rows_aligned (src, 16),
      cip_rows_aligned (dst, 16), stream->table);
  CIP_CUDA_TRY_LAUNCH (stream, "lookup-table kernel");
  return CIP_OK;
}

typedef struct
{
  const uint8_t *src;
  size_t src_stride;
  int width;
  unsigned units_per_row;       /* CIP_UNIT pixels each */
  unsigned units;
  bool src_aligned;             /* 16-byte rows */
  unsigned part_shift;          /* a value's part: value >> part_shift */
  uint32_t *rows;               /* a chunk's CIP_HIST16_BINS 16-bit counts */
} Histogram16Chunks;

/* Adds @count pixels of @value to the block's packed 16-bit counters,
 * where @value lies in the block's part of the range. */
__device__ __forceinline__ void
histogram16_add (uint32_t * counts, const Histogram16Chunks & p,
    unsigned value, unsigned count)
{
  unsigned bin;

  if (value >> p.part_shift != blockIdx.y)
    return;
  bin = value & ((1u << p.part_shift) - 1);
  atomicAdd (&counts[bin >> 1], count << ((bin & 1) << 4));
}

/* A block a chunk (and a part of the range): see cip-histogram.cuh. */
__global__ void
__launch_bounds__ (CIP_HIST16_THREADS)
histogram16_chunk_kernel (Histogram16Chunks p)
{
  extern __shared__ uint4 shared_words[];
  uint32_t *counts = (uint32_t *) shared_words;
  unsigned words = 1u << (p.part_shift - 1);
  unsigned first = blockIdx.x * CIP_HIST16_CHUNK_UNITS;
  unsigned end = min (p.units, first + CIP_HIST16_CHUNK_UNITS);
  uint4 *row;

  for (unsigned k = threadIdx.x; k < words / 4; k += blockDim.x)
    shared_words[k] = make_uint4 (0, 0, 0, 0);
  __syncthreads ();

  for (unsigned u = first + threadIdx.x; u < end; u += blockDim.x) {
    unsigned y = u / p.units_per_row;
    int x = (int) (u - y * p.units_per_row) * CIP_UNIT;
    int n = min (CIP_UNIT, p.width - x);
    uint16_t w[CIP_UNIT];
    unsigned run_value, run = 1;

    cip_load16_words (p.src + y * p.src_stride, x, p.width, p.src_aligned,
        w);
    run_value = w[0];
#pragma unroll
    for (int i = 1; i < CIP_UNIT; i++) {
      if (i >= n)
        break;
      if (w[i] == run_value) {
        run++;
      } else {
        histogram16_add (counts, p, run_value, run);
        run_value = w[i];
        run = 1;
      }
    }
    histogram16_add (counts, p, run_value, run);
  }
  __syncthreads ();

  row = (uint4 *) ((uint8_t *) p.rows + blockIdx.x * CIP_HIST16_ROW_BYTES +
      blockIdx.y * words * sizeof (uint32_t));
  for (unsigned k = threadIdx.x; k < words / 4; k += blockDim.x)
    __stcg (&row[k], shared_words[k]);
}

/* Writes the totals of the block's segment, whose bin @bin (the
 * thread's) holds @count. */
__device__ void
histogram16_summarize (int bin, uint32_t count,
    CipHistogram16Summary * summary)
{
  __shared__ uint32_t scratch32[32];
  __shared__ uint64_t scratch64[32];
  __shared__ int32_t scratch_int[32];
  uint32_t total = cip_block_reduce (count, scratch32, CipSum ());
  uint64_t weighted = cip_block_reduce (cip_histogram16_weight (count) *
      (uint64_t) bin, scratch64, CipSum ());
  int32_t first = cip_block_reduce (count ? bin : CIP_HIST16_BINS,
      scratch_int, CipMin ());
  int32_t last = cip_block_reduce (count ? bin : -1, scratch_int, CipMax ());

  if (threadIdx.x == 0) {
    summary->count[blockIdx.x] = total;
    summary->weighted[blockIdx.x] = weighted;
    summary->first[blockIdx.x] = first;
    summary->last[blockIdx.x] = last;
  }
}

/* The chunks' rows summed, a thread a bin. */
__global__ void
__launch_bounds__ (CIP_HIST16_SEGMENT_BINS)
histogram16_sum_kernel (const uint16_t * __restrict__ rows, unsigned chunks,
    uint32_t * __restrict__ hist, CipHistogram16Summary * summary)
{
  int bin = blockIdx.x * CIP_HIST16_SEGMENT_BINS + threadIdx.x;
  uint32_t count = 0;

#pragma unroll 8
  for (unsigned c = 0; c < chunks; c++)
    count += __ldcs (&rows[c * CIP_HIST16_BINS + bin]);
  hist[bin] = count;
  histogram16_summarize (bin, count, summary);
}

CipStatus
cip_histogram16_count (const CipImage * src, uint32_t * hist,
    CipHistogram16Summary * summary, CipStream * stream)
{
  Histogram16Chunks p;
  unsigned chunks, parts;
  size_t shared;
  void *rows;
  CipStatus status;

  p.src = (const uint8_t *) src->data;
  p.src_stride = src->stride;
  p.width = src->width;
  p.units_per_row = CIP_DIV_UP (src->width, CIP_UNIT);
  p.units = p.units_per_row * src->height;
  p.src_aligned = cip_rows_aligned (src, 16);
  chunks = CIP_DIV_UP (p.units, CIP_HIST16_CHUNK_UNITS);

  /* 128 KiB of counters a block where the device allows it, else the
   * range in two or four parts */
  for (parts = 1; CIP_HIST16_ROW_BYTES / parts > (size_t) stream->shared_optin
      && parts < 4; parts *= 2);
  shared = CIP_HIST16_ROW_BYTES / parts;
  p.part_shift = 16 - (parts == 1 ? 0 : parts == 2 ? 1 : 2);

  status = cip_cuda_scratch (stream, CIP_SCRATCH_HIST16_PARTS,
      chunks * CIP_HIST16_ROW_BYTES, &rows);
  if (status != CIP_OK)
    return status;
  p.rows = (uint32_t *) rows;
  /* once a stream: more than 48 KiB must be asked for */
  if (stream->hist16_shared != shared) {
    CIP_CUDA_TRY (stream,
        cudaFuncSetAttribute (histogram16_chunk_kernel,
            cudaFuncAttributeMaxDynamicSharedMemorySize, (int) shared));
    stream->hist16_shared = shared;
  }

  histogram16_chunk_kernel <<<dim3 (chunks, parts), CIP_HIST16_THREADS,
      shared, stream->stream >>> (p);
  CIP_CUDA_TRY_LAUNCH (stream, "16-bit histogram kernel");
  histogram16_sum_kernel <<<CIP_HIST16_SEGMENTS, CIP_HIST16_SEGMENT_BINS, 0,
      stream->stream >>> ((const uint16_t *) p.rows, chunks, hist, summary);
  CIP_CUDA_TRY_LAUNCH (stream, "16-bit histogram sum kernel");
  return CIP_OK;
}

__global__ static void
__launch_bounds__ (CIP_HIST16_SEGMENT_BINS)
histogram16_smooth_kernel (uint32_t * hist, CipHistogram16Summary * summary,
    CipSmoothing smoothing)
{
  int bin = blockIdx.x * CIP_HIST16_SEGMENT_BINS + threadIdx.x;
  uint32_t count = cip_smooth_bin (&smoothing, bin, hist[bin]);

  hist[bin] = count;
  histogram16_summarize (bin, count, summary);
}

CipStatus
cip_histogram16_smooth (uint32_t * hist, CipHistogram16Summary * summary,
    const CipSmoothing * smoothing, CipStream * stream)
{
  histogram16_smooth_kernel <<<CIP_HIST16_SEGMENTS, CIP_HIST16_SEGMENT_BINS,
      0, stream->stream >>> (hist, summary, *smoothing);
  CIP_CUDA_TRY_LAUNCH (stream, "16-bit histogram smoothing kernel");
  return CIP_OK;
}
