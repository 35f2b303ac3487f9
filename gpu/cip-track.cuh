/* gst-cuda-imgproc
 * Copyright (C) 2026 The gst-cuda-imgproc authors
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2 of the License, or (at your option) any later version.
 */

/* Tracks' overlap counting (docs/regionprops.md, "Tracks"), shared by the
 * labelling, which counts the pairs of labels where it writes its label
 * image, and gpu/track.cu, which counts them from two label images when
 * no labelling did and numbers the regions.  Internal to gpu/. */

#ifndef __CIP_TRACK_CUH__
#define __CIP_TRACK_CUH__

#include "cip-cuda.cuh"
#include "cip-label.h"

/* A tile's table of pairs in shared memory. */
#define TRACK_TILE_SLOTS 512
#define TRACK_TILE_SLOT_BITS 9
#define TRACK_TILE_PROBES 8
/* Shared arrays a kernel needs only when it counts pairs. */
#define TRACK_TILE_SLOTS_IF(cond) ((cond) ? TRACK_TILE_SLOTS : 1)

/* The words of the scratch's counters. */
enum
{
  TRACK_N,                      /* this frame's regions */
  TRACK_N_PREV,                 /* the previous frame's */
  TRACK_NEXT_ID,                /* the first new id of this frame */
  TRACK_USED,                   /* slots of the pair table taken */
  /* the best words that may be set: of current regions 1 .. DIRTY_CUR,
   * of previous ones 1 .. DIRTY_PREV */
  TRACK_DIRTY_CUR,
  TRACK_DIRTY_PREV,
  /* per turn of the numbering pass: chunks taken, chunks published */
  TRACK_TICKETS,
  TRACK_CHUNKS = TRACK_TICKETS + 2,
  TRACK_N_COUNTERS = TRACK_CHUNKS + 2
};

/* What the pass that counts pairs and the pass that picks each region's
 * best partner (the "best" step) need. */
struct TrackCount
{
  /* the previous frame's label image and state; NULL: nothing counted */
  const uint32_t *prev_labels;
  size_t stride;
  const uint32_t *prev_state;
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
  uint32_t *counters;
};

/* The previous frame's regions; labels above are left out. */
__device__ __forceinline__ uint32_t
track_prev_regions (const TrackCount & t)
{
  return min (t.prev_state[CIP_TRACK_STATE_REGIONS], t.max_regions);
}

__device__ __forceinline__ unsigned long long
track_key (uint32_t cur, uint32_t prev)
{
  return cur != 0 && prev != 0 ? (unsigned long long) cur << 32 | prev : 0;
}

/* A pair's first slot in a table of @capacity. */
__device__ __forceinline__ uint32_t
track_pair_slot (unsigned long long key, uint32_t capacity)
{
  uint32_t h = (uint32_t) ((key * 0x9e3779b97f4a7c15ull) >> 32);

  return (uint32_t) (((unsigned long long) h * capacity) >> 32);
}

/* Adds @n pixels to pair @key in the global table; a slot taken anew is
 * listed.  The table has a slot and a half per pixel and a frame at most
 * a pair per pixel: a free slot is always found. */
__device__ __forceinline__ void
track_pair_add (const TrackCount & t, unsigned long long key, uint32_t n)
{
  volatile unsigned long long *keys = t.keys;
  uint32_t slot = track_pair_slot (key, t.capacity);

  for (;;) {
    unsigned long long k = keys[slot];

    if (k == 0) {
      k = atomicCAS (&t.keys[slot], 0ull, key);
      if (k == 0) {
        t.used[atomicAdd (&t.counters[TRACK_USED], 1u)] = slot;
        atomicAdd (&t.pair_counts[slot], n);
        return;
      }
    }
    if (k == key) {
      atomicAdd (&t.pair_counts[slot], n);
      return;
    }
    slot = slot + 1 == t.capacity ? 0 : slot + 1;
  }
}

/* The counting pass's first step, thread @i of @n: the best words that the
 * frame before set are cleared (the numbering pass that read them has
 * ended), for the best step that follows the counting. */
__device__ __forceinline__ void
track_clear_best (const TrackCount & t, uint32_t i, uint32_t n)
{
  uint32_t cur = t.counters[TRACK_DIRTY_CUR];
  uint32_t prev = t.counters[TRACK_DIRTY_PREV];
  uint32_t end = max (cur, prev);

  for (uint32_t k = i; k <= end; k += n) {
    if (k <= cur)
      t.best_prev[k] = 0;
    if (k <= prev)
      t.best_cur[k] = 0;
  }
}

/* A tile's table of pairs, @keys and @counts of TRACK_TILE_SLOTS, emptied
 * by the block's threads before a barrier. */
