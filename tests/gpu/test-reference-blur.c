/* gst-cuda-imgproc
 * Copyright (C) 2026 The gst-cuda-imgproc authors
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2 of the License, or (at your option) any later version.
 */

/* The blur reference (gpu/ref/blur.c) against OpenCV 4.6's GaussianBlur
 * (tests/data/expected-blur.ini, blur-* and blur16-*, from
 * make-blur-data.py), which it equals byte for byte, on 8-bit and on
 * 16-bit (CV_16U) images, and against values worked out by hand. */

#include <math.h>
#include <string.h>

#include "cip-ref.h"
#include "cip-blur.h"
#include "test-util.h"

#define fail(...)                                                       \
  G_STMT_START {                                                        \
    gchar *_msg = g_strdup_printf (__VA_ARGS__);                        \
    g_assertion_message (G_LOG_DOMAIN, __FILE__, __LINE__, G_STRFUNC, _msg); \
    g_free (_msg);                                                      \
  } G_STMT_END

static const CipFormat four_byte_formats[] = {
  CIP_FORMAT_RGBA, CIP_FORMAT_BGRA, CIP_FORMAT_RGBX, CIP_FORMAT_BGRX,
  CIP_FORMAT_ARGB, CIP_FORMAT_ABGR,
};

static guint8 *
pixel (const CipImage * image, int x, int y)
{
  return (guint8 *) image->data + y * image->stride +
      (size_t) x *cip_format_bytes_per_pixel (image->format);
}

/* A crop of @image (any format) with rows @pad bytes longer. */
static CipImage
crop (const CipImage * image, int x, int y, int w, int h, size_t pad)
{
  CipImage out = cip_test_image_new (w, h, image->format, pad);
  int bpp = cip_format_bytes_per_pixel (image->format), row;

  cip_test_image_fill_random (&out, w * 7 + h);
  for (row = 0; row < h; row++)
    memcpy (pixel (&out, 0, row), pixel (image, x, y + row), (size_t) w * bpp);
  return out;
}

/* Blurs @src into a fresh image of the same format whose padding holds a
 * random pattern, checks that the padding kept it, and returns it. */
static CipImage
blur (const CipImage * src, double sigma, size_t pad)
{
  CipImage dst = cip_test_image_new (src->width, src->height, src->format,
      pad);
  CipImage pattern;
  size_t row = (size_t) src->width * cip_format_bytes_per_pixel (src->format);
  int y;

  cip_test_image_fill_random (&dst, 99 + (guint32) pad);
  pattern = cip_test_image_new (src->width, src->height, src->format, pad);
  memcpy (pattern.data, dst.data, dst.stride * dst.height);
  if (cip_ref_blur (src, &dst, sigma, NULL) != CIP_OK)
    fail ("cip_ref_blur %dx%d %s sigma %g failed", src->width, src->height,
        cip_format_name (src->format), sigma);
  for (y = 0; y < dst.height; y++)
    if (memcmp (pixel (&dst, 0, y) + row, pixel (&pattern, 0, y) + row,
            pad) != 0)
      fail ("sigma %g: padding of row %d written", sigma, y);
  cip_test_image_free (&pattern);
  return dst;
}

/* The radius */

static void
test_radius (void)
{
  static const struct
  {
    double sigma;
    int radius;
  } cases[] = {
    {0.1, 1}, {0.25, 1}, {0.25001, 2}, {0.25 + 1e-12, 1}, {0.3, 2},
    {0.5, 2}, {0.75, 3}, {0.8, 4}, {1.0, 4}, {1.5, 6}, {2.7, 11},
    {5.0, 20}, {10.0, 40}, {31.99, 128}, {32.0, 128},
    /* Out of range: no radius. */
    {0.0999, 0}, {32.001, 0}, {0.0, 0}, {-1.0, 0},
  };
  guint i;

  for (i = 0; i < G_N_ELEMENTS (cases); i++)
    if (cip_blur_radius (cases[i].sigma) != cases[i].radius)
      fail ("cip_blur_radius (%.12g) = %d, not %d", cases[i].sigma,
          cip_blur_radius (cases[i].sigma), cases[i].radius);
  g_assert_cmpint (cip_blur_radius (NAN), ==, 0);
  g_assert_cmpint (cip_blur_radius (INFINITY), ==, 0);
  g_assert_cmpint (cip_blur_radius (CIP_BLUR_SIGMA_MIN), ==, 1);
  g_assert_cmpint (cip_blur_radius (CIP_BLUR_SIGMA_MAX), ==,
      CIP_BLUR_RADIUS_MAX);
}

