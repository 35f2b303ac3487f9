/* gst-cuda-imgproc
 * Copyright (C) 2026 The gst-cuda-imgproc authors
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2 of the License, or (at your option) any later version.
 */

/* Tracks across two frames' label images (docs/regionprops.md, "Tracks";
 * cip_ref_track() is the rule), a fixed sequence of launches whatever the
 * content, none of which waits for the host:
 *
 *  1. clear: the best partner of each region of both frames zeroed, and
 *     the counts (read where the labelling wrote them) kept in scratch;
 *  2. pairs: per 32x64 tile, each warp row groups its lanes by their pair
 *     (current label, previous label) with __match_any_sync, the tile
 *     sums the groups in a small shared hash table, and one global
 *     insertion per pair and tile adds them into a global hash table of
 *     pair counts (open addressing on the 64-bit pair), whose newly taken
 *     slots are listed;
 *  3. best: a thread per listed slot packs (count, ~label) in 64 bits and
 *     takes the atomicMax of it into the best previous region of its
 *     current region, and of (count, ~current label) into the best current
 *     region of its previous region: most pixels first, then the lower
 *     label, as the reference's ties go.  The slot is cleared for the next
 *     frame;
 *  4. new: per chunk of REGION_THREADS current regions, those that are not
 *     their best partner's best partner, counted;
 *  5. offsets: one block turns the counts into each chunk's first new id,
 *     and writes the frame's state (its regions, the next id);
 *  6. assign: a mutual pair's current region takes the previous region's
 *     id, any other region the next new id in label order.
 *
 * Bounded whatever the content: the pair table has a slot and a half per
 * pixel.  Two 4-adjacent pixels of the same pair of regions share their
 * pair, so the label images of a labelling hold at most one pair per two
 * pixels (the table at most a third full) and any label images at most a
 * pair per pixel: probing always ends.  Only the slots taken are visited
 * and cleared, so a frame costs one pass over its pixels and work in
 * proportion to its pairs and regions; the scratch is allocated once for
 * the largest image (and cleared once whenever the image size changes). */

#include "cip-cuda.cuh"
#include "cip-label.h"

#define FULL_WARP 0xffffffffu

/* Pass 2: 32x64 tiles, a block of 8 warps, each warp 8 rows of one
 * 32-pixel column strip; a shared table of TRACK_SLOTS pairs. */
#define TRACK_TILE_W 32
#define TRACK_TILE_H 64
#define TRACK_THREADS 256
#define TRACK_WARPS (TRACK_THREADS / 32)
#define TRACK_ROWS (TRACK_TILE_H / TRACK_WARPS)
#define TRACK_SLOTS 512
#define TRACK_SLOT_BITS 9
#define TRACK_PROBES 8

/* Per-region passes: a region per thread. */
#define REGION_THREADS 256
#define REGION_WARPS (REGION_THREADS / 32)
#define OFFSETS_THREADS 1024

/* The words of the scratch's counters. */
enum
{
  TRACK_N,                      /* this frame's regions */
  TRACK_N_PREV,                 /* the previous frame's */
  TRACK_NEXT_ID,                /* the first new id of this frame */
  TRACK_USED,                   /* slots of the pair table taken */
  TRACK_N_COUNTERS
};

struct TrackArgs
{
  const uint32_t *prev_labels;  /* NULL: a first frame */
  const uint32_t *labels;
  size_t stride;
  int width;
  int height;
  const uint32_t *count;
  const uint32_t *prev_state;
  const uint32_t *prev_ids;
  uint32_t *ids;
  uint32_t *state;
  double *column;
  uint32_t column_capacity;
  /* the most regions a frame of this size holds: the counts' bound */
  uint32_t max_regions;
  /* the pair table: a key (current label << 32 | previous label, 0 for
   * none) and a count a slot, and the list of the slots taken */
  unsigned long long *keys;
  uint32_t *pair_counts;
  uint32_t *used;
  uint32_t capacity;
  /* (count << 32 | ~label) of each region's best partner, 0 for none:
   * of current regions 1 .. n, of previous regions 1 .. n_prev */
  unsigned long long *best_prev;
  unsigned long long *best_cur;
  /* per chunk of REGION_THREADS regions: its new regions, then its first
   * new id */
  uint32_t *chunk_counts;
  uint32_t *counters;
};

