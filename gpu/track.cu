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
 *  1. count: each pixel where both frames have a region makes a pair
 *     (current label, previous label); lanes of a warp row with the same
 *     pair are grouped with __match_any_sync, a tile sums the groups in a
 *     small shared hash table, and one global insertion per pair and tile
 *     adds them into a global hash table of pair counts (open addressing
 *     on the 64-bit pair), whose newly taken slots are listed.  The
 *     labelling does this where it writes its label image (cip-track.cuh:
 *     the table's track_prev), reading the previous frame's label at each
 *     pixel of a region; otherwise pairs_kernel reads both label images;
 *  2. best: a thread per listed slot takes the atomicMax of (count,
 *     ~previous label) into the best previous region of its current
 *     region, and of (count, ~current label) into the best current region
 *     of its previous region, and clears the slot.  After a labelling that
 *     counted, its last pass does this; otherwise best_kernel;
 *  3. number, one launch: a region whose best previous region has it as
 *     best takes that region's id, any other the next new id in label
 *     order, by a single-pass scan over chunks of regions with decoupled
 *     look-back.
 *
 * After a labelling that counted, tracking a frame is one launch.  Nothing
 * is cleared in a pass of its own: the counting clears the best words the
 * frame before set (their bound kept in the counters), the best step
 * clears the pair table's slots it visits, and the numbering pass works in
 * one of two turns, clearing the other turn's look-back states for the
 * frame after.
 *
 * Bounded whatever the content: the pair table has a slot and a half per
 * pixel.  Two 4-adjacent pixels of the same pair of regions share their
 * pair, so the label images of a labelling hold at most one pair per two
 * pixels (the table at most a third full) and any label images at most a
 * pair per pixel: probing always ends.  Only the slots taken are visited
 * and cleared, so a frame costs one pass over its pixels and work in
 * proportion to its pairs and regions; the scratch is allocated once for
 * the largest image (and cleared once whenever the image size changes, or
 * after a sequence of calls that leaves it half used). */

#include "cip-track.cuh"

#define FULL_WARP 0xffffffffu

/* Pass 1 without a labelling: 32x64 tiles, a block of 8 warps, each warp
 * 8 rows of one 32-pixel column strip. */
#define PAIRS_TILE_W 32
#define PAIRS_TILE_H 64
#define PAIRS_THREADS 256
#define PAIRS_WARPS (PAIRS_THREADS / 32)
#define PAIRS_ROWS (PAIRS_TILE_H / PAIRS_WARPS)

/* Per-region passes: a region per thread; the numbering pass takes chunks
 * of NUMBER_THREADS regions. */
#define REGION_THREADS 256
#define NUMBER_THREADS 256
#define NUMBER_WARPS (NUMBER_THREADS / 32)

struct NumberArgs
{
  /* a first frame: its regions, read here; NULL: the header the best step
   * wrote */
  const uint32_t *count;
  uint32_t max_regions;
  const unsigned long long *best_prev;
  const unsigned long long *best_cur;
  /* look-back states of this turn's chunks, and of the other turn's */
  unsigned long long *states;
  unsigned long long *other_states;
  unsigned turn;
  uint32_t *counters;
  const uint32_t *prev_ids;
  uint32_t *ids;
  uint32_t *state;
  double *column;
  uint32_t column_capacity;
};

/* The scratch's parts for images of @pixels pixels, in bytes from its
 * start. */
struct TrackLayout
{
  size_t keys, best_prev, best_cur, states, pair_counts, used, counters;
  size_t size;
  uint32_t capacity, max_regions, chunks;
};

static TrackLayout
track_layout (uint64_t pixels)
{
  TrackLayout l;
  size_t regions;

  l.capacity = (uint32_t) (pixels + pixels / 2 + 1);
  l.max_regions = (uint32_t) ((pixels + 1) / 2);
  l.chunks = CIP_DIV_UP (l.max_regions, NUMBER_THREADS);
  regions = (size_t) l.max_regions + 1;
  l.keys = 0;
  l.best_prev = l.keys + (size_t) l.capacity * sizeof (unsigned long long);
  l.best_cur = l.best_prev + regions * sizeof (unsigned long long);
  l.states = l.best_cur + regions * sizeof (unsigned long long);
  l.pair_counts = l.states +
      2 * ((size_t) l.chunks + 1) * sizeof (unsigned long long);
  l.used = l.pair_counts + (size_t) l.capacity * sizeof (uint32_t);
  l.counters = l.used + (size_t) l.capacity * sizeof (uint32_t);
  l.size = l.counters + TRACK_N_COUNTERS * sizeof (uint32_t);
  return l;
}

/* The label a best word names, 0 for none. */
static __device__ __forceinline__ uint32_t
best_label (unsigned long long best)
{
  return best ? ~(uint32_t) best : 0;
}

/* 1. The pairs of a tile, counted in shared memory, then added to the
 * global table; first the best words of the frame before cleared. */
static __global__ void
pairs_kernel (TrackCount t, const uint32_t * labels, const uint32_t * count,
    int width, int height)
{
  __shared__ unsigned long long keys[TRACK_TILE_SLOTS];
  __shared__ uint32_t counts[TRACK_TILE_SLOTS];
  __shared__ uint32_t n_shared;
  int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  int x = blockIdx.x * PAIRS_TILE_W + lane;
  int y0 = blockIdx.y * PAIRS_TILE_H + warp * PAIRS_ROWS;
  uint32_t block = blockIdx.y * gridDim.x + blockIdx.x;
  uint32_t cur[PAIRS_ROWS], prev[PAIRS_ROWS], n, n_prev;

  track_clear_best (t, block * PAIRS_THREADS + threadIdx.x,
      gridDim.x * gridDim.y * PAIRS_THREADS);
  if (threadIdx.x == 0)
    n_shared = min (*count, t.max_regions);
  track_tile_init (keys, counts);
  n_prev = track_prev_regions (t);
  /* every row's loads in flight at once */
#pragma unroll
  for (int k = 0; k < PAIRS_ROWS; k++) {
    int y = y0 + k;
    bool inside = x < width && y < height;

    cur[k] = inside ? labels[(size_t) y * t.stride + x] : 0;
    prev[k] = inside ? t.prev_labels[(size_t) y * t.stride + x] : 0;
  }
  __syncthreads ();
  n = n_shared;

#pragma unroll
  for (int k = 0; k < PAIRS_ROWS; k++) {
    uint32_t c = cur[k] <= n ? cur[k] : 0;

    track_tile_count (keys, counts, t, c, prev[k] <= n_prev ? prev[k] : 0,
        __match_any_sync (FULL_WARP, c));
  }
  __syncthreads ();
  track_tile_flush (keys, counts, t);
}

/* 2. Each pair's count, offered to both its regions. */
static __global__ void
best_kernel (TrackCount t, const uint32_t * count)
{
  __shared__ uint32_t n_shared;

  /* the count is in host memory: read once a block */
  if (threadIdx.x == 0)
    n_shared = min (*count, t.max_regions);
  __syncthreads ();
  track_best (t, n_shared, blockIdx.x * blockDim.x + threadIdx.x,
      gridDim.x * blockDim.x, TrackSameIds ());
}

/* 3. The ids, their column and the frame's state.  A block takes chunks of
 * NUMBER_THREADS regions in turn; a region is kept when it and its best
 * previous region are each other's best, and the new ones are numbered in
 * label order from the chunks' counts before them.  The other turn's
 * states are cleared (its last frame's chunks) and its tickets reset, for
 * the frame after. */
static __global__ void __launch_bounds__ (NUMBER_THREADS)
number_kernel (NumberArgs p)
{
  __shared__ uint32_t warp_counts[NUMBER_WARPS];
  __shared__ uint32_t chunk_shared, before_shared, n_shared;
  bool first = p.count != NULL;
  uint32_t next_id = first ? 1 : p.counters[TRACK_NEXT_ID];
  uint32_t other = p.counters[TRACK_CHUNKS + !p.turn];
  uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
  uint32_t n, n_chunks;

  /* a first frame's count is in host memory: read once a block */
  if (threadIdx.x == 0)
    n_shared = first ? min (*p.count, p.max_regions) : p.counters[TRACK_N];
  __syncthreads ();
  n = n_shared;
  n_chunks = CIP_DIV_UP (n, NUMBER_THREADS);

  for (uint32_t k = i; k < other; k += gridDim.x * blockDim.x)
    p.other_states[k] = 0;
  if (i == 0) {
    p.counters[TRACK_TICKETS + !p.turn] = 0;
    p.counters[TRACK_CHUNKS + p.turn] = n_chunks;
    /* the best step has read it */
    p.counters[TRACK_USED] = 0;
  }
  /* Blocks past the chunks take no ticket: the grid is sized before the
   * count is known, and a ticket each would queue a hundred atomics on
   * one word for a frame of a few regions.  Block 0 always takes one:
   * with no regions, it writes the state. */
  if (blockIdx.x >= max (n_chunks, 1u))
    return;

  for (;;) {
    uint32_t chunk, r, q = 0, rank, fresh;
    bool inside, kept = false;

    if (threadIdx.x == 0)
      chunk_shared = atomicAdd (&p.counters[TRACK_TICKETS + p.turn], 1u);
    __syncthreads ();
    chunk = chunk_shared;
    if (chunk >= n_chunks) {
      /* no regions: the first block to find none writes the state */
      if (chunk == 0 && threadIdx.x == 0) {
        p.state[CIP_TRACK_STATE_REGIONS] = 0;
        p.state[CIP_TRACK_STATE_NEXT_ID] = next_id;
      }
      break;
    }

    r = chunk * NUMBER_THREADS + threadIdx.x + 1;
    inside = r <= n;
    if (inside && !first) {
      q = best_label (p.best_prev[r]);
      kept = q != 0 && best_label (p.best_cur[q]) == r;
    }
    rank = cip_block_rank (inside && !kept, warp_counts, &fresh);
    if (threadIdx.x < 32) {
      uint32_t before = cip_chunk_lookback (p.states, chunk, fresh);

      if (threadIdx.x == 0)
        before_shared = before;
    }
    __syncthreads ();

    if (inside) {
      uint32_t id = kept ? p.prev_ids[q - 1] : next_id + before_shared + rank;

      p.ids[r - 1] = id;
      if (r - 1 < p.column_capacity)
        p.column[r - 1] = id;
    }
    if (chunk == n_chunks - 1 && threadIdx.x == 0) {
      p.state[CIP_TRACK_STATE_REGIONS] = n;
      p.state[CIP_TRACK_STATE_NEXT_ID] = next_id + before_shared + fresh;
    }
    /* chunk_shared and before_shared are written again */
    __syncthreads ();
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
region_grid (const CipStream * stream, size_t regions, int per_sm)
{
  size_t blocks = CIP_DIV_UP (regions, REGION_THREADS);
  size_t most = (size_t) stream->sm_count * per_sm;

  return (uint32_t) (blocks < most ? blocks : most);
}

/* The scratch for @pixels, cleared when it holds another size or was left
 * half used; half used from here until the frame is numbered. */
static CipStatus
track_scratch (CipStream * stream, uint64_t pixels, const TrackLayout * l,
    uint8_t ** scratch)
{
  CipStatus status = cip_cuda_scratch (stream, CIP_SCRATCH_TRACK, l->size,
      (void **) scratch);

  stream->track_counted = NULL;
  if (status != CIP_OK) {
    stream->track_pixels = 0;
    return status;
  }
  if (stream->track_pixels != pixels) {
    stream->track_pixels = 0;
    CIP_CUDA_TRY (stream, cudaMemsetAsync (*scratch, 0, l->size,
            stream->stream));
  }
  stream->track_pixels = 0;
  return CIP_OK;
}

static void
track_count_args (TrackCount * t, const CipTrackFrame * prev,
    size_t stride, const TrackLayout * l, uint8_t * scratch)
{
  t->prev_labels = prev->labels;
  t->stride = stride;
  t->prev_state = prev->state;
  t->max_regions = l->max_regions;
  t->keys = (unsigned long long *) (scratch + l->keys);
  t->pair_counts = (uint32_t *) (scratch + l->pair_counts);
  t->used = (uint32_t *) (scratch + l->used);
  t->capacity = l->capacity;
  t->best_prev = (unsigned long long *) (scratch + l->best_prev);
  t->best_cur = (unsigned long long *) (scratch + l->best_cur);
  t->counters = (uint32_t *) (scratch + l->counters);
}

CipStatus
cip_track_count_begin (CipStream * stream, const CipTrackFrame * prev,
    size_t stride, int width, int height, TrackCount * t)
{
  uint64_t pixels = (uint64_t) width * height;
  TrackLayout layout = track_layout (pixels);
  uint8_t *scratch;
  CipStatus status = track_scratch (stream, pixels, &layout, &scratch);

  if (status != CIP_OK)
    return status;
  track_count_args (t, prev, stride, &layout, scratch);
  return CIP_OK;
}

void
cip_track_count_end (CipStream * stream, const CipTrackFrame * prev,
    const uint32_t * labels, size_t stride, int width, int height)
{
  stream->track_counted = labels;
  stream->track_counted_prev = prev->labels;
  stream->track_counted_width = width;
  stream->track_counted_height = height;
  stream->track_counted_stride = stride;
}

/* Whether the last labelling on @stream counted @prev's and @frame's
 * pairs, and nothing ran on the scratch since. */
static bool
track_counted (const CipStream * stream, const CipTrackFrame * prev,
    const CipTrackFrame * frame, int width, int height)
{
  return prev && stream->track_counted == frame->labels &&
      stream->track_counted_prev == prev->labels &&
      stream->track_counted_width == width &&
      stream->track_counted_height == height &&
      stream->track_counted_stride == frame->stride;
}

static CipStatus
track_launch (const CipTrackFrame * prev, const CipTrackFrame * frame,
    const uint32_t * count, int width, int height, bool counted,
    const TrackLayout * l, uint8_t * scratch, CipStream * stream)
{
  cudaStream_t s = stream->stream;
  unsigned turn = stream->track_turn;
  unsigned long long *states =
      (unsigned long long *) (scratch + l->states);
  NumberArgs n;

  if (prev && !counted) {
    TrackCount t;
    dim3 tiles (CIP_DIV_UP (width, PAIRS_TILE_W),
        CIP_DIV_UP (height, PAIRS_TILE_H));

    track_count_args (&t, prev, frame->stride, l, scratch);
    pairs_kernel <<<tiles, PAIRS_THREADS, 0, s >>> (t, frame->labels, count,
        width, height);
    CIP_CUDA_TRY_LAUNCH (stream, "track pairs kernel");
    /* a pair has a pixel of its own: as many slots as pixels at most */
    best_kernel <<<region_grid (stream, (size_t) width * height, 8),
        REGION_THREADS, 0, s >>> (t, count);
    CIP_CUDA_TRY_LAUNCH (stream, "track best kernel");
  }

  n.count = prev ? NULL : count;
  n.max_regions = l->max_regions;
  n.best_prev = (const unsigned long long *) (scratch + l->best_prev);
  n.best_cur = (const unsigned long long *) (scratch + l->best_cur);
  n.states = states + turn * ((size_t) l->chunks + 1);
  n.other_states = states + (1 - turn) * ((size_t) l->chunks + 1);
  n.turn = turn;
  n.counters = (uint32_t *) (scratch + l->counters);
  n.prev_ids = prev ? prev->ids : NULL;
  n.ids = frame->ids;
  n.state = frame->state;
  n.column = frame->column;
  n.column_capacity = frame->column ? frame->column_capacity : 0;
  /* a block a multiprocessor: blocks take the chunks in turn, and most
   * frames have few */
  number_kernel <<<region_grid (stream, (size_t) l->max_regions, 1),
      NUMBER_THREADS, 0, s >>> (n);
  CIP_CUDA_TRY_LAUNCH (stream, "track number kernel");
  return CIP_OK;
}

extern "C" CipStatus
cip_track_frame (const CipTrackFrame * prev, const CipTrackFrame * frame,
    const uint32_t * count, int width, int height, CipStream * stream)
{
  uint64_t pixels = (uint64_t) width * height;
  TrackLayout layout;
  CipStatus status;
  uint8_t *scratch;
  bool counted;

  if (stream == NULL || frame == NULL || count == NULL ||
      frame->labels == NULL || frame->ids == NULL || frame->state == NULL ||
      (frame->column_capacity > 0 && frame->column == NULL) ||
      width < 1 || width > CIP_MAX_DIMENSION || height < 1 ||
      height > CIP_MAX_DIMENSION || frame->stride < (size_t) width ||
      (prev && (prev->labels == NULL || prev->ids == NULL ||
              prev->state == NULL || prev->stride != frame->stride)))
    return CIP_ERROR_INVALID_ARGUMENT;

  layout = track_layout (pixels);
  counted = track_counted (stream, prev, frame, width, height);
  if (counted) {
    /* the labelling's, its counts in it */
    stream->track_counted = NULL;
    status = cip_cuda_scratch (stream, CIP_SCRATCH_TRACK, layout.size,
        (void **) &scratch);
  } else {
    status = track_scratch (stream, pixels, &layout, &scratch);
  }
  if (status == CIP_OK)
    status = track_launch (prev, frame, count, width, height, counted,
        &layout, scratch, stream);
  if (status != CIP_OK) {
    stream->track_pixels = 0;
    return status;
  }
  stream->track_turn = 1 - stream->track_turn;
  stream->track_pixels = pixels;
  return CIP_OK;
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
  column_kernel <<<region_grid (stream, capacity, 8), REGION_THREADS, 0,
      stream->stream >>> (ids, count, column, capacity);
  CIP_CUDA_TRY_LAUNCH (stream, "track column kernel");
  return CIP_OK;
}