/* OpenCV's borderInterpolate for BORDER_REFLECT_101, as it is written. */
static int
opencv_reflect_101 (int p, int len)
{
  if ((unsigned) p < (unsigned) len)
    return p;
  if (len == 1)
    return 0;
  do {
    if (p < 0)
      p = -p;
    else
      p = len - 1 - (p - len) - 1;
  } while ((unsigned) p >= (unsigned) len);
  return p;
}

static void
test_reflect (void)
{
  int len, p;

  for (len = 1; len <= 12; len++)
    for (p = -700; p <= 700; p++)
      if (cip_blur_reflect (p, len) != opencv_reflect_101 (p, len))
        fail ("reflect (%d, %d) = %d, OpenCV %d", p, len,
            cip_blur_reflect (p, len), opencv_reflect_101 (p, len));
  /* By hand: ... 2 1 | 0 1 2 3 | 2 1 0 | 1 ... */
  g_assert_cmpint (cip_blur_reflect (-1, 4), ==, 1);
  g_assert_cmpint (cip_blur_reflect (-3, 4), ==, 3);
  g_assert_cmpint (cip_blur_reflect (4, 4), ==, 2);
  g_assert_cmpint (cip_blur_reflect (6, 4), ==, 0);
  g_assert_cmpint (cip_blur_reflect (7, 4), ==, 1);
  g_assert_cmpint (cip_blur_reflect (-128, 1), ==, 0);
  g_assert_cmpint (cip_blur_reflect (129, 2), ==, 1);
}

/* The weights */

static void
test_kernels (void)
{
  GKeyFile *file = cip_test_expected_file ("expected-blur.ini");
  gsize n_sigmas, n;
  gdouble *sigmas = g_key_file_get_double_list (file, "kernels", "sigmas",
      &n_sigmas, NULL);
  gsize i;
  int j;

  g_assert_nonnull (sigmas);
  g_assert_cmpuint (n_sigmas, >=, 30);
  for (i = 0; i < n_sigmas; i++) {
    gchar *key = g_strdup_printf ("weights%zu", i);
    gint *want = g_key_file_get_integer_list (file, "kernels", key, &n, NULL);
    CipBlurKernel k;
    int sum;

    g_assert_nonnull (want);
    cip_blur_kernel (sigmas[i], &k);
    if ((gsize) k.radius + 1 != n)
      fail ("sigma %g: radius %d, expected %zu", sigmas[i], k.radius, n - 1);
    for (j = 0; j <= k.radius; j++)
      if (k.w[j] != want[j])
        fail ("sigma %g: weight %d is %d, expected %d", sigmas[i], j,
            k.w[j], want[j]);
    sum = k.w[0];
    for (j = 1; j <= k.radius; j++)
      sum += 2 * k.w[j];
    g_assert_cmpint (sum, ==, 256);
    g_free (want);
    g_free (key);
  }
  g_free (sigmas);
  g_key_file_unref (file);

  /* Any sigma: weights >= 0 summing to 256, a centre > 0, none past the
   * radius.  (The centre may be a little below its neighbours: it takes
   * the rounding residue.) */
  for (j = 0; j < 2000; j++) {
    double sigma = CIP_BLUR_SIGMA_MIN * pow (CIP_BLUR_SIGMA_MAX /
        CIP_BLUR_SIGMA_MIN, j / 1999.);
    CipBlurKernel k;
    int i2, sum;

    cip_blur_kernel (sigma, &k);
    g_assert_cmpint (k.radius, ==, cip_blur_radius (sigma));
    sum = k.w[0];
    for (i2 = 1; i2 <= CIP_BLUR_RADIUS_MAX; i2++) {
      if (k.w[i2] < 0 || (i2 > k.radius && k.w[i2]))
        fail ("sigma %g: weight %d is %d", sigma, i2, k.w[i2]);
      sum += 2 * k.w[i2];
    }
    g_assert_cmpint (sum, ==, 256);
    g_assert_cmpint (k.w[0], >, 0);
  }

  /* By hand, sigma 0.5: g = 1, e^-2, e^-8 normalized and times 256 are
   * 201.36, 27.25, 0.07; 0.07 rounds to 0 and carries to 27.32 -> 27,
   * the centre keeps 256 - 54. */
  {
    CipBlurKernel k;

    cip_blur_kernel (0.5, &k);
    g_assert_cmpint (k.radius, ==, 2);
    g_assert_cmpint (k.w[0], ==, 202);
    g_assert_cmpint (k.w[1], ==, 27);
    g_assert_cmpint (k.w[2], ==, 0);
    cip_blur_kernel (0.1, &k);
    g_assert_cmpint (k.w[0], ==, 256);
    g_assert_cmpint (k.w[1], ==, 0);
  }
}