/* The scratch's parts for images of @pixels pixels, in bytes from its
 * start. */
struct TrackLayout
{
  size_t keys, pair_counts, used, best_prev, best_cur, chunk_counts;
  size_t counters, size;
  uint32_t capacity, max_regions;
};

static TrackLayout
track_layout (uint64_t pixels)
{
  TrackLayout l;
  size_t regions;

  l.capacity = (uint32_t) (pixels + pixels / 2 + 1);
  l.max_regions = (uint32_t) ((pixels + 1) / 2);
  regions = (size_t) l.max_regions + 1;
  l.keys = 0;
  l.best_prev = l.keys + (size_t) l.capacity * sizeof (unsigned long long);
  l.best_cur = l.best_prev + regions * sizeof (unsigned long long);
  l.pair_counts = l.best_cur + regions * sizeof (unsigned long long);
  l.used = l.pair_counts + (size_t) l.capacity * sizeof (uint32_t);
  l.chunk_counts = l.used + (size_t) l.capacity * sizeof (uint32_t);
  l.counters = l.chunk_counts +
      (CIP_DIV_UP (regions, REGION_THREADS) + 1) * sizeof (uint32_t);
  l.size = l.counters + TRACK_N_COUNTERS * sizeof (uint32_t);
  return l;
}

/* A pair's first slot in a table of @capacity. */
static __device__ __forceinline__ uint32_t
pair_slot (unsigned long long key, uint32_t capacity)
{
  uint32_t h = (uint32_t) ((key * 0x9e3779b97f4a7c15ull) >> 32);

  return (uint32_t) (((unsigned long long) h * capacity) >> 32);
}

/* Adds @n pixels to pair @key in the global table; a slot taken anew is
 * listed. */
static __device__ void
pair_add (const TrackArgs & p, unsigned long long key, uint32_t n)
{
  volatile unsigned long long *keys = p.keys;
  uint32_t slot = pair_slot (key, p.capacity);

  for (;;) {
    unsigned long long k = keys[slot];

    if (k == 0) {
      k = atomicCAS (&p.keys[slot], 0ull, key);
      if (k == 0) {
        p.used[atomicAdd (&p.counters[TRACK_USED], 1u)] = slot;
        atomicAdd (&p.pair_counts[slot], n);
        return;
      }
    }
    if (k == key) {
      atomicAdd (&p.pair_counts[slot], n);
      return;
    }
    slot = slot + 1 == p.capacity ? 0 : slot + 1;
  }
}

/* The label a best word names, 0 for none. */
static __device__ __forceinline__ uint32_t
best_label (unsigned long long best)
{
  return best ? ~(uint32_t) best : 0;
}

/* Whether current region @r and its best previous region (*@prev) are
 * each other's best. */
static __device__ __forceinline__ bool
mutual (const TrackArgs & p, uint32_t r, uint32_t * prev)
{
  uint32_t q = best_label (p.best_prev[r]);

  *prev = q;
  return q != 0 && best_label (p.best_cur[q]) == r;
}

/* 1. The counts, then every best word of both frames' regions zeroed. */
static __global__ void
clear_kernel (TrackArgs p)
{
  __shared__ uint32_t counts[2];
  uint32_t n, n_prev, end;

  if (threadIdx.x == 0) {
    counts[0] = min (*p.count, p.max_regions);
    counts[1] = p.prev_state ?
        min (p.prev_state[CIP_TRACK_STATE_REGIONS], p.max_regions) : 0;
    if (blockIdx.x == 0) {
      p.counters[TRACK_N] = counts[0];
      p.counters[TRACK_N_PREV] = counts[1];
      p.counters[TRACK_NEXT_ID] = p.prev_state ?
          p.prev_state[CIP_TRACK_STATE_NEXT_ID] : 1;
    }
  }
  __syncthreads ();
  n = counts[0];
  n_prev = counts[1];
  end = max (n, n_prev);
  for (uint32_t i = blockIdx.x * blockDim.x + threadIdx.x; i <= end;
      i += gridDim.x * blockDim.x) {
    if (i <= n)
      p.best_prev[i] = 0;
    if (i <= n_prev)
      p.best_cur[i] = 0;
  }
}

