/* gst-cuda-imgproc
 * Copyright (C) 2026 The gst-cuda-imgproc authors
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2 of the License, or (at your option) any later version.
 */

/* Internal to the CUDA half of gpu/: launch geometry, the stream object and
 * error checking. */

#ifndef __CIP_CUDA_CUH__
#define __CIP_CUDA_CUH__

#include <cuda_runtime.h>

#include "cip.h"
#include "cip-format.h"
#include "cip-pixel.h"

/* 2D launches: a 32x8 block. */
#define CIP_BLOCK_X 32
#define CIP_BLOCK_Y 8

#define CIP_DIV_UP(a, b) (((a) + (b) - 1) / (b))

/* Device scratch that an operation keeps in its stream between calls. */
typedef enum
{
  CIP_SCRATCH_BLUR,             /* the horizontal pass's output */
  CIP_SCRATCH_MORPH,            /* the first half of open and close */
  CIP_SCRATCH_LABEL_PARENTS,    /* union-find forest, a word per pixel */
  CIP_SCRATCH_LABEL_IDS,        /* final ids and compaction */
  CIP_SCRATCH_LABEL_REGIONS,    /* per-region accumulators */
  CIP_SCRATCH_LABEL_EXTRA,
  CIP_SCRATCH_LABEL_HULLS,      /* row ends and chains of convex hulls */
  CIP_SCRATCH_LABEL_HOLES,      /* background forest and its components */
  CIP_SCRATCH_HIST16,           /* the 16-bit histogram and Otsu's sums */
  CIP_SCRATCH_HIST16_PARTS,     /* the 16-bit histogram's block counts */
  CIP_SCRATCH_EQUALIZE16,       /* the 16-bit histogram and its table */
  CIP_SCRATCH_TRACK,            /* overlap counts and best partners */
  CIP_N_SCRATCH
} CipScratchSlot;

typedef struct
{
  void *data;
  size_t size;
} CipScratch;

struct _CipStream
{
  cudaStream_t stream;
  bool owns_stream;             /* false: the caller's, left alive at free */
  int sm_count;
  int shared_optin;             /* bytes of shared memory a block may ask */
  size_t hist16_shared;         /* ... that the 16-bit histogram may, set */
  bool integrated;              /* the GPU shares the host's memory */
  /* Two histograms of CIP_HIST_BINS counters and a block counter: a
   * histogram operation counts into hist[hist_turn] and zeroes the other,
   * for the next. */
  uint32_t *hist;
  unsigned hist_turn;
  uint8_t *table;               /* CIP_HIST_BINS entries */
  CipScratch scratch[CIP_N_SCRATCH];
  /* The image size (pixels) whose layout CIP_SCRATCH_TRACK holds, its
   * pair table clear; 0: to be cleared before use (and while a frame is
   * half tracked: counted by a labelling, not yet numbered). */
  uint64_t track_pixels;
  /* The turn of the next frame's numbering pass (gpu/track.cu), and the
   * label images whose overlaps the last labelling counted for it (NULL:
   * none), their size and stride. */
  unsigned track_turn;
  const uint32_t *track_counted, *track_counted_prev;
  int track_counted_width, track_counted_height;
  size_t track_counted_stride;
  /* A second stream for a pass that runs beside the stream's own work,
   * forked from it and joined to it by two events (cip_cuda_fork(),
   * cip_cuda_join()); made on first use. */
  cudaStream_t side;
  cudaEvent_t side_fork, side_join;
  CipMemoryStats *stats;        /* the owner's counters, or NULL */
  char error[256];
};

/* Device scratch of at least @size bytes in @slot, kept for later calls:
 * it is reallocated only when a call needs more than any before it.  Its
 * contents are undefined after growing. */
CipStatus cip_cuda_scratch (CipStream * stream, CipScratchSlot slot,
    size_t size, void **data);

/* *@side: a stream whose work queued from now on starts after the work
 * queued on @stream so far; cip_cuda_join() makes @stream's later work
 * wait for it. */
CipStatus cip_cuda_fork (CipStream * stream, cudaStream_t * side);
CipStatus cip_cuda_join (CipStream * stream);

/* Records why @call failed in @stream (may be NULL) and maps the CUDA error
 * to a CipStatus. */
CipStatus cip_cuda_fail (CipStream * stream, const char *call,
    cudaError_t err);

/* Test-only fault injection, for the robustness suite, compiled only in
 * builds configured with -Dtest-switches=true: the environment
 * variable CIP_FAULT, read once when the library is loaded, lists faults
 * separated by commas.  "alloc:N": the N-th device or page-locked
 * allocation of the process fails with cudaErrorMemoryAllocation; "launch:N":
 * the N-th launch check reports cudaErrorLaunchOutOfResources.  Counted
 * from the loading, over every stream and thread; each fires once.
 * Unset, a check costs one branch. */