/* Against OpenCV */

static void
test_opencv_crops (void)
{
  GKeyFile *file = cip_test_expected_file ("expected-blur.ini");
  gchar **groups = g_key_file_get_groups (file, NULL);
  int tested = 0, i;

  for (i = 0; groups[i]; i++) {
    gchar *source_name, *result_name;
    CipImage source, src, want;
    double sigma;
    int x, y, w, h;

    if (!g_str_has_prefix (groups[i], "crop "))
      continue;
    source_name = cip_test_ini_string (file, groups[i], "source");
    result_name = cip_test_ini_string (file, groups[i], "result");
    x = cip_test_ini_int (file, groups[i], "x");
    y = cip_test_ini_int (file, groups[i], "y");
    w = cip_test_ini_int (file, groups[i], "width");
    h = cip_test_ini_int (file, groups[i], "height");
    sigma = cip_test_ini_double (file, groups[i], "sigma");

    source = cip_test_image_load (source_name);
    want = cip_test_image_load (result_name);
    g_assert_cmpint (want.width, ==, w);
    g_assert_cmpint (want.height, ==, h);

    if (source.format == CIP_FORMAT_GRAY8) {
      CipImage got;

      src = crop (&source, x, y, w, h, 5);
      got = blur (&src, sigma, 3);
      cip_test_assert_images_equal (&got, &want, groups[i]);
      cip_test_image_free (&got);
      cip_test_image_free (&src);
    } else {
      CipImage rgb = crop (&source, x, y, w, h, 0);
      guint f;

      /* Every four-byte layout: the colour bytes as OpenCV's three
       * channels, the constant filler byte unchanged. */
      for (f = 0; f < G_N_ELEMENTS (four_byte_formats); f++) {
        CipImage packed = cip_test_image_repack (&rgb, four_byte_formats[f],
            0xa7, 1);
        CipImage got = blur (&packed, sigma, 2);
        CipImage want_packed = cip_test_image_repack (&want,
            four_byte_formats[f], 0xa7, 0);
        gchar *what = g_strdup_printf ("%s %s", groups[i],
            cip_format_name (four_byte_formats[f]));

        cip_test_assert_images_equal (&got, &want_packed, what);
        g_free (what);
        cip_test_image_free (&want_packed);
        cip_test_image_free (&got);
        cip_test_image_free (&packed);
      }
      cip_test_image_free (&rgb);
    }
    cip_test_image_free (&want);
    cip_test_image_free (&source);
    g_free (source_name);
    g_free (result_name);
    tested++;
  }
  g_assert_cmpint (tested, ==, 9);
  g_strfreev (groups);
  g_key_file_unref (file);
}

static void
test_opencv_noise (void)
{
  static const char *results[] = {
    "blur-noise-0.1.pgm", "blur-noise-0.3.pgm", "blur-noise-1.pgm",
    "blur-noise-32.pgm",
  };
  static const double sigmas[] = { 0.1, 0.3, 1.0, 32.0 };
  CipImage noise = cip_test_image_load ("blur-noise.pgm");
  guint i;

  for (i = 0; i < G_N_ELEMENTS (results); i++) {
    CipImage want = cip_test_image_load (results[i]);
    CipImage got = blur (&noise, sigmas[i], 0);

    cip_test_assert_images_equal (&got, &want, results[i]);
    cip_test_image_free (&got);
    cip_test_image_free (&want);
  }
  cip_test_image_free (&noise);
}