/* 2. The pairs of a tile, counted in shared memory, then added to the
 * global table. */
static __global__ void
pairs_kernel (TrackArgs p)
{
  __shared__ unsigned long long keys[TRACK_SLOTS];
  __shared__ uint32_t counts[TRACK_SLOTS];
  int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  int x = blockIdx.x * TRACK_TILE_W + lane;
  int y0 = blockIdx.y * TRACK_TILE_H + warp * TRACK_ROWS;
  uint32_t n = p.counters[TRACK_N], n_prev = p.counters[TRACK_N_PREV];
  uint32_t cur[TRACK_ROWS], prev[TRACK_ROWS];

  for (int s = threadIdx.x; s < TRACK_SLOTS; s += TRACK_THREADS) {
    keys[s] = 0;
    counts[s] = 0;
  }
  /* every row's loads in flight at once */
#pragma unroll
  for (int k = 0; k < TRACK_ROWS; k++) {
    int y = y0 + k;
    bool inside = x < p.width && y < p.height;

    cur[k] = inside ? p.labels[(size_t) y * p.stride + x] : 0;
    prev[k] = inside ? p.prev_labels[(size_t) y * p.stride + x] : 0;
  }
  __syncthreads ();

#pragma unroll
  for (int k = 0; k < TRACK_ROWS; k++) {
    unsigned long long key = 0;
    uint32_t peers, slot;
    bool placed = false;

    if (cur[k] != 0 && prev[k] != 0 && cur[k] <= n && prev[k] <= n_prev)
      key = (unsigned long long) cur[k] << 32 | prev[k];
    peers = __match_any_sync (FULL_WARP, key);
    if (key == 0 || lane != __ffs (peers) - 1)
      continue;
    slot = (uint32_t) ((key * 0x9e3779b97f4a7c15ull) >>
        (64 - TRACK_SLOT_BITS));
    for (int probe = 0; probe < TRACK_PROBES && !placed; probe++) {
      unsigned long long old = atomicCAS (&keys[slot], 0ull, key);

      placed = old == 0 || old == key;
      if (!placed)
        slot = (slot + 1) % TRACK_SLOTS;
    }
    if (placed)
      atomicAdd (&counts[slot], (uint32_t) __popc (peers));
    else
      /* the tile holds too many pairs: straight to the global table */
      pair_add (p, key, __popc (peers));
  }
  __syncthreads ();

  for (int s = threadIdx.x; s < TRACK_SLOTS; s += TRACK_THREADS)
    if (keys[s] != 0)
      pair_add (p, keys[s], counts[s]);
}

/* 3. Each pair's count, offered to both its regions; the slot cleared. */
static __global__ void
best_kernel (TrackArgs p)
{
  uint32_t n_used = p.counters[TRACK_USED];

  for (uint32_t i = blockIdx.x * blockDim.x + threadIdx.x; i < n_used;
      i += gridDim.x * blockDim.x) {
    uint32_t slot = p.used[i];
    unsigned long long key = p.keys[slot];
    unsigned long long count = p.pair_counts[slot];
    uint32_t cur = (uint32_t) (key >> 32), prev = (uint32_t) key;

    atomicMax (&p.best_prev[cur], count << 32 | (uint32_t) ~prev);
    atomicMax (&p.best_cur[prev], count << 32 | (uint32_t) ~cur);
    p.keys[slot] = 0;
    p.pair_counts[slot] = 0;
  }
}

