/* gst-cuda-imgproc
 * Copyright (C) 2026 The gst-cuda-imgproc authors
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2 of the License, or (at your option) any later version.
 */

/* cip_morph against its reference, byte for byte, over the whole
 * allocation of each destination: every operation, shape and a spread of
 * radii (both kernels: word tiles up to radius 2, sparse tables above),
 * GRAY8, GRAY16 and the four-byte formats, sizes from 1x1 to 3840x2160,
 * odd layouts, real images and masks, and invalid arguments.
 *
 * Exits with 77 (skipped) where no CUDA device is usable. */

#include <string.h>

#include "cip-ref.h"
#include "test-gpu.h"
#include "test-util.h"

static const int sizes[][2] = {
  {1, 1}, {2, 3}, {3, 2}, {7, 5}, {31, 17}, {33, 1}, {1, 33}, {127, 129},
  {640, 480}, {1001, 999}, {1920, 1080}, {3840, 2160},
};

static const CipMorphOperation operations[] = {
  CIP_MORPH_ERODE, CIP_MORPH_DILATE, CIP_MORPH_OPEN, CIP_MORPH_CLOSE,
};

static const char *operation_names[] = { "erode", "dilate", "open", "close" };

static const CipMorphShape shapes[] = {
  CIP_SHAPE_DISK, CIP_SHAPE_SQUARE, CIP_SHAPE_CROSS,
};

static const char *shape_names[] = { "disk", "square", "cross" };

static const int radii[] = { 1, 2, 3, 5, 8, 17, 32 };

static const CipFormat four_byte_formats[] = {
  CIP_FORMAT_RGBA, CIP_FORMAT_BGRA, CIP_FORMAT_RGBX, CIP_FORMAT_BGRX,
  CIP_FORMAT_ARGB, CIP_FORMAT_ABGR,
};

typedef struct
{
  CipMorphOperation op;
  CipMorphShape shape;
  int radius;
} MorphArgs;

/* Runs @a on the device from @src (uploaded) into @dst and checks every
 * byte of @dst's allocation against the reference. */
static void
check_morph (CipTestDeviceImage * src, CipTestDeviceImage * dst,
    const MorphArgs * a, const char *what)
{
  guint8 *expected = g_malloc (dst->size);
  CipImage expected_img = dst->host_img;
  gchar *full = g_strdup_printf ("%s %dx%d %s: %s %s %d", what,
      src->dev.width, src->dev.height, cip_format_name (src->dev.format),
      operation_names[a->op], shape_names[a->shape], a->radius);

  memcpy (expected, dst->host, dst->size);
  expected_img.data = expected + dst->offset;
  if (cip_ref_morph (&src->host_img, &expected_img, a->op, a->shape,
          a->radius, NULL) != CIP_OK)
    fail ("%s: the reference failed", full);

  /* Fresh random pattern in the destination. */
  cip_test_device_image_upload (dst);
  CHECK (cip_morph (&src->dev, &dst->dev, a->op, a->shape, a->radius,
          cip_test_stream));
  CHECK (cip_stream_synchronize (cip_test_stream));
  cip_test_device_image_check (dst, expected, full);

  g_free (full);
  g_free (expected);
}

/* Every operation and shape at each of @n radii. */
static void
check_all (CipTestDeviceImage * src, CipTestDeviceImage * dst,
    const int *rads, guint n, const char *what)
{
  guint o, s, r;

  for (o = 0; o < G_N_ELEMENTS (operations); o++)
    for (s = 0; s < G_N_ELEMENTS (shapes); s++)
      for (r = 0; r < n; r++) {
        MorphArgs a = { operations[o], shapes[s], rads[r] };

        check_morph (src, dst, &a, what);
      }
}

static void
check_size (int w, int h, CipFormat format, const int *rads, guint n,
    guint seed)
{
  CipTestDeviceImage *src = cip_test_device_image_new (w, h, format, NULL,
      seed);
  CipTestDeviceImage *dst = cip_test_device_image_new (w, h, format, NULL,
      seed + 1);

  cip_test_device_image_upload (src);
  check_all (src, dst, rads, n, "random");
  cip_test_device_image_free (dst);
  cip_test_device_image_free (src);
}

