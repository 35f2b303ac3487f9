/* gst-cuda-imgproc
 * Copyright (C) 2026 The gst-cuda-imgproc authors
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2 of the License, or (at your option) any later version.
 */

/* The CPU reference (gpu/ref/) against OpenCV 4.6's results in tests/data
 * and against values worked out by hand.  The GPU kernels are tested
 * against this reference (test-kernels.c), so this is where the reference
 * itself earns its trust. */

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cip-ref.h"
#include "test-util.h"

static const char *gray_images[] = {
  "coins", "camera", "moon", "phantom", "chelsea-gray-bt601",
};

static const CipFormat packed_formats[] = {
  CIP_FORMAT_RGBA, CIP_FORMAT_BGRA, CIP_FORMAT_RGBX, CIP_FORMAT_BGRX,
  CIP_FORMAT_ARGB, CIP_FORMAT_ABGR, CIP_FORMAT_RGB, CIP_FORMAT_BGR,
};

static const CipGrayMethod gray_methods[] = {
  CIP_GRAY_BT601, CIP_GRAY_BT709, CIP_GRAY_LUMINOSITY, CIP_GRAY_AVERAGE,
};

/* Helpers */

/* Fails the test with a formatted message. */
#define fail(...)                                                       \
  G_STMT_START {                                                        \
    gchar *_msg = g_strdup_printf (__VA_ARGS__);                        \
    g_assertion_message (G_LOG_DOMAIN, __FILE__, __LINE__, G_STRFUNC, _msg); \
    g_free (_msg);                                                      \
  } G_STMT_END

static guint8 *
pixel (const CipImage * image, int x, int y)
{
  return (guint8 *) image->data + y * image->stride +
      (size_t) x *cip_format_bytes_per_pixel (image->format);
}

static void
assert_ok (CipStatus status, const char *what)
{
  if (status != CIP_OK)
    fail ("%s: %s", what, cip_status_name (status));
}

/* A GRAY8 image holding @values row after row. */
static CipImage
gray_from_bytes (int width, int height, size_t pad, const guint8 * values)
{
  CipImage image = cip_test_image_new (width, height, CIP_FORMAT_GRAY8, pad);
  int y;

  /* Random padding: nothing may read it. */
  cip_test_image_fill_random (&image, width * 31 + height);
  for (y = 0; y < height; y++)
    memcpy (pixel (&image, 0, y), values + y * width, width);
  return image;
}

/* A random GRAY8 image; @kind shapes the histogram. */
static CipImage
gray_random (int width, int height, size_t pad, int kind, guint32 seed)
{
  CipImage image = cip_test_image_new (width, height, CIP_FORMAT_GRAY8, pad);
  int x, y;

  cip_test_image_fill_random (&image, seed);
  for (y = 0; y < height; y++) {
    guint8 *p = pixel (&image, 0, y);

    for (x = 0; x < width; x++) {
      switch (kind) {
        case 1:                /* narrow: 100..115 */
          p[x] = 100 + (p[x] & 15);
          break;
        case 2:                /* skewed towards dark */
          p[x] = (p[x] * p[x]) >> 8;
          break;
        default:               /* uniform */
          break;
      }
    }
  }
  return image;
}

static guint64
count_value (const CipImage * image, guint8 value)
{
  guint64 n = 0;
  int x, y;

  for (y = 0; y < image->height; y++)
    for (x = 0; x < image->width; x++)
      n += *pixel (image, x, y) == value;
  return n;
}

/* The destination of an operation, its padding filled with a known pattern
 * to check that only row bytes are written. */
static CipImage
dst_for (const CipImage * src, size_t pad)
{
  CipImage dst = cip_test_image_new (src->width, src->height,
      CIP_FORMAT_GRAY8, pad);

  cip_test_image_fill_random (&dst, 0xd57 + pad);
  return dst;
}

static void
assert_padding_untouched (const CipImage * dst, size_t pad)
{
  CipImage pattern = dst_for (dst, pad);
  int y;

  for (y = 0; y < dst->height; y++)
    g_assert_cmpmem (pixel (dst, dst->width, y), pad,
        pixel (&pattern, dst->width, y), pad);
  cip_test_image_free (&pattern);
}

/* Gray */

/* OpenCV's cvtColor RGB2GRAY, from RGB and from every other packed layout,
 * with padded strides and any filler in the unused bytes. */
