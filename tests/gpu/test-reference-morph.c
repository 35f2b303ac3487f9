/* gst-cuda-imgproc
 * Copyright (C) 2026 The gst-cuda-imgproc authors
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2 of the License, or (at your option) any later version.
 */

/* The morphology reference (gpu/ref/morph.c) against OpenCV 4.6's erode,
 * dilate and morphologyEx (MD5s in tests/data/expected-morph.ini), against
 * a tap-by-tap minimum over cip_morph_element's element, and against
 * cases worked out by hand. */

#include <string.h>

#include "cip-ref.h"
#include "test-util.h"

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

#define fail(...)                                                       \
  G_STMT_START {                                                        \
    gchar *_msg = g_strdup_printf (__VA_ARGS__);                        \
    g_assertion_message (G_LOG_DOMAIN, __FILE__, __LINE__, G_STRFUNC, _msg); \
    g_free (_msg);                                                      \
  } G_STMT_END

static size_t
row_bytes (const CipImage * image)
{
  return (size_t) image->width * cip_format_bytes_per_pixel (image->format);
}

static guint8 *
row_of (const CipImage * image, int y)
{
  return (guint8 *) image->data + y * image->stride;
}

/* A destination like @src with @pad random bytes after each row. */
static CipImage
dst_for (const CipImage * src, size_t pad)
{
  CipImage dst = cip_test_image_new (src->width, src->height, src->format,
      pad);

  cip_test_image_fill_random (&dst, 0x30f + pad);
  return dst;
}

static void
assert_padding_untouched (const CipImage * dst, size_t pad)
{
  CipImage pattern = dst_for (dst, pad);
  int y;

  for (y = 0; y < dst->height; y++)
    g_assert_cmpmem (row_of (dst, y) + row_bytes (dst), pad,
        row_of (&pattern, y) + row_bytes (dst), pad);
  cip_test_image_free (&pattern);
}

/* The same bytes seen as another format of the same pixel size. */
static CipImage
reinterpret (const CipImage * image, int width, CipFormat format)
{
  CipImage copy = cip_test_image_copy (image, 3);

  copy.width = width;
  copy.format = format;
  return copy;
}

/* Channel @c of pixel @x of row @y: a byte, or GRAY16's little-endian
 * sample at any alignment. */
static guint
sample_at (const CipImage * image, int x, int y, int c)
{
  const guint8 *row = row_of (image, y);

  if (image->format == CIP_FORMAT_GRAY16)
    return row[2 * x] | row[2 * x + 1] << 8;
  return row[x * cip_format_bytes_per_pixel (image->format) + c];
}

static void
set_sample (CipImage * image, int x, int y, int c, guint v)
{
  guint8 *row = row_of (image, y);

  if (image->format == CIP_FORMAT_GRAY16) {
    row[2 * x] = (guint8) v;
    row[2 * x + 1] = (guint8) (v >> 8);
    return;
  }
  row[x * cip_format_bytes_per_pixel (image->format) + c] = (guint8) v;
}

/* The definition, tap by tap: the extremum over the element's pixels that
 * lie inside the image. */
static void
naive_pass (const CipImage * src, CipImage * dst, CipMorphShape shape,
    int radius, gboolean take_max)
{
  int size = 2 * radius + 1;
  gboolean wide = src->format == CIP_FORMAT_GRAY16;
  int channels = wide ? 1 : cip_format_bytes_per_pixel (src->format);
  guint8 *element = g_malloc (size * size);
  int x, y, c, dx, dy;

  g_assert_cmpint (cip_morph_element (shape, radius, element), ==, CIP_OK);
  for (y = 0; y < src->height; y++) {
    for (x = 0; x < src->width; x++) {
      for (c = 0; c < channels; c++) {
        guint v = take_max ? 0 : wide ? 65535 : 255;

        for (dy = -radius; dy <= radius; dy++) {
          for (dx = -radius; dx <= radius; dx++) {
            guint p;

            if (!element[(dy + radius) * size + dx + radius] ||
                y + dy < 0 || y + dy >= src->height ||
                x + dx < 0 || x + dx >= src->width)
              continue;
            p = sample_at (src, x + dx, y + dy, c);
            v = take_max ? MAX (v, p) : MIN (v, p);
          }
        }
        set_sample (dst, x, y, c, v);
      }
    }
  }
  g_free (element);
}