/* Forty sigmas over the range, the hash of OpenCV's result each. */
static void
test_opencv_sweep (void)
{
  GKeyFile *file = cip_test_expected_file ("expected-blur.ini");
  gsize n, n_hashes, i;
  gdouble *sigmas = g_key_file_get_double_list (file, "sweep", "sigmas", &n,
      NULL);
  gchar **hashes = g_key_file_get_string_list (file, "sweep", "hashes",
      &n_hashes, NULL);
  CipImage noise = cip_test_image_load ("blur-noise.pgm");

  g_assert_nonnull (sigmas);
  g_assert_cmpuint (n, ==, n_hashes);
  for (i = 0; i < n; i++) {
    CipImage got = blur (&noise, sigmas[i], 1);
    guint32 want = (guint32) g_ascii_strtoull (hashes[i], NULL, 10);

    if (cip_test_image_fnv1a (&got) != want)
      fail ("sigma %g: hash %u, OpenCV's %u", sigmas[i],
          cip_test_image_fnv1a (&got), want);
    cip_test_image_free (&got);
  }
  cip_test_image_free (&noise);
  g_strfreev (hashes);
  g_free (sigmas);
  g_key_file_unref (file);
}

/* GRAY16 */

/* The largest |@a - @b| of two GRAY16 images of one size. */
static guint
max_difference16 (const CipImage * a, const CipImage * b)
{
  guint most = 0;
  int x, y;

  for (y = 0; y < a->height; y++)
    for (x = 0; x < a->width; x++) {
      const guint8 *p = pixel (a, x, y), *q = pixel (b, x, y);
      int d = (p[0] | p[1] << 8) - (q[0] | q[1] << 8);

      most = MAX (most, (guint) ABS (d));
    }
  return most;
}

/* The weights summing to 2^16, as OpenCV's CV_16U path makes them. */
static void
test_kernels16 (void)
{
  GKeyFile *file = cip_test_expected_file ("expected-blur.ini");
  gsize n_sigmas, n, i;
  gdouble *sigmas = g_key_file_get_double_list (file, "kernels16", "sigmas",
      &n_sigmas, NULL);
  int j;

  g_assert_nonnull (sigmas);
  g_assert_cmpuint (n_sigmas, >=, 30);
  for (i = 0; i < n_sigmas; i++) {
    gchar *key = g_strdup_printf ("weights%zu", i);
    gint *want = g_key_file_get_integer_list (file, "kernels16", key, &n,
        NULL);
    CipBlurKernel k;
    int sum;

    g_assert_nonnull (want);
    cip_blur_kernel_for (sigmas[i], CIP_FORMAT_GRAY16, &k);
    g_assert_cmpuint ((gsize) k.radius + 1, ==, n);
    sum = k.w[0];
    for (j = 0; j <= k.radius; j++) {
      if (k.w[j] != want[j])
        fail ("sigma %g: weight %d is %d, expected %d", sigmas[i], j,
            k.w[j], want[j]);
      if (j > 0)
        sum += 2 * k.w[j];
    }
    g_assert_cmpint (sum, ==, 65536);
    g_free (want);
    g_free (key);
  }
  g_free (sigmas);
  g_key_file_unref (file);

  /* Any sigma: weights >= 0 summing to 2^16, the side ones at most 2^15,
   * so that a horizontal sum of two samples fits 32 bits. */
  for (j = 0; j < 2000; j++) {
    double sigma = CIP_BLUR_SIGMA_MIN * pow (CIP_BLUR_SIGMA_MAX /
        CIP_BLUR_SIGMA_MIN, j / 1999.);
    CipBlurKernel k;
    int i2, sum;

    cip_blur_kernel_for (sigma, CIP_FORMAT_GRAY16, &k);
    g_assert_cmpint (k.radius, ==, cip_blur_radius (sigma));
    sum = k.w[0];
    for (i2 = 1; i2 <= CIP_BLUR_RADIUS_MAX; i2++) {
      if (k.w[i2] < 0 || k.w[i2] > 32768 || (i2 > k.radius && k.w[i2]))
        fail ("sigma %g: weight %d is %d", sigma, i2, k.w[i2]);
      sum += 2 * k.w[i2];
    }
    g_assert_cmpint (sum, ==, 65536);
    g_assert_cmpint (k.w[0], >, 0);
  }
}

/* A 16-bit camera crop at two sigmas, OpenCV's results stored whole: the
 * promise is |ours - OpenCV| <= 1, and the definition gives 0.  Rows at an
 * odd stride and at an odd address too. */