static void
test_gray_bt601_opencv (void)
{
  CipImage rgb = cip_test_image_load ("chelsea.ppm");
  CipImage expected = cip_test_image_load ("chelsea-gray-bt601.pgm");
  CipImage dst = dst_for (&rgb, 0);
  static const guint8 fillers[] = { 0x00, 0xff, 0x5a };
  guint f, i;

  assert_ok (cip_ref_gray (&rgb, &dst, CIP_GRAY_BT601, NULL), "gray");
  cip_test_assert_images_equal (&dst, &expected, "chelsea RGB, bt601");
  cip_test_image_free (&dst);

  for (f = 0; f < G_N_ELEMENTS (packed_formats); f++) {
    for (i = 0; i < G_N_ELEMENTS (fillers); i++) {
      CipImage src = cip_test_image_repack (&rgb, packed_formats[f],
          fillers[i], i == 0 ? 0 : 13);
      gchar *what = g_strdup_printf ("chelsea %s filler 0x%02x",
          cip_format_name (packed_formats[f]), fillers[i]);

      dst = dst_for (&rgb, 7);
      assert_ok (cip_ref_gray (&src, &dst, CIP_GRAY_BT601, NULL), what);
      cip_test_assert_images_equal (&dst, &expected, what);
      assert_padding_untouched (&dst, 7);
      cip_test_image_free (&dst);
      cip_test_image_free (&src);
      g_free (what);
    }
  }
  cip_test_image_free (&expected);
  cip_test_image_free (&rgb);
}

/* GRAY8 input is copied whatever the method. */
static void
test_gray_gray8_copy (void)
{
  CipImage src = cip_test_image_load ("camera.pgm");
  CipImage padded = cip_test_image_copy (&src, 5);
  guint m;

  for (m = 0; m < G_N_ELEMENTS (gray_methods); m++) {
    CipImage dst = dst_for (&src, 3);

    assert_ok (cip_ref_gray (&padded, &dst, gray_methods[m], NULL), "copy");
    cip_test_assert_images_equal (&dst, &src, "GRAY8 copy");
    assert_padding_untouched (&dst, 3);
    cip_test_image_free (&dst);
  }
  cip_test_image_free (&padded);
  cip_test_image_free (&src);
}

/* Values worked out by hand from cip-pixel.h's definitions:
 * Y = (wr R + wg G + wb B + 16384) >> 15, and (R + G + B + 1) / 3. */
static void
test_gray_hand_computed (void)
{
  static const guint8 colours[][3] = {
    {255, 255, 255}, {0, 0, 0}, {255, 0, 0}, {0, 255, 0}, {0, 0, 255},
    {1, 2, 2}, {128, 128, 128}, {10, 200, 30},
  };
  static const guint8 expected[][G_N_ELEMENTS (colours)] = {
    /* bt601, weights 9798 19235 3735 (sum 32768): red (9798 * 255 +
     * 16384) >> 15 = 76, green 150, blue 29, as OpenCV. */
    {255, 0, 76, 150, 29, 2, 128, 124},
    /* bt709, weights 6966 23436 2366 (sum 32768). */
    {255, 0, 54, 182, 18, 2, 128, 147},
    /* luminosity, weights 6881 23265 2294: they sum to 32440 (0.99), so
     * white is (32440 * 255 + 16384) >> 15 = 252, not 255. */
    {252, 0, 54, 181, 18, 2, 127, 146},
    /* average: (1 + 2 + 2 + 1) / 3 = 2, (255 + 1) / 3 = 85. */
    {255, 0, 85, 85, 85, 2, 128, 80},
  };
  const int n = G_N_ELEMENTS (colours);
  CipImage rgb = cip_test_image_new (n, 2, CIP_FORMAT_RGB, 0);
  guint f, m;
  int x, y;

  for (y = 0; y < 2; y++)
    for (x = 0; x < n; x++)
      memcpy (pixel (&rgb, x, y), colours[y == 0 ? x : n - 1 - x], 3);

  for (f = 0; f < G_N_ELEMENTS (packed_formats); f++) {
    CipImage src = cip_test_image_repack (&rgb, packed_formats[f], 0x3c, 1);

    for (m = 0; m < G_N_ELEMENTS (gray_methods); m++) {
      CipImage dst = dst_for (&src, 0);

      assert_ok (cip_ref_gray (&src, &dst, gray_methods[m], NULL), "gray");
      for (y = 0; y < 2; y++) {
        for (x = 0; x < n; x++) {
          int c = y == 0 ? x : n - 1 - x;

          if (*pixel (&dst, x, y) != expected[m][c])
            fail ("%s method %d colour (%u,%u,%u): %u, expected %u",
                cip_format_name (packed_formats[f]), gray_methods[m],
                colours[c][0], colours[c][1], colours[c][2],
                *pixel (&dst, x, y), expected[m][c]);
        }
      }
      cip_test_image_free (&dst);
    }
    cip_test_image_free (&src);
  }
  cip_test_image_free (&rgb);
}

/* The reference is the fixed-point definition of cip-pixel.h; against the
 * real-valued formulas it may be off by one (weights rounded to 15 bits,
 * and luminosity's only sum to 0.99 of 2^15), never more. */
