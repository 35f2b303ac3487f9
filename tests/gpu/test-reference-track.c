/* gst-cuda-imgproc
 * Copyright (C) 2026 The gst-cuda-imgproc authors
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2 of the License, or (at your option) any later version.
 */

/* The tracking reference (gpu/ref/track.c) on regions that move, appear,
 * vanish, merge and split, worked out by hand, and against a brute-force
 * overlap matrix on random label images; cip_ref_track_frame() from frame
 * to frame on cip_ref_label's label ids. */

#include <string.h>

#include "cip-ref.h"
#include "test-util.h"

#define W 24
#define H 16

typedef struct
{
  guint32 labels[W * H];
  guint32 n;
} Frame;

/* Region @label as the box [x0, x1) x [y0, y1). */
static void
box (Frame * f, guint32 label, gint x0, gint y0, gint x1, gint y1)
{
  gint x, y;

  for (y = y0; y < y1; y++)
    for (x = x0; x < x1; x++)
      f->labels[y * W + x] = label;
  f->n = MAX (f->n, label);
}

/* Tracks @cur after @prev (whose ids are @prev_ids); returns @cur's ids. */
static guint32 *
track (const Frame * prev, const guint32 * prev_ids, const Frame * cur,
    guint32 * next_id)
{
  guint32 *ids = g_new0 (guint32, cur->n + 1);

  g_assert_cmpint (cip_ref_track (prev->labels, cur->labels, W, H, W,
          prev->n, prev_ids, cur->n, ids, next_id), ==, CIP_OK);
  return ids;
}

static void
assert_ids (const guint32 * ids, const guint32 * expected, guint32 n)
{
  guint32 i;

  for (i = 0; i < n; i++)
    g_assert_cmpuint (ids[i], ==, expected[i]);
}

/* The first frame: no previous regions, ids from 1. */
static void
test_first_frame (void)
{
  Frame none = { {0}, 0 }, f = { {0}, 0 };
  guint32 next = 1, *ids;
  static const guint32 expected[] = { 1, 2, 3 };

  box (&f, 1, 0, 0, 4, 4);
  box (&f, 2, 8, 0, 12, 4);
  box (&f, 3, 0, 8, 4, 12);
  ids = track (&none, NULL, &f, &next);
  assert_ids (ids, expected, 3);
  g_assert_cmpuint (next, ==, 4);
  g_free (ids);
}

/* Two regions move and swap raster order; one vanishes; one appears. */
static void
test_move_appear_vanish (void)
{
  Frame a = { {0}, 0 }, b = { {0}, 0 };
  static const guint32 prev_ids[] = { 7, 9, 11 };
  guint32 next = 12, *ids;

  box (&a, 1, 2, 1, 6, 5);      /* id 7 */
  box (&a, 2, 14, 6, 18, 10);   /* id 9 */
  box (&a, 3, 20, 12, 23, 15);  /* id 11: gone next frame */
  /* id 9's region moved up past id 7's: first in raster order now */
  box (&b, 1, 15, 0, 19, 7);
  box (&b, 2, 3, 2, 7, 6);
  box (&b, 3, 9, 12, 12, 15);   /* new */
  ids = track (&a, prev_ids, &b, &next);
  {
    static const guint32 expected[] = { 9, 7, 12 };

    assert_ids (ids, expected, 3);
  }
  g_assert_cmpuint (next, ==, 13);
  g_free (ids);
}

/* Two regions merge: the one it overlaps most keeps its id, the other's
 * id is not given again. */
static void
test_merge (void)
{
  Frame a = { {0}, 0 }, b = { {0}, 0 };
  static const guint32 prev_ids[] = { 1, 2 };
  guint32 next = 3, *ids;

  box (&a, 1, 0, 0, 6, 4);      /* 24 pixels */
  box (&a, 2, 8, 0, 12, 4);     /* 16 pixels */
  box (&b, 1, 0, 0, 12, 4);     /* covers both */
  ids = track (&a, prev_ids, &b, &next);
  g_assert_cmpuint (ids[0], ==, 1);
  g_assert_cmpuint (next, ==, 3);
  g_free (ids);
}

/* A region splits in two equal halves: the tie goes to the lower label,
 * the other half is new. */
static void
test_split (void)
{
  Frame a = { {0}, 0 }, b = { {0}, 0 };
  static const guint32 prev_ids[] = { 5 };
  guint32 next = 6, *ids;

  box (&a, 1, 0, 0, 8, 4);
  box (&b, 1, 0, 0, 4, 4);
  box (&b, 2, 4, 0, 8, 4);
  ids = track (&a, prev_ids, &b, &next);
  {
    static const guint32 expected[] = { 5, 6 };

    assert_ids (ids, expected, 2);
  }
  g_assert_cmpuint (next, ==, 7);
  g_free (ids);
}