/* 4. The new regions of each chunk. */
static __global__ void
count_new_kernel (TrackArgs p)
{
  uint32_t n = p.counters[TRACK_N];

  for (uint32_t chunk = blockIdx.x; chunk * REGION_THREADS < n;
      chunk += gridDim.x) {
    uint32_t r = chunk * REGION_THREADS + threadIdx.x + 1, prev;
    bool fresh = r <= n && !mutual (p, r, &prev);
    uint32_t fresh_count = __syncthreads_count (fresh);

    if (threadIdx.x == 0)
      p.chunk_counts[chunk] = fresh_count;
  }
}

/* 5. Each chunk's first new id: the exclusive prefix sum of the counts
 * from the first new id; and the frame's state.  One block; each thread
 * takes a run of consecutive chunks. */
static __global__ void
offsets_kernel (TrackArgs p)
{
  __shared__ uint32_t warp_sums[32];
  uint32_t n = p.counters[TRACK_N];
  uint32_t n_chunks = CIP_DIV_UP (n, REGION_THREADS);
  uint32_t per = CIP_DIV_UP (n_chunks, OFFSETS_THREADS);
  uint32_t begin = min (threadIdx.x * per, n_chunks);
  uint32_t end = min (begin + per, n_chunks);
  uint32_t sum = 0, run;

  for (uint32_t i = begin; i < end; i++)
    sum += p.chunk_counts[i];
  run = p.counters[TRACK_NEXT_ID] +
      cip_block_inclusive_scan (sum, warp_sums) - sum;
  for (uint32_t i = begin; i < end; i++) {
    uint32_t c = p.chunk_counts[i];

    p.chunk_counts[i] = run;
    run += c;
  }
  if (threadIdx.x == OFFSETS_THREADS - 1) {
    p.state[CIP_TRACK_STATE_REGIONS] = n;
    p.state[CIP_TRACK_STATE_NEXT_ID] = run;
    /* the pair table is empty again */
    p.counters[TRACK_USED] = 0;
  }
}

/* 6. The ids, and their column. */
static __global__ void
assign_kernel (TrackArgs p)
{
  __shared__ uint32_t warp_counts[REGION_WARPS];
  uint32_t n = p.counters[TRACK_N];

  for (uint32_t chunk = blockIdx.x; chunk * REGION_THREADS < n;
      chunk += gridDim.x) {
    uint32_t r = chunk * REGION_THREADS + threadIdx.x + 1, prev = 0;
    bool inside = r <= n;
    bool kept = inside && mutual (p, r, &prev);
    uint32_t total, rank = cip_block_rank (inside && !kept, warp_counts,
        &total);

    if (inside) {
      uint32_t id = kept ? p.prev_ids[prev - 1] : p.chunk_counts[chunk] +
          rank;

      p.ids[r - 1] = id;
      if (r - 1 < p.column_capacity)
        p.column[r - 1] = id;
    }
  }
}

static __global__ void
column_kernel (const uint32_t * ids, const uint32_t * count, double *column,
    uint32_t capacity)
{
  uint32_t n = min (*count, capacity);

  for (uint32_t i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
      i += gridDim.x * blockDim.x)
    column[i] = ids[i];
}

/* The blocks of a per-region pass over up to @regions regions. */
static uint32_t
region_grid (const CipStream * stream, size_t regions)
{
  size_t blocks = CIP_DIV_UP (regions, REGION_THREADS);
  size_t most = (size_t) stream->sm_count * 8;

  return (uint32_t) (blocks < most ? blocks : most);
}

static CipStatus
track_launch (const TrackArgs * p, CipStream * stream)
{
  cudaStream_t s = stream->stream;
  uint32_t grid = region_grid (stream, (size_t) p->max_regions + 1);

  clear_kernel <<<grid, REGION_THREADS, 0, s >>> (*p);
  CIP_CUDA_TRY_LAUNCH (stream, "track clear kernel");
  if (p->prev_labels) {
    dim3 tiles (CIP_DIV_UP (p->width, TRACK_TILE_W),
        CIP_DIV_UP (p->height, TRACK_TILE_H));

    pairs_kernel <<<tiles, TRACK_THREADS, 0, s >>> (*p);
    CIP_CUDA_TRY_LAUNCH (stream, "track pairs kernel");
    /* a pair has a pixel of its own: as many slots as pixels at most */
    best_kernel <<<region_grid (stream, (size_t) p->width * p->height),
        REGION_THREADS, 0, s >>> (*p);
    CIP_CUDA_TRY_LAUNCH (stream, "track best kernel");
  }
  count_new_kernel <<<grid, REGION_THREADS, 0, s >>> (*p);
  CIP_CUDA_TRY_LAUNCH (stream, "track count kernel");
  offsets_kernel <<<1, OFFSETS_THREADS, 0, s >>> (*p);
  CIP_CUDA_TRY_LAUNCH (stream, "track offsets kernel");
  assign_kernel <<<grid, REGION_THREADS, 0, s >>> (*p);
  CIP_CUDA_TRY_LAUNCH (stream, "track assign kernel");
  return CIP_OK;
}

