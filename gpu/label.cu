/* gst-cuda-imgproc
 * Copyright (C) 2026 The gst-cuda-imgproc authors
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2 of the License, or (at your option) any later version.
 */

/* Connected-component labelling with region statistics, a fixed sequence
 * of launches whatever the content:
 *
 *  1. local: union-find in shared memory inside each 32x32 tile, a warp
 *     per tile, over runs of pixels in a row, each row joined to the one
 *     above;
 *  2. border: union-find in global memory across tile borders (Playne and
 *     Hawick 2018: a union hangs the larger root under the smaller with
 *     atomicMin, so every tree is rooted at its smallest raster index);
 *  3. resolve: every pixel points at its root, and the roots get their
 *     ids in raster order, counted by a single-pass scan with decoupled
 *     look-back; their accumulators are initialised;
 *  4. stats: per 64x32 tile, each warp row groups its lanes by id
 *     (__match_any_sync) and sums them with ballots, the tile merges the
 *     groups in a small shared hash table, and one set of global atomics
 *     per region and tile follows; paints @dst and writes the table's
 *     label image when nothing is filtered;
 *     the intensity image is GRAY8 or GRAY16, a template argument;
 *  5. with min_area > 1: keep flags counted per block, their prefix sum,
 *  6. finalize: the final ids, and the table (the regions' statistics,
 *     the properties' columns) written straight into the caller's
 *     page-locked memory, coalesced;
 *  7. with min_area > 1, @dst or the table's label image: paint them
 *     with the final ids.
 *
 * The table goes straight to host memory: "All host memory allocated
 * through all devices using cudaMallocHost() and cudaHostAlloc() is always
 * directly accessible from all devices that support unified addressing.
 * This is the case regardless of whether or not the flags
 * cudaHostAllocPortable and cudaHostAllocMapped are specified.  The pointer
 * value through which allocated host memory may be accessed in kernels on
 * all devices that support unified addressing is the same as the pointer
 * value through which that memory is accessed on the host" (CUDA Runtime
 * API, Unified Addressing, "Automatic Mapping of Host Allocated Host
 * Memory"); unified addressing is always on in 64-bit processes.  Only
 * the entries the table holds cross the bus. */

#include "cip-cuda.cuh"
#include "cip-label.h"
#include "cip-track.cuh"

#define LABEL_BACKGROUND 0xffffffffu
/* Set in a root's parent word once it holds the region's id. */
#define LABEL_ID_FLAG 0x80000000u

#define FULL_WARP 0xffffffffu

/* Pass 1 and 2: 32x32 tiles; pass 1 takes one per block, TILE_WARPS
 * warps per tile. */
#define TILE_SIZE 32
#define TILE_WARPS 4
#define BAND_ROWS (TILE_SIZE / TILE_WARPS)
/* Pass 2: a warp for the tile's top row, one for its left column. */
#define BORDER_WARPS 2

/* Passes over raster indices: SCAN_CHUNK consecutive indices per block. */
#define SCAN_THREADS 256
#define SCAN_ITEMS 8
#define SCAN_CHUNK (SCAN_THREADS * SCAN_ITEMS)
#define SCAN_WARPS (SCAN_THREADS / 32)
#define OFFSETS_THREADS 1024

/* Statistics: 64x32 tiles, 8 warps, a hash table of STATS_SLOTS ids. */
#define STATS_TILE_W 64
#define STATS_TILE_H 32
#define STATS_THREADS 256
#define STATS_SLOTS 512
#define STATS_SLOT_BITS 9
#define STATS_PROBES 8
#define STATS_WARPS (STATS_THREADS / 32)
#define STATS_SEGMENTS (STATS_TILE_H * (STATS_TILE_W / 32))
/* Row segments a warp loads at once. */
#define STATS_BATCH 2

/* Per-region passes: a region per thread. */
#define REGION_THREADS 256

/* Convex hulls: regions of up to HULL_THREAD_ROWS rows take a thread
 * each, taller ones a warp, and those taller than a warp's share of the
 * shared memory holds a block while they are few. */
#define HULL_THREAD_ROWS 8
#define HULL_THREADS 512
#define HULL_WARPS (HULL_THREADS / 32)
/* Shared memory for chains: a block's, or a warp's share of it; a region
 * of h rows takes 2 (2 h + 1) words. */
#define HULL_SHARED_WORDS 9216
#define HULL_WARP_WORDS (HULL_SHARED_WORDS / HULL_WARPS)
#define HULL_BLOCK_ROWS ((HULL_SHARED_WORDS / 2 - 1) / 2)
#define HULL_WARP_ROWS ((HULL_WARP_WORDS / 2 - 1) / 2)
/* Regions this tall take a block even when many are: a warp's lanes
 * would chain over 32 points each in global memory. */
#define HULL_BLOCK_MIN_ROWS 512
/* Points a thread moves between two barriers when chains merge. */
#define HULL_MOVE_BATCH 4

/* A region's accumulators in device memory. */
struct LabelAccum
{
  unsigned long long sum_x, sum_y, sum_intensity;
  unsigned long long sum_xx, sum_yy, sum_xy;
  uint32_t area, left, right, bottom;
  uint32_t intensity_min, intensity_max;
  uint32_t perimeter_counts[3];
  int euler_quads;
  uint32_t area_convex, area_filled;
  unsigned long long feret_sq4;
  uint32_t hull_rows;           /* its first row among all regions' */
  uint32_t root;                /* raster index of its first pixel */
  uint32_t final_id;            /* after min_area; 0 when dropped */
};

struct LabelArgs
{
  const uint8_t *mask;
  size_t mask_stride;
  const uint8_t *intensity;
  size_t intensity_stride;
  bool intensity_aligned;       /* GRAY16 rows of whole 16-bit words */
  uint8_t *dst;
  size_t dst_stride;
  CipFormat dst_format;
  bool dst_aligned;
  uint32_t *labels;             /* the table's label image, or NULL */
  size_t labels_stride;
  /* the table's track_prev: the pairs of labels counted where the stats
   * pass reads the ids (cip-track.cuh); prev_labels NULL: none */
  TrackCount track;
  int width;
  int height;
  uint32_t n_pixels;
  int connectivity;
  uint32_t min_area;
  uint32_t statistics;          /* CipLabelStatistics */
  bool filter;
  uint32_t *parent;
  unsigned long long *chunk_states;     /* a word per SCAN_CHUNK pixels */
  uint32_t n_chunks;
  uint32_t *region_offsets;     /* a word per REGION_THREADS regions */
  LabelAccum *regions;
  /* [0]: regions, [1]: regions kept, [2]: chunks the resolve pass has
   * taken, [3]: rows of the regions' boxes placed, [4], [5]: regions
   * listed for a warp's hull, for a block's, [6]: background components
   * listed */
  uint32_t *counters;
  /* CIP_LABEL_CONVEX: per row of each region's box, its first and last
   * column; the hulls' chains */
  uint32_t *row_first, *row_last, *chains;
  /* regions taller than HULL_THREAD_ROWS: those up to HULL_WARP_ROWS
   * from the start, the others from the end of tall_capacity words */
  uint32_t *tall_regions;
  uint32_t tall_capacity;
  /* CIP_LABEL_FILLED: the background's forest (8-connected), per
   * background root its size, with HOLE_OPEN when it touches the image's
   * edge, and the roots */
  uint32_t *holes_parent, *holes_size, *holes_roots;
  CipRegion *table;
  uint32_t capacity;
  uint32_t *count;
  /* the properties' columns (cip_region_property_row) */
  double *columns;
  uint32_t column_capacity;
  uint32_t n_props;
  CipRegionProperty props[CIP_N_PROPS];
};

/* Union-find */

/* The root of @a, halving the path on the way: every other node on it is
 * hung from its grandparent.  Parents always have smaller indices than
 * their children, so atomicMin only ever moves a node closer to its root,
 * and leaves alone a node that another lane has just moved further up. */
__device__ __forceinline__ uint32_t
find_shared (uint32_t * s, uint32_t a)
{
  volatile uint32_t *v = s;
  uint32_t p, g;

  while ((p = v[a]) != a) {
    g = v[p];
    if (g == p)
      return p;
    atomicMin (&s[a], g);
    a = g;
  }
  return a;
}

/* Joins the trees of @a and @b; a root only ever moves to a smaller
 * index.  When the atomic finds that the larger root was just hung
 * elsewhere, the join goes on from its new parent. */
__device__ void
union_shared (uint32_t * s, uint32_t a, uint32_t b)
{
  for (;;) {
    uint32_t lo, hi, old;

    a = find_shared (s, a);
    b = find_shared (s, b);
    if (a == b)
      return;
    lo = min (a, b);
    hi = max (a, b);
    old = atomicMin (&s[hi], lo);
    if (old == hi)
      return;
    a = old;
    b = lo;
  }
}

/* find_shared in global memory, through L2: other multiprocessors write
 * these words. */
__device__ __forceinline__ uint32_t
find_global (uint32_t * parent, uint32_t a)
{
  uint32_t p, g;

  while ((p = __ldcg (parent + a)) != a) {
    g = __ldcg (parent + p);
    if (g == p)
      return p;
    atomicMin (&parent[a], g);
    a = g;
  }
  return a;
}

__device__ void
union_global (uint32_t * parent, uint32_t a, uint32_t b)
{
  for (;;) {
    uint32_t lo, hi, old;

    a = find_global (parent, a);
    b = find_global (parent, b);
    if (a == b)
      return;
    lo = min (a, b);
    hi = max (a, b);
    old = atomicMin (&parent[hi], lo);
    if (old == hi)
      return;
    a = old;
    b = lo;
  }
}

/* The first pixel of the run of set bits of @row that holds bit @lane. */
__device__ __forceinline__ int
run_start (uint32_t row, int lane)
{
  uint32_t starts = row & ~(row << 1);

  return 31 - __clz (starts & (FULL_WARP >> (31 - lane)));
}

/* Appends @entry of the lanes where @site holds to a warp's queue, in lane
 * order; *count (the same in every lane) grows by their number. */
template < typename T > __device__ __forceinline__ void
warp_append (T * queue, uint32_t * count, bool site, T entry, int lane)
{
  uint32_t sites = __ballot_sync (FULL_WARP, site);

  if (site)
    queue[*count + __popc (sites & ((1u << lane) - 1))] = entry;
  *count += __popc (sites);
}

/* Pairs of nodes to unite, gathered row after row.  A row adds one per
 * pair of touching runs: the pairs of two rows form a forest without
 * crossings (two pairs cannot swap order), so there are at most
 * 16 + 16 - 1 = 31 of them. */
#define QUEUE_FLUSH 256
#define QUEUE_SIZE (QUEUE_FLUSH + TILE_SIZE)
static_assert (QUEUE_SIZE - QUEUE_FLUSH >= TILE_SIZE - 1,
    "a row's pairs fit after a queue that is not yet flushed");

/* Joins each row from @first to @last of a tile to the row above: one
 * union per pair of runs that touch, where their overlap begins, or, for
 * runs that touch only diagonally (8-connectivity), at the end pixel of
 * the lower run next to the upper one.  Only the first pixel of a run is
 * a node.  The pairs go through @queue, a warp's, so that every lane
 * takes an equal share of the unions rather than those in its column. */
__device__ void
join_rows (uint32_t * s, const uint32_t * rows, uint32_t * queue,
    int first, int last, int lane, bool eight)
{
  uint32_t count = 0, bit = 1u << lane;

  for (int ly = first; ly <= last; ly++) {
    uint32_t cur = rows[ly], above = rows[ly - 1], overlap = cur & above;
    uint32_t here = ly * TILE_SIZE, up = (ly - 1) * TILE_SIZE;
    bool in_run = cur & bit, site;

    if (in_run)
      here += run_start (cur, lane);
    site = overlap & ~(overlap << 1) & bit;
    warp_append (queue, &count, site,
        here << 16 | (site ? up + run_start (above, lane) : 0), lane);
    if (eight) {
      site = in_run && (~(cur << 1) & (above << 1) & ~above & bit);
      warp_append (queue, &count, site,
          here << 16 | (site ? up + run_start (above, lane - 1) : 0), lane);
      site = in_run && (~(cur >> 1) & (above >> 1) & ~above & bit);
      warp_append (queue, &count, site, here << 16 | (up + lane + 1), lane);
    }
    if (count >= QUEUE_FLUSH || ly == last) {
      __syncwarp ();
      for (uint32_t j = lane; j < count; j += 32) {
        uint32_t e = queue[j];

        union_shared (s, e >> 16, e & 0xffff);
      }
      __syncwarp ();
      count = 0;
    }
  }
}

/* 1. Each tile on its own: parent[] := global index of the smallest pixel
 * of the pixel's region within the tile, or LABEL_BACKGROUND.  Each tile
 * row is a bit mask; the first pixel of a run is a node, the others stand
 * for it.  TILE_WARPS warps share a tile, a band of BAND_ROWS rows each:
 * a warp joins the rows of its band top to bottom, then, once every band
 * is done, its first row to the band above.  Unions may run in any order;
 * short bands keep many warps in flight on each multiprocessor.  With
 * kHoles, TILE_WARPS more warps label the tile's zero pixels at the same
 * time (8-connected, into holes_parent): the same barriers, their own
 * shared memory, and no second launch or pass over the mask. */