/* Only mutual best partners: region 1 overlaps previous region 1 most,
 * but previous region 1 overlaps region 2 more, which takes its id. */
static void
test_not_mutual (void)
{
  Frame a = { {0}, 0 }, b = { {0}, 0 };
  static const guint32 prev_ids[] = { 4, 8 };
  guint32 next = 9, *ids;

  box (&a, 1, 0, 0, 10, 2);     /* previous 1: 20 pixels */
  box (&a, 2, 0, 4, 3, 6);      /* previous 2: 6 pixels */
  box (&b, 1, 0, 0, 3, 2);      /* 6 of previous 1 */
  box (&b, 2, 3, 0, 10, 2);     /* 14 of previous 1 */
  box (&b, 3, 0, 4, 1, 6);      /* 2 of previous 2 */
  ids = track (&a, prev_ids, &b, &next);
  {
    /* 1 is new; 2 takes previous 1's id; 3 is previous 2's best */
    static const guint32 expected[] = { 9, 4, 8 };

    assert_ids (ids, expected, 3);
  }
  g_free (ids);
}

/* Previous regions tied for a current one: the lower label's id, when
 * that region's own best is this one. */
static void
test_tie_previous_side (void)
{
  Frame a = { {0}, 0 }, b = { {0}, 0 };
  static const guint32 prev_ids[] = { 3, 6 };
  guint32 next = 7, *ids;

  box (&a, 1, 0, 0, 4, 2);
  box (&a, 2, 0, 2, 4, 4);
  box (&b, 1, 0, 0, 4, 4);      /* 8 pixels of each */
  ids = track (&a, prev_ids, &b, &next);
  g_assert_cmpuint (ids[0], ==, 3);
  g_free (ids);
}

/* Random label images against the rule applied to a full overlap
 * matrix. */
static void
test_random (void)
{
  GRand *rand = g_rand_new_with_seed (31);
  guint round;

  for (round = 0; round < 200; round++) {
    Frame a = { {0}, 0 }, b = { {0}, 0 };
    guint32 n_a = g_rand_int_range (rand, 0, 12);
    guint32 n_b = g_rand_int_range (rand, 0, 12);
    guint32 *prev_ids = g_new0 (guint32, n_a + 1);
    guint32 *overlap = g_new0 (guint32, (n_a + 1) * (n_b + 1));
    guint32 next = 100, expected_next = 100, *ids;
    guint32 i, j, k;

    for (k = 0; k < W * H; k++) {
      a.labels[k] = g_rand_int_range (rand, 0, n_a + 1);
      b.labels[k] = g_rand_int_range (rand, 0, n_b + 1);
      overlap[b.labels[k] * (n_a + 1) + a.labels[k]]++;
    }
    a.n = n_a;
    b.n = n_b;
    for (i = 0; i < n_a; i++)
      prev_ids[i] = 10 + 3 * i;
    ids = track (&a, prev_ids, &b, &next);

    for (i = 1; i <= n_b; i++) {
      guint32 best_j = 0, best = 0, best_i = 0;

      for (j = 1; j <= n_a; j++)
        if (overlap[i * (n_a + 1) + j] > best) {
          best = overlap[i * (n_a + 1) + j];
          best_j = j;
        }
      best = 0;
      for (k = 1; best_j && k <= n_b; k++)
        if (overlap[k * (n_a + 1) + best_j] > best) {
          best = overlap[k * (n_a + 1) + best_j];
          best_i = k;
        }
      if (best_j && best_i == i)
        g_assert_cmpuint (ids[i - 1], ==, prev_ids[best_j - 1]);
      else
        g_assert_cmpuint (ids[i - 1], ==, expected_next++);
    }
    g_assert_cmpuint (next, ==, expected_next);
    g_free (ids);
    g_free (overlap);
    g_free (prev_ids);
  }
  g_rand_free (rand);
}

