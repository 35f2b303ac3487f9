/* gst-cuda-imgproc
 * Copyright (C) 2026 The gst-cuda-imgproc authors
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2 of the License, or (at your option) any later version.
 */

/* cip_blur against its reference (cip_ref_blur), byte for byte: every
 * path of the launcher (fixed small radii, the fused kernel at any radius,
 * the two-pass path up to radius 128), GRAY8, GRAY16 and the four-byte
 * formats, sizes from 1x1 to 3840x2160, real and random images, unaligned
 * addresses and odd strides.  The whole allocation around the destination
 * is compared, so writes outside its rows fail too.
 *
 * Exits with 77 (skipped) where no CUDA device is usable. */

#include <math.h>
#include <string.h>

#include "cip-ref.h"
#include "test-gpu.h"
#include "test-util.h"

static const int sizes[][2] = {
  {1, 1}, {2, 3}, {3, 2}, {7, 5}, {31, 17}, {33, 1}, {1, 33}, {127, 129},
  {640, 480}, {1001, 999}, {1920, 1080}, {3840, 2160},
};

/* One sigma per path of the launcher: radii 1 to 4 (compiled each), 5 and
 * 11 and 16 (the fused kernel's any-radius form, up to its largest), 17,
 * 40 and 128 (two passes through scratch). */
static const double sigmas[] = {
  0.1, 0.5, 0.7, 1.0, 1.2, 2.7, 4.0, 4.2, 10.0, 32.0,
};

static const CipFormat formats[] = {
  CIP_FORMAT_GRAY8, CIP_FORMAT_RGBA, CIP_FORMAT_BGRA, CIP_FORMAT_RGBX,
  CIP_FORMAT_BGRX, CIP_FORMAT_ARGB, CIP_FORMAT_ABGR, CIP_FORMAT_GRAY16,
};

/* Runs cip_blur from @src (uploaded) into @dst (whose fresh random
 * pattern is uploaded here) and checks all of @dst's allocation against
 * the reference. */
static void
check_blur (CipTestDeviceImage * src, CipTestDeviceImage * dst, double sigma,
    const char *what)
{
  guint8 *expected = cip_test_copy_bytes (dst->host, dst->size);
  CipImage expected_img = dst->host_img;
  gchar *full = g_strdup_printf ("%s %dx%d %s sigma %g (radius %d)", what,
      src->dev.width, src->dev.height, cip_format_name (src->dev.format),
      sigma, cip_blur_radius (sigma));

  expected_img.data = expected + dst->offset;
  if (cip_ref_blur (&src->host_img, &expected_img, sigma, NULL) != CIP_OK)
    fail ("%s: the reference failed", full);

  cip_test_device_image_upload (dst);
  CHECK (cip_blur (&src->dev, &dst->dev, sigma, cip_test_stream));
  CHECK (cip_stream_synchronize (cip_test_stream));
  cip_test_device_image_check (dst, expected, full);

  g_free (full);
  g_free (expected);
}

/* Every sigma on the small and middle sizes in GRAY8, RGBA and GRAY16;
 * the large ones at a few. */
static void
test_sizes (void)
{
  guint i, s, f;

  for (i = 0; i < G_N_ELEMENTS (sizes); i++) {
    int w = sizes[i][0], h = sizes[i][1];
    gboolean large = (gint64) w * h > 700 * 700;

    if (cip_test_size_skipped (w, h))
      continue;

    for (f = 0; f < 3; f++) {
      CipFormat format = f == 0 ? CIP_FORMAT_GRAY8 : f == 1 ?
          CIP_FORMAT_RGBA : CIP_FORMAT_GRAY16;
      CipTestDeviceImage *src =
          cip_test_device_image_new (w, h, format, NULL, 100 + i * 4 + f);
      CipTestDeviceImage *dst =
          cip_test_device_image_new (w, h, format, NULL, 200 + i * 4 + f);

      cip_test_device_image_upload (src);
      for (s = 0; s < G_N_ELEMENTS (sigmas); s++) {
        /* Large images: radius 2 (the benchmark's), a middle radius of
         * the fused kernel and the two-pass path once. */
        if (large && sigmas[s] != 0.5 && sigmas[s] != 2.7 &&
            !(sigmas[s] == 10.0 && format != CIP_FORMAT_RGBA &&
                w * h < 3000 * 2000))
          continue;
        check_blur (src, dst, sigmas[s], "random");
      }
      cip_test_device_image_free (dst);
      cip_test_device_image_free (src);
    }
  }
}