template < bool kHoles > __global__ void
local_kernel (LabelArgs p)
{
  __shared__ uint32_t forests[kHoles ? 2 : 1][TILE_SIZE * TILE_SIZE];
  __shared__ uint32_t tile_rows[kHoles ? 2 : 1][TILE_SIZE];
  __shared__ uint32_t queues[(kHoles ? 2 : 1) * TILE_WARPS][QUEUE_SIZE];
  int lane = threadIdx.x, band = threadIdx.y % TILE_WARPS;
  int x0 = blockIdx.x * TILE_SIZE, y0 = blockIdx.y * TILE_SIZE;
  int x = x0 + lane, top = band * BAND_ROWS, bottom = top + BAND_ROWS - 1;
  bool background = kHoles && threadIdx.y >= TILE_WARPS;
  uint32_t *s = forests[background], *rows = tile_rows[background];
  uint32_t *queue = queues[threadIdx.y];
  uint32_t *parent = background ? p.holes_parent : p.parent;
  bool eight = background || p.connectivity == 8;
  uint32_t t = ((blockIdx.y * gridDim.x + blockIdx.x) * blockDim.y +
      threadIdx.y) * 32 + lane;

  /* The resolve pass's look-back starts from nothing: this grid has a
   * thread for every chunk: one per 32 pixels, a chunk per SCAN_CHUNK.
   * The hull and holes passes' counters too: they run after this pass. */
  if (t < p.n_chunks)
    p.chunk_states[t] = 0;
  if (t == 0) {
    p.counters[2] = 0;
    p.counters[3] = p.counters[4] = p.counters[5] = p.counters[6] = 0;
  }

  /* All the band's loads in flight at once. */
  bool fg[BAND_ROWS];
#pragma unroll
  for (int k = 0; k < BAND_ROWS; k++)
    fg[k] = x < p.width && y0 + top + k < p.height &&
        (p.mask[(size_t) (y0 + top + k) * p.mask_stride + x] != 0) !=
        background;
#pragma unroll
  for (int k = 0; k < BAND_ROWS; k++) {
    uint32_t row = __ballot_sync (FULL_WARP, fg[k]);

    s[(top + k) * TILE_SIZE + lane] = (top + k) * TILE_SIZE + lane;
    if (lane == 0)
      rows[top + k] = row;
  }
  __syncwarp ();
  join_rows (s, rows, queue, top + 1, bottom, lane, eight);
  __syncthreads ();
  if (band > 0)
    join_rows (s, rows, queue, top, top, lane, eight);
  __syncthreads ();

  /* Every pixel takes the root of its run's node; the finds halve the
   * paths, so the rows below find their roots sooner. */
  for (int ly = top; ly <= bottom; ly++) {
    int y = y0 + ly;
    uint32_t row = rows[ly], bit = 1u << lane, root = 0;
    int first = row & bit ? run_start (row, lane) : lane;
    bool node = first == lane && (row & bit);

    if (node)
      root = find_shared (s, ly * TILE_SIZE + lane);
    root = __shfl_sync (FULL_WARP, root, first);
    if (x >= p.width || y >= p.height)
      continue;
    parent[(uint32_t) y * p.width + x] = row & bit ?
        (uint32_t) (y0 + root / TILE_SIZE) * p.width + x0 +
        root % TILE_SIZE : LABEL_BACKGROUND;
    /* the counts of the background's components, kept at their roots:
     * every root is one of a tile's */
    if (background && (row & bit) && root == ly * TILE_SIZE + lane)
      p.holes_size[(uint32_t) y * p.width + x] = 0;
  }
}

/* 2. Joins across tile borders: warp 0 takes the tile's top row against
 * the row above, warp 1 its left column against the column to the left.
 * Every pair of neighbours in different tiles is one of these (the pair
 * across a tile's bottom-left corner is a diagonal of the left column of
 * the tile to the right, the pairs across its top corners are taken by
 * the first and last lanes of the top row).  Each line and the line it
 * faces lie in one tile each, so pixels next to each other along a line
 * already share a root: as in the local pass, one union per pair of runs
 * that touch.  With kHoles, BORDER_WARPS more warps join the background's
 * forest likewise (8-connected). */
template < bool kHoles > __global__ void
border_kernel (LabelArgs p)
{
  /* A warp's unions, gathered so that its lanes share them evenly: a line
   * holds at most 31 pairs of touching runs, plus two corners. */
  __shared__ uint2 queues[(kHoles ? 2 : 1) * BORDER_WARPS][2 * TILE_SIZE];
  int x0 = blockIdx.x * TILE_SIZE, y0 = blockIdx.y * TILE_SIZE;
  int lane = threadIdx.x & 31, side = (threadIdx.x >> 5) % BORDER_WARPS;
  bool background = kHoles && threadIdx.x >= BORDER_WARPS * 32;
  uint32_t *parent = background ? p.holes_parent : p.parent;
  uint32_t w = p.width, bit = 1u << lane, along, i, j;
  uint32_t line, facing, overlap, count = 0;
  uint2 *queue = queues[threadIdx.x >> 5];
  bool in, fg = false, fg_facing = false;

  if (x0 >= p.width || y0 >= p.height)
    return;

  if (side == 0) {
    in = y0 > 0 && x0 + lane < p.width;
    i = (uint32_t) y0 * w + x0 + lane;
    j = i - w;
    along = 1;
  } else {
    in = x0 > 0 && y0 + lane < p.height;
    i = (uint32_t) (y0 + lane) * w + x0;
    j = i - 1;
    along = w;
  }
  if (in) {
    fg = parent[i] != LABEL_BACKGROUND;
    fg_facing = parent[j] != LABEL_BACKGROUND;
  }
  line = __ballot_sync (FULL_WARP, fg);
  facing = __ballot_sync (FULL_WARP, fg_facing);
  overlap = line & facing;

  warp_append (queue, &count, fg && (overlap & ~(overlap << 1) & bit),
      make_uint2 (i, j), lane);
  if (background || p.connectivity == 8) {
    warp_append (queue, &count,
        fg && (~(line << 1) & (facing << 1) & ~facing & bit),
        make_uint2 (i, j - along), lane);
    warp_append (queue, &count,
        fg && (~(line >> 1) & (facing >> 1) & ~facing & bit),
        make_uint2 (i, j + along), lane);
    warp_append (queue, &count, fg && side == 0 && lane == 0 && x0 > 0 &&
        parent[j - 1] != LABEL_BACKGROUND, make_uint2 (i, j - 1), lane);
    warp_append (queue, &count, fg && side == 0 && lane == TILE_SIZE - 1 &&
        x0 + TILE_SIZE < p.width && parent[j + 1] != LABEL_BACKGROUND,
        make_uint2 (i, j + 1), lane);
  }
  __syncwarp ();
  for (uint32_t k = lane; k < count; k += 32)
    union_global (parent, queue[k].x, queue[k].y);
}

/* 3. parent[i] := root of i, and the roots, in raster order, get ids
 * 1..N: parent[root] := id with LABEL_ID_FLAG, and their accumulators
 * start empty.  A block takes SCAN_CHUNK consecutive pixels, in the order
 * blocks start; the ids before its chunk come by look-back.  A path may
 * end at a root that another chunk has already numbered: a word with
 * LABEL_ID_FLAG ends it too.  Concurrent shortcuts only ever replace a
 * parent by one of its ancestors, so every path still ends at the root.
 * A thread's SCAN_ITEMS parents, and then their parents, are loaded
 * together: most paths are one or two steps long. */
__global__ void
resolve_kernel (LabelArgs p)
{
  __shared__ uint32_t warp_roots[SCAN_ITEMS][SCAN_WARPS];
  __shared__ uint32_t chunk_shared, before_shared;
  int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  uint32_t first[SCAN_ITEMS], up[SCAN_ITEMS], ballots[SCAN_ITEMS];
  uint32_t chunk, base, next, roots = 0;

  if (threadIdx.x == 0)
    chunk_shared = atomicAdd (&p.counters[2], 1);
  __syncthreads ();
  chunk = chunk_shared;
  base = chunk * SCAN_CHUNK;

#pragma unroll
  for (int k = 0; k < SCAN_ITEMS; k++) {
    uint32_t i = base + k * SCAN_THREADS + threadIdx.x;

    first[k] = i < p.n_pixels ? p.parent[i] : LABEL_BACKGROUND;
  }
#pragma unroll
  for (int k = 0; k < SCAN_ITEMS; k++)
    up[k] = first[k] != LABEL_BACKGROUND ? p.parent[first[k]] : first[k];
#pragma unroll
  for (int k = 0; k < SCAN_ITEMS; k++) {
    uint32_t i = base + k * SCAN_THREADS + threadIdx.x;
    bool is_root = false;

    if (first[k] != LABEL_BACKGROUND) {
      uint32_t r = first[k], q = up[k];

      while (q != r && !(q & LABEL_ID_FLAG)) {
        r = q;
        q = p.parent[r];
      }
      if (r != first[k])
        p.parent[i] = r;
      is_root = r == i;
    }
    ballots[k] = __ballot_sync (FULL_WARP, is_root);
    if (lane == 0)
      warp_roots[k][warp] = __popc (ballots[k]);
  }
  __syncthreads ();

#pragma unroll
  for (int k = 0; k < SCAN_ITEMS; k++)
    for (int w = 0; w < SCAN_WARPS; w++)
      roots += warp_roots[k][w];
  if (warp == 0) {
    uint32_t before = cip_chunk_lookback (p.chunk_states, chunk, roots);

    if (lane == 0) {
      before_shared = before;
      if (base + SCAN_CHUNK >= p.n_pixels)
        p.counters[0] = before + roots;
    }
  }
  __syncthreads ();

  /* Raster order within the chunk: item, then warp, then lane. */
  next = before_shared + 1;
#pragma unroll
  for (int k = 0; k < SCAN_ITEMS; k++) {
    uint32_t i = base + k * SCAN_THREADS + threadIdx.x;

    if (ballots[k] >> lane & 1) {
      uint32_t id = next + __popc (ballots[k] & ((1u << lane) - 1));
      LabelAccum *r;

      for (int w = 0; w < warp; w++)
        id += warp_roots[k][w];
      r = &p.regions[id - 1];
      p.parent[i] = id | LABEL_ID_FLAG;
      r->sum_x = r->sum_y = r->sum_intensity = 0;
      r->area = 0;
      r->left = UINT32_MAX;
      r->right = r->bottom = 0;
      /* Left as they are unless gathered: finalize_kernel writes 0. */
      if (p.statistics & CIP_LABEL_MOMENTS)
        r->sum_xx = r->sum_yy = r->sum_xy = 0;
      if (p.statistics & CIP_LABEL_INTENSITY_RANGE) {
        r->intensity_min = UINT32_MAX;
        r->intensity_max = 0;
      }
      if (p.statistics & CIP_LABEL_CONTOURS) {
        r->perimeter_counts[0] = r->perimeter_counts[1] = 0;
        r->perimeter_counts[2] = 0;
        r->euler_quads = 0;
      }
      r->area_filled = 0;
      r->root = i;
      r->final_id = id;
    }
    for (int w = 0; w < SCAN_WARPS; w++)
      next += warp_roots[k][w];
  }
}

/* 5. counts[0..n) := their exclusive prefix sum, *total := their
 * sum.  One block; each thread takes a run of consecutive counts. */
__global__ void
offsets_kernel (uint32_t * counts, uint32_t n, uint32_t * total)
{
  __shared__ uint32_t warp_sums[32];
  uint32_t per = CIP_DIV_UP (n, OFFSETS_THREADS);
  uint32_t begin = min (threadIdx.x * per, n), end = min (begin + per, n);
  uint32_t sum = 0, run;

  if (blockIdx.x > 0)
    return;

  for (uint32_t i = begin; i < end; i++)
    sum += counts[i];
  run = cip_block_inclusive_scan (sum, warp_sums) - sum;
  for (uint32_t i = begin; i < end; i++) {
    uint32_t c = counts[i];

    counts[i] = run;
    run += c;
  }
  if (threadIdx.x == OFFSETS_THREADS - 1)
    *total = run;
}

/* The id of pixel @i, 0 for background; valid after resolve_kernel. */
__device__ __forceinline__ uint32_t
pixel_id (const uint32_t * parent, uint32_t i)
{
  uint32_t q = parent[i];

  if (q == LABEL_BACKGROUND)
    return 0;
  if (!(q & LABEL_ID_FLAG))
    q = parent[q];
  return q & ~LABEL_ID_FLAG;
}