__device__ __forceinline__ void
track_tile_init (unsigned long long *keys, uint32_t * counts)
{
  for (int s = threadIdx.y * blockDim.x + threadIdx.x; s < TRACK_TILE_SLOTS;
      s += blockDim.x * blockDim.y) {
    keys[s] = 0;
    counts[s] = 0;
  }
}

/* Called by a whole warp, a pixel a lane: (@cur, @prev) labels, 0 for
 * none, and the lanes of the same @cur (__match_any_sync).  Lanes of one
 * pair are grouped, and each group's first lane adds them to the tile's
 * table, or to the global one when the tile holds too many pairs. */
__device__ __forceinline__ void
track_tile_count (unsigned long long *keys, uint32_t * counts,
    const TrackCount & t, uint32_t cur, uint32_t prev, uint32_t cur_peers)
{
  unsigned long long key = track_key (cur, prev);
  uint32_t peers, slot;
  int lane = threadIdx.x & 31;

  /* most row segments of a frame have no pair */
  if (!__any_sync (0xffffffffu, key != 0))
    return;
  /* the lanes of a pair: of its current label and of its previous one */
  peers = cur_peers & __match_any_sync (0xffffffffu, prev);
  if (key == 0 || lane != __ffs (peers) - 1)
    return;
  slot = (uint32_t) ((key * 0x9e3779b97f4a7c15ull) >>
      (64 - TRACK_TILE_SLOT_BITS));
  for (int probe = 0; probe < TRACK_TILE_PROBES; probe++) {
    unsigned long long old = atomicCAS (&keys[slot], 0ull, key);

    if (old == 0 || old == key) {
      atomicAdd (&counts[slot], (uint32_t) __popc (peers));
      return;
    }
    slot = (slot + 1) % TRACK_TILE_SLOTS;
  }
  track_pair_add (t, key, __popc (peers));
}

/* After a barrier: the tile's pairs added to the global table. */
__device__ __forceinline__ void
track_tile_flush (const unsigned long long *keys, const uint32_t * counts,
    const TrackCount & t)
{
  for (int s = threadIdx.y * blockDim.x + threadIdx.x; s < TRACK_TILE_SLOTS;
      s += blockDim.x * blockDim.y)
    if (keys[s] != 0)
      track_pair_add (t, keys[s], counts[s]);
}

/* Current labels as counted are the final ids. */
struct TrackSameIds
{
  __device__ uint32_t operator () (uint32_t label) const
  {
    return label;
  }
};

/* The best step, after the counting, thread @i of @n: each pair's count
 * offered to both its regions by atomicMax of (count << 32 | ~label) (the
 * most pixels, then the lower label, as the reference's ties go), the
 * slot cleared for the next frame.  @final maps a counted current label
 * to its final id (0: not a region).  Thread 0 writes the frame's header
 * for the numbering: @n_regions, the previous frame's regions and next
 * id, and the best words that may now be set. */
template < typename Map > __device__ __forceinline__ void
track_best (const TrackCount & t, uint32_t n_regions, uint32_t i,
    uint32_t n, Map final)
{
  uint32_t n_used = t.counters[TRACK_USED];

  if (i == 0) {
    uint32_t n_prev = track_prev_regions (t);

    t.counters[TRACK_N] = n_regions;
    t.counters[TRACK_N_PREV] = n_prev;
    t.counters[TRACK_NEXT_ID] = t.prev_state[CIP_TRACK_STATE_NEXT_ID];
    t.counters[TRACK_DIRTY_CUR] = n_regions;
    t.counters[TRACK_DIRTY_PREV] = n_prev;
  }
  for (uint32_t k = i; k < n_used; k += n) {
    uint32_t slot = t.used[k];
    unsigned long long key = t.keys[slot];
    unsigned long long count = t.pair_counts[slot];
    uint32_t cur = final ((uint32_t) (key >> 32)), prev = (uint32_t) key;

    if (cur != 0) {
      atomicMax (&t.best_prev[cur], count << 32 | (uint32_t) ~prev);
      atomicMax (&t.best_cur[prev], count << 32 | (uint32_t) ~cur);
    }
    t.keys[slot] = 0;
    t.pair_counts[slot] = 0;
  }
}

/* Host side, gpu/track.cu.  A labelling that counts pairs calls
 * cip_track_count_begin() before its launches, for @t, and
 * cip_track_count_end() once they are all queued: cip_track_frame() of
 * the same frames then only numbers the regions. */
CipStatus cip_track_count_begin (CipStream * stream,
    const CipTrackFrame * prev, size_t stride, int width, int height,
    TrackCount * t);
void cip_track_count_end (CipStream * stream, const CipTrackFrame * prev,
    const uint32_t * labels, size_t stride, int width, int height);

#endif /* __CIP_TRACK_CUH__ */
