/* gst-cuda-imgproc
 * Copyright (C) 2026 The gst-cuda-imgproc authors
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2 of the License, or (at your option) any later version.
 */

/* cip_track_frame against its reference, cip_ref_track_frame (that is,
 * cip_ref_track), word for word: the ids, the state and the column of
 * every frame of sequences run on one stream, the state and ids carried
 * on the device from frame to frame.  The label images are cip_label's
 * own (checked against cip_ref_label's, min_area and odd strides
 * included) or made up: boxes that move, appear, vanish, merge and split,
 * ties both ways, drifting random masks at both connectivities, sizes up
 * to 3840x2160 and 4 million regions, label images where nearly every
 * pixel is a pair of its own (the pair tables' worst case), first frames
 * in the middle of a sequence, size changes, short columns and a column
 * written again (cip_track_column).  The overlaps are counted by the
 * labelling (the table's track_prev, as the element tracks), by
 * cip_track_frame from both label images, or counted and then thrown
 * away, and two sequences' calls interleave on one stream.
 *
 * Exits with 77 (skipped) where no CUDA device is usable. */

#include <string.h>

#include "cip-ref.h"
#include "test-gpu.h"
#include "test-util.h"

#define GUARD_VALUE -7.25

/* ---- Device words ---- */

/* Copies @n bytes between host and device memory, in rows cip_copy
 * takes, and waits. */
static void
copy_bytes (void *dst, const void *src, size_t n)
{
  const size_t row = CIP_MAX_DIMENSION;

  while (n > 0) {
    size_t rows = MIN (n / row, (size_t) CIP_MAX_DIMENSION);
    size_t width = rows > 0 ? row : n;
    CipImage s = { (void *) src, (int) width, (int) MAX (rows, 1), width,
      CIP_FORMAT_GRAY8
    };
    CipImage d = s;

    d.data = dst;
    CHECK (cip_copy (&s, &d, cip_test_stream));
    src = (const guint8 *) src + width * MAX (rows, 1);
    dst = (guint8 *) dst + width * MAX (rows, 1);
    n -= width * MAX (rows, 1);
  }
  CHECK (cip_stream_synchronize (cip_test_stream));
}

static guint32 *
device_words (size_t n)
{
  void *p = NULL;

  CHECK (cip_buffer_alloc (&p, MAX (n, 1) * sizeof (guint32), cip_test_stream));
  return p;
}

/* ---- Sequences ---- */

/* A frame on both sides: the GPU's buffers and the reference's. */
typedef struct
{
  guint32 *labels, *ids, *state;        /* device */
  guint32 *ref_labels, *ref_ids, *ref_state;    /* host */
} Side;

/* Frames of up to @max_pixels pixels in turn, on one stream: each frame
 * is tracked after the one before (or first), by both backends. */
typedef struct
{
  size_t max_pixels, max_regions;
  Side sides[2];
  guint turn;
  gboolean first;
  guint32 *count;               /* page-locked, as cip_label's */
  double *column, *ref_column;  /* page-locked and host, with a guard */
  guint32 column_rows;
  /* the state shared by every frame on the GPU, in turn with a state a
   * frame */
  guint32 *shared_state;
  guint frames;
  gchar *what;
} Sequence;

static Sequence *
sequence_new (size_t max_pixels, const gchar * what)
{
  Sequence *s = g_new0 (Sequence, 1);
  guint i;

  s->max_pixels = max_pixels;
  s->max_regions = (max_pixels + 1) / 2;
  for (i = 0; i < 2; i++) {
    Side *side = &s->sides[i];

    side->labels = device_words (max_pixels);
    side->ids = device_words (s->max_regions);
    side->state = device_words (CIP_TRACK_STATE_WORDS);
    side->ref_labels = g_new0 (guint32, max_pixels);
    side->ref_ids = g_new0 (guint32, MAX (s->max_regions, 1));
    side->ref_state = g_new0 (guint32, CIP_TRACK_STATE_WORDS);
  }
  s->shared_state = device_words (CIP_TRACK_STATE_WORDS);
  CHECK (cip_host_alloc ((void **) &s->count, sizeof (guint32),
          cip_test_stream));
  CHECK (cip_host_alloc ((void **) &s->column, (s->max_regions + 1) *
          sizeof (double), cip_test_stream));
  s->ref_column = g_new (double, s->max_regions + 1);
  s->first = TRUE;
  s->what = g_strdup (what);
  return s;
}