__device__ __forceinline__ void
paint_pixel (const LabelArgs & p, int x, int y, uint32_t id)
{
  uint8_t *row = p.dst + (size_t) y * p.dst_stride;

  if (p.dst_format == CIP_FORMAT_GRAY16) {
    uint16_t v = cip_label_gray16 (id);

    if (p.dst_aligned) {
      ((uint16_t *) row)[x] = v;
    } else {
      row[2 * x] = (uint8_t) v;
      row[2 * x + 1] = (uint8_t) (v >> 8);
    }
  } else {
    uchar4 c;

    cip_label_rgba (id, &c.x);
    if (p.dst_aligned) {
      ((uchar4 *) row)[x] = c;
    } else {
      row[4 * x] = c.x;
      row[4 * x + 1] = c.y;
      row[4 * x + 2] = c.z;
      row[4 * x + 3] = c.w;
    }
  }
}

/* An intensity sample: a byte of GRAY8, a little-endian word of GRAY16
 * (read as two bytes where rows are not word-aligned). */
template < typename T > __device__ __forceinline__ uint32_t
load_sample (const LabelArgs & p, int x, int y);

template <> __device__ __forceinline__ uint32_t
load_sample < uint8_t > (const LabelArgs & p, int x, int y)
{
  return p.intensity[(size_t) y * p.intensity_stride + x];
}

template <> __device__ __forceinline__ uint32_t
load_sample < uint16_t > (const LabelArgs & p, int x, int y)
{
  const uint8_t *row = p.intensity + (size_t) y * p.intensity_stride;

  if (p.intensity_aligned)
    return ((const uint16_t *) row)[x];
  return row[2 * x] | (uint32_t) row[2 * x + 1] << 8;
}

/* The sum over the lanes in @peers of a @kBits-bit sample each lane
 * holds, by bit planes: exact (32 x 65535 fits), and no shuffles between
 * groups. */
template < int kBits > __device__ __forceinline__ uint32_t
peer_sample_sum (uint32_t peers, uint32_t value)
{
  uint32_t sum = 0;

#pragma unroll
  for (int b = 0; b < kBits; b++)
    sum += __popc (__ballot_sync (FULL_WARP, (value >> b) & 1) & peers) << b;
  return sum;
}

/* The largest @kBits-bit sample a lane in @peers holds, bit by bit from
 * the top: every lane takes the same ballots, so each group of peers
 * finds its own at once. */
template < int kBits > __device__ __forceinline__ uint32_t
peer_sample_max (uint32_t peers, uint32_t value)
{
  uint32_t candidates = peers, max = 0;

#pragma unroll
  for (int b = kBits - 1; b >= 0; b--) {
    uint32_t ones = __ballot_sync (FULL_WARP, (value >> b) & 1) & candidates;

    if (ones) {
      candidates = ones;
      max |= 1u << b;
    }
  }
  return max;
}

/* The sum of the squares of the lane numbers in @peers: lane l is the sum
 * of its bits b_i 2^i, so l * l sums b_i b_j 2^(i + j) over bit pairs. */
__device__ __forceinline__ uint32_t
peer_lane_square_sum (uint32_t peers)
{
  static const uint32_t bit_lanes[5] = { 0xaaaaaaaau, 0xccccccccu,
    0xf0f0f0f0u, 0xff00ff00u, 0xffff0000u
  };
  uint32_t sum = 0;

#pragma unroll
  for (int i = 0; i < 5; i++) {
    sum += __popc (peers & bit_lanes[i]) << (2 * i);
#pragma unroll
    for (int j = i + 1; j < 5; j++)
      sum += __popc (peers & bit_lanes[i] & bit_lanes[j]) << (i + j + 1);
  }
  return sum;
}

/* The sum of the lane numbers in @peers. */
__device__ __forceinline__ uint32_t
peer_lane_sum (uint32_t peers)
{
  return __popc (peers & 0xaaaaaaaau) + (__popc (peers & 0xccccccccu) << 1) +
      (__popc (peers & 0xf0f0f0f0u) << 2) +
      (__popc (peers & 0xff00ff00u) << 3) +
      (__popc (peers & 0xffff0000u) << 4);
}

/* What a group of pixels adds to a region: in tile coordinates in shared
 * memory (32-bit sums), in image coordinates in global memory. */
template < typename Sum > struct LabelSums
{
  uint32_t area, left, right, bottom;
  Sum x, y, intensity, xx, yy, xy;
  uint32_t intensity_min, intensity_max;
};

/* The sums of a group of @n peers at columns @x0 + (lanes of @peers) of
 * row @y: sum of x = n x0 + sum of l, of x * x = n x0^2 + 2 x0 sum of l
 * + sum of l^2. */
template < bool kMoments, typename Sum > __device__ __forceinline__ void
peer_sums (LabelSums < Sum > &s, uint32_t peers, Sum x0, Sum y, Sum n)
{
  Sum lanes = peer_lane_sum (peers);

  s.x = n * x0 + lanes;
  s.y = n * y;
  if (kMoments) {
    s.xx = n * x0 * x0 + 2 * x0 * lanes + peer_lane_square_sum (peers);
    s.yy = n * y * y;
    s.xy = y * s.x;
  }
}

template < bool kMoments, bool kRange > __device__ __forceinline__ void
accumulate_global (LabelAccum * r, const LabelSums < unsigned long long >&s)
{
  atomicAdd (&r->area, s.area);
  atomicMin (&r->left, s.left);
  atomicMax (&r->right, s.right);
  atomicMax (&r->bottom, s.bottom);
  atomicAdd (&r->sum_x, s.x);
  atomicAdd (&r->sum_y, s.y);
  atomicAdd (&r->sum_intensity, s.intensity);
  if (kMoments) {
    atomicAdd (&r->sum_xx, s.xx);
    atomicAdd (&r->sum_yy, s.yy);
    atomicAdd (&r->sum_xy, s.xy);
  }
  if (kRange) {
    atomicMin (&r->intensity_min, s.intensity_min);
    atomicMax (&r->intensity_max, s.intensity_max);
  }
}

/* Shared arrays a statistic needs only when it is gathered. */
#define STATS_SLOTS_IF(cond) ((cond) ? STATS_SLOTS : 1)

/* Every sum over a tile fits in 32 bits: of 16-bit samples too. */
static_assert ((unsigned long long) STATS_TILE_W * STATS_TILE_H * 65535 <=
    UINT32_MAX, "a tile's intensity sum overflows its 32-bit counter");

/* 4. Statistics of a 64x32 tile; warp w takes the 32-pixel row segments
 * w, w + 8, ...  Moments and the intensity range cost nothing when they
 * are not asked for, and the intensity's sample type T (uint8_t for
 * GRAY8, uint16_t for GRAY16) only its bit planes: they are template
 * arguments.  With kTrack the pairs (id, the previous frame's label at
 * the pixel) are counted too (cip-track.cuh), the previous label read
 * only where there is a region: the ids here are the final ones or, with
 * min_area, what the final ones are mapped from. */
template < typename T, bool kMoments, bool kRange, bool kTrack >
__global__ void
stats_kernel (LabelArgs p, bool paint)
{
  /* Positions from the tile's corner: every sum over a tile fits in 32
   * bits (above), and 32-bit shared atomics are single instructions. */
  const int kBits = 8 * sizeof (T);
  const uint32_t kTop = (1u << kBits) - 1;
  __shared__ uint32_t keys[STATS_SLOTS];
  __shared__ uint32_t area[STATS_SLOTS], left[STATS_SLOTS];
  __shared__ uint32_t right[STATS_SLOTS], bottom[STATS_SLOTS];
  __shared__ uint32_t sum_x[STATS_SLOTS], sum_y[STATS_SLOTS];
  __shared__ uint32_t sum_intensity[STATS_SLOTS];
  __shared__ uint32_t sum_xx[STATS_SLOTS_IF (kMoments)];
  __shared__ uint32_t sum_yy[STATS_SLOTS_IF (kMoments)];
  __shared__ uint32_t sum_xy[STATS_SLOTS_IF (kMoments)];
  __shared__ uint32_t min_intensity[STATS_SLOTS_IF (kRange)];
  __shared__ uint32_t max_intensity[STATS_SLOTS_IF (kRange)];
  __shared__ unsigned long long pair_keys[TRACK_TILE_SLOTS_IF (kTrack)];
  __shared__ uint32_t pair_counts[TRACK_TILE_SLOTS_IF (kTrack)];
  int x0 = blockIdx.x * STATS_TILE_W, y0 = blockIdx.y * STATS_TILE_H;
  int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  uint32_t n_prev = 0;

  if (kTrack) {
    /* every block, before any returns: a share of the clearing each */
    track_clear_best (p.track, (blockIdx.y * gridDim.x + blockIdx.x) *
        STATS_THREADS + threadIdx.x, gridDim.x * gridDim.y * STATS_THREADS);
    track_tile_init (pair_keys, pair_counts);
    n_prev = track_prev_regions (p.track);
  }
  if (x0 >= p.width || y0 >= p.height)
    return;

  for (int s = threadIdx.x; s < STATS_SLOTS; s += STATS_THREADS) {
    keys[s] = 0;
    area[s] = 0;
    left[s] = UINT32_MAX;
    right[s] = bottom[s] = 0;
    sum_x[s] = sum_y[s] = sum_intensity[s] = 0;
    if (kMoments)
      sum_xx[s] = sum_yy[s] = sum_xy[s] = 0;
    if (kRange) {
      min_intensity[s] = UINT32_MAX;
      max_intensity[s] = 0;
    }
  }
  __syncthreads ();

  for (int batch = warp; batch < STATS_SEGMENTS;
      batch += STATS_BATCH * STATS_WARPS) {
    uint32_t ids[STATS_BATCH], values[STATS_BATCH], prevs[STATS_BATCH];

    /* The batch's loads all in flight: parents, then the parents' ids,
     * then intensities. */
#pragma unroll
    for (int b = 0; b < STATS_BATCH; b++) {
      int seg = batch + b * STATS_WARPS;
      int y = y0 + seg / (STATS_TILE_W / 32);
      int x = x0 + (seg % (STATS_TILE_W / 32)) * 32 + lane;

      ids[b] = x < p.width && y < p.height ?
          p.parent[(uint32_t) y * p.width + x] : LABEL_BACKGROUND;
    }
#pragma unroll
    for (int b = 0; b < STATS_BATCH; b++) {
      if (ids[b] == LABEL_BACKGROUND)
        ids[b] = 0;
      else if (!(ids[b] & LABEL_ID_FLAG))
        ids[b] = p.parent[ids[b]];
    }
#pragma unroll
    for (int b = 0; b < STATS_BATCH; b++) {
      int seg = batch + b * STATS_WARPS;
      int y = y0 + seg / (STATS_TILE_W / 32);
      int x = x0 + (seg % (STATS_TILE_W / 32)) * 32 + lane;

      ids[b] &= ~LABEL_ID_FLAG;
      values[b] = ids[b] ? load_sample < T > (p, x, y) : 0;
      /* with tracks, the label images share their stride */
      prevs[b] = kTrack && ids[b] ? p.track.prev_labels[(size_t) (uint32_t) y
          * p.labels_stride + (uint32_t) x] : 0;
    }

#pragma unroll
    for (int b = 0; b < STATS_BATCH; b++) {
      int seg = batch + b * STATS_WARPS;
      int y = y0 + seg / (STATS_TILE_W / 32);
      int xb = x0 + (seg % (STATS_TILE_W / 32)) * 32, x = xb + lane;
      uint32_t id = ids[b], value = values[b], peers, n, slot;
      uint32_t sum_value, min_value = 0, max_value = 0;

      if (paint && x < p.width && y < p.height)
        paint_pixel (p, x, y, id);
      if (p.labels && !p.filter && x < p.width && y < p.height)
        p.labels[(size_t) (uint32_t) y * p.labels_stride + (uint32_t) x] =
            id;
      /* most row segments of a frame hold no region */
      if (!__any_sync (FULL_WARP, id != 0))
        continue;

      peers = __match_any_sync (FULL_WARP, id);
      if (kTrack)
        track_tile_count (pair_keys, pair_counts, p.track, id,
            prevs[b] <= n_prev ? prevs[b] : 0, peers);
      sum_value = peer_sample_sum < kBits > (peers, value);
      if (kRange) {
        max_value = peer_sample_max < kBits > (peers, value);
        min_value = kTop - peer_sample_max < kBits > (peers, kTop - value);
      }
      if (id == 0 || lane != __ffs (peers) - 1)
        continue;

      n = __popc (peers);
      slot = (id * 2654435761u) >> (32 - STATS_SLOT_BITS);
      for (int probe = 0; probe < STATS_PROBES; probe++) {
        uint32_t k = atomicCAS (&keys[slot], 0u, id);

        if (k == 0 || k == id)
          break;
        slot = (slot + 1) % STATS_SLOTS;
      }
      if (keys[slot] != id) {
        /* The tile holds too many regions: straight to global memory. */
        LabelSums < unsigned long long >g;

        g.area = n;
        g.left = x;
        g.right = xb + 31 - __clz (peers);
        g.bottom = y;
        g.intensity = sum_value;
        g.intensity_min = min_value;
        g.intensity_max = max_value;
        peer_sums < kMoments, unsigned long long >(g, peers, xb, y, n);
        accumulate_global < kMoments, kRange > (&p.regions[id - 1], g);
        continue;
      }
      {
        LabelSums < uint32_t > t;

        peer_sums < kMoments, uint32_t > (t, peers, xb - x0, y - y0, n);
        atomicAdd (&area[slot], n);
        atomicMin (&left[slot], (uint32_t) (x - x0));
        atomicMax (&right[slot], (uint32_t) (xb - x0 + 31 - __clz (peers)));
        atomicMax (&bottom[slot], (uint32_t) (y - y0));
        atomicAdd (&sum_x[slot], t.x);
        atomicAdd (&sum_y[slot], t.y);
        atomicAdd (&sum_intensity[slot], sum_value);
        if (kMoments) {
          atomicAdd (&sum_xx[slot], t.xx);
          atomicAdd (&sum_yy[slot], t.yy);
          atomicAdd (&sum_xy[slot], t.xy);
        }
        if (kRange) {
          atomicMin (&min_intensity[slot], min_value);
          atomicMax (&max_intensity[slot], max_value);
        }
      }
    }
  }
  __syncthreads ();

  for (int s = threadIdx.x; s < STATS_SLOTS; s += STATS_THREADS) {
    LabelSums < unsigned long long >g;
    unsigned long long n = area[s], sx = sum_x[s], sy = sum_y[s];

    if (!keys[s])
      continue;
    /* From the tile's corner (x0, y0) to the image's: x = x0 + dx. */
    g.area = area[s];
    g.left = x0 + left[s];
    g.right = x0 + right[s];
    g.bottom = y0 + bottom[s];
    g.x = sx + n * x0;
    g.y = sy + n * y0;
    g.intensity = sum_intensity[s];
    if (kMoments) {
      g.xx = sum_xx[s] + 2ull * x0 * sx + n * x0 * x0;
      g.yy = sum_yy[s] + 2ull * y0 * sy + n * y0 * y0;
      g.xy = sum_xy[s] + (unsigned long long) x0 * sy +
          (unsigned long long) y0 * sx + n * x0 * y0;
    }
    if (kRange) {
      g.intensity_min = min_intensity[s];
      g.intensity_max = max_intensity[s];
    }
    accumulate_global < kMoments, kRange > (&p.regions[keys[s] - 1], g);
  }
  if (kTrack)
    track_tile_flush (pair_keys, pair_counts, p.track);
}