/* Every four-byte format, and every layout of source and destination
 * (unaligned data, strides not a multiple of 4), on sizes that are not
 * multiples of the tiles. */
static void
test_layouts (void)
{
  static const int layout_sizes[][2] = { {31, 17}, {130, 37}, {5, 70} };
  static const double layout_sigmas[] = { 0.5, 1.0, 2.7, 4.2, 32.0 };
  guint z, l, f, s;

  for (z = 0; z < G_N_ELEMENTS (layout_sizes); z++) {
    int w = layout_sizes[z][0], h = layout_sizes[z][1];

    for (f = 0; f < G_N_ELEMENTS (formats); f++) {
      for (l = 0; l < cip_test_n_layouts; l++) {
        const CipTestLayout *src_layout = cip_test_layouts[l];
        const CipTestLayout *dst_layout =
            cip_test_layouts[(l + 3 + f) % cip_test_n_layouts];
        CipTestDeviceImage *src = cip_test_device_image_new (w, h, formats[f],
            src_layout, 300 + z * 256 + f * 16 + l);
        CipTestDeviceImage *dst = cip_test_device_image_new (w, h, formats[f],
            dst_layout, 400 + z * 256 + f * 16 + l);
        gchar *a = cip_test_layout_name (src_layout);
        gchar *b = cip_test_layout_name (dst_layout);
        gchar *what = g_strdup_printf ("%s -> %s", a, b);

        cip_test_device_image_upload (src);
        for (s = 0; s < G_N_ELEMENTS (layout_sigmas); s++)
          check_blur (src, dst, layout_sigmas[s], what);
        g_free (what);
        g_free (b);
        g_free (a);
        cip_test_device_image_free (dst);
        cip_test_device_image_free (src);
      }
    }
  }
}

/* The real images, gray and chelsea in every four-byte format. */
static void
test_real_images (void)
{
  static const char *gray_images[] = { "camera.pgm", "coins.pgm" };
  static const double real_sigmas[] = { 0.5, 1.5, 5.0, 20.0 };
  CipImage rgb = cip_test_image_load ("chelsea.ppm");
  guint i, f, s;

  for (i = 0; i < G_N_ELEMENTS (gray_images); i++) {
    CipImage image = cip_test_image_load (gray_images[i]);
    CipTestDeviceImage *src = cip_test_device_image_new (image.width,
        image.height, CIP_FORMAT_GRAY8, cip_test_layouts[i + 1], 500 + i);
    CipTestDeviceImage *dst = cip_test_device_image_new (image.width,
        image.height, CIP_FORMAT_GRAY8, NULL, 510 + i);

    cip_test_device_image_set (src, &image);
    cip_test_device_image_upload (src);
    for (s = 0; s < G_N_ELEMENTS (real_sigmas); s++)
      check_blur (src, dst, real_sigmas[s], gray_images[i]);
    cip_test_device_image_free (dst);
    cip_test_device_image_free (src);
    cip_test_image_free (&image);
  }

  /* The 16-bit camera crop of the reference test. */
  {
    CipImage image = cip_test_image_load ("blur16-camera.pgm");
    CipTestDeviceImage *src = cip_test_device_image_new (image.width,
        image.height, CIP_FORMAT_GRAY16, cip_test_layouts[1], 540);
    CipTestDeviceImage *dst = cip_test_device_image_new (image.width,
        image.height, CIP_FORMAT_GRAY16, NULL, 541);

    cip_test_device_image_set (src, &image);
    cip_test_device_image_upload (src);
    for (s = 0; s < G_N_ELEMENTS (real_sigmas); s++)
      check_blur (src, dst, real_sigmas[s], "blur16-camera.pgm");
    cip_test_device_image_free (dst);
    cip_test_device_image_free (src);
    cip_test_image_free (&image);
  }

  for (f = 1; f < G_N_ELEMENTS (formats); f++) {
    CipImage packed;

    if (formats[f] == CIP_FORMAT_GRAY16)
      continue;
    packed = cip_test_image_repack (&rgb, formats[f], 0x21 * f, 0);
    CipTestDeviceImage *src = cip_test_device_image_new (rgb.width,
        rgb.height, formats[f], NULL, 520 + f);
    CipTestDeviceImage *dst = cip_test_device_image_new (rgb.width,
        rgb.height, formats[f], cip_test_layouts[f + 1], 530 + f);

    cip_test_device_image_set (src, &packed);
    cip_test_device_image_upload (src);
    for (s = 0; s < G_N_ELEMENTS (real_sigmas); s++)
      check_blur (src, dst, real_sigmas[s], "chelsea");
    cip_test_device_image_free (dst);
    cip_test_device_image_free (src);
    cip_test_image_free (&packed);
  }
  cip_test_image_free (&rgb);
}