/* Small and middling sizes: everything; the two largest: a few cases. */
static void
test_sizes (void)
{
  static const int some_radii[] = { 1, 2, 3, 32 };
  static const int rgba_radii[] = { 1, 5 };
  static const MorphArgs large_gray[] = {
    {CIP_MORPH_ERODE, CIP_SHAPE_SQUARE, 1},
    {CIP_MORPH_DILATE, CIP_SHAPE_DISK, 2},
    {CIP_MORPH_OPEN, CIP_SHAPE_DISK, 17},
    {CIP_MORPH_CLOSE, CIP_SHAPE_CROSS, 32},
  };
  static const MorphArgs large_rgba[] = {
    {CIP_MORPH_ERODE, CIP_SHAPE_SQUARE, 1},
    {CIP_MORPH_CLOSE, CIP_SHAPE_DISK, 5},
  };
  /* GRAY16: both small radii, and the largest tile (radius 32). */
  static const MorphArgs large_gray16[] = {
    {CIP_MORPH_ERODE, CIP_SHAPE_SQUARE, 1},
    {CIP_MORPH_DILATE, CIP_SHAPE_DISK, 2},
    {CIP_MORPH_OPEN, CIP_SHAPE_DISK, 5},
    {CIP_MORPH_CLOSE, CIP_SHAPE_SQUARE, 32},
  };
  guint i, k;

  for (i = 0; i < G_N_ELEMENTS (sizes); i++) {
    int w = sizes[i][0], h = sizes[i][1];
    CipFormat four = four_byte_formats[i % G_N_ELEMENTS (four_byte_formats)];

    if (cip_test_size_skipped (w, h))
      continue;

    if (w * h <= 127 * 129) {
      check_size (w, h, CIP_FORMAT_GRAY8, radii, G_N_ELEMENTS (radii), i * 8);
      check_size (w, h, four, radii, G_N_ELEMENTS (radii), i * 8 + 2);
      check_size (w, h, CIP_FORMAT_GRAY16, radii, G_N_ELEMENTS (radii),
          i * 8 + 4);
    } else if (w * h <= 1001 * 999) {
      check_size (w, h, CIP_FORMAT_GRAY8, some_radii,
          G_N_ELEMENTS (some_radii), i * 8);
      check_size (w, h, four, rgba_radii, G_N_ELEMENTS (rgba_radii), i * 8 + 2);
      check_size (w, h, CIP_FORMAT_GRAY16, some_radii,
          G_N_ELEMENTS (some_radii), i * 8 + 4);
    } else {
      CipTestDeviceImage *src, *dst;

      src = cip_test_device_image_new (w, h, CIP_FORMAT_GRAY8, NULL, i * 8);
      dst = cip_test_device_image_new (w, h, CIP_FORMAT_GRAY8, NULL, i * 8 + 1);
      cip_test_device_image_upload (src);
      for (k = 0; k < G_N_ELEMENTS (large_gray); k++)
        check_morph (src, dst, &large_gray[k], "random");
      cip_test_device_image_free (dst);
      cip_test_device_image_free (src);

      src = cip_test_device_image_new (w, h, four, NULL, i * 8 + 2);
      dst = cip_test_device_image_new (w, h, four, NULL, i * 8 + 3);
      cip_test_device_image_upload (src);
      for (k = 0; k < G_N_ELEMENTS (large_rgba); k++)
        check_morph (src, dst, &large_rgba[k], "random");
      cip_test_device_image_free (dst);
      cip_test_device_image_free (src);

      src = cip_test_device_image_new (w, h, CIP_FORMAT_GRAY16, NULL,
          i * 8 + 4);
      dst = cip_test_device_image_new (w, h, CIP_FORMAT_GRAY16, NULL,
          i * 8 + 5);
      cip_test_device_image_upload (src);
      for (k = 0; k < G_N_ELEMENTS (large_gray16); k++)
        check_morph (src, dst, &large_gray16[k], "random");
      cip_test_device_image_free (dst);
      cip_test_device_image_free (src);
    }
  }
}

/* Every four-byte format, both kernels. */
static void
test_formats (void)
{
  static const int format_radii[] = { 1, 2, 4 };
  guint f;

  for (f = 0; f < G_N_ELEMENTS (four_byte_formats); f++)
    check_size (67, 45, four_byte_formats[f], format_radii,
        G_N_ELEMENTS (format_radii), 500 + f * 4);
}

/* Unaligned data, odd strides and padding, source and destination laid
 * out differently. */