static void
check_gray_against_float (const CipImage * rgb, const char *what)
{
  static const double weights[][3] = {
    {0.299, 0.587, 0.114},
    {0.2126, 0.7152, 0.0722},
    {0.21, 0.71, 0.07},
    {1. / 3, 1. / 3, 1. / 3},
  };
  guint m;
  int x, y;

  for (m = 0; m < G_N_ELEMENTS (gray_methods); m++) {
    CipImage dst = dst_for (rgb, 0);
    int max_diff = 0;

    assert_ok (cip_ref_gray (rgb, &dst, gray_methods[m], NULL), what);
    for (y = 0; y < rgb->height; y++) {
      for (x = 0; x < rgb->width; x++) {
        const guint8 *c = pixel (rgb, x, y);
        double v = weights[m][0] * c[0] + weights[m][1] * c[1] +
            weights[m][2] * c[2];
        int diff = abs ((int) *pixel (&dst, x, y) - (int) lround (v));

        if (diff > 1)
          fail ("%s method %d: (%u,%u,%u) gives %u, float %f", what,
              gray_methods[m], c[0], c[1], c[2], *pixel (&dst, x, y), v);
        max_diff = MAX (max_diff, diff);
      }
    }
    g_test_message ("%s method %d: max |diff| %d", what, gray_methods[m],
        max_diff);
    cip_test_image_free (&dst);
  }
}

static void
test_gray_float_formulas (void)
{
  CipImage chelsea = cip_test_image_load ("chelsea.ppm");
  /* Every third level of each channel: 86^3 colours. */
  CipImage cube = cip_test_image_new (86 * 86, 86, CIP_FORMAT_RGB, 0);
  int r, g, b;

  check_gray_against_float (&chelsea, "chelsea");
  for (r = 0; r < 86; r++)
    for (g = 0; g < 86; g++)
      for (b = 0; b < 86; b++) {
        guint8 *p = pixel (&cube, g * 86 + b, r);

        p[0] = MIN (r * 3, 255);
        p[1] = MIN (g * 3, 255);
        p[2] = MIN (b * 3, 255);
      }
  check_gray_against_float (&cube, "colour cube");
  cip_test_image_free (&cube);
  cip_test_image_free (&chelsea);
}

/* Equalize */

static void
test_equalize_opencv (void)
{
  guint i;

  for (i = 0; i < G_N_ELEMENTS (gray_images); i++) {
    gchar *name = g_strdup_printf ("%s.pgm", gray_images[i]);
    gchar *expected_name = g_strdup_printf ("%s-equalize.pgm", gray_images[i]);
    CipImage src = cip_test_image_load (name);
    CipImage expected = cip_test_image_load (expected_name);
    CipImage dst = dst_for (&src, 0);

    assert_ok (cip_ref_equalize (&src, &dst, NULL), name);
    cip_test_assert_images_equal (&dst, &expected, expected_name);
    cip_test_image_free (&dst);
    cip_test_image_free (&expected);
    cip_test_image_free (&src);
    g_free (expected_name);
    g_free (name);
  }
}

static void
check_equalize_bytes (int width, int height, const guint8 * in,
    const guint8 * out, const char *what)
{
  CipImage src = gray_from_bytes (width, height, 3, in);
  CipImage dst = dst_for (&src, 2);
  CipImage expected = gray_from_bytes (width, height, 0, out);

  assert_ok (cip_ref_equalize (&src, &dst, NULL), what);
  cip_test_assert_images_equal (&dst, &expected, what);
  assert_padding_untouched (&dst, 2);
  cip_test_image_free (&expected);
  cip_test_image_free (&dst);
  cip_test_image_free (&src);
}

static void
test_equalize_edge_cases (void)
{
  static const guint8 values[] = { 0, 1, 77, 128, 254, 255 };
  guint i;

  /* A one-valued image keeps its value (OpenCV's equalizeHist), whatever
   * its size. */
  for (i = 0; i < G_N_ELEMENTS (values); i++) {
    guint8 in[35];

    memset (in, values[i], sizeof (in));
    check_equalize_bytes (1, 1, in, in, "1x1");
    check_equalize_bytes (7, 5, in, in, "constant 7x5");
    check_equalize_bytes (35, 1, in, in, "constant 35x1");
  }

  /* Two values: the first occupied bin maps to 0, the other to 255. */
  {
    const guint8 in[] = { 10, 11, 11, 10, 10, 11, 10 };
    const guint8 out[] = { 0, 255, 255, 0, 0, 255, 0 };
    const guint8 in2[] = { 255, 0, 0, 0, 0, 0 };
    const guint8 out2[] = { 255, 0, 0, 0, 0, 0 };

    check_equalize_bytes (7, 1, in, out, "two values");
    check_equalize_bytes (1, 7, in, out, "two values, one column");
    check_equalize_bytes (3, 2, in2, out2, "0 and 255");
  }

  /* One pixel at 0, one at each of 1..6: scale 255/6 = 42.5 exactly, and
   * OpenCV's cvRound breaks the ties to even: 42.5 -> 42, 127.5 -> 128,
   * 212.5 -> 212. */
  {
    const guint8 in[] = { 0, 1, 2, 3, 4, 5, 6 };
    const guint8 out[] = { 0, 42, 85, 128, 170, 212, 255 };

    check_equalize_bytes (7, 1, in, out, "rounding ties");
  }
}