static void
test_opencv16_camera (void)
{
  static const char *results[] = {
    "blur16-camera-1.5.pgm", "blur16-camera-5.pgm",
  };
  static const double sigmas[] = { 1.5, 5.0 };
  CipImage camera = cip_test_image_load ("blur16-camera.pgm");
  CipImage odd_stride = cip_test_image_copy (&camera, 5);
  CipImage odd = cip_test_image_new (camera.width, camera.height,
      CIP_FORMAT_GRAY16, 4);
  guint8 *odd_base = odd.data;
  guint i;
  int y;

  g_assert_cmpint (camera.format, ==, CIP_FORMAT_GRAY16);
  odd.data = odd_base + 1;
  odd.stride -= 1;
  for (y = 0; y < camera.height; y++)
    memcpy (pixel (&odd, 0, y), pixel (&camera, 0, y),
        (size_t) camera.width * 2);

  for (i = 0; i < G_N_ELEMENTS (results); i++) {
    CipImage want = cip_test_image_load (results[i]);
    const CipImage *sources[] = { &camera, &odd_stride, &odd };
    guint k;

    for (k = 0; k < G_N_ELEMENTS (sources); k++) {
      CipImage got = blur (sources[k], sigmas[i], 3);
      guint most = max_difference16 (&got, &want);

      if (most > 1)
        fail ("%s: %u from OpenCV, more than 1", results[i], most);
      cip_test_assert_images_equal (&got, &want, results[i]);
      cip_test_image_free (&got);
    }
    cip_test_image_free (&want);
  }
  odd.data = odd_base;
  cip_test_image_free (&odd);
  cip_test_image_free (&odd_stride);
  cip_test_image_free (&camera);
}

/* Forty sigmas on the camera crop and on full-range noise, the hash of
 * OpenCV's result each. */
static void
test_opencv16_sweep (void)
{
  static const char *groups[] = { "sweep16 camera16", "sweep16 noise16" };
  GKeyFile *file = cip_test_expected_file ("expected-blur.ini");
  guint g;

  for (g = 0; g < G_N_ELEMENTS (groups); g++) {
    gsize n, n_hashes, i;
    gdouble *sigmas = g_key_file_get_double_list (file, groups[g], "sigmas",
        &n, NULL);
    gchar **hashes = g_key_file_get_string_list (file, groups[g], "hashes",
        &n_hashes, NULL);
    gchar *name = cip_test_ini_string (file, groups[g], "image");
    CipImage image = cip_test_image_load (name);

    g_assert_nonnull (sigmas);
    g_assert_cmpuint (n, >=, 30);
    g_assert_cmpuint (n, ==, n_hashes);
    for (i = 0; i < n; i++) {
      CipImage got = blur (&image, sigmas[i], 1);
      guint32 want = (guint32) g_ascii_strtoull (hashes[i], NULL, 10);

      if (cip_test_image_fnv1a (&got) != want)
        fail ("%s sigma %g: hash %u, OpenCV's %u", name, sigmas[i],
            cip_test_image_fnv1a (&got), want);
      cip_test_image_free (&got);
    }
    cip_test_image_free (&image);
    g_free (name);
    g_strfreev (hashes);
    g_free (sigmas);
  }
  g_key_file_unref (file);
}

/* 16-bit images smaller than the kernel. */
static void
test_opencv16_tiny (void)
{
  static const int sizes[][2] = {
    {1, 1}, {1, 7}, {7, 1}, {2, 3}, {5, 5}, {9, 4},
  };
  static const double sigmas[] = { 0.5, 2.7, 32.0 };
  GKeyFile *file = cip_test_expected_file ("expected-blur.ini");
  guint s, i;

  for (s = 0; s < G_N_ELEMENTS (sizes); s++) {
    int w = sizes[s][0], h = sizes[s][1], x, y;
    gchar *group = g_strdup_printf ("tiny16 %dx%d", w, h);
    gint *pixels = cip_test_ini_ints (file, group, "pixels", (gsize) w * h);
    CipImage src = cip_test_image_new (w, h, CIP_FORMAT_GRAY16, 3);

    cip_test_image_fill_random (&src, 6);
    for (y = 0; y < h; y++)
      for (x = 0; x < w; x++) {
        pixel (&src, x, y)[0] = (guint8) pixels[y * w + x];
        pixel (&src, x, y)[1] = (guint8) (pixels[y * w + x] >> 8);
      }

    for (i = 0; i < G_N_ELEMENTS (sigmas); i++) {
      gchar *key = g_strdup_printf ("sigma%g", sigmas[i]);
      gint *want = cip_test_ini_ints (file, group, key, (gsize) w * h);
      CipImage got = blur (&src, sigmas[i], 2);

      for (y = 0; y < h; y++)
        for (x = 0; x < w; x++) {
          int v = pixel (&got, x, y)[0] | pixel (&got, x, y)[1] << 8;

          if (v != want[y * w + x])
            fail ("%s sigma %g: (%d, %d) is %d, OpenCV %d", group,
                sigmas[i], x, y, v, want[y * w + x]);
        }
      cip_test_image_free (&got);
      g_free (want);
      g_free (key);
    }
    cip_test_image_free (&src);
    g_free (pixels);
    g_free (group);
  }
  g_key_file_unref (file);
}