/* Sigmas all over the range on one image: every radius class, and radii
 * whose halos are not whole words. */
static void
test_sigma_sweep (void)
{
  CipTestDeviceImage *src =
      cip_test_device_image_new (203, 77, CIP_FORMAT_GRAY8,
      cip_test_layouts[2], 600);
  CipTestDeviceImage *dst =
      cip_test_device_image_new (203, 77, CIP_FORMAT_GRAY8,
      cip_test_layouts[4], 601);
  CipTestDeviceImage *src4 = cip_test_device_image_new (67, 45, CIP_FORMAT_BGRX,
      cip_test_layouts[3], 602);
  CipTestDeviceImage *dst4 = cip_test_device_image_new (67, 45, CIP_FORMAT_BGRX,
      cip_test_layouts[5], 603);
  CipTestDeviceImage *src16 = cip_test_device_image_new (131, 53,
      CIP_FORMAT_GRAY16, cip_test_layouts[3], 604);
  CipTestDeviceImage *dst16 = cip_test_device_image_new (131, 53,
      CIP_FORMAT_GRAY16, cip_test_layouts[1], 605);
  int r;

  cip_test_device_image_upload (src);
  cip_test_device_image_upload (src4);
  cip_test_device_image_upload (src16);
  /* A sigma for each radius 1 .. 128. */
  for (r = 1; r <= 128; r++) {
    double sigma = MAX (CIP_BLUR_SIGMA_MIN, (r - 0.5) / 4.);

    g_assert_cmpint (cip_blur_radius (sigma), ==, r);
    check_blur (src, dst, sigma, "sweep");
    if (r <= 24 || r % 8 == 0) {
      check_blur (src4, dst4, sigma, "sweep");
      check_blur (src16, dst16, sigma, "sweep");
    }
  }
  cip_test_device_image_free (dst16);
  cip_test_device_image_free (src16);
  cip_test_device_image_free (dst4);
  cip_test_device_image_free (src4);
  cip_test_device_image_free (dst);
  cip_test_device_image_free (src);
}

/* Two streams blurring at different sigmas at once: the weights travel
 * with each launch. */
static void
test_streams (void)
{
  CipStream *other;
  CipTestDeviceImage *src =
      cip_test_device_image_new (1920, 1080, CIP_FORMAT_GRAY8, NULL, 700);
  CipTestDeviceImage *a =
      cip_test_device_image_new (1920, 1080, CIP_FORMAT_GRAY8, NULL, 701);
  CipTestDeviceImage *b =
      cip_test_device_image_new (1920, 1080, CIP_FORMAT_GRAY8, NULL, 702);
  guint8 *want_a = cip_test_copy_bytes (a->host, a->size);
  guint8 *want_b = cip_test_copy_bytes (b->host, b->size);
  CipImage img_a = a->host_img, img_b = b->host_img;
  int i;

  CHECK (cip_stream_new (&other, NULL, NULL, 0));
  img_a.data = want_a + a->offset;
  img_b.data = want_b + b->offset;
  g_assert_cmpint (cip_ref_blur (&src->host_img, &img_a, 0.5, NULL), ==,
      CIP_OK);
  g_assert_cmpint (cip_ref_blur (&src->host_img, &img_b, 2.7, NULL), ==,
      CIP_OK);
  cip_test_device_image_upload (src);
  cip_test_device_image_upload (a);
  cip_test_device_image_upload (b);
  for (i = 0; i < 8; i++) {
    CHECK (cip_blur (&src->dev, &a->dev, 0.5, cip_test_stream));
    CHECK_ON (other, cip_blur (&src->dev, &b->dev, 2.7, other));
  }
  CHECK_ON (other, cip_stream_synchronize (other));
  CHECK (cip_stream_synchronize (cip_test_stream));
  cip_test_device_image_check (a, want_a, "stream 1");
  cip_test_device_image_check (b, want_b, "stream 2");

  cip_stream_free (other);
  g_free (want_b);
  g_free (want_a);
  cip_test_device_image_free (b);
  cip_test_device_image_free (a);
  cip_test_device_image_free (src);
}