static void
test_layouts (void)
{
  static const MorphArgs cases[] = {
    {CIP_MORPH_ERODE, CIP_SHAPE_SQUARE, 1},
    {CIP_MORPH_OPEN, CIP_SHAPE_DISK, 2},
    {CIP_MORPH_DILATE, CIP_SHAPE_CROSS, 5},
    {CIP_MORPH_CLOSE, CIP_SHAPE_DISK, 32},
  };
  static const CipFormat formats[] = {
    CIP_FORMAT_GRAY8, CIP_FORMAT_BGRA, CIP_FORMAT_GRAY16,
  };
  guint l, f, k;

  for (l = 0; l < cip_test_n_layouts; l++) {
    for (f = 0; f < G_N_ELEMENTS (formats); f++) {
      gchar *name = cip_test_layout_name (cip_test_layouts[l]);
      CipTestDeviceImage *src = cip_test_device_image_new (259, 131,
          formats[f], cip_test_layouts[l], 700 + l * 4 + f);
      CipTestDeviceImage *dst = cip_test_device_image_new (259, 131,
          formats[f], cip_test_layouts[(l + 3) % cip_test_n_layouts],
          800 + l * 4 + f);

      cip_test_device_image_upload (src);
      for (k = 0; k < G_N_ELEMENTS (cases); k++)
        check_morph (src, dst, &cases[k], name);
      cip_test_device_image_free (dst);
      cip_test_device_image_free (src);
      g_free (name);
    }
  }
}

/* GRAY16 images of the reference test (OpenCV's CV_16U figures): every
 * case. */
static void
test_real_images16 (void)
{
  static const char *files[] = {
    "morph16-random.pgm", "morph16-camera.pgm",
  };
  guint i;

  for (i = 0; i < G_N_ELEMENTS (files); i++) {
    CipImage img = cip_test_image_load (files[i]);
    CipTestDeviceImage *src = cip_test_device_image_new (img.width,
        img.height, CIP_FORMAT_GRAY16, NULL, 920 + i);
    CipTestDeviceImage *dst = cip_test_device_image_new (img.width,
        img.height, CIP_FORMAT_GRAY16, cip_test_layouts[2], 930 + i);

    cip_test_device_image_set (src, &img);
    cip_test_device_image_upload (src);
    check_all (src, dst, radii, G_N_ELEMENTS (radii), files[i]);
    cip_test_device_image_free (dst);
    cip_test_device_image_free (src);
    cip_test_image_free (&img);
  }
}

/* Coins, camera and coins' Otsu mask: every case of the reference test. */
static void
test_real_images (void)
{
  static const char *names[] = { "coins", "camera", "coins-mask" };
  guint i;

  for (i = 0; i < G_N_ELEMENTS (names); i++) {
    CipImage img = cip_test_image_load (i == 1 ? "camera.pgm" : "coins.pgm");
    CipTestDeviceImage *src = cip_test_device_image_new (img.width,
        img.height, CIP_FORMAT_GRAY8, NULL, 900 + i);
    CipTestDeviceImage *dst = cip_test_device_image_new (img.width,
        img.height, CIP_FORMAT_GRAY8, cip_test_layouts[2], 910 + i);

    if (i == 2) {
      CipImage mask = cip_test_image_new (img.width, img.height,
          CIP_FORMAT_GRAY8, 0);
      guint8 t;

      g_assert_cmpint (cip_ref_otsu (&img, &mask, FALSE, &t, NULL), ==, CIP_OK);
      cip_test_device_image_set (src, &mask);
      cip_test_image_free (&mask);
    } else {
      cip_test_device_image_set (src, &img);
    }
    cip_test_device_image_upload (src);
    check_all (src, dst, radii, G_N_ELEMENTS (radii), names[i]);
    cip_test_device_image_free (dst);
    cip_test_device_image_free (src);
    cip_test_image_free (&img);
  }
}

/* Open and close keep their intermediate in the stream: once it has grown
 * to the largest image, later calls allocate nothing. */