/* Odd sizes and strides: padding changes nothing, and the mapping has the
 * shape of an equalization (one output per input level, non-decreasing,
 * from 0 to 255). */
static void
test_equalize_odd_sizes (void)
{
  static const int sizes[][2] = {
    {1, 2}, {2, 1}, {2, 3}, {3, 2}, {7, 5}, {31, 17}, {33, 1}, {1, 33},
    {127, 129}, {1001, 999},
  };
  guint i;
  int kind;

  for (i = 0; i < G_N_ELEMENTS (sizes); i++) {
    for (kind = 0; kind < 3; kind++) {
      int w = sizes[i][0], h = sizes[i][1], x, y, v, last, levels, first = 0;
      CipImage src = gray_random (w, h, 0, kind, i * 3 + kind);
      CipImage padded = cip_test_image_copy (&src, 13);
      CipImage dst = dst_for (&src, 0), dst_padded = dst_for (&src, 9);
      int map[256];
      gchar *what = g_strdup_printf ("%dx%d kind %d", w, h, kind);

      assert_ok (cip_ref_equalize (&src, &dst, NULL), what);
      assert_ok (cip_ref_equalize (&padded, &dst_padded, NULL), what);
      cip_test_assert_images_equal (&dst_padded, &dst, what);
      assert_padding_untouched (&dst_padded, 9);

      for (v = 0; v < 256; v++)
        map[v] = -1;
      for (y = 0; y < h; y++) {
        for (x = 0; x < w; x++) {
          int in = *pixel (&src, x, y), out = *pixel (&dst, x, y);

          if (map[in] < 0)
            map[in] = out;
          g_assert_cmpint (map[in], ==, out);
        }
      }
      last = -1;
      levels = 0;
      for (v = 0; v < 256; v++) {
        if (map[v] < 0)
          continue;
        g_assert_cmpint (map[v], >=, last);
        if (levels++ == 0)
          first = v;
        last = map[v];
      }
      if (levels == 1) {
        /* One-valued: kept. */
        g_assert_cmpint (map[first], ==, first);
      } else {
        g_assert_cmpint (map[first], ==, 0);
        g_assert_cmpint (last, ==, 255);
      }

      g_free (what);
      cip_test_image_free (&dst_padded);
      cip_test_image_free (&dst);
      cip_test_image_free (&padded);
      cip_test_image_free (&src);
    }
  }
}

/* Otsu */

static void
check_otsu_output (const CipImage * src, const CipImage * dst, guint8 t,
    gboolean invert, const char *what)
{
  int x, y;

  for (y = 0; y < src->height; y++) {
    for (x = 0; x < src->width; x++) {
      guint8 expected = ((*pixel (src, x, y) > t) != !!invert) ? 255 : 0;

      if (*pixel (dst, x, y) != expected)
        fail ("%s: pixel (%d,%d) = %u at threshold %u: %u, expected %u",
            what, x, y, *pixel (src, x, y), t, *pixel (dst, x, y), expected);
    }
  }
}

static void
test_otsu_opencv (void)
{
  GKeyFile *ini = cip_test_expected ();
  guint i;

  for (i = 0; i < G_N_ELEMENTS (gray_images); i++) {
    gchar *name = g_strdup_printf ("%s.pgm", gray_images[i]);
    CipImage src = cip_test_image_load (name);
    CipImage dst = dst_for (&src, 0), inverted = dst_for (&src, 0);
    GError *error = NULL;
    gint expected_t, expected_fg;
    guint8 t = 0, t_inv = 0;

    expected_t = g_key_file_get_integer (ini, gray_images[i],
        "otsu-threshold", &error);
    g_assert_no_error (error);
    expected_fg = g_key_file_get_integer (ini, gray_images[i],
        "otsu-foreground-pixels", &error);
    g_assert_no_error (error);

    assert_ok (cip_ref_otsu (&src, &dst, false, &t, NULL), name);
    g_assert_cmpint (t, ==, expected_t);
    g_assert_cmpuint (count_value (&dst, 255), ==, expected_fg);
    g_assert_cmpuint (count_value (&dst, 0) + expected_fg, ==,
        (guint64) src.width * src.height);
    check_otsu_output (&src, &dst, t, FALSE, name);

    assert_ok (cip_ref_otsu (&src, &inverted, true, &t_inv, NULL), name);
    g_assert_cmpint (t_inv, ==, expected_t);
    check_otsu_output (&src, &inverted, t, TRUE, name);

    cip_test_image_free (&inverted);
    cip_test_image_free (&dst);
    cip_test_image_free (&src);
    g_free (name);
  }
  g_key_file_unref (ini);
}

