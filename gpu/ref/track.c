/* gst-cuda-imgproc
 * Copyright (C) 2026 The gst-cuda-imgproc authors
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2 of the License, or (at your option) any later version.
 */

/* Tracks across two frames' label images: the overlap of every pair of
 * regions counted (a sorted list of the pairs that meet), then each
 * region's best partner on the other side, and the mutual ones kept. */

#include <stdlib.h>
#include <string.h>

#include "cip-ref.h"

static int
compare_pairs (const void *a, const void *b)
{
  uint64_t x = *(const uint64_t *) a, y = *(const uint64_t *) b;

  return x < y ? -1 : x > y;
}

/* Whether @count overlapping pixels with @label beat the best so far:
 * more pixels, or as many and a lower label. */
static bool
better (uint32_t count, uint32_t label, uint32_t best_count,
    uint32_t best_label)
{
  return count > best_count || (count == best_count && label < best_label);
}

CipStatus
cip_ref_track (const uint32_t * prev_labels, const uint32_t * labels,
    int width, int height, size_t stride, uint32_t n_prev,
    const uint32_t * prev_ids, uint32_t n, uint32_t * ids, uint32_t * next_id)
{
  uint64_t *pairs;
  uint32_t *best_cur, *best_cur_count, *best_prev, *best_prev_count;
  size_t n_pairs = 0, k;
  CipStatus status = CIP_OK;
  uint32_t i;
  int x, y;

  if (!prev_labels || !labels || !ids || !next_id || *next_id == 0 ||
      width <= 0 || height <= 0 || stride < (size_t) width ||
      (n_prev > 0 && !prev_ids))
    return CIP_ERROR_INVALID_ARGUMENT;

  pairs = malloc ((size_t) width * height * sizeof (uint64_t) + 1);
  best_cur = calloc ((size_t) n_prev + 1, sizeof (uint32_t));
  best_cur_count = calloc ((size_t) n_prev + 1, sizeof (uint32_t));
  best_prev = calloc ((size_t) n + 1, sizeof (uint32_t));
  best_prev_count = calloc ((size_t) n + 1, sizeof (uint32_t));
  if (!pairs || !best_cur || !best_cur_count || !best_prev || !best_prev_count) {
    status = CIP_ERROR_OUT_OF_MEMORY;
    goto out;
  }

  for (y = 0; y < height; y++)
    for (x = 0; x < width; x++) {
      uint32_t p = prev_labels[(size_t) y * stride + x];
      uint32_t c = labels[(size_t) y * stride + x];

      if (p > n_prev || c > n) {
        status = CIP_ERROR_INVALID_ARGUMENT;
        goto out;
      }
      if (p && c)
        pairs[n_pairs++] = (uint64_t) c << 32 | p;
    }
  qsort (pairs, n_pairs, sizeof (uint64_t), compare_pairs);

  /* each run of equal pairs is one overlap: the best previous region of
   * each current one, and the best current region of each previous one */
  for (k = 0; k < n_pairs;) {
    uint64_t pair = pairs[k];
    uint32_t c = (uint32_t) (pair >> 32), p = (uint32_t) pair, count = 0;

    while (k < n_pairs && pairs[k] == pair) {
      count++;
      k++;
    }
    if (better (count, p, best_prev_count[c], best_prev[c] ? best_prev[c] :
            UINT32_MAX)) {
      best_prev[c] = p;
      best_prev_count[c] = count;
    }
    if (better (count, c, best_cur_count[p], best_cur[p] ? best_cur[p] :
            UINT32_MAX)) {
      best_cur[p] = c;
      best_cur_count[p] = count;
    }
  }

  for (i = 1; i <= n; i++) {
    uint32_t p = best_prev[i];

    if (p && best_cur[p] == i)
      ids[i - 1] = prev_ids[p - 1];
    else
      ids[i - 1] = (*next_id)++;
  }

out:
  free (pairs);
  free (best_cur);
  free (best_cur_count);
  free (best_prev);
  free (best_prev_count);
  return status;
}

CipStatus
cip_ref_track_frame (const CipTrackFrame * prev, const CipTrackFrame * frame,
    const uint32_t * count, int width, int height, CipStream * stream)
{
  uint32_t n, next_id = 1, i;
  CipStatus status = CIP_OK;

  (void) stream;
  if (!frame || !count || !frame->labels || !frame->state ||
      (*count > 0 && !frame->ids) || (frame->column_capacity > 0 &&
          !frame->column) || width <= 0 || height <= 0 ||
      frame->stride < (size_t) width || (prev && (!prev->labels ||
              !prev->state || prev->stride != frame->stride)))
    return CIP_ERROR_INVALID_ARGUMENT;
  n = *count;

  if (prev) {
    next_id = prev->state[CIP_TRACK_STATE_NEXT_ID];
    status = cip_ref_track (prev->labels, frame->labels, width, height,
        frame->stride, prev->state[CIP_TRACK_STATE_REGIONS], prev->ids,
        n, frame->ids, &next_id);
  } else {
    /* the first frame: no previous regions, and still every label must be
     * one of its regions */
    int x, y;

    for (y = 0; y < height; y++)
      for (x = 0; x < width; x++)
        if (frame->labels[(size_t) y * frame->stride + x] > n)
          return CIP_ERROR_INVALID_ARGUMENT;
    for (i = 0; i < n; i++)
      frame->ids[i] = next_id++;
  }
  if (status != CIP_OK)
    return status;

  frame->state[CIP_TRACK_STATE_REGIONS] = n;
  frame->state[CIP_TRACK_STATE_NEXT_ID] = next_id;
  for (i = 0; i < n && i < frame->column_capacity; i++)
    frame->column[i] = frame->ids[i];
  return CIP_OK;
}