static void
sequence_free (Sequence * s)
{
  guint i;

  for (i = 0; i < 2; i++) {
    Side *side = &s->sides[i];

    cip_buffer_free (side->labels, cip_test_stream);
    cip_buffer_free (side->ids, cip_test_stream);
    cip_buffer_free (side->state, cip_test_stream);
    g_free (side->ref_labels);
    g_free (side->ref_ids);
    g_free (side->ref_state);
  }
  cip_buffer_free (s->shared_state, cip_test_stream);
  cip_host_free (s->count, cip_test_stream);
  cip_host_free (s->column, cip_test_stream);
  g_free (s->ref_column);
  g_free (s->what);
  g_free (s);
}

/* Tracks the frame whose label images (@stride elements a row, @n
 * regions) are already in the current side's labels and ref_labels, on
 * both backends, and compares; @restart makes it a first frame, and
 * @column_rows rows of the column are written (and a guard after them).
 * The next frame takes the other side.  Returns the reference's ids. */
static const guint32 *
sequence_track (Sequence * s, int width, int height, size_t stride,
    guint32 n, gboolean restart, guint32 column_rows)
{
  Side *cur = &s->sides[s->turn], *prev = &s->sides[!s->turn];
  /* every third frame reads and writes one state */
  gboolean shared = s->frames % 3 == 2;
  CipTrackFrame gpu = { cur->labels, stride, cur->ids,
    shared ? s->shared_state : cur->state, s->column, column_rows
  };
  CipTrackFrame gpu_prev = { prev->labels, stride, prev->ids,
    shared ? s->shared_state : prev->state, NULL, 0
  };
  CipTrackFrame ref = { cur->ref_labels, stride, cur->ref_ids,
    cur->ref_state, s->ref_column, column_rows
  };
  CipTrackFrame ref_prev = { prev->ref_labels, stride, prev->ref_ids,
    prev->ref_state, NULL, 0
  };
  guint32 *ids = g_new0 (guint32, MAX (n, 1)), state[CIP_TRACK_STATE_WORDS];
  guint32 prev_state[CIP_TRACK_STATE_WORDS];
  gchar *what = g_strdup_printf ("%s, frame %u (%dx%d, %u regions%s)",
      s->what, s->frames, width, height, n, restart ? ", first" : "");
  guint32 i;

  g_assert_cmpuint ((gsize) stride * height, <=, s->max_pixels);
  g_assert_cmpuint (n, <=, s->max_regions);
  g_assert_cmpuint (column_rows, <=, s->max_regions);
  restart = restart || s->first;

  for (i = 0; i <= column_rows; i++)
    s->column[i] = s->ref_column[i] = GUARD_VALUE;
  *s->count = n;
  if (shared && !restart) {
    copy_bytes (prev_state, prev->state, sizeof (prev_state));
    copy_bytes (s->shared_state, prev_state, sizeof (prev_state));
  }
  if (cip_ref_track_frame (restart ? NULL : &ref_prev, &ref, s->count, width,
          height, NULL) != CIP_OK)
    fail ("%s: the reference refused the frame", what);
  CHECK (cip_track_frame (restart ? NULL : &gpu_prev, &gpu, s->count, width,
          height, cip_test_stream));
  CHECK (cip_stream_synchronize (cip_test_stream));

  copy_bytes (ids, cur->ids, (size_t) n * sizeof (guint32));
  copy_bytes (state, gpu.state, sizeof (state));
  for (i = 0; i < n; i++)
    if (ids[i] != cur->ref_ids[i])
      fail ("%s: region %u has id %u, the reference %u", what, i + 1,
          ids[i], cur->ref_ids[i]);
  for (i = 0; i < CIP_TRACK_STATE_WORDS; i++)
    if (state[i] != cur->ref_state[i])
      fail ("%s: state word %u is %u, the reference's %u", what, i, state[i],
          cur->ref_state[i]);
  if (memcmp (s->column, s->ref_column, (column_rows + 1) *
          sizeof (double)) != 0)
    fail ("%s: the column differs from the reference's", what);
  /* where the next frame reads it */
  if (shared)
    copy_bytes (cur->state, state, sizeof (state));

  g_free (ids);
  g_free (what);
  s->turn = !s->turn;
  s->first = FALSE;
  s->frames++;
  return cur->ref_ids;
}