/* The slot of @key (not 0) in a shared hash table of 2^kBits keys,
 * inserted if new; -1 when STATS_PROBES probes find no room. */
template < int kBits > __device__ __forceinline__ int
tile_slot (uint32_t * keys, uint32_t key)
{
  uint32_t slot = (key * 2654435761u) >> (32 - kBits);

  for (int probe = 0; probe < STATS_PROBES; probe++) {
    uint32_t k = atomicCAS (&keys[slot], 0u, key);

    if (k == 0 || k == key)
      return (int) slot;
    slot = (slot + 1) & ((1u << kBits) - 1);
  }
  return -1;
}

/* 4b. CIP_LABEL_CONTOURS, per 64x32 tile as the statistics pass: each
 * region pixel's perimeter class, and what the 2x2 quads it is a corner
 * of add to its region's Euler number.  A quad adds to each region in it
 * once, at its first corner in that region (cip_label_euler_quad), so a
 * pixel sums the four quads where it is that corner: every quad that
 * touches the image is counted, at the pixels it holds.  The ids of the
 * tile and two pixels around it are staged in shared memory (a pixel's
 * class reads whether its 3x3 neighbours are on the border, which reads
 * their 4-neighbours).  Each warp row groups its lanes by region
 * (__match_any_sync), the tile sums the groups in a shared hash table,
 * and one set of global atomics per region and tile follows: a region
 * that holds most of the frame would otherwise take thousands, all on
 * one address.  With kEnds (the convex hull asked for too) the pass also
 * narrows each region's row ends (H2), at most a pair of atomics per
 * region and row segment, so that the hull takes no pass over the labels
 * of its own. */
#define CONTOUR_HALO 2
#define CONTOUR_W (STATS_TILE_W + 2 * CONTOUR_HALO)
#define CONTOUR_H (STATS_TILE_H + 2 * CONTOUR_HALO)
#define CONTOUR_LOADS CIP_DIV_UP (CONTOUR_W * CONTOUR_H, STATS_THREADS)

/* A tile's perimeter classes and Euler quads of region @r into it. */
__device__ __forceinline__ void
contours_add (LabelAccum * r, const uint32_t * counts, int quads)
{
  for (int k = 0; k < 3; k++)
    if (counts[k])
      atomicAdd (&r->perimeter_counts[k], counts[k]);
  if (quads)
    atomicAdd (&r->euler_quads, quads);
}

template < bool kEnds > __global__ void
contours_kernel (LabelArgs p)
{
  __shared__ uint32_t ids[CONTOUR_H][CONTOUR_W];
  __shared__ uint8_t border[STATS_TILE_H + 2][STATS_TILE_W + 2];
  __shared__ uint32_t keys[STATS_SLOTS];
  __shared__ uint32_t counts[3][STATS_SLOTS];
  __shared__ int quads[STATS_SLOTS];
  int x0 = blockIdx.x * STATS_TILE_W, y0 = blockIdx.y * STATS_TILE_H;
  int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  uint32_t q[CONTOUR_LOADS];

  for (int s = threadIdx.x; s < STATS_SLOTS; s += STATS_THREADS) {
    keys[s] = 0;
    counts[0][s] = counts[1][s] = counts[2][s] = 0;
    quads[s] = 0;
  }

  /* The parents, then their ids: all the loads in flight at once. */
#pragma unroll
  for (int k = 0; k < CONTOUR_LOADS; k++) {
    int i = k * STATS_THREADS + threadIdx.x;
    int gx = x0 + i % CONTOUR_W - CONTOUR_HALO;
    int gy = y0 + i / CONTOUR_W - CONTOUR_HALO;

    q[k] = i < CONTOUR_W * CONTOUR_H && gx >= 0 && gy >= 0 &&
        gx < p.width && gy < p.height ?
        p.parent[(uint32_t) gy * p.width + gx] : LABEL_BACKGROUND;
  }
#pragma unroll
  for (int k = 0; k < CONTOUR_LOADS; k++) {
    int i = k * STATS_THREADS + threadIdx.x;
    uint32_t v = q[k];

    if (v == LABEL_BACKGROUND)
      v = 0;
    else if (!(v & LABEL_ID_FLAG))
      v = p.parent[v];
    if (i < CONTOUR_W * CONTOUR_H)
      ids[i / CONTOUR_W][i % CONTOUR_W] = v & ~LABEL_ID_FLAG;
  }
  __syncthreads ();

  /* Border flags of the tile and one pixel around it. */
  for (int i = threadIdx.x; i < (STATS_TILE_H + 2) * (STATS_TILE_W + 2);
      i += STATS_THREADS) {
    int by = i / (STATS_TILE_W + 2), bx = i % (STATS_TILE_W + 2);
    int sy = by + CONTOUR_HALO - 1, sx = bx + CONTOUR_HALO - 1;
    uint32_t v = ids[sy][sx];

    border[by][bx] = v != 0 && (ids[sy - 1][sx] != v ||
        ids[sy + 1][sx] != v || ids[sy][sx - 1] != v || ids[sy][sx + 1] != v);
  }
  __syncthreads ();

  for (int seg = warp; seg < STATS_SEGMENTS; seg += STATS_WARPS) {
    int ty = seg / (STATS_TILE_W / 32);
    int tx = (seg % (STATS_TILE_W / 32)) * 32 + lane;
    int sy = ty + CONTOUR_HALO, sx = tx + CONTOUR_HALO;
    uint32_t id = ids[sy][sx], key = 0, peers, n, classes[3], c[3];
    int cls = 0, euler = 0, slot;

    /* pixels outside the image have id 0 */
    if (id != 0) {
      if (border[ty + 1][tx + 1]) {
        uint32_t code = 1;

        for (int dy = -1; dy <= 1; dy++)
          for (int dx = -1; dx <= 1; dx++)
            if ((dx || dy) && ids[sy + dy][sx + dx] == id &&
                border[ty + 1 + dy][tx + 1 + dx])
              code += dx && dy ? 10 : 2;
        cls = cip_label_perimeter_class (code);
      }
      /* the quads whose bottom right, top right, bottom left and top
       * left corner the pixel is (corners as cip_label_euler_quad()
       * numbers them) */
      {
        uint32_t a[4] = { id, ids[sy - 1][sx], ids[sy][sx - 1],
          ids[sy - 1][sx - 1]
        };
        uint32_t b[4] = { ids[sy + 1][sx], id, ids[sy + 1][sx - 1],
          ids[sy][sx - 1]
        };
        uint32_t c2[4] = { ids[sy][sx + 1], ids[sy - 1][sx + 1], id,
          ids[sy - 1][sx]
        };
        uint32_t d[4] = { ids[sy + 1][sx + 1], ids[sy][sx + 1],
          ids[sy + 1][sx], id
        };

        euler = cip_label_euler_quad (a, 0) + cip_label_euler_quad (b, 1) +
            cip_label_euler_quad (c2, 2) + cip_label_euler_quad (d, 3);
      }
      if (cls || euler)
        key = id;
    }

    /* A run that goes on past the segment's first or last lane leaves
     * that end to the segment next to it, here or in the next tile. */
    if (kEnds) {
      uint32_t same = __match_any_sync (FULL_WARP, id);
      int last = 31 - __clz (same), sx0 = sx - lane;

      if (id != 0 && lane == __ffs (same) - 1) {
        const LabelAccum *r = &p.regions[id - 1];
        uint32_t row = r->hull_rows + (y0 + ty) - r->root / p.width;

        if (lane > 0 || ids[sy][sx0 - 1] != id)
          atomicMin (&p.row_first[row], x0 + tx - r->left);
        if (last < 31 || ids[sy][sx0 + 32] != id)
          atomicMax (&p.row_last[row], x0 + tx - lane + last - r->left);
      }
    }

    /* Every lane takes the ballots; a pixel's quads add -8 .. 4. */
    peers = __match_any_sync (FULL_WARP, key);
    classes[0] = __ballot_sync (FULL_WARP, cls == 1);
    classes[1] = __ballot_sync (FULL_WARP, cls == 2);
    classes[2] = __ballot_sync (FULL_WARP, cls == 3);
    n = __popc (peers);
    euler = (int) peer_sample_sum < 4 > (peers, (uint32_t) (euler + 8)) -
        8 * (int) n;
    if (key == 0 || lane != __ffs (peers) - 1)
      continue;
    for (int k = 0; k < 3; k++)
      c[k] = __popc (peers & classes[k]);
    slot = tile_slot < STATS_SLOT_BITS > (keys, key);
    if (slot < 0) {
      /* The tile holds too many regions: straight to global memory. */
      contours_add (&p.regions[key - 1], c, euler);
      continue;
    }
    for (int k = 0; k < 3; k++)
      if (c[k])
        atomicAdd (&counts[k][slot], c[k]);
    if (euler)
      atomicAdd (&quads[slot], euler);
  }
  __syncthreads ();

  for (int s = threadIdx.x; s < STATS_SLOTS; s += STATS_THREADS) {
    uint32_t c[3] = { counts[0][s], counts[1][s], counts[2][s] };

    if (keys[s])
      contours_add (&p.regions[keys[s] - 1], c, quads[s]);
  }
}

/* 5. Regions kept by min_area, counted per chunk of REGION_THREADS. */
__global__ void
keep_count_kernel (LabelArgs p, uint32_t n_chunks)
{
  for (uint32_t chunk = blockIdx.x; chunk < n_chunks; chunk += gridDim.x) {
    uint32_t r = chunk * REGION_THREADS + threadIdx.x;
    bool keep = r < p.counters[0] && p.regions[r].area >= p.min_area;
    uint32_t kept = __syncthreads_count (keep);

    if (threadIdx.x == 0)
      p.region_offsets[chunk] = kept;
  }
}

/* 6. Final ids, and the table: the kept regions of a chunk of
 * REGION_THREADS have consecutive ids, so they are gathered in shared
 * memory and written out as consecutive 8-byte words.  A grid sized for
 * the device strides over the chunks that hold regions. */