static void
test_invalid_arguments (void)
{
  Frame a = { {0}, 0 }, b = { {0}, 0 };
  guint32 ids[4], next = 0;

  box (&b, 2, 0, 0, 2, 2);
  /* ids start at 1 */
  g_assert_cmpint (cip_ref_track (a.labels, b.labels, W, H, W, 0, NULL, 2,
          ids, &next), ==, CIP_ERROR_INVALID_ARGUMENT);
  next = 1;
  /* a label past the count given */
  g_assert_cmpint (cip_ref_track (a.labels, b.labels, W, H, W, 0, NULL, 1,
          ids, &next), ==, CIP_ERROR_INVALID_ARGUMENT);
  g_assert_cmpint (cip_ref_track (a.labels, b.labels, W, H, W - 1, 0, NULL,
          2, ids, &next), ==, CIP_ERROR_INVALID_ARGUMENT);
  g_assert_cmpint (cip_ref_track (a.labels, b.labels, W, H, W, 0, NULL, 2,
          ids, &next), ==, CIP_OK);
  g_assert_cmpuint (next, ==, 3);
}

/* cip_ref_label's label ids (the table's @labels) are its GRAY16 image's,
 * min_area applied; and cip_ref_track_frame() is cip_ref_track() from
 * frame to frame, ids from 1 on a first frame, its state and column
 * written. */
static void
test_frames (void)
{
  GRand *rand = g_rand_new_with_seed (7);
  guint32 labels[2][W * H], ids[2][W * H], state[2][CIP_TRACK_STATE_WORDS];
  guint32 expected[W * H], next = 1, n_prev = 0, count, f, i;
  double column[W * H + 1];

  for (f = 0; f < 12; f++) {
    CipImage mask = cip_test_image_new (W, H, CIP_FORMAT_GRAY8, 0);
    CipImage gray16 = cip_test_image_new (W, H, CIP_FORMAT_GRAY16, 0);
    CipLabelParams params = { f % 2 ? 4 : 8, f % 3, 0 };
    CipRegionTable table = { NULL, 0, &count };
    guint cur = f % 2, rows = f % 4 == 3 ? 2 : W * H;
    CipTrackFrame frame = { labels[cur], W, ids[cur], state[cur], column,
      rows
    };
    CipTrackFrame prev = { labels[!cur], W, ids[!cur], state[!cur], NULL, 0 };
    gboolean first = f == 0 || f == 7;
    gint x, y;

    for (y = 0; y < H; y++)
      for (x = 0; x < W; x++)
        ((guint8 *) mask.data)[y * mask.stride + x] =
            g_rand_int_range (rand, 0, 3) ? 255 : 0;
    table.labels = labels[cur];
    table.labels_stride = W;
    g_assert_cmpint (cip_ref_label (&mask, NULL, &params, &gray16, &table,
            NULL), ==, CIP_OK);
    for (y = 0; y < H; y++)
      for (x = 0; x < W; x++)
        g_assert_cmpuint (labels[cur][y * W + x], ==,
            ((guint16 *) ((guint8 *) gray16.data + y * gray16.stride))[x]);

    if (first) {
      for (i = 0; i < count; i++)
        expected[i] = i + 1;
      next = count + 1;
    } else {
      g_assert_cmpint (cip_ref_track (labels[!cur], labels[cur], W, H, W,
              n_prev, ids[!cur], count, expected, &next), ==, CIP_OK);
    }
    for (i = 0; i <= W * H; i++)
      column[i] = -1;
    g_assert_cmpint (cip_ref_track_frame (first ? NULL : &prev, &frame,
            &count, W, H, NULL), ==, CIP_OK);
    for (i = 0; i < count; i++)
      g_assert_cmpuint (ids[cur][i], ==, expected[i]);
    g_assert_cmpuint (state[cur][CIP_TRACK_STATE_REGIONS], ==, count);
    g_assert_cmpuint (state[cur][CIP_TRACK_STATE_NEXT_ID], ==, next);
    for (i = 0; i <= W * H; i++)
      g_assert_cmpfloat (column[i], ==, i < MIN (count, rows) ?
          (double) expected[i] : -1);
    n_prev = count;
    cip_test_image_free (&mask);
    cip_test_image_free (&gray16);
  }
  g_rand_free (rand);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/reference/track/first-frame", test_first_frame);
  g_test_add_func ("/reference/track/move-appear-vanish",
      test_move_appear_vanish);
  g_test_add_func ("/reference/track/merge", test_merge);
  g_test_add_func ("/reference/track/split", test_split);
  g_test_add_func ("/reference/track/not-mutual", test_not_mutual);
  g_test_add_func ("/reference/track/tie-previous-side",
      test_tie_previous_side);
  g_test_add_func ("/reference/track/random", test_random);
  g_test_add_func ("/reference/track/invalid-arguments",
      test_invalid_arguments);
  g_test_add_func ("/reference/track/frames", test_frames);
  return g_test_run ();
}