extern "C" CipStatus
cip_track_frame (const CipTrackFrame * prev, const CipTrackFrame * frame,
    const uint32_t * count, int width, int height, CipStream * stream)
{
  uint64_t pixels = (uint64_t) width * height;
  TrackLayout layout;
  TrackArgs p;
  CipStatus status;
  uint8_t *scratch;

  if (stream == NULL || frame == NULL || count == NULL ||
      frame->labels == NULL || frame->ids == NULL || frame->state == NULL ||
      (frame->column_capacity > 0 && frame->column == NULL) ||
      width < 1 || width > CIP_MAX_DIMENSION || height < 1 ||
      height > CIP_MAX_DIMENSION || frame->stride < (size_t) width ||
      (prev && (prev->labels == NULL || prev->ids == NULL ||
              prev->state == NULL || prev->stride != frame->stride)))
    return CIP_ERROR_INVALID_ARGUMENT;

  layout = track_layout (pixels);
  status = cip_cuda_scratch (stream, CIP_SCRATCH_TRACK, layout.size,
      (void **) &scratch);
  if (status != CIP_OK) {
    stream->track_pixels = 0;
    return status;
  }
  /* A new size moves the table: every part cleared once. */
  if (stream->track_pixels != pixels) {
    CIP_CUDA_TRY (stream, cudaMemsetAsync (scratch, 0, layout.size,
            stream->stream));
    stream->track_pixels = pixels;
  }

  p.prev_labels = prev ? prev->labels : NULL;
  p.labels = frame->labels;
  p.stride = frame->stride;
  p.width = width;
  p.height = height;
  p.count = count;
  p.prev_state = prev ? prev->state : NULL;
  p.prev_ids = prev ? prev->ids : NULL;
  p.ids = frame->ids;
  p.state = frame->state;
  p.column = frame->column;
  p.column_capacity = frame->column ? frame->column_capacity : 0;
  p.max_regions = layout.max_regions;
  p.keys = (unsigned long long *) (scratch + layout.keys);
  p.pair_counts = (uint32_t *) (scratch + layout.pair_counts);
  p.used = (uint32_t *) (scratch + layout.used);
  p.capacity = layout.capacity;
  p.best_prev = (unsigned long long *) (scratch + layout.best_prev);
  p.best_cur = (unsigned long long *) (scratch + layout.best_cur);
  p.chunk_counts = (uint32_t *) (scratch + layout.chunk_counts);
  p.counters = (uint32_t *) (scratch + layout.counters);

  status = track_launch (&p, stream);
  /* A pass that stopped half way may have left pairs in the table. */
  if (status != CIP_OK)
    stream->track_pixels = 0;
  return status;
}

extern "C" CipStatus
cip_track_column (const uint32_t * ids, const uint32_t * count,
    double *column, uint32_t capacity, CipStream * stream)
{
  if (stream == NULL || ids == NULL || count == NULL ||
      (capacity > 0 && column == NULL))
    return CIP_ERROR_INVALID_ARGUMENT;
  if (capacity == 0)
    return CIP_OK;
  column_kernel <<<region_grid (stream, capacity), REGION_THREADS, 0,
      stream->stream >>> (ids, count, column, capacity);
  CIP_CUDA_TRY_LAUNCH (stream, "track column kernel");
  return CIP_OK;
}