static void
naive_morph (const CipImage * src, CipImage * dst, CipMorphOperation op,
    CipMorphShape shape, int radius)
{
  CipImage mid;

  if (op == CIP_MORPH_ERODE || op == CIP_MORPH_DILATE) {
    naive_pass (src, dst, shape, radius, op == CIP_MORPH_DILATE);
    return;
  }
  mid = cip_test_image_new (src->width, src->height, src->format, 0);
  naive_pass (src, &mid, shape, radius, op == CIP_MORPH_CLOSE);
  naive_pass (&mid, dst, shape, radius, op == CIP_MORPH_OPEN);
  cip_test_image_free (&mid);
}

/* Elements */

static void
test_element (void)
{
  static const guint8 disk2[25] = {
    0, 0, 1, 0, 0,
    0, 1, 1, 1, 0,
    1, 1, 1, 1, 1,
    0, 1, 1, 1, 0,
    0, 0, 1, 0, 0,
  };
  static const guint8 cross2[25] = {
    0, 0, 1, 0, 0,
    0, 0, 1, 0, 0,
    1, 1, 1, 1, 1,
    0, 0, 1, 0, 0,
    0, 0, 1, 0, 0,
  };
  /* Pixels in scikit-image's disk (r), for radii[]. */
  static const int disk_area[] = { 5, 13, 29, 81, 197, 901, 3209 };
  guint8 element[65 * 65 + 1];
  guint i;
  int r, k;

  g_assert_cmpint (cip_morph_element (CIP_SHAPE_DISK, 2, element), ==, CIP_OK);
  g_assert_cmpmem (element, 25, disk2, 25);
  g_assert_cmpint (cip_morph_element (CIP_SHAPE_CROSS, 2, element), ==, CIP_OK);
  g_assert_cmpmem (element, 25, cross2, 25);

  for (i = 0; i < G_N_ELEMENTS (radii); i++) {
    int n = 2 * radii[i] + 1, area = 0;

    g_assert_cmpint (cip_morph_element (CIP_SHAPE_DISK, radii[i], element),
        ==, CIP_OK);
    for (k = 0; k < n * n; k++)
      area += element[k];
    g_assert_cmpint (area, ==, disk_area[i]);
  }

  for (r = CIP_MORPH_RADIUS_MIN; r <= CIP_MORPH_RADIUS_MAX; r++) {
    int n = 2 * r + 1, area = 0;

    /* Only the element's own bytes are written. */
    element[n * n] = 0xa5;
    g_assert_cmpint (cip_morph_element (CIP_SHAPE_SQUARE, r, element), ==,
        CIP_OK);
    for (k = 0; k < n * n; k++)
      area += element[k] == 1;
    g_assert_cmpint (area, ==, n * n);
    g_assert_cmpint (cip_morph_element (CIP_SHAPE_CROSS, r, element), ==,
        CIP_OK);
    for (k = 0, area = 0; k < n * n; k++)
      area += element[k];
    g_assert_cmpint (area, ==, 2 * n - 1);
    g_assert_cmpint (element[r * n], ==, 1);
    g_assert_cmpint (element[0], ==, 0);
    g_assert_cmpint (element[n * n], ==, 0xa5);
  }

  g_assert_cmpint (cip_morph_element (CIP_SHAPE_DISK, 0, element), ==,
      CIP_ERROR_INVALID_ARGUMENT);
  g_assert_cmpint (cip_morph_element (CIP_SHAPE_DISK, 33, element), ==,
      CIP_ERROR_INVALID_ARGUMENT);
  g_assert_cmpint (cip_morph_element ((CipMorphShape) 3, 1, element), ==,
      CIP_ERROR_INVALID_ARGUMENT);
  g_assert_cmpint (cip_morph_element ((CipMorphShape) - 1, 1, element), ==,
      CIP_ERROR_INVALID_ARGUMENT);
  g_assert_cmpint (cip_morph_element (CIP_SHAPE_DISK, 1, NULL), ==,
      CIP_ERROR_INVALID_ARGUMENT);
}