static void
check_otsu_bytes (int width, int height, const guint8 * in,
    guint8 expected_t, const char *what)
{
  CipImage src = gray_from_bytes (width, height, 1, in);
  CipImage dst = dst_for (&src, 4);
  guint8 t = 0xaa;

  assert_ok (cip_ref_otsu (&src, &dst, false, &t, NULL), what);
  g_assert_cmpint (t, ==, expected_t);
  check_otsu_output (&src, &dst, t, FALSE, what);
  assert_padding_untouched (&dst, 4);
  t = 0xaa;
  assert_ok (cip_ref_otsu (&src, &dst, true, &t, NULL), what);
  g_assert_cmpint (t, ==, expected_t);
  check_otsu_output (&src, &dst, t, TRUE, what);
  cip_test_image_free (&dst);
  cip_test_image_free (&src);
}

static void
test_otsu_edge_cases (void)
{
  static const guint8 values[] = { 0, 1, 77, 128, 254, 255 };
  guint i;

  /* One value: threshold 0, so all 0 for a black image, else all 255. */
  for (i = 0; i < G_N_ELEMENTS (values); i++) {
    guint8 in[35];

    memset (in, values[i], sizeof (in));
    check_otsu_bytes (1, 1, in, 0, "1x1");
    check_otsu_bytes (5, 7, in, 0, "constant 5x7");
    check_otsu_bytes (1, 35, in, 0, "constant 1x35");
  }

  /* Two values: the threshold is the smaller one. */
  {
    const guint8 in[] = { 30, 200, 200, 30, 30, 200, 30, 200, 200 };
    const guint8 in2[] = { 0, 255, 0, 0, 0, 0 };
    const guint8 in3[] = { 128, 127 };

    check_otsu_bytes (3, 3, in, 30, "30 and 200");
    check_otsu_bytes (9, 1, in, 30, "30 and 200, one row");
    check_otsu_bytes (2, 3, in2, 0, "0 and 255");
    check_otsu_bytes (1, 2, in3, 127, "127 and 128");
  }
}

/* The between-class variance of a split after level @t, straight from its
 * definition; -1 where a class is empty. */
static double
between_class_variance (const guint32 * hist, int t)
{
  double n1 = 0, n2 = 0, s1 = 0, s2 = 0, n;
  int i;

  for (i = 0; i < 256; i++) {
    if (i <= t)
      n1 += hist[i], s1 += (double) i *hist[i];
    else
      n2 += hist[i], s2 += (double) i *hist[i];
  }
  if (n1 == 0 || n2 == 0)
    return -1;
  n = n1 + n2;
  return (n1 / n) * (n2 / n) * (s1 / n1 - s2 / n2) * (s1 / n1 - s2 / n2);
}

/* Odd sizes and strides: padding changes nothing, and the threshold
 * maximises the between-class variance (up to rounding: ties are OpenCV's
 * business, checked on the real images). */
static void
test_otsu_odd_sizes (void)
{
  static const int sizes[][2] = {
    {1, 2}, {2, 1}, {2, 3}, {3, 2}, {7, 5}, {31, 17}, {33, 1}, {1, 33},
    {127, 129}, {1001, 999},
  };
  guint i;
  int kind;

  for (i = 0; i < G_N_ELEMENTS (sizes); i++) {
    for (kind = 0; kind < 3; kind++) {
      int w = sizes[i][0], h = sizes[i][1], v;
      CipImage src = gray_random (w, h, 0, kind, 100 + i * 3 + kind);
      CipImage padded = cip_test_image_copy (&src, 13);
      CipImage dst = dst_for (&src, 0), dst_padded = dst_for (&src, 9);
      guint32 hist[256];
      double best = -1;
      guint8 t = 0, t_padded = 0;
      gchar *what = g_strdup_printf ("%dx%d kind %d", w, h, kind);

      assert_ok (cip_ref_otsu (&src, &dst, false, &t, NULL), what);
      assert_ok (cip_ref_otsu (&padded, &dst_padded, false, &t_padded, NULL),
          what);
      g_assert_cmpint (t, ==, t_padded);
      cip_test_assert_images_equal (&dst_padded, &dst, what);
      assert_padding_untouched (&dst_padded, 9);
      check_otsu_output (&src, &dst, t, FALSE, what);

      assert_ok (cip_ref_histogram (&padded, hist), what);
      for (v = 0; v < 256; v++)
        best = MAX (best, between_class_variance (hist, v));
      if (best < 0)
        g_assert_cmpint (t, ==, 0);     /* one-valued */
      else
        g_assert_cmpfloat (between_class_variance (hist, t), >=,
            best * (1 - 1e-9));

      g_free (what);
      cip_test_image_free (&dst_padded);
      cip_test_image_free (&dst);
      cip_test_image_free (&padded);
      cip_test_image_free (&src);
    }
  }
}

/* Histogram */