__global__ void
finalize_kernel (LabelArgs p)
{
  __shared__ CipRegion staged[REGION_THREADS];
  __shared__ uint32_t warp_counts[SCAN_WARPS];
  uint32_t n = p.counters[0];

  if (blockIdx.x == 0 && threadIdx.x == 0)
    *p.count = p.filter ? p.counters[1] : n;
  /* tracks: the ids counted are the final ones; with min_area, the paint
   * pass maps them */
  if (p.track.prev_labels && !p.filter)
    track_best (p.track, n, blockIdx.x * blockDim.x + threadIdx.x,
        gridDim.x * blockDim.x, TrackSameIds ());

  for (uint32_t chunk = blockIdx.x; chunk * REGION_THREADS < n;
      chunk += gridDim.x) {
    uint32_t r = chunk * REGION_THREADS + threadIdx.x;
    uint32_t first, rank, kept;
    bool keep = r < n && (!p.filter || p.regions[r].area >= p.min_area);

    first = p.filter ? p.region_offsets[chunk] : chunk * REGION_THREADS;
    rank = cip_block_rank (keep, warp_counts, &kept);

    if (r < n) {
      /* a reference, not a copy: only the statistics asked for were
       * gathered, and only those are read */
      const LabelAccum & a = p.regions[r];

      p.regions[r].final_id = keep ? first + rank + 1 : 0;
      if (keep) {
        CipRegion *out = &staged[rank];

        out->label = first + rank + 1;
        out->area = a.area;
        out->left = a.left;
        out->top = a.root / p.width;
        out->width = a.right - a.left + 1;
        out->height = a.bottom - out->top + 1;
        out->sum_x = a.sum_x;
        out->sum_y = a.sum_y;
        out->sum_intensity = a.sum_intensity;
        if (p.statistics & CIP_LABEL_MOMENTS) {
          out->sum_xx = a.sum_xx;
          out->sum_yy = a.sum_yy;
          out->sum_xy = a.sum_xy;
        } else {
          out->sum_xx = out->sum_yy = out->sum_xy = 0;
        }
        if (p.statistics & CIP_LABEL_INTENSITY_RANGE) {
          out->intensity_min = a.intensity_min;
          out->intensity_max = a.intensity_max;
        } else {
          out->intensity_min = out->intensity_max = 0;
        }
        for (int k = 0; k < 3; k++)
          out->perimeter_counts[k] = (p.statistics & CIP_LABEL_CONTOURS) ?
              a.perimeter_counts[k] : 0;
        out->euler_quads = (p.statistics & CIP_LABEL_CONTOURS) ?
            a.euler_quads : 0;
        out->area_convex = (p.statistics & CIP_LABEL_CONVEX) ?
            a.area_convex : 0;
        out->feret_sq4 = (p.statistics & CIP_LABEL_CONVEX) ? a.feret_sq4 : 0;
        /* the holes were summed into area_filled; the region adds itself */
        out->area_filled = (p.statistics & CIP_LABEL_FILLED) ?
            a.area + a.area_filled : 0;
      }
    }
    __syncthreads ();

    /* A region's values, a thread each: consecutive ids, so each
     * column's row is written by consecutive lanes. */
    if (threadIdx.x < kept && first + threadIdx.x < p.column_capacity)
      cip_region_property_row (&staged[threadIdx.x], p.props, p.n_props,
          p.columns, p.column_capacity, first + threadIdx.x);
    if (first < p.capacity) {
      uint32_t words = min (kept, p.capacity - first) *
          (uint32_t) (sizeof (CipRegion) / sizeof (uint64_t));
      const uint64_t *from = (const uint64_t *) staged;
      uint64_t *to = (uint64_t *) (p.table + first);

      for (uint32_t w = threadIdx.x; w < words; w += REGION_THREADS)
        to[w] = from[w];
    }
    /* staged is filled again for the next chunk. */
    __syncthreads ();
  }
}

/* Tracks with min_area: a counted id to its final id, 0 when dropped. */
struct LabelFinalIds
{
  const LabelAccum *regions;

  __host__ __device__ LabelFinalIds (const LabelAccum * r):regions (r)
  {
  }
  __device__ uint32_t operator () (uint32_t id) const
  {
    return regions[id - 1].final_id;
  }
};

/* 7. The label images (@dst, the table's) with the final ids; with tracks,
 * the best step too (cip-track.cuh), once the final ids are known. */
__global__ void
paint_kernel (LabelArgs p)
{
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  uint32_t id;

  if (p.track.prev_labels) {
    uint32_t threads = blockDim.x * blockDim.y;

    track_best (p.track, p.counters[1], (blockIdx.y * gridDim.x +
            blockIdx.x) * threads + threadIdx.y * blockDim.x + threadIdx.x,
        gridDim.x * gridDim.y * threads, LabelFinalIds (p.regions));
  }
  if (x >= p.width || y >= p.height)
    return;

  id = pixel_id (p.parent, (uint32_t) y * p.width + x);
  id = id ? p.regions[id - 1].final_id : 0;
  if (p.dst)
    paint_pixel (p, x, y, id);
  if (p.labels)
    p.labels[(size_t) y * p.labels_stride + x] = id;
}

/* Convex hulls (CIP_LABEL_CONVEX), after the statistics: the rows of every
 * region's box get places of their own (H1), each region's first and last
 * column in each row of its box are found (H2), and each region's hull is
 * built from them as cip_hull_region() builds it, by a thread, a warp or a
 * block by its height (H3). */

/* The rows of region @r's box. */
__device__ __forceinline__ uint32_t
region_rows (const LabelArgs & p, uint32_t r)
{
  return p.regions[r].bottom - p.regions[r].root / p.width + 1;
}

/* H2. Each region's first and last column in each row of its box.  A warp
 * takes HULL_ENDS_SPAN pixels of a row: each 32-pixel segment groups its
 * lanes by region (__match_any_sync), whose first and last lanes are the
 * region's ends there; the warp narrows them per region in a shared hash
 * table of its own, then one pair of global atomics per region and span
 * follows (one per run end would put hundreds on each row's words of a
 * region across the frame).  With the contours, their pass finds the
 * ends instead (contours_kernel). */
#define HULL_ENDS_WARPS 8
#define HULL_ENDS_SEGMENTS 8
#define HULL_ENDS_SPAN (32 * HULL_ENDS_SEGMENTS)
#define HULL_ENDS_SLOT_BITS 8
#define HULL_ENDS_SLOTS (1 << HULL_ENDS_SLOT_BITS)

/* Columns @lo to @hi of row @y narrow region @id's ends there. */
__device__ __forceinline__ void
hull_row_ends (const LabelArgs & p, uint32_t id, int y, uint32_t lo,
    uint32_t hi)
{
  const LabelAccum *r = &p.regions[id - 1];
  uint32_t row = r->hull_rows + y - r->root / p.width;

  atomicMin (&p.row_first[row], lo - r->left);
  atomicMax (&p.row_last[row], hi - r->left);
}

__global__ void
hull_ends_kernel (LabelArgs p)
{
  __shared__ uint32_t keys[HULL_ENDS_WARPS][HULL_ENDS_SLOTS];
  __shared__ uint32_t lo[HULL_ENDS_WARPS][HULL_ENDS_SLOTS];
  __shared__ uint32_t hi[HULL_ENDS_WARPS][HULL_ENDS_SLOTS];
  int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  int y = blockIdx.y * HULL_ENDS_WARPS + warp;
  int x0 = blockIdx.x * HULL_ENDS_SPAN;
  uint32_t ids[HULL_ENDS_SEGMENTS];

  /* no barrier below: each warp has its own table */
  if (y >= p.height)
    return;
  for (int s = lane; s < HULL_ENDS_SLOTS; s += 32) {
    keys[warp][s] = 0;
    lo[warp][s] = UINT32_MAX;
    hi[warp][s] = 0;
  }
#pragma unroll
  for (int b = 0; b < HULL_ENDS_SEGMENTS; b++) {
    int x = x0 + b * 32 + lane;

    ids[b] = x < p.width ? p.parent[(uint32_t) y * p.width + x] :
        LABEL_BACKGROUND;
  }
#pragma unroll
  for (int b = 0; b < HULL_ENDS_SEGMENTS; b++) {
    if (ids[b] == LABEL_BACKGROUND)
      ids[b] = 0;
    else if (!(ids[b] & LABEL_ID_FLAG))
      ids[b] = p.parent[ids[b]];
    ids[b] &= ~LABEL_ID_FLAG;
  }
  __syncwarp ();

#pragma unroll
  for (int b = 0; b < HULL_ENDS_SEGMENTS; b++) {
    uint32_t id = ids[b], peers = __match_any_sync (FULL_WARP, id);
    uint32_t xb = x0 + b * 32, first, last;
    int slot;

    if (id == 0 || lane != __ffs (peers) - 1)
      continue;
    first = xb + __ffs (peers) - 1;
    last = xb + 31 - __clz (peers);
    slot = tile_slot < HULL_ENDS_SLOT_BITS > (keys[warp], id);
    if (slot < 0) {
      hull_row_ends (p, id, y, first, last);
      continue;
    }
    atomicMin (&lo[warp][slot], first);
    atomicMax (&hi[warp][slot], last);
  }
  __syncwarp ();

  for (int s = lane; s < HULL_ENDS_SLOTS; s += 32)
    if (keys[warp][s])
      hull_row_ends (p, keys[warp][s], y, lo[warp][s], hi[warp][s]);
}

/* Appends @entry of the lanes where @site holds to @list: from its start,
 * or with @down from its end (@capacity words) towards its start; @count
 * counts them, one atomic per warp.  Every lane calls it. */
__device__ __forceinline__ void
warp_list (uint32_t * list, uint32_t * count, bool site, uint32_t entry,
    bool down, uint32_t capacity, int lane)
{
  uint32_t sites = __ballot_sync (FULL_WARP, site), base = 0, k;
  int leader = __ffs (sites) - 1;

  if (sites == 0)
    return;
  if (lane == leader)
    base = atomicAdd (count, __popc (sites));
  base = __shfl_sync (FULL_WARP, base, leader);
  k = base + __popc (sites & ((1u << lane) - 1));
  if (site)
    list[down ? capacity - 1 - k : k] = entry;
}

/* H1. Each warp's regions take consecutive places for the rows of their
 * boxes, one atomic a warp (the places need not follow the regions'
 * order), and clear them; the regions taller than HULL_THREAD_ROWS are
 * listed for H3, those of up to HULL_WARP_ROWS rows from the list's start,
 * the others from its end.  No pass over the regions' counts first, and
 * no prefix sum. */
__global__ void
hull_place_kernel (LabelArgs p)
{
  uint32_t n = p.counters[0];
  int lane = threadIdx.x & 31;

  /* whole warps, for the ballots and shuffles */
  for (uint32_t r0 = (blockIdx.x * blockDim.x + threadIdx.x) & ~31u; r0 < n;
      r0 += gridDim.x * blockDim.x) {
    uint32_t r = r0 + lane, rows = 0, sum, total, base = 0;

    if (r < n)
      rows = region_rows (p, r);
    sum = rows;
    for (int d = 1; d < 32; d *= 2) {
      uint32_t v = __shfl_up_sync (FULL_WARP, sum, d);

      if (lane >= d)
        sum += v;
    }
    total = __shfl_sync (FULL_WARP, sum, 31);
    if (lane == 31)
      base = atomicAdd (&p.counters[3], total);
    base = __shfl_sync (FULL_WARP, base, 31);
    if (r < n)
      p.regions[r].hull_rows = base + sum - rows;
    warp_list (p.tall_regions, &p.counters[4], rows > HULL_THREAD_ROWS &&
        rows <= HULL_WARP_ROWS, r, false, p.tall_capacity, lane);
    warp_list (p.tall_regions, &p.counters[5], rows > HULL_WARP_ROWS, r,
        true, p.tall_capacity, lane);
    for (uint32_t k = lane; k < total; k += 32) {
      p.row_first[base + k] = UINT32_MAX;
      p.row_last[base + k] = 0;
    }
  }
}

/* The edge of @chain (@n points) that spans Y = @y: the last point at or
 * above it. */
__device__ uint32_t
hull_edge (const uint32_t * chain, uint32_t n, int64_t y)
{
  uint32_t lo = 0, hi = n - 1;

  while (hi - lo > 1) {
    uint32_t mid = (lo + hi) / 2;

    if (CIP_HULL_Y (chain[mid]) <= y)
      lo = mid;
    else
      hi = mid;
  }
  return lo;
}

/* Whether the chain o, a, b turns as cip_hull_push() keeps it. */
__device__ __forceinline__ bool
hull_turns (uint32_t o, uint32_t a, uint32_t b, bool left)
{
  int64_t turn = cip_hull_cross (o, a, b);

  return left ? turn > 0 : turn < 0;
}

/* Two chains of one side (cip_hull_push()'s, @a of @na points, @b of @nb
 * points, all of them below @a's), joined as pushing @b's points onto @a
 * would join them: @a's first *@keep points, then @b's from *@skip on.
 * Until two of @b's points stand on the stack they are popped one by one;
 * from then on none is popped, as @b turns the right way at each point. */
__device__ void
hull_bridge (const uint32_t * a, uint32_t na, const uint32_t * b,
    uint32_t nb, bool left, uint32_t * keep, uint32_t * skip)
{
  uint32_t top = na - 1;

  for (uint32_t k = 0; k < nb; k++) {
    /* b[k - 1] on a[top] */
    if (k > 0 && hull_turns (a[top], b[k - 1], b[k], left)) {
      *keep = top + 1;
      *skip = k - 1;
      return;
    }
    while (top >= 1 && !hull_turns (a[top - 1], a[top], b[k], left))
      top--;
  }
  *keep = top + 1;
  *skip = nb - 1;
}