typedef enum
{
  CIP_FAULT_ALLOC,
  CIP_FAULT_LAUNCH,
  CIP_N_FAULTS
} CipFault;

extern bool cip_fault_armed;

/* True when this check is the one CIP_FAULT names for @fault. */
bool cip_fault_fire (CipFault fault);

#define CIP_FAULT_HIT(fault) \
  (__builtin_expect (cip_fault_armed, 0) && cip_fault_fire (fault))

/* Evaluates a CUDA runtime call; on failure records it and returns. */
#define CIP_CUDA_TRY(stream, call)                                  \
  do {                                                              \
    cudaError_t _cip_err = (call);                                  \
    if (_cip_err != cudaSuccess)                                    \
      return cip_cuda_fail ((stream), #call, _cip_err);             \
  } while (0)

/* Checks the launch that just happened. */
#define CIP_CUDA_TRY_LAUNCH(stream, kernel_name)                    \
  do {                                                              \
    cudaError_t _cip_err = CIP_FAULT_HIT (CIP_FAULT_LAUNCH) ?       \
        cudaErrorLaunchOutOfResources : cudaGetLastError ();        \
    if (_cip_err != cudaSuccess)                                    \
      return cip_cuda_fail ((stream), kernel_name " launch", _cip_err); \
  } while (0)

static inline dim3
cip_block_2d (void)
{
  return dim3 (CIP_BLOCK_X, CIP_BLOCK_Y);
}

/* True when 4-byte (or 16-byte) loads and stores stay aligned on every row. */
static inline bool
cip_rows_aligned (const CipImage * image, size_t alignment)
{
  return ((uintptr_t) image->data % alignment) == 0 &&
      image->stride % alignment == 0;
}

/* Per-bin work on a histogram: one block, a thread per bin. */
#define CIP_BIN_THREADS CIP_HIST_BINS

/* The inclusive prefix sum of one value per thread of a block of whole
 * warps, up to 1024 threads (32- or 64-bit); @scratch holds one value per
 * warp.  Successive calls may share @scratch. */
template < typename T > __device__ __forceinline__ T
cip_block_inclusive_scan (T value, T * scratch)
{
  int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  int warps = blockDim.x >> 5;

  for (int d = 1; d < 32; d <<= 1) {
    T other = __shfl_up_sync (0xffffffffu, value, d);

    if (lane >= d)
      value += other;
  }
  /* the previous call's readers are done with @scratch */
  __syncthreads ();
  if (lane == 31)
    scratch[warp] = value;
  __syncthreads ();
  if (warp == 0) {
    T total = lane < warps ? scratch[lane] : 0;

    for (int d = 1; d < 32; d <<= 1) {
      T other = __shfl_up_sync (0xffffffffu, total, d);

      if (lane >= d)
        total += other;
    }
    if (lane < warps)
      scratch[lane] = total;
  }
  __syncthreads ();
  return warp > 0 ? value + scratch[warp - 1] : value;
}

struct CipSum
{
  template < typename T > __device__ T operator () (T a, T b) const
  {
    return a + b;
  }
};

struct CipMin
{
  template < typename T > __device__ T operator () (T a, T b) const
  {
    return min (a, b);
  }
};

struct CipMax
{
  template < typename T > __device__ T operator () (T a, T b) const
  {
    return max (a, b);
  }
};

/* The rank of a set @flag among the block's threads (how many threads
 * before this one have theirs set), and in *@total how many are set.
 * @warp_counts holds a word a warp. */
__device__ __forceinline__ uint32_t
cip_block_rank (bool flag, uint32_t * warp_counts, uint32_t * total)
{
  int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  uint32_t ballot = __ballot_sync (0xffffffffu, flag), before = 0, all = 0;

  if (lane == 0)
    warp_counts[warp] = __popc (ballot);
  __syncthreads ();
  for (int w = 0; w < (int) (blockDim.x >> 5); w++) {
    uint32_t c = warp_counts[w];

    before += w < warp ? c : 0;
    all += c;
  }
  __syncthreads ();
  *total = all;
  return before + __popc (ballot & ((1u << lane) - 1));
}

/* The sum, least or largest (@op) of one value per thread of a block of
 * 1024 threads, in every thread; @scratch holds 32 values. */
template < typename T, typename Op > __device__ __forceinline__ T
cip_block_reduce (T value, T * scratch, Op op)
{
  int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;

  for (int d = 16; d > 0; d >>= 1)
    value = op (value, __shfl_xor_sync (0xffffffffu, value, d));
  __syncthreads ();
  if (lane == 0)
    scratch[warp] = value;
  __syncthreads ();
  value = scratch[lane];
  for (int d = 16; d > 0; d >>= 1)
    value = op (value, __shfl_xor_sync (0xffffffffu, value, d));
  return value;
}

/* Stores four consecutive GRAY8 pixels of a row from x, those at or past
 * the width left out. */
__device__ __forceinline__ void
cip_store4 (uint8_t * row, int x, int width, bool aligned, uchar4 v)
{
  if (aligned && x + 3 < width) {
    *(uchar4 *) (row + x) = v;
    return;
  }
  row[x] = v.x;
  if (x + 1 < width)
    row[x + 1] = v.y;
  if (x + 2 < width)
    row[x + 2] = v.z;
  if (x + 3 < width)
    row[x + 3] = v.w;
}

/* Streaming GRAY8 rows in 16-pixel units: a block of CIP_ROW_THREADS
 * threads covers CIP_ROW_SPAN consecutive pixels of one row, so that every
 * warp-wide load and store is one contiguous 512-byte run. */
#define CIP_ROW_THREADS 128
#define CIP_UNIT 16
#define CIP_ROW_SPAN (CIP_ROW_THREADS * CIP_UNIT)

typedef union
{
  uint4 v;
  uint8_t b[CIP_UNIT];
} CipUnit;

/* The CIP_ROW_SPAN-pixel segments of an image, row by row. */
static inline unsigned
cip_row_segments (int width)
{
  return CIP_DIV_UP (width, CIP_ROW_SPAN);
}

/* Sixteen consecutive pixels of a row from x; those at or past the width
 * read as 0.  @aligned: the row start and stride are 16-byte aligned. */
__device__ __forceinline__ CipUnit
cip_load16 (const uint8_t * __restrict__ row, int x, int width, bool aligned)
{
  CipUnit u;

  if (aligned && x + CIP_UNIT <= width) {
    u.v = *(const uint4 *) (row + x);
  } else {
#pragma unroll
    for (int i = 0; i < CIP_UNIT; i++)
      u.b[i] = x + i < width ? row[x + i] : 0;
  }
  return u;
}

__device__ __forceinline__ void
cip_store16 (uint8_t * __restrict__ row, int x, int width, bool aligned,
    const CipUnit & u)
{
  if (aligned && x + CIP_UNIT <= width) {
    *(uint4 *) (row + x) = u.v;
  } else {
#pragma unroll
    for (int i = 0; i < CIP_UNIT; i++)
      if (x + i < width)
        row[x + i] = u.b[i];
  }
}

/* Look-back states of chunks counted in parallel: a chunk's count with,
 * above it, whether that count is its own or includes every chunk before
 * it.  Zero means not yet published. */
#define CIP_CHUNK_OWN (1ull << 32)
#define CIP_CHUNK_PREFIX (2ull << 32)

/* The counts of the chunks before @chunk, by decoupled look-back (Merrill
 * and Garland 2016), called by a whole warp: it publishes @own, then sums
 * its predecessors' counts, 32 at a time, back to the nearest one that
 * includes all before it.  Chunks must be numbered in the order their
 * blocks start, so that every chunk waited on belongs to a block already
 * running that has published its own count first. */
static __device__ uint32_t
cip_chunk_lookback (unsigned long long *states, uint32_t chunk, uint32_t own)
{
  volatile unsigned long long *v = states;
  int lane = threadIdx.x & 31;
  uint32_t before = 0;
  int64_t end = chunk;

  if (lane == 0)
    v[chunk] = (chunk == 0 ? CIP_CHUNK_PREFIX : CIP_CHUNK_OWN) | own;
  while (end > 0) {
    int64_t i = end - 1 - lane;
    unsigned long long state;
    uint32_t prefixes, count;

    do
      state = i >= 0 ? v[i] : CIP_CHUNK_PREFIX;
    while (__any_sync (0xffffffffu, state == 0));

    /* Lanes up to the nearest prefix count; lane 0 is the nearest chunk. */
    prefixes = __ballot_sync (0xffffffffu, state >= CIP_CHUNK_PREFIX);
    count = (uint32_t) state;
    if (prefixes && lane > __ffs (prefixes) - 1)
      count = 0;
    for (int d = 16; d > 0; d >>= 1)
      count += __shfl_xor_sync (0xffffffffu, count, d);
    before += count;
    if (prefixes)
      break;
    end -= 32;
  }
  if (lane == 0 && chunk > 0)
    v[chunk] = CIP_CHUNK_PREFIX | (before + own);
  return before;
}

#endif /* __CIP_CUDA_CUH__ */