static void
test_histogram (void)
{
  const guint8 in[] = { 0, 255, 7, 7, 7, 255 };
  CipImage src = gray_from_bytes (3, 2, 5, in);
  guint32 hist[256];
  int i;

  assert_ok (cip_ref_histogram (&src, hist), "histogram");
  for (i = 0; i < 256; i++)
    g_assert_cmpuint (hist[i], ==, i == 0 ? 1 : i == 7 ? 3 : i == 255 ? 2 : 0);
  cip_test_image_free (&src);
}

/* Mask */

static void
test_mask_semantics (void)
{
  const guint8 in[] = { 0, 1, 50, 100, 101, 200, 254, 255 };
  static const struct
  {
    CipMaskParams params;
    guint8 out[8];
  } cases[] = {
    /* Above the threshold, strictly. */
    {{100, 200, false}, {0, 0, 0, 0, 200, 200, 200, 200}},
    {{100, 200, true}, {200, 200, 200, 200, 0, 0, 0, 0}},
    /* Threshold 0: any non-zero pixel is foreground. */
    {{0, 255, false}, {0, 255, 255, 255, 255, 255, 255, 255}},
    {{0, 255, true}, {255, 0, 0, 0, 0, 0, 0, 0}},
    /* Threshold 255: nothing is above it. */
    {{255, 255, false}, {0, 0, 0, 0, 0, 0, 0, 0}},
    {{255, 9, true}, {9, 9, 9, 9, 9, 9, 9, 9}},
    {{254, 1, false}, {0, 0, 0, 0, 0, 0, 0, 1}},
    /* Foreground 0: everything is 0. */
    {{50, 0, false}, {0, 0, 0, 0, 0, 0, 0, 0}},
    {{50, 0, true}, {0, 0, 0, 0, 0, 0, 0, 0}},
  };
  guint i;
  int shape;

  for (i = 0; i < G_N_ELEMENTS (cases); i++) {
    for (shape = 0; shape < 3; shape++) {
      /* 8x1, 4x2 and 1x8, padded. */
      int w = shape == 0 ? 8 : shape == 1 ? 4 : 1;
      CipImage src = gray_from_bytes (w, 8 / w, 3, in);
      CipImage dst = dst_for (&src, 5);
      CipImage expected = gray_from_bytes (w, 8 / w, 0, cases[i].out);
      gchar *what = g_strdup_printf ("case %u, %dx%d", i, w, 8 / w);

      assert_ok (cip_ref_mask (&src, &dst, &cases[i].params, NULL), what);
      cip_test_assert_images_equal (&dst, &expected, what);
      assert_padding_untouched (&dst, 5);
      g_free (what);
      cip_test_image_free (&expected);
      cip_test_image_free (&dst);
      cip_test_image_free (&src);
    }
  }
}

/* Invalid arguments */

enum
{
  OP_GRAY, OP_MASK, OP_EQUALIZE, OP_OTSU, OP_HISTOGRAM, N_OPS
};

static const char *op_names[] = {
  "gray", "mask", "equalize", "otsu", "histogram",
};

static CipStatus
run_op (int op, const CipImage * src, CipImage * dst, gboolean null_extra)
{
  CipMaskParams params = { 10, 255, false };
  guint8 t;
  guint32 hist[256];

  switch (op) {
    case OP_GRAY:
      return cip_ref_gray (src, dst, CIP_GRAY_BT601, NULL);
    case OP_MASK:
      return cip_ref_mask (src, dst, null_extra ? NULL : &params, NULL);
    case OP_EQUALIZE:
      return cip_ref_equalize (src, dst, NULL);
    case OP_OTSU:
      return cip_ref_otsu (src, dst, false, null_extra ? NULL : &t, NULL);
    case OP_HISTOGRAM:
      return cip_ref_histogram (src, null_extra ? NULL : hist);
  }
  g_assert_not_reached ();
}