/* Within a warp: the minimum of @v over the lanes before this one
 * (*@before) and over those after it (*@after), @none where there are
 * none; returns the warp's. */
__device__ __forceinline__ uint32_t
warp_exclusive_min (uint32_t v, uint32_t none, uint32_t * before,
    uint32_t * after)
{
  int lane = threadIdx.x & 31;
  uint32_t fwd = v, bwd = v, f, b;

  for (int d = 1; d < 32; d *= 2) {
    f = __shfl_up_sync (FULL_WARP, fwd, d);
    b = __shfl_down_sync (FULL_WARP, bwd, d);
    if (lane >= d)
      fwd = min (fwd, f);
    if (lane + d < 32)
      bwd = min (bwd, b);
  }
  f = __shfl_up_sync (FULL_WARP, fwd, 1);
  b = __shfl_down_sync (FULL_WARP, bwd, 1);
  *before = lane > 0 ? f : none;
  *after = lane < 31 ? b : none;
  return __shfl_sync (FULL_WARP, fwd, 31);
}

/* Within a warp: the sum of @v over the lanes before this one; the
 * warp's in *@total. */
__device__ __forceinline__ uint32_t
warp_exclusive_sum (uint32_t v, uint32_t * total)
{
  int lane = threadIdx.x & 31;
  uint32_t sum = v;

  for (int d = 1; d < 32; d *= 2) {
    uint32_t s = __shfl_up_sync (FULL_WARP, sum, d);

    if (lane >= d)
      sum += s;
  }
  *total = __shfl_sync (FULL_WARP, sum, 31);
  return sum - v;
}

/* H3's groups of threads that build a hull together: a warp, or the
 * block (HULL_THREADS).  Every thread of the group calls each member. */
struct HullWarp
{
  uint32_t rank;

  __device__ uint32_t size () const
  {
    return 32;
  }
  __device__ void sync () const
  {
    __syncwarp ();
  }
  template < typename T, typename Op > __device__ T reduce (T v, Op op) const
  {
    for (int d = 16; d > 0; d >>= 1)
      v = op (v, __shfl_xor_sync (FULL_WARP, v, d));
    return v;
  }
  __device__ void exclusive_min (uint32_t v, uint32_t none,
      uint32_t * before, uint32_t * after) const
  {
    warp_exclusive_min (v, none, before, after);
  }
  __device__ uint32_t exclusive_sum (uint32_t v, uint32_t * total) const
  {
    return warp_exclusive_sum (v, total);
  }
};

struct HullBlock
{
  uint32_t rank;
  unsigned long long *scratch;  /* HULL_WARPS words of shared memory */

  __device__ uint32_t size () const
  {
    return HULL_THREADS;
  }
  __device__ void sync () const
  {
    __syncthreads ();
  }
  template < typename T, typename Op > __device__ T reduce (T v, Op op) const
  {
    for (int d = 16; d > 0; d >>= 1)
      v = op (v, __shfl_xor_sync (FULL_WARP, v, d));
    if ((rank & 31) == 0)
      scratch[rank >> 5] = v;
    __syncthreads ();
    v = (T) scratch[0];
    for (int w = 1; w < HULL_WARPS; w++)
      v = op (v, (T) scratch[w]);
    __syncthreads ();
    return v;
  }
  __device__ void exclusive_min (uint32_t v, uint32_t none,
      uint32_t * before, uint32_t * after) const
  {
    uint32_t warp = rank >> 5;
    uint32_t all = warp_exclusive_min (v, none, before, after);

    if ((rank & 31) == 0)
      scratch[warp] = all;
    __syncthreads ();
    for (uint32_t w = 0; w < HULL_WARPS; w++) {
      uint32_t m = (uint32_t) scratch[w];

      if (w < warp)
        *before = min (*before, m);
      else if (w > warp)
        *after = min (*after, m);
    }
    __syncthreads ();
  }
  __device__ uint32_t exclusive_sum (uint32_t v, uint32_t * total) const
  {
    uint32_t warp = rank >> 5, warp_total;
    uint32_t sum = warp_exclusive_sum (v, &warp_total);

    if ((rank & 31) == 0)
      scratch[warp] = warp_total;
    __syncthreads ();
    *total = 0;
    for (uint32_t w = 0; w < HULL_WARPS; w++) {
      uint32_t s = (uint32_t) scratch[w];

      if (w < warp)
        sum += s;
      *total += s;
    }
    __syncthreads ();
    return sum;
  }
};

/* How far out a point of a side lies: the smaller, the further (the left
 * side's smaller X, the right side's larger); HULL_NO_KEY is above all. */
#define HULL_NO_KEY 0x10000u

__device__ __forceinline__ uint32_t
hull_key (uint32_t point, bool left)
{
  uint32_t x = (uint32_t) CIP_HULL_X (point);

  return left ? x : 0xffffu - x;
}

/* Points the group's first thread chains alone, when no more are left:
 * at most the words of a warp's share of @moves. */
#define HULL_SERIAL_POINTS 32
/* A thread's chain longer than this keeps all its points. */
#define HULL_FILTER_POINTS 64

/* One side's chain (2 @height + 1 words at @chain) by a group, as
 * cip_hull_side() makes it: each thread chains its share of the points in
 * place.  A point no further out than one point before it and one after
 * it lies on or inside the segment between those two, so it is no vertex
 * of the side (nor an end): each thread drops those of its chain, with
 * its neighbours in the chain and the furthest points of the threads
 * before and after it as witnesses.  Of a region that spans the frame
 * only a handful are left, which the first thread chains alone.
 * Otherwise neighbouring chains merge pairwise (hull_bridge(), by the
 * first thread of the pair), log2 (group size) rounds, so that no thread
 * walks more than the points a merge drops.  What stays of the second
 * chain of a pair moves down to follow the first, its group's threads
 * reading before any writes (the two ranges may overlap; a point only
 * lands where an earlier one of them was).  Either way the chain is the
 * same: its ends and vertices are among the points kept.  @lens and
 * @moves hold a word per thread of the group.  Returns the chain's
 * length. */
template < typename G > __device__ uint32_t
group_hull_side (const G & g, const uint32_t * first, const uint32_t * last,
    uint32_t height, bool left, uint32_t * chain, uint32_t * lens,
    uint32_t * moves)
{
  uint32_t t = g.rank, size = g.size ();
  uint32_t points = 2 * height + 1, per = CIP_DIV_UP (points, size);
  uint32_t begin = min (t * per, points), end = min (begin + per, points);
  /* a pair's second chain holds at most half its points */
  uint32_t rounds = CIP_DIV_UP (per, 2), n = 0, kept = 0;
  uint32_t best = HULL_NO_KEY, before, after, offset, total;
  uint32_t *own = chain + begin;
  unsigned long long outer = 0;

  for (uint32_t y = begin; y < end; y++)
    cip_hull_push (own, &n, cip_hull_side_point (first, last, height, left,
            y), left);

  for (uint32_t k = 0; k < n; k++)
    best = min (best, hull_key (own[k], left));
  g.exclusive_min (best, HULL_NO_KEY, &before, &after);
  if (n <= HULL_FILTER_POINTS) {
    /* further out than every point after it: from the end */
    uint32_t seen = after;

    for (uint32_t k = n; k-- > 0;) {
      uint32_t key = hull_key (own[k], left);

      if (key < seen)
        outer |= 1ull << k;
      seen = min (seen, key);
    }
    /* ... or than every point before it; in place, never ahead of the
     * point read */
    seen = before;
    for (uint32_t k = 0; k < n; k++) {
      uint32_t point = own[k], key = hull_key (point, left);

      if (key < seen || (outer >> k & 1))
        own[kept++] = point;
      seen = min (seen, key);
    }
  } else {
    kept = n;
  }

  offset = g.exclusive_sum (kept, &total);
  if (total <= HULL_SERIAL_POINTS) {
    for (uint32_t k = 0; k < kept; k++)
      moves[offset + k] = own[k];
    g.sync ();
    if (t == 0) {
      n = 0;
      for (uint32_t k = 0; k < total; k++)
        cip_hull_push (chain, &n, moves[k], left);
      lens[0] = n;
    }
    g.sync ();
    n = lens[0];
    /* lens and moves are taken again */
    g.sync ();
    return n;
  }

  lens[t] = kept;
  g.sync ();
  for (uint32_t half = 1; half < size; half *= 2) {
    uint32_t lead = t & ~(2 * half - 1), k = t - lead;
    uint32_t nb = lens[lead + half], from = 0, to = 0, count = 0;

    /* only the leads' words change: lens[lead + half] stays */
    if (k == 0 && nb > 0) {
      uint32_t keep = 0, skip = 0;

      /* a thread may have kept none of its points */
      if (lens[lead] > 0)
        hull_bridge (chain + lead * per, lens[lead],
            chain + (lead + half) * per, nb, left, &keep, &skip);
      moves[lead] = keep << 16 | skip;
      lens[lead] = keep + nb - skip;
    }
    g.sync ();
    if (nb > 0) {
      count = nb - (moves[lead] & 0xffff);
      from = (lead + half) * per + (moves[lead] & 0xffff);
      to = lead * per + (moves[lead] >> 16);
    }
    for (uint32_t m = 0; m < rounds; m += HULL_MOVE_BATCH) {
      uint32_t v[HULL_MOVE_BATCH];

#pragma unroll
      for (int j = 0; j < HULL_MOVE_BATCH; j++) {
        uint32_t i = k + (m + j) * 2 * half;

        if (i < count)
          v[j] = chain[from + i];
      }
      g.sync ();
#pragma unroll
      for (int j = 0; j < HULL_MOVE_BATCH; j++) {
        uint32_t i = k + (m + j) * 2 * half;

        if (i < count)
          chain[to + i] = v[j];
      }
      g.sync ();
    }
  }
  n = lens[0];
  /* lens is taken again */
  g.sync ();
  return n;
}

/* A region's hull by a group, as cip_hull_region() makes it: @first and
 * @last, its @height rows' ends, become the hull image's rows; @chains
 * holds CIP_HULL_SCRATCH (height) words.  The Feret diameter is the
 * largest distance between two vertices of the outline, every pair taken
 * (the rotating calipers' walk is serial). */
template < typename G > __device__ void
group_hull_region (const G & g, uint32_t * first, uint32_t * last,
    uint32_t height, uint32_t * chains, uint32_t * lens, uint32_t * moves,
    uint32_t * area_convex, unsigned long long *feret_sq4)
{
  uint32_t *left = chains, *right = chains + 2 * height + 1;
  uint32_t n_left, n_right, n, area = 0;
  unsigned long long best = 0;

  n_left = group_hull_side (g, first, last, height, true, left, lens, moves);
  n_right = group_hull_side (g, first, last, height, false, right, lens,
      moves);
  for (uint32_t row = g.rank; row < height; row += g.size ()) {
    int64_t y = 2 * (int64_t) row + 1;
    uint32_t kl = hull_edge (left, n_left, y);
    uint32_t kr = hull_edge (right, n_right, y);

    first[row] = cip_hull_row_end (left[kl], left[kl + 1], y, true);
    last[row] = cip_hull_row_end (right[kr], right[kr + 1], y, false);
    area += last[row] - first[row] + 1;
  }
  *area_convex = g.reduce (area, CipSum ());
  /* the hull image's rows written, the chains read */
  g.sync ();

  n_left = group_hull_side (g, first, last, height, true, left, lens, moves);
  n_right = group_hull_side (g, first, last, height, false, right, lens,
      moves);
  /* pairs (i, i + d), d up to n / 2: every pair, some twice */
  n = n_left + n_right;
  for (uint32_t i = g.rank; i < n; i += g.size ()) {
    uint32_t a = i < n_left ? left[i] : right[i - n_left];

    for (uint32_t d = 1; d <= n / 2; d++) {
      uint32_t j = i + d < n ? i + d : i + d - n;
      uint32_t b = j < n_left ? left[j] : right[j - n_left];
      int64_t dy = CIP_HULL_Y (a) - CIP_HULL_Y (b);
      int64_t dx = CIP_HULL_X (a) - CIP_HULL_X (b);

      best = max (best, (unsigned long long) (dy * dy + dx * dx));
    }
  }
  *feret_sq4 = g.reduce (best, CipMax ());
  /* the chains are taken again */
  g.sync ();
}

/* Region @r's hull by a group, its chains in @shared where its rows are
 * at most @shared_rows, else in global memory at five words a row of its
 * place: a region of two rows or more needs 4 rows + 2 words, so no two
 * overlap (only those of more than HULL_WARP_ROWS rows go there). */
template < typename G > __device__ void
hull_group_region (const G & g, const LabelArgs & p, uint32_t r,
    uint32_t * shared, uint32_t shared_rows, uint32_t * lens,
    uint32_t * moves)
{
  LabelAccum *a = &p.regions[r];
  uint32_t rows = region_rows (p, r), area;
  uint32_t *chains = rows <= shared_rows ? shared :
      p.chains + 5 * (size_t) a->hull_rows;
  unsigned long long feret;

  group_hull_region (g, p.row_first + a->hull_rows,
      p.row_last + a->hull_rows, rows, chains, lens, moves, &area, &feret);
  if (g.rank == 0) {
    a->area_convex = area;
    a->feret_sq4 = feret;
  }
}