/* Scratch is allocated once and then only when a larger image needs more;
 * the fused path needs none. */
static void
test_scratch (void)
{
  CipMemoryStats stats = { 0 }, before;
  CipStream *stream;
  CipTestDeviceImage *src =
      cip_test_device_image_new (640, 480, CIP_FORMAT_GRAY8, NULL, 800);
  CipTestDeviceImage *dst =
      cip_test_device_image_new (640, 480, CIP_FORMAT_GRAY8, NULL, 801);
  CipImage small_src = src->dev, small_dst = dst->dev;

  CHECK (cip_stream_new (&stream, &stats, NULL, 0));
  cip_test_device_image_upload (src);
  before = stats;
  CHECK_ON (stream, cip_blur (&src->dev, &dst->dev, 4.0, stream));
  CHECK_ON (stream, cip_stream_synchronize (stream));
  g_assert_cmpuint (stats.allocations, ==, before.allocations);

  small_src.width = small_dst.width = 100;
  small_src.height = small_dst.height = 50;
  CHECK_ON (stream, cip_blur (&small_src, &small_dst, 10.0, stream));
  CHECK_ON (stream, cip_blur (&src->dev, &dst->dev, 10.0, stream));
  CHECK_ON (stream, cip_blur (&small_src, &small_dst, 32.0, stream));
  CHECK_ON (stream, cip_blur (&src->dev, &dst->dev, 32.0, stream));
  CHECK_ON (stream, cip_stream_synchronize (stream));
  g_assert_cmpuint (stats.allocations, <=, before.allocations + 2);
  before = stats;
  CHECK_ON (stream, cip_blur (&src->dev, &dst->dev, 20.0, stream));
  CHECK_ON (stream, cip_blur (&small_src, &small_dst, 20.0, stream));
  CHECK_ON (stream, cip_stream_synchronize (stream));
  g_assert_cmpuint (stats.allocations, ==, before.allocations);

  /* GRAY16 rows of as many bytes need no more: two bytes of sums per
   * source byte at either sample size. */
  {
    CipImage deep_src = src->dev, deep_dst = dst->dev;

    deep_src.format = deep_dst.format = CIP_FORMAT_GRAY16;
    deep_src.width = deep_dst.width = src->dev.width / 2;
    CHECK_ON (stream, cip_blur (&deep_src, &deep_dst, 20.0, stream));
    CHECK_ON (stream, cip_stream_synchronize (stream));
    g_assert_cmpuint (stats.allocations, ==, before.allocations);
  }

  cip_stream_free (stream);
  g_assert_cmpuint (stats.frees, ==, stats.allocations);
  cip_test_device_image_free (dst);
  cip_test_device_image_free (src);
}