/* Uploads host label image @labels (@stride elements a row) as the next
 * frame's on both sides. */
static void
sequence_set_labels (Sequence * s, const guint32 * labels, int height,
    size_t stride)
{
  Side *cur = &s->sides[s->turn];
  size_t words = stride * height;

  memcpy (cur->ref_labels, labels, words * sizeof (guint32));
  copy_bytes (cur->labels, labels, words * sizeof (guint32));
}

/* How a labelled frame is tracked: its overlaps counted by the labelling
 * (the table's track_prev), by cip_track_frame from both label images, or
 * counted by the labelling and then thrown away, the frame tracked as a
 * first one. */
typedef enum
{
  COUNT_IN_LABELLING,
  COUNT_APART,
  COUNT_DISCARDED
} CountMode;

/* The previous frame as the GPU side tracks the next one from it: what the
 * labelling that counts must be given. */
static CipTrackFrame
sequence_gpu_prev (Sequence * s, size_t stride)
{
  Side *prev = &s->sides[!s->turn];
  gboolean shared = s->frames % 3 == 2;
  CipTrackFrame frame = { prev->labels, stride, prev->ids,
    shared ? s->shared_state : prev->state, NULL, 0
  };
  guint32 state[CIP_TRACK_STATE_WORDS];

  /* sequence_track copies it too; the labelling reads it first */
  if (shared) {
    copy_bytes (state, prev->state, sizeof (state));
    copy_bytes (s->shared_state, state, sizeof (state));
  }
  return frame;
}

/* Labels @mask with cip_label into the next frame's label image on the
 * device, and with cip_ref_label on the host, and checks that both label
 * images and counts are equal; with @count_prev the labelling counts the
 * overlaps with it.  Rows of @pad elements more than the width: the same
 * in every frame of a sequence (both frames of a track have one
 * stride).  Returns the count. */
static guint32
sequence_label (Sequence * s, const CipImage * mask, int connectivity,
    guint32 min_area, size_t pad, const CipTrackFrame * count_prev)
{
  Side *cur = &s->sides[s->turn];
  CipLabelParams params = { connectivity, min_area, 0 };
  size_t stride = mask->width + pad;
  CipImage dev_mask;
  guint32 ref_count = G_MAXUINT32, *labels;
  CipRegionTable ref_table = { NULL, 0, &ref_count };
  CipRegionTable table = { NULL, 0, s->count };
  gchar *where = NULL;
  gint y;

  g_assert_cmpuint (stride * mask->height, <=, s->max_pixels);
  ref_table.labels = cur->ref_labels;
  ref_table.labels_stride = stride;
  table.labels = cur->labels;
  table.labels_stride = stride;
  table.track_prev = count_prev;
  if (cip_ref_label (mask, NULL, &params, NULL, &ref_table, NULL) != CIP_OK)
    fail ("%s: cip_ref_label failed", s->what);

  CHECK (cip_image_alloc (&dev_mask, mask->width, mask->height,
          CIP_FORMAT_GRAY8, cip_test_stream));
  CHECK (cip_copy (mask, &dev_mask, cip_test_stream));
  *s->count = ~ref_count;
  CHECK (cip_label (&dev_mask, NULL, &params, NULL, &table, cip_test_stream));
  CHECK (cip_stream_synchronize (cip_test_stream));
  cip_image_free (&dev_mask, cip_test_stream);
  if (*s->count != ref_count)
    fail ("%s: cip_label counted %u regions, the reference %u", s->what,
        *s->count, ref_count);

  /* the label images row by row: the padding is neither's */
  labels = g_new (guint32, stride * mask->height);
  copy_bytes (labels, cur->labels, stride * mask->height * sizeof (guint32));
  for (y = 0; y < mask->height; y++)
    if (memcmp (labels + y * stride, cur->ref_labels + y * stride,
            mask->width * sizeof (guint32)) != 0)
      where = g_strdup_printf ("row %d", y);
  g_free (labels);
  if (where)
    fail ("%s: cip_label's label image differs from the reference's at %s",
        s->what, where);
  return ref_count;
}