/* H3. Every region's hull.  Those taller than HULL_WARP_ROWS take a block
 * each while they are no more than the blocks (a region across the frame
 * then costs a few dozen steps of each thread, not hundreds of serial ones
 * of a warp's lanes in global memory); when there are more, only those of
 * HULL_BLOCK_MIN_ROWS rows or more do, in turn, and the warps take the
 * rest.  The blocks without a region of their own share the other listed
 * regions, a warp each, then those of up to HULL_THREAD_ROWS rows, a
 * thread each, while the tallest are built: one launch, and the frame
 * waits for the longest of them rather than their sum.  A thread's hull is
 * in local memory: each push reads back the points just written, which
 * stay in L1 there, where in global memory they would come from L2. */
__global__ void __launch_bounds__ (HULL_THREADS)
hull_kernel (LabelArgs p)
{
  __shared__ uint32_t chains[HULL_SHARED_WORDS];
  __shared__ uint32_t lens[HULL_THREADS], moves[HULL_THREADS];
  __shared__ unsigned long long scratch[HULL_WARPS];
  uint32_t n = p.counters[0], n_warp = p.counters[4];
  uint32_t n_block = p.counters[5], warp = threadIdx.x >> 5;
  uint32_t items, busy, block, blocks;
  bool few = n_block <= gridDim.x;

  for (uint32_t t = blockIdx.x; t < n_block; t += gridDim.x) {
    uint32_t r = p.tall_regions[p.tall_capacity - 1 - t];

    if (few || region_rows (p, r) >= HULL_BLOCK_MIN_ROWS) {
      HullBlock g = { threadIdx.x, scratch };

      hull_group_region (g, p, r, chains, HULL_BLOCK_ROWS, lens, moves);
    }
  }
  /* the block's shared memory goes to its warps */
  __syncthreads ();

  /* no barrier below */
  busy = few && n_block < gridDim.x ? n_block : 0;
  if (blockIdx.x < busy)
    return;
  block = blockIdx.x - busy;
  blocks = gridDim.x - busy;

  items = n_warp + (few ? 0 : n_block);
  for (uint32_t t = block * HULL_WARPS + warp; t < items;
      t += blocks * HULL_WARPS) {
    HullWarp g = { threadIdx.x & 31 };
    uint32_t r = t < n_warp ? p.tall_regions[t] :
        p.tall_regions[p.tall_capacity - 1 - (t - n_warp)];

    if (t >= n_warp && region_rows (p, r) >= HULL_BLOCK_MIN_ROWS)
      continue;
    hull_group_region (g, p, r, chains + warp * HULL_WARP_WORDS,
        HULL_WARP_ROWS, lens + 32 * warp, moves + 32 * warp);
  }

  /* From the last block down: the first blocks' warps took the regions
   * of a warp each, and a warp given both kinds would build them one
   * after the other, the frame waiting for the sum. */
  for (uint32_t r = (blocks - 1 - block) * HULL_THREADS + threadIdx.x;
      r < n; r += blocks * HULL_THREADS) {
    uint32_t rows = region_rows (p, r);
    LabelAccum *a = &p.regions[r];
    uint32_t first[HULL_THREAD_ROWS], last[HULL_THREAD_ROWS];
    uint32_t chain[CIP_HULL_SCRATCH (HULL_THREAD_ROWS)], area;
    uint64_t feret_sq4;
    unsigned long long feret;

    if (rows > HULL_THREAD_ROWS)
      continue;
    for (uint32_t k = 0; k < rows; k++) {
      first[k] = p.row_first[a->hull_rows + k];
      last[k] = p.row_last[a->hull_rows + k];
    }
    cip_hull_region (first, last, rows, chain, &area, &feret_sq4);
    feret = feret_sq4;
    a->area_convex = area;
    a->feret_sq4 = feret;
  }
}

/* Holes (CIP_LABEL_FILLED).  The components of the region pixels and of
 * the background (8-connected) nest as a tree: a component not on the
 * image's edge lies in a hole of the component that holds the pixel above
 * its first one, and a region's holes hold exactly its descendants.  So
 * the background is labelled too (passes 1 and 2 take the zero pixels
 * in warps of their own, at the same time as the regions), each
 * background component counts its pixels (B1), and every component adds
 * its size to each region above it (B2).  B1 sums per 64x32 tile in
 * shared hash tables, as the statistics pass does: the background around
 * a frame's regions is mostly one component. */
#define HOLE_OPEN 0x80000000u

/* @size pixels of the background component of @root, @open when one is
 * on the image's edge. */
__device__ __forceinline__ void
holes_count (const LabelArgs & p, uint32_t root, uint32_t size, bool open)
{
  atomicAdd (&p.holes_size[root], size);
  if (open)
    atomicOr (&p.holes_size[root], HOLE_OPEN);
}

static_assert (STATS_SEGMENTS == 2 * 32,
    "a lane of one warp counts the roots of two row segments");

/* B1. Each background component's pixels, counted at its root, which a
 * pixel on the image's edge opens; the roots are listed, each by its own
 * pixel (a root is its own parent, no other pixel is).  A warp row groups
 * its lanes by the node they point at (a root of pass 1's tile, or one
 * above it), and the tile sums the groups by node; each node finds its
 * root, and the tile sums the nodes by root in a second table, so that a
 * component takes one update per tile however many nodes it has there
 * (the background around a frame's regions has a few in every tile, all
 * one root).  The tile's roots take consecutive places in the list by one
 * atomic: one a warp would put tens of thousands on one word. */
__global__ void
holes_size_kernel (LabelArgs p)
{
  __shared__ uint32_t keys[STATS_SLOTS], sizes[STATS_SLOTS];
  __shared__ uint32_t open[STATS_SLOTS];
  __shared__ uint32_t root_keys[STATS_SLOTS], root_sizes[STATS_SLOTS];
  __shared__ uint32_t root_open[STATS_SLOTS];
  __shared__ uint32_t seg_roots[STATS_SEGMENTS], seg_places[STATS_SEGMENTS];
  int x0 = blockIdx.x * STATS_TILE_W, y0 = blockIdx.y * STATS_TILE_H;
  int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;

  for (int s = threadIdx.x; s < STATS_SLOTS; s += STATS_THREADS) {
    keys[s] = sizes[s] = open[s] = 0;
    root_keys[s] = root_sizes[s] = root_open[s] = 0;
  }
  __syncthreads ();

  for (int seg = warp; seg < STATS_SEGMENTS; seg += STATS_WARPS) {
    int y = y0 + seg / (STATS_TILE_W / 32);
    int x = x0 + (seg % (STATS_TILE_W / 32)) * 32 + lane;
    bool in = x < p.width && y < p.height;
    uint32_t i = (uint32_t) y * p.width + x, peers, edges, roots;
    uint32_t q = in ? p.holes_parent[i] : LABEL_BACKGROUND;
    int slot;

    roots = __ballot_sync (FULL_WARP, in && q == i);
    if (lane == 0)
      seg_roots[seg] = roots;
    peers = __match_any_sync (FULL_WARP, q);
    edges = __ballot_sync (FULL_WARP, in && (x == 0 || y == 0 ||
            x == p.width - 1 || y == p.height - 1));
    if (q == LABEL_BACKGROUND || lane != __ffs (peers) - 1)
      continue;
    slot = tile_slot < STATS_SLOT_BITS > (keys, q + 1);
    if (slot < 0) {
      /* The tile holds too many components: straight to the root. */
      holes_count (p, find_global (p.holes_parent, q), __popc (peers),
          (edges & peers) != 0);
      continue;
    }
    atomicAdd (&sizes[slot], __popc (peers));
    if (edges & peers)
      open[slot] = 1;
  }
  __syncthreads ();

  if (warp == 0) {
    uint32_t a = __popc (seg_roots[2 * lane]);
    uint32_t b = __popc (seg_roots[2 * lane + 1]);
    uint32_t total, before = warp_exclusive_sum (a + b, &total), base = 0;

    if (lane == 0 && total > 0)
      base = atomicAdd (&p.counters[6], total);
    base = __shfl_sync (FULL_WARP, base, 0);
    seg_places[2 * lane] = base + before;
    seg_places[2 * lane + 1] = base + before + a;
  }
  for (int s = threadIdx.x; s < STATS_SLOTS; s += STATS_THREADS) {
    uint32_t root;
    int r;

    if (!keys[s])
      continue;
    root = find_global (p.holes_parent, keys[s] - 1);
    r = tile_slot < STATS_SLOT_BITS > (root_keys, root + 1);
    if (r < 0) {
      holes_count (p, root, sizes[s], open[s] != 0);
      continue;
    }
    atomicAdd (&root_sizes[r], sizes[s]);
    if (open[s])
      root_open[r] = 1;
  }
  __syncthreads ();

  for (int s = threadIdx.x; s < STATS_SLOTS; s += STATS_THREADS)
    if (root_keys[s])
      holes_count (p, root_keys[s] - 1, root_sizes[s], root_open[s] != 0);
  for (int seg = warp; seg < STATS_SEGMENTS; seg += STATS_WARPS) {
    uint32_t roots = seg_roots[seg];
    int y = y0 + seg / (STATS_TILE_W / 32);
    int x = x0 + (seg % (STATS_TILE_W / 32)) * 32 + lane;

    if (roots >> lane & 1)
      p.holes_roots[seg_places[seg] + __popc (roots & ((1u << lane) - 1))] =
          (uint32_t) y * p.width + x;
  }
}

/* The root of the background component around region @a, or UINT32_MAX
 * when the region touches the image's edge.  The pixel above its first is
 * background: a region pixel there would be the region's. */
__device__ __forceinline__ uint32_t
holes_around (const LabelArgs & p, const LabelAccum & a)
{
  if (a.left == 0 || a.root < (uint32_t) p.width ||
      a.right == (uint32_t) p.width - 1 ||
      a.bottom == (uint32_t) p.height - 1)
    return UINT32_MAX;
  return find_global (p.holes_parent, a.root - p.width);
}

/* Whether the background component of root @hole lies in a region: not
 * UINT32_MAX, and off the image's edge. */
__device__ __forceinline__ bool
holes_closed (const LabelArgs & p, uint32_t hole)
{
  return hole != UINT32_MAX && !(p.holes_size[hole] & HOLE_OPEN);
}

/* @size pixels into region @id and each region above it. */
__device__ void
holes_add (const LabelArgs & p, uint32_t id, uint32_t size)
{
  for (;;) {
    LabelAccum *a = &p.regions[id - 1];
    uint32_t hole;

    atomicAdd (&a->area_filled, size);
    hole = holes_around (p, *a);
    if (!holes_closed (p, hole))
      return;
    /* region pixel: a background one there would be the component's */
    id = pixel_id (p.parent, hole - p.width);
  }
}

/* B2. Each region and each listed background component that lies in a
 * hole adds its size to the region around it and each one above that, a
 * thread each: as many steps as the regions nest, and no pass over the
 * pixels.  The lanes of a warp that add to the same region sum first (a
 * frame's largest region holds most of the holes). */
__global__ void
holes_walk_kernel (LabelArgs p)
{
  __shared__ uint32_t sizes[REGION_THREADS];
  uint32_t n = p.counters[0], items = n + p.counters[6];
  int lane = threadIdx.x & 31;
  uint32_t *warp_sizes = sizes + (threadIdx.x & ~31u);

  /* whole warps, for the match */
  for (uint32_t t0 = (blockIdx.x * blockDim.x + threadIdx.x) & ~31u;
      t0 < items; t0 += gridDim.x * blockDim.x) {
    uint32_t t = t0 + lane, size = 0, hole = UINT32_MAX, id = 0, peers;

    if (t < n) {
      const LabelAccum & a = p.regions[t];

      size = a.area;
      hole = holes_around (p, a);
    } else if (t < items) {
      hole = p.holes_roots[t - n];
      size = p.holes_size[hole] & ~HOLE_OPEN;
    }
    if (holes_closed (p, hole))
      id = pixel_id (p.parent, hole - p.width);
    peers = __match_any_sync (FULL_WARP, id);
    warp_sizes[lane] = size;
    __syncwarp ();
    if (id != 0 && lane == __ffs (peers) - 1) {
      uint32_t sum = 0;

      for (uint32_t m = peers; m; m &= m - 1)
        sum += warp_sizes[__ffs (m) - 1];
      holes_add (p, id, sum);
    }
    /* warp_sizes is written again */
    __syncwarp ();
  }
}