static void
test_scratch (void)
{
  CipTestDeviceImage *big = cip_test_device_image_new (800, 600,
      CIP_FORMAT_RGBA, NULL, 1000);
  CipTestDeviceImage *big_dst = cip_test_device_image_new (800, 600,
      CIP_FORMAT_RGBA, NULL, 1001);
  CipTestDeviceImage *small = cip_test_device_image_new (100, 70,
      CIP_FORMAT_GRAY8, NULL, 1002);
  CipTestDeviceImage *small_dst = cip_test_device_image_new (100, 70,
      CIP_FORMAT_GRAY8, NULL, 1003);
  /* Two bytes a pixel: within the scratch the RGBA image grew. */
  CipTestDeviceImage *deep = cip_test_device_image_new (700, 500,
      CIP_FORMAT_GRAY16, NULL, 1004);
  CipTestDeviceImage *deep_dst = cip_test_device_image_new (700, 500,
      CIP_FORMAT_GRAY16, NULL, 1005);
  MorphArgs open = { CIP_MORPH_OPEN, CIP_SHAPE_DISK, 3 };
  MorphArgs close = { CIP_MORPH_CLOSE, CIP_SHAPE_SQUARE, 1 };
  CipMemoryStats before, after;
  int i;

  cip_test_device_image_upload (big);
  cip_test_device_image_upload (small);
  cip_test_device_image_upload (deep);
  check_morph (big, big_dst, &open, "warm-up");
  cip_memory_stats (&before);
  for (i = 0; i < 3; i++) {
    check_morph (small, small_dst, &close, "after a larger image");
    check_morph (deep, deep_dst, &open, "GRAY16 after a larger image");
    check_morph (big, big_dst, &close, "again");
  }
  cip_memory_stats (&after);
  g_assert_cmpuint (after.allocations, ==, before.allocations);
  g_assert_cmpuint (after.frees, ==, before.frees);

  cip_test_device_image_free (deep_dst);
  cip_test_device_image_free (deep);
  cip_test_device_image_free (small_dst);
  cip_test_device_image_free (small);
  cip_test_device_image_free (big_dst);
  cip_test_device_image_free (big);
}