/* The extremes: a constant 65535 image stays 65535 at every sigma (no
 * overflow, no rounding up past the top), a constant 0 image 0. */
static void
test_extremes16 (void)
{
  static const double sigmas[] = { 0.1, 0.5, 3.0, 32.0 };
  guint i, v;

  for (v = 0; v < 2; v++) {
    CipImage src = cip_test_image_new (13, 9, CIP_FORMAT_GRAY16, 0);

    memset (src.data, v ? 0xff : 0, src.stride * src.height);
    for (i = 0; i < G_N_ELEMENTS (sigmas); i++) {
      CipImage got = blur (&src, sigmas[i], 0);

      cip_test_assert_images_equal (&got, &src, v ? "65535" : "0");
      cip_test_image_free (&got);
    }
    cip_test_image_free (&src);
  }
}

/* Images smaller than the kernel: every tap mirrored, many times over. */
static void
test_opencv_tiny (void)
{
  static const int sizes[][2] = {
    {1, 1}, {1, 7}, {7, 1}, {2, 3}, {3, 2}, {5, 5}, {9, 4},
  };
  static const double sigmas[] = { 0.5, 2.7, 32.0 };
  GKeyFile *file = cip_test_expected_file ("expected-blur.ini");
  guint s, i;

  for (s = 0; s < G_N_ELEMENTS (sizes); s++) {
    int w = sizes[s][0], h = sizes[s][1], x, y;
    gchar *group = g_strdup_printf ("tiny %dx%d", w, h);
    CipImage src = cip_test_image_new (w, h, CIP_FORMAT_GRAY8, 3);

    cip_test_image_fill_random (&src, 5);
    for (y = 0; y < h; y++)
      for (x = 0; x < w; x++)
        *pixel (&src, x, y) = (guint8) ((x * 37 + y * 91 + 11) & 255);

    for (i = 0; i < G_N_ELEMENTS (sigmas); i++) {
      gchar *key = g_strdup_printf ("sigma%g", sigmas[i]);
      gint *want = cip_test_ini_ints (file, group, key, (gsize) w * h);
      CipImage got = blur (&src, sigmas[i], 2);

      for (y = 0; y < h; y++)
        for (x = 0; x < w; x++)
          if (*pixel (&got, x, y) != want[y * w + x])
            fail ("%s sigma %g: (%d, %d) is %u, OpenCV %d", group, sigmas[i],
                x, y, *pixel (&got, x, y), want[y * w + x]);
      cip_test_image_free (&got);
      g_free (want);
      g_free (key);
    }
    cip_test_image_free (&src);
    g_free (group);
  }
  g_key_file_unref (file);
}

/* By hand */