/* OpenCV */

/* Every operation, shape and radius of one .ini group on @src. */
static void
check_group (GKeyFile * expected, const char *group, const CipImage * src,
    const char *what)
{
  guint o, s, i;
  int checked = 0;

  for (o = 0; o < G_N_ELEMENTS (operations); o++) {
    for (s = 0; s < G_N_ELEMENTS (shapes); s++) {
      for (i = 0; i < G_N_ELEMENTS (radii); i++) {
        gchar *key = g_strdup_printf ("%s-%s-%d", operation_names[o],
            shape_names[s], radii[i]);
        gchar *want = g_key_file_get_string (expected, group, key, NULL);
        CipImage dst;
        gchar *got;

        if (want == NULL) {
          g_free (key);
          continue;             /* radius left out of this group */
        }
        dst = dst_for (src, 5);
        if (cip_ref_morph (src, &dst, operations[o], shapes[s], radii[i],
                NULL) != CIP_OK)
          fail ("%s %s: refused", what, key);
        got = cip_test_image_md5 (&dst);
        if (strcmp (got, want) != 0)
          fail ("%s %s: MD5 %s, OpenCV's %s", what, key, got, want);
        assert_padding_untouched (&dst, 5);
        checked++;
        g_free (got);
        g_free (want);
        g_free (key);
        cip_test_image_free (&dst);
      }
    }
  }
  /* A group missing from the file must not pass. */
  g_assert_cmpint (checked, >=, 36);
}

static void
test_opencv_gray (void)
{
  GKeyFile *expected = cip_test_expected_file ("expected-morph.ini");
  static const char *names[] = { "coins", "camera", "random", "dots" };
  guint i;

  for (i = 0; i < G_N_ELEMENTS (names); i++) {
    gchar *file = g_strdup_printf ("%s%s.pgm", i >= 2 ? "morph-" : "",
        names[i]);
    CipImage src = cip_test_image_load (file);
    /* Padded rows: the stride must not matter. */
    CipImage padded = cip_test_image_copy (&src, 7);

    check_group (expected, names[i], &padded, file);
    cip_test_image_free (&padded);
    cip_test_image_free (&src);
    g_free (file);
  }
  g_key_file_unref (expected);
}

/* Coins at its Otsu threshold: binary morphology on a mask.  Erosion with
 * disk (2) is also scikit-image's binary_erosion, stored as an image. */
static void
test_opencv_mask (void)
{
  GKeyFile *expected = cip_test_expected_file ("expected-morph.ini");
  CipImage coins = cip_test_image_load ("coins.pgm");
  CipImage want = cip_test_image_load ("morph-coins-mask-erode-disk-2.pgm");
  CipImage mask = dst_for (&coins, 0), dst = dst_for (&coins, 0);
  guint8 threshold;
  gchar *where = NULL;

  g_assert_cmpint (cip_ref_otsu (&coins, &mask, FALSE, &threshold, NULL), ==,
      CIP_OK);
  check_group (expected, "coins-mask", &mask, "coins mask");
  g_assert_cmpint (cip_ref_morph (&mask, &dst, CIP_MORPH_ERODE,
          CIP_SHAPE_DISK, 2, NULL), ==, CIP_OK);
  if (!cip_test_images_equal (&dst, &want, &where))
    fail ("coins mask, erode disk 2: %s", where);

  cip_test_image_free (&dst);
  cip_test_image_free (&mask);
  cip_test_image_free (&want);
  cip_test_image_free (&coins);
  g_key_file_unref (expected);
}

/* GRAY16: 16-bit samples (CV_16U), rows at odd strides and at an odd
 * address too. */
