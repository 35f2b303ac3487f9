/* gst-cuda-imgproc
 * Copyright (C) 2026 The gst-cuda-imgproc authors
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2 of the License, or (at your option) any later version.
 */

/* The stager of pageable uploads (ext/base/gstcudaimgprocstager.c) on its
 * own: every byte of every row arrives, whatever the stride, the width
 * and the number of chunks (one, several, more than its ring holds),
 * frame after frame with no wait between them, with several stagers
 * sharing the helper threads at once.  The source is overwritten as soon
 * as an upload returns: what arrives was read before.  On the backend of
 * CIP_TEST_BACKEND: cuda, device images and copies on a stream (skipped,
 * 77, without a device), with the staging memory allocated once per size;
 * cpu, the reference's host copies. */

#include <string.h>

#include <gst/gst.h>

#include "cip-pixel.h"
#include "gstcudaimgprocstager.h"
#include "test-gpu.h"
#include "test-util.h"

GST_DEBUG_CATEGORY (gst_cuda_imgproc_filter_debug);

static gboolean on_cuda;

/* The bytes of a row as the stager copies them: packed 4:2:2 of an odd
 * width with its last macropixel whole. */
static gsize
row_bytes (const CipImage * image)
{
  if (image->format == CIP_FORMAT_YUYV || image->format == CIP_FORMAT_UYVY)
    return cip_packed_row_bytes (image->width);
  return (gsize) image->width * cip_format_bytes_per_pixel (image->format);
}

/* A source frame of random bytes, @offset bytes into its allocation and
 * rows @pad bytes apart beyond their pixels. */
typedef struct
{
  guint8 *allocation;
  CipImage image;
} Source;

static Source
source_new (gint width, gint height, CipFormat format, gsize offset,
    gsize pad, guint64 seed)
{
  Source source;
  gsize size;

  source.image.width = width;
  source.image.height = height;
  source.image.format = format;
  source.image.stride = 0;
  source.image.stride = row_bytes (&source.image) + pad;
  size = offset + source.image.stride * height;
  source.allocation = g_malloc (size);
  cip_test_fill_bytes (source.allocation, size, seed);
  source.image.data = source.allocation + offset;
  return source;
}

static void
source_free (Source * source)
{
  g_clear_pointer (&source->allocation, g_free);
}

/* Where the stager writes: a device image on cuda, a host one on cpu. */
static CipImage
target_new (const CipImage * like, CipStream * stream)
{
  CipImage target;

  if (on_cuda) {
    CHECK_ON (stream, cip_image_alloc (&target, like->width, like->height,
            like->format, stream));
    return target;
  }
  target = cip_test_image_new (like->width, like->height, like->format, 7);
  target.stride = MAX (target.stride, row_bytes (like));
  target.data = g_realloc (target.data, target.stride * like->height);
  return target;
}

static void
target_free (CipImage * target, CipStream * stream)
{
  if (on_cuda)
    cip_image_free (target, stream);
  else
    cip_test_image_free (target);
}

/* Fails unless @target holds @expected's rows, with the stream done. */
static void
assert_arrived (CipImage * target, const CipImage * expected,
    CipStream * stream, const gchar * what)
{
  CipImage host = *target;
  gsize row = row_bytes (expected);
  gint y;

  if (on_cuda) {
    host.stride = row;
    host.data = g_malloc (row * target->height);
    CHECK_ON (stream, cip_copy (target, &host, stream));
    CHECK_ON (stream, cip_stream_synchronize (stream));
  }
  for (y = 0; y < expected->height; y++)
    if (memcmp ((const guint8 *) host.data + y * host.stride,
            (const guint8 *) expected->data + y * expected->stride, row) != 0)
      fail ("%s: %dx%d %s, row %d differs", what, expected->width,
          expected->height, cip_format_name (expected->format), y);
  if (on_cuda)
    g_free (host.data);
}

static CipStream *
stream_new (CipMemoryStats * stats)
{
  CipStream *stream = NULL;
  char error[256] = "";

  if (on_cuda && cip_stream_new (&stream, stats, error, sizeof (error)) !=
      CIP_OK)
    fail ("cip_stream_new: %s", error);
  return stream;
}

static GstCudaImgprocStager *
stager_new (CipStream * stream)
{
  return gst_cuda_imgproc_stager_new (on_cuda ? &cip_cuda_ops : &cip_ref_ops,
      stream);
}