template < typename T, bool kTrack > static void
launch_stats_track (const LabelArgs * p, bool paint, cudaStream_t s)
{
  dim3 tiles (CIP_DIV_UP (p->width, STATS_TILE_W),
      CIP_DIV_UP (p->height, STATS_TILE_H));
  bool moments = p->statistics & CIP_LABEL_MOMENTS;
  bool range = p->statistics & CIP_LABEL_INTENSITY_RANGE;

  if (moments && range)
    stats_kernel < T, true, true, kTrack ><<<tiles, STATS_THREADS, 0, s >>>
        (*p, paint);
  else if (moments)
    stats_kernel < T, true, false, kTrack ><<<tiles, STATS_THREADS, 0, s >>>
        (*p, paint);
  else if (range)
    stats_kernel < T, false, true, kTrack ><<<tiles, STATS_THREADS, 0, s >>>
        (*p, paint);
  else
    stats_kernel < T, false, false, kTrack ><<<tiles, STATS_THREADS, 0, s >>>
        (*p, paint);
}

/* The pairs' table in shared memory only in the kernels that count. */
template < typename T > static void
launch_stats_of (const LabelArgs * p, bool paint, cudaStream_t s)
{
  if (p->track.prev_labels)
    launch_stats_track < T, true > (p, paint, s);
  else
    launch_stats_track < T, false > (p, paint, s);
}

static void
launch_stats (const LabelArgs * p, bool deep, bool paint, cudaStream_t s)
{
  if (deep)
    launch_stats_of < uint16_t > (p, paint, s);
  else
    launch_stats_of < uint8_t > (p, paint, s);
}

/* The holes' passes on @holes, and the hull's on the stream's own. */
static CipStatus
launch_holes_and_hull (const LabelArgs & p, dim3 stats_tiles,
    uint32_t region_grid, cudaStream_t holes, CipStream * stream)
{
  cudaStream_t s = stream->stream;

  if (p.statistics & CIP_LABEL_FILLED) {
    holes_size_kernel <<<stats_tiles, STATS_THREADS, 0, holes >>> (p);
    CIP_CUDA_TRY_LAUNCH (stream, "label holes size kernel");
    holes_walk_kernel <<<region_grid, REGION_THREADS, 0, holes >>> (p);
    CIP_CUDA_TRY_LAUNCH (stream, "label holes walk kernel");
  }
  if (p.statistics & CIP_LABEL_CONVEX) {
    if (!(p.statistics & CIP_LABEL_CONTOURS)) {
      hull_ends_kernel <<<dim3 (CIP_DIV_UP (p.width, HULL_ENDS_SPAN),
              CIP_DIV_UP (p.height, HULL_ENDS_WARPS)),
          HULL_ENDS_WARPS * 32, 0, s >>> (p);
      CIP_CUDA_TRY_LAUNCH (stream, "label hull ends kernel");
    }
    hull_kernel <<<stream->sm_count * 2, HULL_THREADS, 0, s >>> (p);
    CIP_CUDA_TRY_LAUNCH (stream, "label hull kernel");
  }
  return CIP_OK;
}

extern "C" CipStatus
cip_label (const CipImage * mask, const CipImage * intensity,
    const CipLabelParams * params, CipImage * dst, CipRegionTable * table,
    CipStream * stream)
{
  LabelArgs p;
  CipStatus status;
  uint32_t n_pixel_blocks, n_region_blocks, region_grid, max_regions;
  uint32_t tall_capacity;
  void *parent, *offsets, *regions, *counters, *hulls = NULL, *holes = NULL;
  dim3 tiles, pixels, stats_tiles;
  cudaStream_t s, holes_stream;
  bool beside;

  if (stream == NULL ||
      cip_label_check (mask, intensity, params, dst, table) != CIP_OK)
    return CIP_ERROR_INVALID_ARGUMENT;
  if (intensity == NULL)
    intensity = mask;
  s = stream->stream;

  p.width = mask->width;
  p.height = mask->height;
  p.n_pixels = (uint32_t) p.width * p.height;
  p.connectivity = params->connectivity;
  p.min_area = params->min_area;
  p.statistics = params->statistics;
  p.filter = params->min_area > 1;
  n_pixel_blocks = CIP_DIV_UP (p.n_pixels, SCAN_CHUNK);
  n_region_blocks = CIP_DIV_UP (cip_label_max_regions (p.width, p.height,
          p.connectivity), REGION_THREADS);
  /* The region count is known only on the device: enough blocks to fill
   * it, striding over the chunks, rather than one per possible chunk. */
  region_grid = (uint32_t) stream->sm_count * 8;
  if (region_grid > n_region_blocks)
    region_grid = n_region_blocks;

  /* Sized by the image alone: the 4-connected bound is the larger. */
  max_regions = cip_label_max_regions (p.width, p.height, 4);
  status = cip_cuda_scratch (stream, CIP_SCRATCH_LABEL_PARENTS,
      (size_t) p.n_pixels * sizeof (uint32_t), &parent);
  if (status == CIP_OK)
    status = cip_cuda_scratch (stream, CIP_SCRATCH_LABEL_IDS,
        n_pixel_blocks * sizeof (unsigned long long) +
        CIP_DIV_UP (max_regions, REGION_THREADS) * sizeof (uint32_t),
        &offsets);
  if (status == CIP_OK)
    status = cip_cuda_scratch (stream, CIP_SCRATCH_LABEL_REGIONS,
        (size_t) max_regions * sizeof (LabelAccum), &regions);
  if (status == CIP_OK)
    status = cip_cuda_scratch (stream, CIP_SCRATCH_LABEL_EXTRA,
        7 * sizeof (uint32_t), &counters);
  /* The rows of all boxes are at most the pixels: a region has a pixel in
   * every row of its box, so the tall ones are at most a pixel in
   * HULL_THREAD_ROWS + 1.  Row ends, then chains at five words a row. */
  tall_capacity = p.n_pixels / (HULL_THREAD_ROWS + 1) + 1;
  if (status == CIP_OK && (p.statistics & CIP_LABEL_CONVEX))
    status = cip_cuda_scratch (stream, CIP_SCRATCH_LABEL_HULLS,
        (7 * (size_t) p.n_pixels + tall_capacity) * sizeof (uint32_t),
        &hulls);
  /* A background forest, sizes by root, and the roots: 8-connected
   * components, as many as 8-connected regions can be. */
  if (status == CIP_OK && (p.statistics & CIP_LABEL_FILLED))
    status = cip_cuda_scratch (stream, CIP_SCRATCH_LABEL_HOLES,
        (2 * (size_t) p.n_pixels + cip_label_max_regions (p.width,
                p.height, 8)) * sizeof (uint32_t), &holes);
  if (status != CIP_OK)
    return status;

  p.mask = (const uint8_t *) mask->data;
  p.mask_stride = mask->stride;
  p.intensity = (const uint8_t *) intensity->data;
  p.intensity_stride = intensity->stride;
  p.intensity_aligned = cip_rows_aligned (intensity, 2);
  p.dst = dst ? (uint8_t *) dst->data : NULL;
  p.dst_stride = dst ? dst->stride : 0;
  p.dst_format = dst ? dst->format : CIP_FORMAT_GRAY16;
  p.dst_aligned = dst && cip_rows_aligned (dst,
      dst->format == CIP_FORMAT_RGBA ? 4 : 2);
  p.labels = table->labels;
  p.labels_stride = table->labels_stride;
  p.track = TrackCount ();
  /* a labelling that counts no pairs leaves none for cip_track_frame()
   * to take: the pairs it would find are not the ones recorded */
  if (table->track_prev == NULL)
    stream->track_counted = NULL;
  if (table->track_prev) {
    status = cip_track_count_begin (stream, table->track_prev,
        table->labels_stride, p.width, p.height, &p.track);
    if (status != CIP_OK)
      return status;
  }
  p.parent = (uint32_t *) parent;
  p.chunk_states = (unsigned long long *) offsets;
  p.n_chunks = n_pixel_blocks;
  p.region_offsets = (uint32_t *) (p.chunk_states + n_pixel_blocks);
  p.regions = (LabelAccum *) regions;
  p.counters = (uint32_t *) counters;
  p.table = table->regions;
  p.capacity = table->capacity;
  p.count = table->count;
  p.columns = table->columns;
  p.column_capacity = table->column_capacity;
  p.n_props = table->column_capacity > 0 ? table->n_props : 0;
  for (uint32_t i = 0; i < p.n_props; i++)
    p.props[i] = table->props[i];
  p.row_first = (uint32_t *) hulls;
  p.row_last = hulls ? p.row_first + p.n_pixels : NULL;
  p.chains = hulls ? p.row_last + p.n_pixels : NULL;
  p.tall_regions = hulls ? p.chains + 5 * (size_t) p.n_pixels : NULL;
  p.tall_capacity = tall_capacity;
  p.holes_parent = (uint32_t *) holes;
  p.holes_size = holes ? p.holes_parent + p.n_pixels : NULL;
  p.holes_roots = holes ? p.holes_size + p.n_pixels : NULL;

  tiles = dim3 (CIP_DIV_UP (p.width, TILE_SIZE),
      CIP_DIV_UP (p.height, TILE_SIZE));
  stats_tiles = dim3 (CIP_DIV_UP (p.width, STATS_TILE_W),
      CIP_DIV_UP (p.height, STATS_TILE_H));
  pixels = dim3 (CIP_DIV_UP (p.width, CIP_BLOCK_X),
      CIP_DIV_UP (p.height, CIP_BLOCK_Y));
  if (p.statistics & CIP_LABEL_FILLED) {
    local_kernel < true ><<<tiles, dim3 (32, 2 * TILE_WARPS), 0, s >>> (p);
    CIP_CUDA_TRY_LAUNCH (stream, "label local kernel");
    border_kernel < true ><<<tiles, 2 * BORDER_WARPS * 32, 0, s >>> (p);
    CIP_CUDA_TRY_LAUNCH (stream, "label border kernel");
  } else {
    local_kernel < false ><<<tiles, dim3 (32, TILE_WARPS), 0, s >>> (p);
    CIP_CUDA_TRY_LAUNCH (stream, "label local kernel");
    border_kernel < false ><<<tiles, BORDER_WARPS * 32, 0, s >>> (p);
    CIP_CUDA_TRY_LAUNCH (stream, "label border kernel");
  }
  resolve_kernel <<<n_pixel_blocks, SCAN_THREADS, 0, s >>> (p);
  CIP_CUDA_TRY_LAUNCH (stream, "label resolve kernel");
  launch_stats (&p, intensity->format == CIP_FORMAT_GRAY16,
      dst != NULL && !p.filter, s);
  CIP_CUDA_TRY_LAUNCH (stream, "label stats kernel");
  /* The rows' places before the contours pass, which finds their ends
   * when both are asked for. */
  if (p.statistics & CIP_LABEL_CONVEX) {
    hull_place_kernel <<<region_grid, REGION_THREADS, 0, s >>> (p);
    CIP_CUDA_TRY_LAUNCH (stream, "label hull place kernel");
  }
  if (p.statistics & CIP_LABEL_CONTOURS) {
    if (p.statistics & CIP_LABEL_CONVEX)
      contours_kernel < true ><<<stats_tiles, STATS_THREADS, 0, s >>> (p);
    else
      contours_kernel < false ><<<stats_tiles, STATS_THREADS, 0, s >>> (p);
    CIP_CUDA_TRY_LAUNCH (stream, "label contours kernel");
  }
  /* The holes' passes need nothing of the hull's, whose last regions keep
   * a few blocks busy while the rest of the GPU idles: with both, the
   * holes run beside the hull on the side stream. */
  beside = (p.statistics & CIP_LABEL_CONVEX) &&
      (p.statistics & CIP_LABEL_FILLED);
  holes_stream = s;
  if (beside) {
    status = cip_cuda_fork (stream, &holes_stream);
    if (status != CIP_OK)
      return status;
  }
  status = launch_holes_and_hull (p, stats_tiles, region_grid,
      holes_stream, stream);
  /* joined after a failed launch too: no pass on the side stream may
   * outlive the call unordered with the stream's later work */
  if (beside) {
    CipStatus joined = cip_cuda_join (stream);

    if (status == CIP_OK)
      status = joined;
  }
  if (status != CIP_OK)
    return status;
  if (p.filter) {
    keep_count_kernel <<<region_grid, REGION_THREADS, 0, s >>> (p,
        n_region_blocks);
    CIP_CUDA_TRY_LAUNCH (stream, "label keep count kernel");
    offsets_kernel <<<1, OFFSETS_THREADS, 0, s >>> (p.region_offsets,
        n_region_blocks, &p.counters[1]);
    CIP_CUDA_TRY_LAUNCH (stream, "label region offsets kernel");
  }
  finalize_kernel <<<region_grid, REGION_THREADS, 0, s >>> (p);
  CIP_CUDA_TRY_LAUNCH (stream, "label finalize kernel");
  if ((dst || p.labels) && p.filter) {
    paint_kernel <<<pixels, cip_block_2d (), 0, s >>> (p);
    CIP_CUDA_TRY_LAUNCH (stream, "label paint kernel");
  }
  /* cip_track_frame() of these frames takes it from here */
  if (p.track.prev_labels)
    cip_track_count_end (stream, table->track_prev, table->labels,
        table->labels_stride, p.width, p.height);
  return CIP_OK;
}