static void
test_opencv_gray16 (void)
{
  GKeyFile *expected = cip_test_expected_file ("expected-morph.ini");
  static const char *names[] = { "random16", "camera16" };
  guint i;

  for (i = 0; i < G_N_ELEMENTS (names); i++) {
    gchar *file = g_strdup_printf ("morph16-%s.pgm", i == 0 ? "random" :
        "camera");
    CipImage src = cip_test_image_load (file);
    CipImage padded = cip_test_image_copy (&src, 7);
    /* The same rows one byte into a larger allocation. */
    CipImage odd = cip_test_image_new (src.width, src.height, src.format, 9);
    int y;

    g_assert_cmpint (src.format, ==, CIP_FORMAT_GRAY16);
    check_group (expected, names[i], &padded, file);
    odd.data = (guint8 *) odd.data + 1;
    odd.stride -= 2;
    for (y = 0; y < src.height; y++)
      memcpy (row_of (&odd, y), row_of (&src, y), row_bytes (&src));
    check_group (expected, names[i], &odd, "odd address");
    odd.data = (guint8 *) odd.data - 1;
    cip_test_image_free (&odd);
    cip_test_image_free (&padded);
    cip_test_image_free (&src);
    g_free (file);
  }
  g_key_file_unref (expected);
}

/* Each byte is its own channel, whatever the four-byte format says. */
static void
test_opencv_four_byte (void)
{
  GKeyFile *expected = cip_test_expected_file ("expected-morph.ini");
  CipImage wide = cip_test_image_load ("morph-random-rgba.pgm");
  CipImage rgb = cip_test_image_load ("chelsea.ppm");
  CipImage rgba = cip_test_image_repack (&rgb, CIP_FORMAT_RGBA, 0x5a, 9);
  guint f;

  for (f = 0; f < G_N_ELEMENTS (four_byte_formats); f++) {
    CipImage src = reinterpret (&wide, wide.width / 4, four_byte_formats[f]);
    gchar *what = g_strdup_printf ("random %s",
        cip_format_name (four_byte_formats[f]));

    check_group (expected, "random-rgba", &src, what);
    cip_test_image_free (&src);
    g_free (what);
  }
  check_group (expected, "chelsea-rgba", &rgba, "chelsea RGBA");

  cip_test_image_free (&rgba);
  cip_test_image_free (&rgb);
  cip_test_image_free (&wide);
  g_key_file_unref (expected);
}

/* Odd sizes, every radius up to past the image, against the tap-by-tap
 * definition. */
static void
test_naive (void)
{
  static const int sizes[][2] = {
    {1, 1}, {2, 3}, {3, 2}, {7, 5}, {1, 19}, {19, 1}, {23, 17},
  };
  static const int naive_radii[] = { 1, 2, 3, 4, 6, 9, 17, 32 };
  static const CipFormat formats[] = {
    CIP_FORMAT_GRAY8, CIP_FORMAT_BGRX, CIP_FORMAT_GRAY16,
  };
  guint i, f, o, s, r;

  for (i = 0; i < G_N_ELEMENTS (sizes); i++) {
    for (f = 0; f < G_N_ELEMENTS (formats); f++) {
      CipImage src = cip_test_image_new (sizes[i][0], sizes[i][1],
          formats[f], 3);

      cip_test_image_fill_random (&src, 77 + i * 3 + f);
      for (o = 0; o < G_N_ELEMENTS (operations); o++) {
        for (s = 0; s < G_N_ELEMENTS (shapes); s++) {
          for (r = 0; r < G_N_ELEMENTS (naive_radii); r++) {
            CipImage dst = dst_for (&src, 2), want = dst_for (&src, 0);
            gchar *where = NULL;

            g_assert_cmpint (cip_ref_morph (&src, &dst, operations[o],
                    shapes[s], naive_radii[r], NULL), ==, CIP_OK);
            naive_morph (&src, &want, operations[o], shapes[s], naive_radii[r]);
            if (!cip_test_images_equal (&dst, &want, &where))
              fail ("%dx%d %s %s %s %d: %s", src.width, src.height,
                  cip_format_name (src.format), operation_names[o],
                  shape_names[s], naive_radii[r], where);
            assert_padding_untouched (&dst, 2);
            cip_test_image_free (&want);
            cip_test_image_free (&dst);
          }
        }
      }
      cip_test_image_free (&src);
    }
  }
}