/* @n_frames frames of one geometry, uploaded one after another into as
 * many targets with no wait between them, each source scribbled over as
 * soon as its upload returns; then each target checked. */
static void
upload_frames (GstCudaImgprocStager * stager, CipStream * stream,
    gint width, gint height, CipFormat format, gsize offset, gsize pad,
    guint n_frames, guint64 seed)
{
  Source *sources = g_new0 (Source, n_frames);
  CipImage *expected = g_new0 (CipImage, n_frames);
  CipImage *targets = g_new0 (CipImage, n_frames);
  gchar *what;
  guint i;

  for (i = 0; i < n_frames; i++) {
    sources[i] = source_new (width, height, format, offset, pad, seed + i);
    expected[i] = sources[i].image;
    expected[i].data = g_memdup2 (sources[i].allocation + offset,
        sources[i].image.stride * height);
    targets[i] = target_new (&sources[i].image, stream);
  }
  for (i = 0; i < n_frames; i++) {
    CHECK_ON (stream, gst_cuda_imgproc_stager_upload (stager,
            &sources[i].image, &targets[i]));
    memset (sources[i].allocation, 0xee, offset +
        sources[i].image.stride * height);
  }
  for (i = 0; i < n_frames; i++) {
    what = g_strdup_printf ("frame %u of %u, offset %" G_GSIZE_FORMAT
        ", pad %" G_GSIZE_FORMAT, i, n_frames, offset, pad);
    assert_arrived (&targets[i], &expected[i], stream, what);
    g_free (what);
    target_free (&targets[i], stream);
    g_free (expected[i].data);
    source_free (&sources[i]);
  }
  g_free (targets);
  g_free (expected);
  g_free (sources);
}

static const struct
{
  gint width, height;
  CipFormat format;
  gsize offset, pad;
} geometries[] = {
  {1, 1, CIP_FORMAT_GRAY8, 0, 0},
  {33, 17, CIP_FORMAT_RGBA, 3, 5},      /* one chunk */
  {1001, 701, CIP_FORMAT_RGB, 1, 13},   /* a few, the last one short */
  {1920, 1080, CIP_FORMAT_RGBA, 0, 0},  /* rows packed: one copy a chunk */
  {641, 480, CIP_FORMAT_YUYV, 0, 2},    /* odd 4:2:2: whole macropixels */
  {999, 1333, CIP_FORMAT_GRAY16, 2, 6},
};

static void
test_geometries (void)
{
  CipStream *stream = stream_new (NULL);
  GstCudaImgprocStager *stager = stager_new (stream);
  guint g;

  for (g = 0; g < G_N_ELEMENTS (geometries); g++) {
    /* the reference copies a packed row's pixels only */
    if (!on_cuda && geometries[g].format == CIP_FORMAT_YUYV)
      continue;
    upload_frames (stager, stream, geometries[g].width, geometries[g].height,
        geometries[g].format, geometries[g].offset, geometries[g].pad, 6,
        100 * g);
  }
  gst_cuda_imgproc_stager_free (stager);
  if (stream)
    cip_stream_free (stream);
}

/* A frame larger than the ring (32 MiB): its last chunks go to slots its
 * first ones used, once their device copies have run. */
static void
test_larger_than_ring (void)
{
  CipStream *stream = stream_new (NULL);
  GstCudaImgprocStager *stager = stager_new (stream);

  upload_frames (stager, stream, 4101, 2300, CIP_FORMAT_RGBA, 4, 20, 3, 7);
  upload_frames (stager, stream, 33, 17, CIP_FORMAT_RGBA, 0, 0, 2, 8);
  upload_frames (stager, stream, 4101, 2300, CIP_FORMAT_RGBA, 0, 0, 2, 9);
  gst_cuda_imgproc_stager_free (stager);
  if (stream)
    cip_stream_free (stream);
}

/* Staging memory is allocated by the first upload of a size, again only
 * for a frame that needs more, and released with the stager. */