static void
test_invalid_arguments (void)
{
  enum
  {
    STREAM_NULL = CIP_N_BAD_CASES, N_CASES
  };
  static const double bad_sigmas[] = { 0.0, 0.0999, -1.0, 32.0001, 1e9 };
  static const CipFormat bad_formats[] = {
    CIP_FORMAT_RGB, CIP_FORMAT_BGR, CIP_FORMAT_GRAY16_BE, CIP_FORMAT_YUYV,
  };
  CipTestDeviceImage *gray =
      cip_test_device_image_new (5, 3, CIP_FORMAT_GRAY8, NULL, 900);
  CipTestDeviceImage *rgba =
      cip_test_device_image_new (5, 3, CIP_FORMAT_RGBA, NULL, 901);
  CipTestDeviceImage *dst =
      cip_test_device_image_new (5, 3, CIP_FORMAT_GRAY8, NULL, 902);
  CipTestDeviceImage *dst4 =
      cip_test_device_image_new (5, 3, CIP_FORMAT_RGBA, NULL, 903);
  CipTestDeviceImage *big =
      cip_test_device_image_new (8192, 4, CIP_FORMAT_GRAY8, NULL, 904);
  CipTestDeviceImage *big_dst =
      cip_test_device_image_new (8192, 4, CIP_FORMAT_GRAY8, NULL, 905);
  CipImage wide = { big->dev.data, CIP_MAX_DIMENSION + 1, 1,
    CIP_MAX_DIMENSION + 1, CIP_FORMAT_GRAY8
  };
  CipImage high = { big->dev.data, 1, CIP_MAX_DIMENSION + 1, 1,
    CIP_FORMAT_GRAY8
  };
  CipMemoryStats before, after;
  CipBadImages other;
  guint i;
  int c;

  cip_test_device_image_upload (gray);
  cip_test_device_image_upload (rgba);
  cip_test_device_image_upload (dst);
  cip_test_device_image_upload (dst4);
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

  for (c = 0; c < N_CASES; c++) {
    CipImage s = gray->dev, d = dst->dev;
    const CipImage *sp = &s;
    CipImage *dp = &d;
    CipStream *st = cip_test_stream;
    gboolean extra_null = FALSE;
    CipStatus status;

    if (c == STREAM_NULL)
      st = NULL;
    else
      cip_test_spoil_arguments (c, &other, &s, &d, &sp, &dp, &extra_null);
    /* The extra argument is sigma: NaN stands for it. */
    status = cip_blur (sp, dp, extra_null ? NAN : 1.0, st);
    if (status != CIP_ERROR_INVALID_ARGUMENT)
      fail ("case %d: %s, not invalid argument", c, cip_status_name (status));
  }
  for (i = 0; i < G_N_ELEMENTS (bad_sigmas); i++)
    g_assert_cmpint (cip_blur (&gray->dev, &dst->dev, bad_sigmas[i],
            cip_test_stream), ==, CIP_ERROR_INVALID_ARGUMENT);
  g_assert_cmpint (cip_blur (&gray->dev, &dst->dev, NAN, cip_test_stream),
      ==, CIP_ERROR_INVALID_ARGUMENT);
  for (i = 0; i < G_N_ELEMENTS (bad_formats); i++) {
    CipImage s = rgba->dev, d = dst4->dev;

    s.format = d.format = bad_formats[i];
    g_assert_cmpint (cip_blur (&s, &d, 1.0, cip_test_stream), ==,
        CIP_ERROR_INVALID_ARGUMENT);
  }
  {
    CipImage d = dst4->dev;

    d.format = CIP_FORMAT_ARGB;
    g_assert_cmpint (cip_blur (&rgba->dev, &d, 1.0, cip_test_stream), ==,
        CIP_ERROR_INVALID_ARGUMENT);
    /* In place. */
    g_assert_cmpint (cip_blur (&rgba->dev, &rgba->dev, 1.0,
            cip_test_stream), ==, CIP_ERROR_INVALID_ARGUMENT);
  }
  CHECK (cip_stream_synchronize (cip_test_stream));

  /* Rejected before anything was allocated, launched or written. */
  cip_memory_stats (&after);
  g_assert_cmpuint (after.allocations, ==, before.allocations);
  cip_test_device_image_check (dst, dst->host, "destination");
  cip_test_device_image_check (dst4, dst4->host, "RGBA destination");
  cip_test_device_image_check (rgba, rgba->host, "RGBA image");
  cip_test_device_image_check (big_dst, big_dst->host, "large image");

  cip_test_device_image_free (big_dst);
  cip_test_device_image_free (big);
  cip_test_device_image_free (dst4);
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

  g_test_add_func ("/kernels/blur/sizes", test_sizes);
  g_test_add_func ("/kernels/blur/layouts", test_layouts);
  g_test_add_func ("/kernels/blur/real-images", test_real_images);
  g_test_add_func ("/kernels/blur/sigma-sweep", test_sigma_sweep);
  g_test_add_func ("/kernels/blur/streams", test_streams);
  g_test_add_func ("/kernels/blur/scratch", test_scratch);
  g_test_add_func ("/kernels/blur/invalid-arguments", test_invalid_arguments);

  ret = g_test_run ();
  cip_test_gpu_cleanup ();
  return ret;
}