/* Worked out by hand. */
static void
test_hand_computed (void)
{
  /* A dark pixel in a bright 5x5 image: erosion spreads it to the
   * element, centred on it; dilation takes it away. */
  static const guint8 hole[25] = {
    9, 9, 9, 9, 9,
    9, 9, 9, 9, 9,
    9, 9, 1, 9, 9,
    9, 9, 9, 9, 9,
    9, 9, 9, 9, 9,
  };
  static const guint8 hole_cross[25] = {
    9, 9, 9, 9, 9,
    9, 9, 1, 9, 9,
    9, 1, 1, 1, 9,
    9, 9, 1, 9, 9,
    9, 9, 9, 9, 9,
  };
  /* Bright corner pixel, dilated with square 1: the outside adds nothing. */
  static const guint8 corner[12] = {
    200, 0, 0, 0,
    0, 0, 0, 0,
    0, 0, 0, 50,
  };
  static const guint8 corner_dilated[12] = {
    200, 200, 0, 0,
    200, 200, 50, 50,
    0, 0, 50, 50,
  };
  /* Open removes a one-pixel line thinner than a disk 1; close fills a
   * one-pixel gap. */
  static const guint8 line[15] = {
    0, 0, 0, 0, 0,
    7, 7, 7, 7, 7,
    0, 0, 0, 0, 0,
  };
  static const guint8 gap[15] = {
    7, 7, 7, 7, 7,
    7, 7, 0, 7, 7,
    7, 7, 7, 7, 7,
  };
  static const guint8 nines[25] = {
    9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9,
  };
  static const guint8 zeros[15] = { 0 };
  static const guint8 sevens[15] = {
    7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7,
  };
  static const struct
  {
    int width, height;
    const guint8 *in, *out;
    CipMorphOperation op;
    CipMorphShape shape;
    int radius;
  } cases[] = {
    {5, 5, hole, hole_cross, CIP_MORPH_ERODE, CIP_SHAPE_CROSS, 1},
    {5, 5, hole, hole_cross, CIP_MORPH_ERODE, CIP_SHAPE_DISK, 1},
    {5, 5, hole, nines, CIP_MORPH_DILATE, CIP_SHAPE_DISK, 1},
    {4, 3, corner, corner_dilated, CIP_MORPH_DILATE, CIP_SHAPE_SQUARE, 1},
    {5, 3, line, zeros, CIP_MORPH_OPEN, CIP_SHAPE_DISK, 1},
    /* Dilation fills the image; outside pixels do not erode it back. */
    {5, 3, line, sevens, CIP_MORPH_CLOSE, CIP_SHAPE_DISK, 1},
    {5, 3, gap, sevens, CIP_MORPH_CLOSE, CIP_SHAPE_SQUARE, 1},
    {5, 3, gap, gap, CIP_MORPH_OPEN, CIP_SHAPE_CROSS, 1},
  };
  guint i, o;

  for (i = 0; i < G_N_ELEMENTS (cases); i++) {
    CipImage src = cip_test_image_new (cases[i].width, cases[i].height,
        CIP_FORMAT_GRAY8, 1);
    CipImage dst = dst_for (&src, 3);
    int y, x;

    for (y = 0; y < src.height; y++)
      memcpy (row_of (&src, y), cases[i].in + y * src.width, src.width);
    g_assert_cmpint (cip_ref_morph (&src, &dst, cases[i].op, cases[i].shape,
            cases[i].radius, NULL), ==, CIP_OK);
    for (y = 0; y < src.height; y++) {
      for (x = 0; x < src.width; x++) {
        guint8 want = cases[i].out[y * src.width + x];

        if (row_of (&dst, y)[x] != want)
          fail ("case %u: (%d, %d) is %u, not %u", i, x, y,
              row_of (&dst, y)[x], want);
      }
    }
    assert_padding_untouched (&dst, 3);
    cip_test_image_free (&dst);
    cip_test_image_free (&src);
  }

  /* A 1x1 image keeps its value through everything. */
  for (o = 0; o < G_N_ELEMENTS (operations); o++) {
    guint8 in = 123, out = 0;
    CipImage src = { &in, 1, 1, 1, CIP_FORMAT_GRAY8 };
    CipImage dst = { &out, 1, 1, 1, CIP_FORMAT_GRAY8 };

    g_assert_cmpint (cip_ref_morph (&src, &dst, operations[o],
            CIP_SHAPE_DISK, 32, NULL), ==, CIP_OK);
    g_assert_cmpint (out, ==, 123);
  }

  /* Dilating one bright pixel draws the element. */
  for (o = 0; o < G_N_ELEMENTS (shapes); o++) {
    int r = 6, n = 2 * r + 1, x, y;
    guint8 element[13 * 13];
    CipImage src = cip_test_image_new (n + 4, n + 2, CIP_FORMAT_GRAY8, 0);
    CipImage dst = dst_for (&src, 0);

    memset (src.data, 0, src.stride * src.height);
    row_of (&src, r + 1)[r + 2] = 255;
    g_assert_cmpint (cip_morph_element (shapes[o], r, element), ==, CIP_OK);
    g_assert_cmpint (cip_ref_morph (&src, &dst, CIP_MORPH_DILATE, shapes[o],
            r, NULL), ==, CIP_OK);
    for (y = 0; y < dst.height; y++)
      for (x = 0; x < dst.width; x++) {
        int ey = y - 1, ex = x - 2;
        guint8 want = ey >= 0 && ey < n && ex >= 0 && ex < n &&
            element[ey * n + ex] ? 255 : 0;

        if (row_of (&dst, y)[x] != want)
          fail ("%s: (%d, %d)", shape_names[o], x, y);
      }
    cip_test_image_free (&dst);
    cip_test_image_free (&src);
  }
}