/* Labels @mask (as sequence_label) and tracks the frame, its overlaps
 * counted as @mode says (a first frame counts none). */
static const guint32 *
sequence_label_and_track_by (Sequence * s, const CipImage * mask,
    int connectivity, guint32 min_area, size_t pad, gboolean restart,
    CountMode mode, guint32 * n_out)
{
  size_t stride = mask->width + pad;
  gboolean count = !s->first && mode != COUNT_APART &&
      (!restart || mode == COUNT_DISCARDED);
  CipTrackFrame prev = { NULL, 0, NULL, NULL, NULL, 0 };
  guint32 n;

  if (count)
    prev = sequence_gpu_prev (s, stride);
  n = sequence_label (s, mask, connectivity, min_area, pad,
      count ? &prev : NULL);
  if (n_out)
    *n_out = n;
  return sequence_track (s, mask->width, mask->height, stride, n,
      restart || mode == COUNT_DISCARDED,
      MIN (n + s->frames % 3, s->max_regions));
}

/* ... counted by the labelling, as the element does, or every fourth
 * frame apart. */
static const guint32 *
sequence_label_and_track (Sequence * s, const CipImage * mask,
    int connectivity, guint32 min_area, size_t pad, gboolean restart,
    guint32 * n_out)
{
  CountMode mode = s->frames % 4 == 3 ? COUNT_APART : COUNT_IN_LABELLING;

  return sequence_label_and_track_by (s, mask, connectivity, min_area, pad,
      restart, mode, n_out);
}

/* ---- Masks ---- */

/* cip_test_box_frames: moving, appearing, vanishing, merging and
 * splitting boxes, with their ids. */
static void
test_boxes (void)
{
  Sequence *s =
      sequence_new (CIP_TEST_BOXES_W * (CIP_TEST_BOXES_H + 3) + 64, "boxes");
  guint f, i, pad;

  for (pad = 0; pad < 3; pad++) {
    for (f = 0; f < CIP_TEST_N_BOX_FRAMES; f++) {
      CipImage mask = cip_test_boxes_mask (CIP_TEST_BOXES_W, CIP_TEST_BOXES_H,
          cip_test_box_frames[f].boxes,
          cip_test_box_frames[f].n);
      guint32 n;
      const guint32 *ids = sequence_label_and_track (s, &mask, 8, 0, pad,
          f == 0, &n);

      g_assert_cmpuint (n, ==, cip_test_box_frames[f].n);
      for (i = 0; i < n; i++)
        g_assert_cmpuint (ids[i], ==, cip_test_box_frames[f].ids[i]);
      cip_test_image_free (&mask);
    }
  }
  sequence_free (s);
}

/* Ties both ways, as made-up label images: a region split in equal
 * halves (the lower label keeps the id), one that covers two equal
 * previous regions (it takes the lower one's), and a region split into
 * equal rows. */
static void
test_ties (void)
{
  static const guint32 full[] = { 1, 1, 1, 1, 1, 1, 1, 1, 1, 1 };
  static const guint32 halves[] = { 1, 1, 0, 2, 2, 1, 1, 0, 2, 2 };
  static const guint32 stacked[] = { 1, 1, 1, 1, 1, 2, 2, 2, 2, 2 };
  Sequence *s = sequence_new (64, "ties");
  const guint32 *ids;

  sequence_set_labels (s, full, 2, 5);
  ids = sequence_track (s, 5, 2, 5, 1, TRUE, 1);
  g_assert_cmpuint (ids[0], ==, 1);
  /* 4 pixels of the previous region each */
  sequence_set_labels (s, halves, 2, 5);
  ids = sequence_track (s, 5, 2, 5, 2, FALSE, 2);
  g_assert_cmpuint (ids[0], ==, 1);
  g_assert_cmpuint (ids[1], ==, 2);
  /* 4 pixels of each previous region: the first's id; the second's is
   * not given again */
  sequence_set_labels (s, full, 2, 5);
  ids = sequence_track (s, 5, 2, 5, 1, FALSE, 1);
  g_assert_cmpuint (ids[0], ==, 1);
  sequence_set_labels (s, stacked, 2, 5);
  ids = sequence_track (s, 5, 2, 5, 2, FALSE, 0);
  g_assert_cmpuint (ids[0], ==, 1);
  g_assert_cmpuint (ids[1], ==, 3);
  sequence_free (s);
}