static void
test_invalid_arguments (void)
{
  CipImage gray = cip_test_image_new (5, 3, CIP_FORMAT_GRAY8, 2);
  CipImage rgba = cip_test_image_new (5, 3, CIP_FORMAT_RGBA, 0);
  CipImage dst = cip_test_image_new (5, 3, CIP_FORMAT_GRAY8, 2);
  CipImage pristine, rgba_pristine;
  CipBadImages other;
  int op, c;

  cip_test_image_fill_random (&gray, 1);
  cip_test_image_fill_random (&rgba, 2);
  cip_test_image_fill_random (&dst, 3);
  pristine = cip_test_image_copy (&dst, 2);
  rgba_pristine = cip_test_image_copy (&rgba, 0);
  cip_test_bad_images_init (&other, &rgba);

  /* Sanity: the unmodified arguments are accepted. */
  for (op = 0; op < N_OPS; op++) {
    CipImage d = cip_test_image_copy (&dst, 2);

    assert_ok (run_op (op, &gray, &d, FALSE), op_names[op]);
    cip_test_image_free (&d);
  }

  for (op = 0; op < N_OPS; op++) {
    for (c = 0; c < CIP_N_BAD_CASES; c++) {
      CipImage s = gray, d = dst;
      const CipImage *sp = &s;
      CipImage *dp = &d;
      gboolean extra_null = FALSE;

      if (op == OP_HISTOGRAM && (c == CIP_BAD_DST_NULL ||
              c == CIP_BAD_DST_DATA_NULL || c == CIP_BAD_DST_WIDTH_0 ||
              c == CIP_BAD_DST_STRIDE_SMALL || c == CIP_BAD_DST_STRIDE_NEGATIVE
              || c == CIP_BAD_WIDTH_MISMATCH || c == CIP_BAD_HEIGHT_MISMATCH
              || c == CIP_BAD_DST_NOT_GRAY || c == CIP_BAD_DST_BAD_FORMAT))
        continue;               /* no destination image */
      if (op == OP_GRAY && (c == CIP_BAD_SRC_NOT_GRAY ||
              c == CIP_BAD_EXTRA_NULL))
        continue;               /* colour is gray's input; no extra */
      if (op == OP_EQUALIZE && c == CIP_BAD_EXTRA_NULL)
        continue;

      cip_test_spoil_arguments (c, &other, &s, &d, &sp, &dp, &extra_null);
      if (run_op (op, sp, dp, extra_null) != CIP_ERROR_INVALID_ARGUMENT)
        fail ("%s: case %d accepted", op_names[op], c);
      /* Rejected before writing anything. */
      cip_test_assert_images_equal (&dst, &pristine, op_names[op]);
      cip_test_assert_images_equal (&rgba, &rgba_pristine, op_names[op]);
    }
  }

  /* cip_image_validate on its own. */
  g_assert_cmpint (cip_image_validate (NULL), ==, CIP_ERROR_INVALID_ARGUMENT);
  g_assert_cmpint (cip_ref_fill (NULL, 0, NULL), ==,
      CIP_ERROR_INVALID_ARGUMENT);
  g_assert_cmpint (cip_image_validate (&gray), ==, CIP_OK);
  g_assert_cmpint (cip_image_validate (&rgba), ==, CIP_OK);
  rgba.stride--;
  g_assert_cmpint (cip_image_validate (&rgba), ==, CIP_ERROR_INVALID_ARGUMENT);
  rgba.stride++;

  cip_test_image_free (&rgba_pristine);
  cip_test_image_free (&pristine);
  cip_test_bad_images_clear (&other);
  cip_test_image_free (&dst);
  cip_test_image_free (&rgba);
  cip_test_image_free (&gray);
}

/* 16-bit */

static const char *otsu16_images[] = {
  "otsu16-camera", "otsu16-coins-12bit", "otsu16-bimodal",
  "otsu16-full-range", "otsu16-three-levels", "otsu16-two-levels",
  "otsu16-flat",
};

/* scikit-image's threshold_otsu of each 16-bit image
 * (expected-otsu16.ini), the pixels above it, and the inverted mask. */
static void
test_otsu16_skimage (void)
{
  gchar *path = cip_test_data_path ("expected-otsu16.ini");
  GKeyFile *ini = g_key_file_new ();
  guint i;

  g_assert_true (g_key_file_load_from_file (ini, path, G_KEY_FILE_NONE, NULL));
  for (i = 0; i < G_N_ELEMENTS (otsu16_images); i++) {
    const char *name = otsu16_images[i];
    gchar *file = g_strdup_printf ("%s.pgm", name);
    CipImage src = cip_test_image_load (file);
    CipImage dst = cip_test_image_new (src.width, src.height,
        CIP_FORMAT_GRAY8, 3);
    CipImage inverted = cip_test_image_new (src.width, src.height,
        CIP_FORMAT_GRAY8, 0);
    guint16 t = 0, t_inv = 0;
    gint expected = cip_test_ini_int (ini, name, "otsu-threshold");
    gint foreground = cip_test_ini_int (ini, name, "otsu-foreground-pixels");
    gint n = 0, x, y;

    g_assert_cmpint (src.format, ==, CIP_FORMAT_GRAY16);
    assert_ok (cip_ref_otsu16 (&src, &dst, false, &t, NULL), name);
    assert_ok (cip_ref_otsu16 (&src, &inverted, true, &t_inv, NULL), name);
    g_assert_cmpint (t, ==, expected);
    g_assert_cmpint (t_inv, ==, expected);
    for (y = 0; y < src.height; y++)
      for (x = 0; x < src.width; x++) {
        const guint8 *in = (const guint8 *) src.data + y * src.stride;
        guint v = in[2 * x] | in[2 * x + 1] << 8;
        guint8 m = ((guint8 *) dst.data)[y * dst.stride + x];
        guint8 mi = ((guint8 *) inverted.data)[y * inverted.stride + x];

        g_assert_cmpuint (m, ==, v > t ? 255 : 0);
        g_assert_cmpuint (mi, ==, 255 - m);
        n += m == 255;
      }
    g_assert_cmpint (n, ==, foreground);
    cip_test_image_free (&inverted);
    cip_test_image_free (&dst);
    cip_test_image_free (&src);
    g_free (file);
  }
  g_key_file_free (ini);
  g_free (path);
}