static void
test_allocated_once (void)
{
  CipMemoryStats stats = { 0, 0 };
  CipStream *stream;
  GstCudaImgprocStager *stager;
  guint64 base, first;

  if (!on_cuda) {
    g_test_skip ("the reference's allocations are not counted");
    return;
  }
  stream = stream_new (&stats);
  stager = stager_new (stream);
  base = stats.allocations;
  upload_frames (stager, stream, 640, 480, CIP_FORMAT_RGBA, 0, 0, 1, 1);
  first = stats.allocations;
  /* the frames' targets are allocated on the stream too: one each */
  g_assert_cmpuint (first - base, ==, 1 + 1);
  upload_frames (stager, stream, 640, 480, CIP_FORMAT_RGBA, 0, 0, 4, 2);
  g_assert_cmpuint (stats.allocations, ==, first + 4);
  /* smaller: the same memory */
  upload_frames (stager, stream, 320, 240, CIP_FORMAT_RGBA, 0, 0, 2, 3);
  g_assert_cmpuint (stats.allocations, ==, first + 4 + 2);
  /* larger: once more */
  upload_frames (stager, stream, 1920, 1080, CIP_FORMAT_RGBA, 0, 0, 2, 4);
  g_assert_cmpuint (stats.allocations, ==, first + 4 + 2 + 1 + 2);
  gst_cuda_imgproc_stager_free (stager);
  g_assert_cmpuint (stats.frees, ==, stats.allocations - base);
  cip_stream_free (stream);
}

static void
test_invalid_arguments (void)
{
  CipStream *stream = stream_new (NULL);
  GstCudaImgprocStager *stager = stager_new (stream);
  Source source = source_new (64, 48, CIP_FORMAT_RGBA, 0, 0, 1);
  CipImage target = target_new (&source.image, stream), other = target;

  other.height = 47;
  g_assert_cmpint (gst_cuda_imgproc_stager_upload (stager, &source.image,
          &other), ==, CIP_ERROR_INVALID_ARGUMENT);
  other = target;
  other.format = CIP_FORMAT_BGRA;
  g_assert_cmpint (gst_cuda_imgproc_stager_upload (stager, &source.image,
          &other), ==, CIP_ERROR_INVALID_ARGUMENT);
  other = target;
  other.data = NULL;
  g_assert_cmpint (gst_cuda_imgproc_stager_upload (stager, &source.image,
          &other), ==, CIP_ERROR_INVALID_ARGUMENT);
  /* and it still works */
  CHECK_ON (stream, gst_cuda_imgproc_stager_upload (stager, &source.image,
          &target));
  assert_arrived (&target, &source.image, stream, "after refusals");

  target_free (&target, stream);
  source_free (&source);
  gst_cuda_imgproc_stager_free (stager);
  if (stream)
    cip_stream_free (stream);
}

/* Pipelines at once: each thread its stager and stream, all sharing the
 * helpers. */
static gpointer
one_pipeline (gpointer data)
{
  guint k = GPOINTER_TO_UINT (data);
  CipStream *stream = stream_new (NULL);
  GstCudaImgprocStager *stager = stager_new (stream);
  guint round;

  for (round = 0; round < 4; round++)
    upload_frames (stager, stream, 1280 + 3 * k, 720, CIP_FORMAT_BGRA, k,
        4 * k, 5, 1000 * k + round);
  gst_cuda_imgproc_stager_free (stager);
  if (stream)
    cip_stream_free (stream);
  return NULL;
}

static void
test_pipelines_at_once (void)
{
  GThread *threads[6];
  guint k;

  for (k = 0; k < G_N_ELEMENTS (threads); k++)
    threads[k] = g_thread_new ("pipeline", one_pipeline, GUINT_TO_POINTER (k));
  for (k = 0; k < G_N_ELEMENTS (threads); k++)
    g_thread_join (threads[k]);
}

int
main (int argc, char **argv)
{
  int result;

  gst_init (&argc, &argv);
  g_test_init (&argc, &argv, NULL);
  GST_DEBUG_CATEGORY_INIT (gst_cuda_imgproc_filter_debug, "cudaimgprocfilter",
      0, "cudaimgproc base class");
  on_cuda = cip_test_backend_is_cuda ();
  if (on_cuda && !cip_test_have_cuda_device ()) {
    g_print ("no usable CUDA device: skipped\n");
    return CIP_TEST_SKIP;
  }

  g_test_add_func ("/stager/geometries", test_geometries);
  g_test_add_func ("/stager/larger-than-ring", test_larger_than_ring);
  g_test_add_func ("/stager/allocated-once", test_allocated_once);
  g_test_add_func ("/stager/invalid-arguments", test_invalid_arguments);
  g_test_add_func ("/stager/pipelines-at-once", test_pipelines_at_once);
  result = g_test_run ();
  return result;
}