/* A random mask of @density / 256, then each frame the one before moved
 * by up to two pixels each way with a few pixels flipped: regions drift,
 * merge, split, appear and vanish. */
static void
drift (const CipImage * from, CipImage * to, GRand * rand)
{
  gint dx = g_rand_int_range (rand, -2, 3), dy = g_rand_int_range (rand, -2, 3);
  gint x, y;

  for (y = 0; y < to->height; y++)
    for (x = 0; x < to->width; x++) {
      gint sx = CLAMP (x - dx, 0, from->width - 1);
      gint sy = CLAMP (y - dy, 0, from->height - 1);
      guint8 v = ((guint8 *) from->data)[sy * from->stride + sx];

      if (g_rand_int_range (rand, 0, 64) == 0)
        v = v ? 0 : 255;
      ((guint8 *) to->data)[y * to->stride + x] = v;
    }
}

static CipImage
random_mask (gint width, gint height, guint density, GRand * rand)
{
  CipImage mask = cip_test_image_new (width, height, CIP_FORMAT_GRAY8, 0);
  gint x, y;

  for (y = 0; y < height; y++)
    for (x = 0; x < width; x++)
      ((guint8 *) mask.data)[y * mask.stride + x] =
          g_rand_int_range (rand, 0, 256) < (gint) density ? 255 : 0;
  return mask;
}

static void
run_drift (gint width, gint height, guint density, guint frames,
    gint connectivity, guint32 min_area, guint seed)
{
  GRand *rand = g_rand_new_with_seed (seed);
  gchar *what = g_strdup_printf ("%dx%d drifting %u/256 %d-connected "
      "min_area %u", width, height, density, connectivity, min_area);
  Sequence *s = sequence_new ((size_t) (width + 5) * height, what);
  CipImage mask = random_mask (width, height, density, rand);
  CipImage next = cip_test_image_new (width, height, CIP_FORMAT_GRAY8, 0);
  /* label images of wider rows every other sequence */
  size_t pad = seed % 2 ? 5 : 0;
  guint f;

  for (f = 0; f < frames; f++) {
    CipImage t;

    /* a first frame in the middle too, once after a labelling that
     * counted for nothing */
    sequence_label_and_track_by (s, &mask, connectivity, min_area, pad,
        f == frames / 2 + 1, f == frames / 2 ? COUNT_DISCARDED :
        f % 4 == 3 ? COUNT_APART : COUNT_IN_LABELLING, NULL);
    drift (&mask, &next, rand);
    t = mask;
    mask = next;
    next = t;
  }
  cip_test_image_free (&mask);
  cip_test_image_free (&next);
  sequence_free (s);
  g_free (what);
  g_rand_free (rand);
}

static void
test_drift (void)
{
  static const gint sizes[][2] = {
    {1, 1}, {2, 3}, {7, 5}, {33, 17}, {31, 65}, {127, 129}, {640, 480},
    {1001, 999},
  };
  static const guint densities[] = { 40, 128, 200 };
  guint s, d, turn = 0;

  for (s = 0; s < G_N_ELEMENTS (sizes); s++)
    for (d = 0; d < G_N_ELEMENTS (densities); d++, turn++) {
      if (cip_test_size_skipped (sizes[s][0], sizes[s][1]))
        continue;
      run_drift (sizes[s][0], sizes[s][1], densities[d], 5,
          turn % 2 ? 4 : 8, turn % 3 == 2 ? 3 : 0, 100 + turn);
    }
}

/* Video sizes: a drifting half mask (hundreds of thousands of regions at
 * 4-connectivity), and a 4-connected checkerboard, every other pixel a
 * region, that moves by a pixel (no overlap: every id new) and back. */