static void
test_invalid_arguments (void)
{
  static const CipFormat refused_formats[] = {
    CIP_FORMAT_RGB, CIP_FORMAT_BGR, CIP_FORMAT_GRAY16_BE, CIP_FORMAT_YUYV,
  };
  CipTestDeviceImage *gray = cip_test_device_image_new (5, 3,
      CIP_FORMAT_GRAY8, NULL, 1);
  CipTestDeviceImage *rgba = cip_test_device_image_new (5, 3,
      CIP_FORMAT_RGBA, NULL, 2);
  CipTestDeviceImage *dst = cip_test_device_image_new (5, 3,
      CIP_FORMAT_GRAY8, NULL, 3);
  CipTestDeviceImage *big = cip_test_device_image_new (CIP_MAX_DIMENSION,
      1, CIP_FORMAT_GRAY8, NULL, 4);
  CipTestDeviceImage *big_dst = cip_test_device_image_new (CIP_MAX_DIMENSION,
      1, CIP_FORMAT_GRAY8, NULL, 5);
  /* Over-sized images over real memory: a missed check reads and writes
   * memory that exists and fails the test rather than crashing. */
  CipImage wide = { big->dev.data, CIP_MAX_DIMENSION + 1, 1,
    CIP_MAX_DIMENSION + 1, CIP_FORMAT_GRAY8
  };
  CipImage high = { big->dev.data, 1, CIP_MAX_DIMENSION + 1, 1,
    CIP_FORMAT_GRAY8
  };
  CipMemoryStats before, after;
  CipBadImages other;
  MorphArgs ok = { CIP_MORPH_OPEN, CIP_SHAPE_DISK, 1 };
  int c;
  guint f;

  cip_test_device_image_upload (gray);
  cip_test_device_image_upload (rgba);
  cip_test_device_image_upload (dst);
  cip_test_device_image_upload (big);
  cip_test_device_image_upload (big_dst);
  other.rgba = rgba->dev;
  other.wide_src = wide;
  other.wide_dst = wide;
  other.wide_dst.data = big_dst->dev.data;
  other.high_src = high;
  other.high_dst = high;
  other.high_dst.data = big_dst->dev.data;
  cip_memory_stats (&before);

#define REFUSED(call, what)                                             \
  G_STMT_START {                                                        \
    CipStatus _s = (call);                                              \
    if (_s != CIP_ERROR_INVALID_ARGUMENT)                               \
      fail ("%s: %s, not invalid argument (%s)", what,                  \
          cip_status_name (_s), cip_stream_error (cip_test_stream));    \
  } G_STMT_END

  for (c = 0; c < CIP_N_BAD_CASES; c++) {
    CipImage s = gray->dev, d = dst->dev;
    const CipImage *sp = &s;
    CipImage *dp = &d;
    gboolean extra_null = FALSE;
    gchar *what = g_strdup_printf ("case %d", c);

    /* The one pointer besides the images is the stream. */
    cip_test_spoil_arguments (c, &other, &s, &d, &sp, &dp, &extra_null);
    REFUSED (cip_morph (sp, dp, CIP_MORPH_CLOSE, CIP_SHAPE_DISK, 1,
            extra_null ? NULL : cip_test_stream), what);
    g_free (what);
  }

  REFUSED (cip_morph (&gray->dev, &dst->dev, (CipMorphOperation) 4,
          CIP_SHAPE_DISK, 1, cip_test_stream), "operation 4");
  REFUSED (cip_morph (&gray->dev, &dst->dev, CIP_MORPH_OPEN,
          (CipMorphShape) 3, 1, cip_test_stream), "shape 3");
  REFUSED (cip_morph (&gray->dev, &dst->dev, CIP_MORPH_OPEN, CIP_SHAPE_DISK,
          0, cip_test_stream), "radius 0");
  REFUSED (cip_morph (&gray->dev, &dst->dev, CIP_MORPH_OPEN, CIP_SHAPE_DISK,
          33, cip_test_stream), "radius 33");
  for (f = 0; f < G_N_ELEMENTS (refused_formats); f++) {
    CipImage s = rgba->dev, d = rgba->dev;

    s.format = d.format = refused_formats[f];
    d.data = dst->dev.data;
    d.stride = dst->dev.stride;
    s.width = d.width = 1;
    REFUSED (cip_morph (&s, &d, CIP_MORPH_ERODE, CIP_SHAPE_DISK, 1,
            cip_test_stream), cip_format_name (refused_formats[f]));
  }
  REFUSED (cip_morph (&gray->dev, &gray->dev, CIP_MORPH_ERODE,
          CIP_SHAPE_DISK, 1, cip_test_stream), "in place");
  {
    CipImage half = big->dev;

    half.width = 100;
    half.data = (guint8 *) big->dev.data + 50;
    big->dev.width = 100;
    REFUSED (cip_morph (&big->dev, &half, CIP_MORPH_CLOSE, CIP_SHAPE_DISK,
            1, cip_test_stream), "overlapping");
    big->dev.width = CIP_MAX_DIMENSION;
  }
#undef REFUSED
  CHECK (cip_stream_synchronize (cip_test_stream));

  /* Rejected before anything was allocated, launched or written. */
  cip_memory_stats (&after);
  g_assert_cmpuint (after.allocations, ==, before.allocations);
  g_assert_cmpuint (after.frees, ==, before.frees);
  cip_test_device_image_check (dst, dst->host,
      "destination after invalid calls");
  cip_test_device_image_check (gray, gray->host, "source after invalid calls");
  cip_test_device_image_check (rgba, rgba->host,
      "RGBA image after invalid calls");
  cip_test_device_image_check (big, big->host,
      "large image after invalid calls");
  cip_test_device_image_check (big_dst, big_dst->host,
      "large destination after invalid calls");

  check_morph (gray, dst, &ok, "after invalid calls");

  cip_test_device_image_free (big_dst);
  cip_test_device_image_free (big);
  cip_test_device_image_free (dst);
  cip_test_device_image_free (rgba);
  cip_test_device_image_free (gray);
}

int
main (int argc, char **argv)
{
  int ret;

  g_test_init (&argc, &argv, NULL);
  if (!cip_test_gpu_init ())
    return CIP_TEST_SKIP;

  g_test_add_func ("/kernels/morph/sizes", test_sizes);
  g_test_add_func ("/kernels/morph/formats", test_formats);
  g_test_add_func ("/kernels/morph/layouts", test_layouts);
  g_test_add_func ("/kernels/morph/real-images", test_real_images);
  g_test_add_func ("/kernels/morph/real-images16", test_real_images16);
  g_test_add_func ("/kernels/morph/scratch", test_scratch);
  g_test_add_func ("/kernels/morph/invalid-arguments", test_invalid_arguments);

  ret = g_test_run ();
  cip_test_gpu_cleanup ();
  return ret;
}