static void
test_hand_computed (void)
{
  /* A 255 impulse at sigma 0.5 (weights 202 27 0): the centre gets
   * (202 * 202 * 255 + 2^15) >> 16 = 159, its 4-neighbours
   * (202 * 27 * 255 + 2^15) >> 16 = 21, the diagonals
   * (27 * 27 * 255 + 2^15) >> 16 = 3, the rest 0. */
  static const guint8 impulse_want[25] = {
    0, 0, 0, 0, 0,
    0, 3, 21, 3, 0,
    0, 21, 159, 21, 0,
    0, 3, 21, 3, 0,
    0, 0, 0, 0, 0,
  };
  CipImage src = cip_test_image_new (5, 5, CIP_FORMAT_GRAY8, 1), got;
  double sigma;
  int x, y, i;

  memset (src.data, 0, src.stride * src.height);
  *pixel (&src, 2, 2) = 255;
  got = blur (&src, 0.5, 1);
  for (y = 0; y < 5; y++)
    for (x = 0; x < 5; x++)
      g_assert_cmpint (*pixel (&got, x, y), ==, impulse_want[y * 5 + x]);
  cip_test_image_free (&got);

  /* Sigma 0.1 has the weights 256 0: a copy. */
  cip_test_image_fill_random (&src, 11);
  got = blur (&src, 0.1, 0);
  cip_test_assert_images_equal (&got, &src, "sigma 0.1");
  cip_test_image_free (&got);
  cip_test_image_free (&src);

  /* A constant stays constant at any sigma and size, in every format. */
  for (i = 0; i < 7; i++) {
    CipFormat format = i == 0 ? CIP_FORMAT_GRAY8 : four_byte_formats[i - 1];
    int w = 1 + i * 5, h = 9 - i;

    for (sigma = 0.1; sigma <= 32; sigma *= 2.3) {
      CipImage c = cip_test_image_new (w, h, format, 2);

      memset (c.data, 77 + i * 20, c.stride * c.height);
      got = blur (&c, sigma, 1);
      cip_test_assert_images_equal (&got, &c, "constant");
      cip_test_image_free (&got);
      cip_test_image_free (&c);
    }
  }

  /* A one-row image: the vertical taps all fall on the row, so each byte
   * is round (h / 256): 255 * 202 * 256 -> 201, 255 * 27 * 256 -> 27. */
  src = cip_test_image_new (9, 1, CIP_FORMAT_GRAY8, 0);
  memset (src.data, 0, 9);
  *pixel (&src, 4, 0) = 255;
  got = blur (&src, 0.5, 0);
  g_assert_cmpint (*pixel (&got, 3, 0), ==, 27);
  g_assert_cmpint (*pixel (&got, 4, 0), ==, 201);
  g_assert_cmpint (*pixel (&got, 5, 0), ==, 27);
  g_assert_cmpint (*pixel (&got, 2, 0), ==, 0);
  cip_test_image_free (&got);
  cip_test_image_free (&src);
}

/* The four channels of a pixel never mix: blurring an RGBA image equals
 * blurring each byte plane as GRAY8. */
static void
test_channels_independent (void)
{
  CipImage rgba = cip_test_image_new (23, 19, CIP_FORMAT_ABGR, 4);
  CipImage got;
  int c, x, y;

  cip_test_image_fill_random (&rgba, 3);
  got = blur (&rgba, 1.3, 0);
  for (c = 0; c < 4; c++) {
    CipImage plane = cip_test_image_new (23, 19, CIP_FORMAT_GRAY8, 0);
    CipImage plane_out;

    for (y = 0; y < 19; y++)
      for (x = 0; x < 23; x++)
        *pixel (&plane, x, y) = pixel (&rgba, x, y)[c];
    plane_out = blur (&plane, 1.3, 0);
    for (y = 0; y < 19; y++)
      for (x = 0; x < 23; x++)
        if (pixel (&got, x, y)[c] != *pixel (&plane_out, x, y))
          fail ("channel %d differs at (%d, %d)", c, x, y);
    cip_test_image_free (&plane_out);
    cip_test_image_free (&plane);
  }
  cip_test_image_free (&got);
  cip_test_image_free (&rgba);
}

/* Invalid arguments */