static void
test_large (void)
{
  static const gint sizes[][2] = { {1920, 1080}, {3840, 2160} };
  guint s;

  for (s = 0; s < G_N_ELEMENTS (sizes); s++) {
    gint w = sizes[s][0], h = sizes[s][1];
    Sequence *seq;
    CipImage board;

    if (cip_test_size_skipped (w, h))
      continue;
    run_drift (w, h, 128, 3, 4, 0, 7 + s);

    seq = sequence_new ((size_t) (w + 1) * h, "checkerboard");
    board = cip_test_image_new (w + 1, h, CIP_FORMAT_GRAY8, 0);
    cip_test_draw_shape (&board, CIP_TEST_SHAPE_CHECKER);
    {
      CipImage a = board, b = board;
      guint32 n, i;
      const guint32 *ids;

      a.width = w;
      b.width = w;
      b.data = (guint8 *) board.data + 1;
      ids = sequence_label_and_track (seq, &a, 4, 0, 1, TRUE, &n);
      g_assert_cmpuint (n, >, (guint32) w * h / 2 - 1);
      ids = sequence_label_and_track (seq, &b, 4, 0, 1, FALSE, &n);
      for (i = 0; i < n; i++)
        g_assert_cmpuint (ids[i], >, (guint32) w * h / 2 - 1);
      sequence_label_and_track (seq, &b, 4, 0, 1, FALSE, NULL);
      sequence_label_and_track (seq, &a, 8, 0, 1, FALSE, NULL);
    }
    cip_test_image_free (&board);
    sequence_free (seq);
  }
}

/* Made-up label images where nearly every pixel is a pair of its own:
 * the tiles' shared tables overflow into the global one, and the global
 * one fills to two thirds. */
static void
test_dense_pairs (void)
{
  static const gint sizes[][2] = { {64, 64}, {97, 61}, {512, 384} };
  guint s;

  for (s = 0; s < G_N_ELEMENTS (sizes); s++) {
    gint w = sizes[s][0], h = sizes[s][1], f;
    size_t pixels = (size_t) w * h;
    guint32 n = (guint32) ((pixels + 1) / 2), *labels = g_new (guint32, pixels);
    GRand *rand = g_rand_new_with_seed (s + 1);
    Sequence *seq = sequence_new (pixels, "dense pairs");

    for (f = 0; f < 4; f++) {
      guint32 regions = f == 3 ? 3 : n;
      size_t i;

      for (i = 0; i < pixels; i++)
        labels[i] = g_rand_int_range (rand, 0, 8) == 0 ? 0 :
            1 + g_rand_int_range (rand, 0, regions);
      sequence_set_labels (seq, labels, h, w);
      sequence_track (seq, w, h, w, regions, FALSE, MIN (regions, 100));
    }
    sequence_free (seq);
    g_free (labels);
    g_rand_free (rand);
  }
}

/* One stream, frames of changing sizes: each change moves the scratch's
 * parts, which must not keep the pairs of a larger frame. */
static void
test_size_changes (void)
{
  static const gint sizes[][2] = {
    {640, 480}, {33, 17}, {640, 480}, {700, 500}, {5, 3}, {700, 500},
  };
  GRand *rand = g_rand_new_with_seed (42);
  guint i;

  for (i = 0; i < G_N_ELEMENTS (sizes); i++) {
    gint w = sizes[i][0], h = sizes[i][1];
    CipImage a = random_mask (w, h, 128, rand);
    CipImage b = cip_test_image_new (w, h, CIP_FORMAT_GRAY8, 0);
    Sequence *s = sequence_new ((size_t) w * h, "size changes");

    drift (&a, &b, rand);
    sequence_label_and_track (s, &a, 4, 0, 0, TRUE, NULL);
    sequence_label_and_track (s, &b, 4, 0, 0, FALSE, NULL);
    sequence_free (s);
    cip_test_image_free (&a);
    cip_test_image_free (&b);
  }
  g_rand_free (rand);
}

/* Two sequences on one stream whose calls interleave: the labellings of
 * both count their overlaps before either frame is tracked, in either
 * order, so that at most one of them finds its counts; each frame is
 * still tracked as the reference does. */