/* Invalid arguments */

static void
test_invalid_arguments (void)
{
  static const CipFormat refused_formats[] = {
    CIP_FORMAT_RGB, CIP_FORMAT_BGR, CIP_FORMAT_GRAY16_BE, CIP_FORMAT_YUYV,
  };
  CipImage gray = cip_test_image_new (5, 3, CIP_FORMAT_GRAY8, 2);
  CipImage rgba = cip_test_image_new (5, 3, CIP_FORMAT_RGBA, 0);
  CipImage dst = cip_test_image_new (5, 3, CIP_FORMAT_GRAY8, 2);
  CipImage pristine, rgba_pristine, big;
  CipBadImages other;
  guint8 *buffer;
  int c;
  guint f;

  cip_test_image_fill_random (&gray, 1);
  cip_test_image_fill_random (&rgba, 2);
  cip_test_image_fill_random (&dst, 3);
  pristine = cip_test_image_copy (&dst, 2);
  rgba_pristine = cip_test_image_copy (&rgba, 0);
  cip_test_bad_images_init (&other, &rgba);

  /* Sanity: the unmodified arguments are accepted. */
  {
    CipImage d = cip_test_image_copy (&dst, 2);

    g_assert_cmpint (cip_ref_morph (&gray, &d, CIP_MORPH_OPEN,
            CIP_SHAPE_DISK, 1, NULL), ==, CIP_OK);
    cip_test_image_free (&d);
  }

#define REFUSED(call, what)                                             \
  G_STMT_START {                                                        \
    if ((call) != CIP_ERROR_INVALID_ARGUMENT)                           \
      fail ("%s accepted", what);                                       \
    if (!cip_test_images_equal (&dst, &pristine, NULL) ||               \
        !cip_test_images_equal (&rgba, &rgba_pristine, NULL))           \
      fail ("%s: written", what);                                       \
  } G_STMT_END

  for (c = 0; c < CIP_N_BAD_CASES; c++) {
    CipImage s = gray, d = dst;
    const CipImage *sp = &s;
    CipImage *dp = &d;
    gboolean extra_null = FALSE;
    gchar *what = g_strdup_printf ("case %d", c);

    if (c == CIP_BAD_EXTRA_NULL)
      continue;                 /* no pointer parameter */
    cip_test_spoil_arguments (c, &other, &s, &d, &sp, &dp, &extra_null);
    REFUSED (cip_ref_morph (sp, dp, CIP_MORPH_ERODE, CIP_SHAPE_DISK, 1,
            NULL), what);
    g_free (what);
  }

  /* Bad enums and radii. */
  REFUSED (cip_ref_morph (&gray, &dst, (CipMorphOperation) 4,
          CIP_SHAPE_DISK, 1, NULL), "operation 4");
  REFUSED (cip_ref_morph (&gray, &dst, (CipMorphOperation) - 1,
          CIP_SHAPE_DISK, 1, NULL), "operation -1");
  REFUSED (cip_ref_morph (&gray, &dst, CIP_MORPH_ERODE, (CipMorphShape) 3,
          1, NULL), "shape 3");
  REFUSED (cip_ref_morph (&gray, &dst, CIP_MORPH_ERODE, CIP_SHAPE_DISK, 0,
          NULL), "radius 0");
  REFUSED (cip_ref_morph (&gray, &dst, CIP_MORPH_ERODE, CIP_SHAPE_DISK, -1,
          NULL), "radius -1");
  REFUSED (cip_ref_morph (&gray, &dst, CIP_MORPH_ERODE, CIP_SHAPE_DISK, 33,
          NULL), "radius 33");

  /* Formats: three-byte sources, two-byte ones other than GRAY16, and a
   * mismatch between two four-byte formats or GRAY16 and GRAY8. */
  for (f = 0; f < G_N_ELEMENTS (refused_formats); f++) {
    CipImage s = gray, d = dst;

    s.format = d.format = refused_formats[f];
    s.width = d.width = 1;
    REFUSED (cip_ref_morph (&s, &d, CIP_MORPH_ERODE, CIP_SHAPE_DISK, 1,
            NULL), cip_format_name (refused_formats[f]));
  }
  {
    CipImage s = rgba, d = rgba;

    s.format = CIP_FORMAT_BGRA;
    d.data = dst.data;
    d.stride = dst.stride;
    d.width = 1;
    s.width = 1;
    REFUSED (cip_ref_morph (&s, &d, CIP_MORPH_ERODE, CIP_SHAPE_DISK, 1,
            NULL), "BGRA to RGBA");
  }
  {
    CipImage s = gray, d = dst;

    s.format = CIP_FORMAT_GRAY16;
    s.width = d.width = 2;
    REFUSED (cip_ref_morph (&s, &d, CIP_MORPH_ERODE, CIP_SHAPE_DISK, 1,
            NULL), "GRAY16 to GRAY8");
  }

  /* In place, or sharing bytes. */
  REFUSED (cip_ref_morph (&dst, &dst, CIP_MORPH_ERODE, CIP_SHAPE_DISK, 1,
          NULL), "in place");
  big = cip_test_image_new (8, 8, CIP_FORMAT_GRAY8, 0);
  buffer = big.data;
  {
    CipImage s = { buffer, 4, 4, 8, CIP_FORMAT_GRAY8 };
    CipImage d = { buffer + 3 * 8 + 3, 4, 4, 8, CIP_FORMAT_GRAY8 };
    CipImage apart = { buffer + 4, 4, 4, 8, CIP_FORMAT_GRAY8 };

    REFUSED (cip_ref_morph (&s, &d, CIP_MORPH_ERODE, CIP_SHAPE_DISK, 1,
            NULL), "overlapping");
    REFUSED (cip_ref_morph (&d, &s, CIP_MORPH_ERODE, CIP_SHAPE_DISK, 1,
            NULL), "overlapping, swapped");
    /* Interleaved columns of one allocation share rows' spans: refused
     * too, though no byte is both read and written. */
    REFUSED (cip_ref_morph (&s, &apart, CIP_MORPH_ERODE, CIP_SHAPE_DISK, 1,
            NULL), "interleaved");
  }
  cip_test_image_free (&big);
#undef REFUSED

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

  g_test_add_func ("/reference/morph/element", test_element);
  g_test_add_func ("/reference/morph/opencv-gray", test_opencv_gray);
  g_test_add_func ("/reference/morph/opencv-mask", test_opencv_mask);
  g_test_add_func ("/reference/morph/opencv-gray16", test_opencv_gray16);
  g_test_add_func ("/reference/morph/opencv-four-byte", test_opencv_four_byte);
  g_test_add_func ("/reference/morph/naive", test_naive);
  g_test_add_func ("/reference/morph/hand-computed", test_hand_computed);
  g_test_add_func ("/reference/morph/invalid-arguments",
      test_invalid_arguments);
  return g_test_run ();
}