static void
test_invalid_arguments (void)
{
  CipImage gray = cip_test_image_new (5, 3, CIP_FORMAT_GRAY8, 1);
  CipImage rgba = cip_test_image_new (5, 3, CIP_FORMAT_RGBA, 0);
  CipImage dst = cip_test_image_new (5, 3, CIP_FORMAT_GRAY8, 2);
  CipImage pristine, rgba_pristine, big;
  static const double bad_sigmas[] = {
    0.0, 0.0999, -1.0, 32.0001, 1000.0,
  };
  static const CipFormat bad_formats[] = {
    CIP_FORMAT_RGB, CIP_FORMAT_BGR, CIP_FORMAT_GRAY16_BE, CIP_FORMAT_YUYV,
  };
  CipBadImages other;
  guint i;
  int c;

  cip_test_image_fill_random (&gray, 1);
  cip_test_image_fill_random (&rgba, 2);
  cip_test_image_fill_random (&dst, 3);
  pristine = cip_test_image_copy (&dst, 2);
  rgba_pristine = cip_test_image_copy (&rgba, 0);
  cip_test_bad_images_init (&other, &rgba);

  /* The unmodified arguments are accepted. */
  {
    CipImage d = cip_test_image_copy (&dst, 2);

    g_assert_cmpint (cip_ref_blur (&gray, &d, 1.0, NULL), ==, CIP_OK);
    cip_test_image_free (&d);
  }

  for (c = 0; c < CIP_N_BAD_CASES; c++) {
    CipImage s = gray, d = dst;
    const CipImage *sp = &s;
    CipImage *dp = &d;
    gboolean extra_null = FALSE;

    cip_test_spoil_arguments (c, &other, &s, &d, &sp, &dp, &extra_null);
    /* The extra argument is sigma: NaN stands for it. */
    if (cip_ref_blur (sp, dp, extra_null ? NAN : 1.0, NULL) !=
        CIP_ERROR_INVALID_ARGUMENT)
      fail ("case %d accepted", c);
    cip_test_assert_images_equal (&dst, &pristine, "bad case");
    cip_test_assert_images_equal (&rgba, &rgba_pristine, "bad case");
  }

  for (i = 0; i < G_N_ELEMENTS (bad_sigmas); i++)
    if (cip_ref_blur (&gray, &dst, bad_sigmas[i], NULL) !=
        CIP_ERROR_INVALID_ARGUMENT)
      fail ("sigma %g accepted", bad_sigmas[i]);
  g_assert_cmpint (cip_ref_blur (&gray, &dst, INFINITY, NULL), ==,
      CIP_ERROR_INVALID_ARGUMENT);
  cip_test_assert_images_equal (&dst, &pristine, "bad sigma");

  /* Three-byte formats and two-byte ones other than GRAY16, even as a
   * matching pair; mismatched four-byte formats. */
  big = cip_test_image_new (5, 3, CIP_FORMAT_RGBA, 0);
  for (i = 0; i < G_N_ELEMENTS (bad_formats); i++) {
    CipImage s = big, d = big;
    CipImage d2 = cip_test_image_new (5, 3, CIP_FORMAT_RGBA, 0);

    s.format = d.format = bad_formats[i];
    d.data = d2.data;
    if (cip_ref_blur (&s, &d, 1.0, NULL) != CIP_ERROR_INVALID_ARGUMENT)
      fail ("format %s accepted", cip_format_name (bad_formats[i]));
    cip_test_image_free (&d2);
  }
  {
    CipImage d = rgba;

    d.data = big.data;
    d.format = CIP_FORMAT_BGRA;
    g_assert_cmpint (cip_ref_blur (&rgba, &d, 1.0, NULL), ==,
        CIP_ERROR_INVALID_ARGUMENT);
  }

  /* In place, and overlapping by a byte. */
  {
    CipImage s = gray, d = gray;
    CipImage line = cip_test_image_new (20, 1, CIP_FORMAT_GRAY8, 0);

    g_assert_cmpint (cip_ref_blur (&s, &d, 1.0, NULL), ==,
        CIP_ERROR_INVALID_ARGUMENT);
    s.height = d.height = 1;
    s.data = line.data;
    d.data = (guint8 *) line.data + 4;
    g_assert_cmpint (cip_ref_blur (&s, &d, 1.0, NULL), ==,
        CIP_ERROR_INVALID_ARGUMENT);
    d.data = (guint8 *) line.data + 5;
    g_assert_cmpint (cip_ref_blur (&s, &d, 1.0, NULL), ==, CIP_OK);
    cip_test_image_free (&line);
  }

  cip_test_image_free (&big);
  cip_test_image_free (&rgba_pristine);
  cip_test_image_free (&pristine);
  cip_test_bad_images_clear (&other);
  cip_test_image_free (&dst);
  cip_test_image_free (&rgba);
  cip_test_image_free (&gray);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/reference/blur/radius", test_radius);
  g_test_add_func ("/reference/blur/reflect", test_reflect);
  g_test_add_func ("/reference/blur/kernels", test_kernels);
  g_test_add_func ("/reference/blur/opencv-crops", test_opencv_crops);
  g_test_add_func ("/reference/blur/opencv-noise", test_opencv_noise);
  g_test_add_func ("/reference/blur/opencv-sweep", test_opencv_sweep);
  g_test_add_func ("/reference/blur/opencv-tiny", test_opencv_tiny);
  g_test_add_func ("/reference/blur/kernels16", test_kernels16);
  g_test_add_func ("/reference/blur/opencv16-camera", test_opencv16_camera);
  g_test_add_func ("/reference/blur/opencv16-sweep", test_opencv16_sweep);
  g_test_add_func ("/reference/blur/opencv16-tiny", test_opencv16_tiny);
  g_test_add_func ("/reference/blur/extremes16", test_extremes16);
  g_test_add_func ("/reference/blur/hand-computed", test_hand_computed);
  g_test_add_func ("/reference/blur/channels-independent",
      test_channels_independent);
  g_test_add_func ("/reference/blur/invalid-arguments", test_invalid_arguments);

  return g_test_run ();
}