static void
test_interleaved (void)
{
  const gint w = 200, h = 150;
  GRand *rand = g_rand_new_with_seed (77);
  Sequence *a = sequence_new ((size_t) w * h, "interleaved a");
  Sequence *b = sequence_new ((size_t) w * h, "interleaved b");
  CipImage mask_a = random_mask (w, h, 128, rand);
  CipImage mask_b = random_mask (w, h, 100, rand);
  CipImage next = cip_test_image_new (w, h, CIP_FORMAT_GRAY8, 0);
  guint f;

  for (f = 0; f < 7; f++) {
    CipTrackFrame prev_a = { NULL, 0, NULL, NULL, NULL, 0 }, prev_b = prev_a;
    guint32 n_a, n_b;
    CipImage t;

    if (f > 0) {
      prev_a = sequence_gpu_prev (a, w);
      prev_b = sequence_gpu_prev (b, w);
    }
    n_a = sequence_label (a, &mask_a, 8, 0, 0, f > 0 ? &prev_a : NULL);
    n_b = sequence_label (b, &mask_b, 4, f % 3 == 1 ? 2 : 0, 0,
        f > 0 ? &prev_b : NULL);
    if (f % 2) {
      sequence_track (a, w, h, w, n_a, FALSE, n_a);
      sequence_track (b, w, h, w, n_b, FALSE, n_b);
    } else {
      sequence_track (b, w, h, w, n_b, FALSE, n_b);
      sequence_track (a, w, h, w, n_a, FALSE, n_a);
    }
    drift (&mask_a, &next, rand);
    t = mask_a;
    mask_a = next;
    next = t;
    drift (&mask_b, &next, rand);
    t = mask_b;
    mask_b = next;
    next = t;
  }
  cip_test_image_free (&mask_a);
  cip_test_image_free (&mask_b);
  cip_test_image_free (&next);
  sequence_free (a);
  sequence_free (b);
  g_rand_free (rand);
}

/* A table that grew after the ids were written gets them again. */
static void
test_column (void)
{
  static const guint32 rows[] = { 0, 1, 37, 100, 5000 };
  guint32 n = 100, i, r, *ids = device_words (n), *count;
  guint32 host[100];
  double *column;

  for (i = 0; i < n; i++)
    host[i] = 1000 + 3 * i;
  copy_bytes (ids, host, sizeof (host));
  CHECK (cip_host_alloc ((void **) &count, sizeof (guint32), cip_test_stream));
  CHECK (cip_host_alloc ((void **) &column, 5001 * sizeof (double),
          cip_test_stream));
  *count = n;
  for (r = 0; r < G_N_ELEMENTS (rows); r++) {
    for (i = 0; i <= 5000; i++)
      column[i] = GUARD_VALUE;
    CHECK (cip_track_column (ids, count, column, rows[r], cip_test_stream));
    CHECK (cip_stream_synchronize (cip_test_stream));
    for (i = 0; i <= 5000; i++)
      g_assert_cmpfloat (column[i], ==, i < MIN (n, rows[r]) ?
          (double) host[i] : GUARD_VALUE);
  }
  cip_host_free (column, cip_test_stream);
  cip_host_free (count, cip_test_stream);
  cip_buffer_free (ids, cip_test_stream);
}