/* A GRAY16 mask: thresholds across the whole range, a GRAY8 mask out;
 * GRAY8 input with a threshold above 255 has no foreground. */
static void
test_mask16 (void)
{
  static const guint16 values[] = { 0, 1, 255, 256, 4095, 32768, 65534,
    65535
  };
  static const guint16 thresholds[] = { 0, 255, 256, 32767, 65534, 65535 };
  CipImage src = cip_test_image_new (G_N_ELEMENTS (values), 2,
      CIP_FORMAT_GRAY16, 1);
  CipImage dst = cip_test_image_new (src.width, 2, CIP_FORMAT_GRAY8, 0);
  CipImage gray8 = cip_test_image_new (4, 1, CIP_FORMAT_GRAY8, 0);
  CipImage gray8_dst = cip_test_image_new (4, 1, CIP_FORMAT_GRAY8, 0);
  CipMaskParams params = { 300, 200, false };
  guint i, j;
  int y;

  for (y = 0; y < 2; y++)
    for (i = 0; i < G_N_ELEMENTS (values); i++) {
      guint8 *p = (guint8 *) src.data + y * src.stride + 2 * i;

      p[0] = values[i] & 0xff;
      p[1] = values[i] >> 8;
    }
  for (j = 0; j < G_N_ELEMENTS (thresholds); j++)
    for (i = 0; i < 2; i++) {
      params.threshold = thresholds[j];
      params.invert = i;
      assert_ok (cip_ref_mask (&src, &dst, &params, NULL), "mask16");
      for (y = 0; y < 2; y++) {
        guint k;

        for (k = 0; k < G_N_ELEMENTS (values); k++)
          g_assert_cmpuint (((guint8 *) dst.data)[y * dst.stride + k], ==,
              ((values[k] > thresholds[j]) != (bool) i) ? 200 : 0);
      }
    }

  memset (gray8.data, 255, 4);
  params.threshold = 300;
  params.invert = false;
  assert_ok (cip_ref_mask (&gray8, &gray8_dst, &params, NULL), "mask8");
  for (i = 0; i < 4; i++)
    g_assert_cmpuint (((guint8 *) gray8_dst.data)[i], ==, 0);

  /* GRAY16 out, or GRAY16 into cip_otsu, is refused */
  g_assert_cmpint (cip_ref_mask (&src, &src, &params, NULL), ==,
      CIP_ERROR_INVALID_ARGUMENT);
  {
    guint8 t8;

    g_assert_cmpint (cip_ref_otsu (&src, &dst, false, &t8, NULL), ==,
        CIP_ERROR_INVALID_ARGUMENT);
  }
  {
    guint16 t16;

    g_assert_cmpint (cip_ref_otsu16 (&gray8, &gray8_dst, false, &t16, NULL),
        ==, CIP_ERROR_INVALID_ARGUMENT);
    g_assert_cmpint (cip_ref_otsu16 (&src, &dst, false, NULL, NULL), ==,
        CIP_ERROR_INVALID_ARGUMENT);
  }
  cip_test_image_free (&gray8_dst);
  cip_test_image_free (&gray8);
  cip_test_image_free (&dst);
  cip_test_image_free (&src);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/reference/gray/bt601-opencv", test_gray_bt601_opencv);
  g_test_add_func ("/reference/gray/gray8-copy", test_gray_gray8_copy);
  g_test_add_func ("/reference/gray/hand-computed", test_gray_hand_computed);
  g_test_add_func ("/reference/gray/float-formulas", test_gray_float_formulas);
  g_test_add_func ("/reference/equalize/opencv", test_equalize_opencv);
  g_test_add_func ("/reference/equalize/edge-cases", test_equalize_edge_cases);
  g_test_add_func ("/reference/equalize/odd-sizes", test_equalize_odd_sizes);
  g_test_add_func ("/reference/otsu/opencv", test_otsu_opencv);
  g_test_add_func ("/reference/otsu/edge-cases", test_otsu_edge_cases);
  g_test_add_func ("/reference/otsu/odd-sizes", test_otsu_odd_sizes);
  g_test_add_func ("/reference/histogram", test_histogram);
  g_test_add_func ("/reference/mask/semantics", test_mask_semantics);
  g_test_add_func ("/reference/mask/gray16", test_mask16);
  g_test_add_func ("/reference/otsu16/skimage", test_otsu16_skimage);
  g_test_add_func ("/reference/invalid-arguments", test_invalid_arguments);

  return g_test_run ();
}