static void
test_invalid_arguments (void)
{
  guint32 *labels = device_words (64), *ids = device_words (32);
  guint32 *state = device_words (2), *count;
  CipTrackFrame frame = { labels, 8, ids, state, NULL, 0 };
  CipTrackFrame prev = frame, bad;

  CHECK (cip_host_alloc ((void **) &count, sizeof (guint32), cip_test_stream));
  *count = 0;
  g_assert_cmpint (cip_track_frame (NULL, &frame, count, 8, 8, NULL), ==,
      CIP_ERROR_INVALID_ARGUMENT);
  g_assert_cmpint (cip_track_frame (NULL, NULL, count, 8, 8,
          cip_test_stream), ==, CIP_ERROR_INVALID_ARGUMENT);
  g_assert_cmpint (cip_track_frame (NULL, &frame, NULL, 8, 8,
          cip_test_stream), ==, CIP_ERROR_INVALID_ARGUMENT);
  g_assert_cmpint (cip_track_frame (NULL, &frame, count, 0, 8,
          cip_test_stream), ==, CIP_ERROR_INVALID_ARGUMENT);
  g_assert_cmpint (cip_track_frame (NULL, &frame, count, 8,
          CIP_MAX_DIMENSION + 1, cip_test_stream), ==,
      CIP_ERROR_INVALID_ARGUMENT);
  g_assert_cmpint (cip_track_frame (NULL, &frame, count, 9, 7,
          cip_test_stream), ==, CIP_ERROR_INVALID_ARGUMENT);
  bad = frame;
  bad.column_capacity = 4;
  g_assert_cmpint (cip_track_frame (NULL, &bad, count, 8, 8,
          cip_test_stream), ==, CIP_ERROR_INVALID_ARGUMENT);
  bad = frame;
  bad.state = NULL;
  g_assert_cmpint (cip_track_frame (NULL, &bad, count, 8, 8,
          cip_test_stream), ==, CIP_ERROR_INVALID_ARGUMENT);
  bad = prev;
  bad.stride = 9;
  g_assert_cmpint (cip_track_frame (&bad, &frame, count, 8, 8,
          cip_test_stream), ==, CIP_ERROR_INVALID_ARGUMENT);
  bad = prev;
  bad.labels = NULL;
  g_assert_cmpint (cip_track_frame (&bad, &frame, count, 8, 8,
          cip_test_stream), ==, CIP_ERROR_INVALID_ARGUMENT);
  g_assert_cmpint (cip_track_column (ids, count, NULL, 3, cip_test_stream),
      ==, CIP_ERROR_INVALID_ARGUMENT);
  g_assert_cmpint (cip_track_column (ids, count, NULL, 0, NULL), ==,
      CIP_ERROR_INVALID_ARGUMENT);
  /* the same on the host */
  g_assert_cmpint (cip_ref_track_frame (NULL, &frame, NULL, 8, 8, NULL), ==,
      CIP_ERROR_INVALID_ARGUMENT);
  /* a labelling that counts: it needs a label image of its own, of the
   * previous frame's stride */
  {
    CipLabelParams params = { 8, 0, 0 };
    CipRegionTable table = { NULL, 0, count };
    guint32 *other = device_words (72);
    CipImage mask;

    CHECK (cip_image_alloc (&mask, 8, 8, CIP_FORMAT_GRAY8, cip_test_stream));
    table.track_prev = &prev;
    g_assert_cmpint (cip_label (&mask, NULL, &params, NULL, &table,
            cip_test_stream), ==, CIP_ERROR_INVALID_ARGUMENT);
    table.labels = labels;
    table.labels_stride = 8;
    g_assert_cmpint (cip_label (&mask, NULL, &params, NULL, &table,
            cip_test_stream), ==, CIP_ERROR_INVALID_ARGUMENT);
    table.labels = other;
    table.labels_stride = 9;
    g_assert_cmpint (cip_label (&mask, NULL, &params, NULL, &table,
            cip_test_stream), ==, CIP_ERROR_INVALID_ARGUMENT);
    bad = prev;
    bad.state = NULL;
    table.track_prev = &bad;
    table.labels_stride = 8;
    g_assert_cmpint (cip_label (&mask, NULL, &params, NULL, &table,
            cip_test_stream), ==, CIP_ERROR_INVALID_ARGUMENT);
    cip_image_free (&mask, cip_test_stream);
    cip_buffer_free (other, cip_test_stream);
  }

  cip_host_free (count, cip_test_stream);
  cip_buffer_free (labels, cip_test_stream);
  cip_buffer_free (ids, cip_test_stream);
  cip_buffer_free (state, cip_test_stream);
}

int
main (int argc, char **argv)
{
  int result;

  if (!cip_test_gpu_init ())
    return CIP_TEST_SKIP;
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/kernels/track/invalid-arguments", test_invalid_arguments);
  g_test_add_func ("/kernels/track/boxes", test_boxes);
  g_test_add_func ("/kernels/track/ties", test_ties);
  g_test_add_func ("/kernels/track/column", test_column);
  g_test_add_func ("/kernels/track/size-changes", test_size_changes);
  g_test_add_func ("/kernels/track/interleaved", test_interleaved);
  g_test_add_func ("/kernels/track/dense-pairs", test_dense_pairs);
  g_test_add_func ("/kernels/track/drift", test_drift);
  g_test_add_func ("/kernels/track/large", test_large);
  result = g_test_run ();

  cip_test_gpu_cleanup ();
  return result;
}
