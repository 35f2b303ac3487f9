/* gst-cuda-imgproc
 * Copyright (C) 2026 The gst-cuda-imgproc authors
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2 of the License, or (at your option) any later version.
 */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "test-util.h"

CipImage
cip_test_image_new (int width, int height, CipFormat format, size_t pad)
{
  CipImage image;

  image.width = width;
  image.height = height;
  image.format = format;
  image.stride = (size_t) width *cip_format_bytes_per_pixel (format) + pad;
  image.data = g_malloc0 (image.stride * height);
  return image;
}

void
cip_test_image_free (CipImage * image)
{
  g_clear_pointer (&image->data, g_free);
}

CipImage
cip_test_image_copy (const CipImage * image, size_t pad)
{
  CipImage copy = cip_test_image_new (image->width, image->height,
      image->format, pad);
  size_t row = (size_t) image->width * cip_format_bytes_per_pixel
      (image->format);
  int y;

  for (y = 0; y < image->height; y++)
    memcpy ((guint8 *) copy.data + y * copy.stride,
        (const guint8 *) image->data + y * image->stride, row);
  return copy;
}

void
cip_test_image_fill_random (CipImage * image, guint32 seed)
{
  GRand *rand = g_rand_new_with_seed (seed);
  guint8 *p = image->data;
  size_t i, n = image->stride * image->height;

  for (i = 0; i < n; i++)
    p[i] = g_rand_int (rand) & 0xff;
  g_rand_free (rand);
}

const char *const cip_test_shape_names[CIP_TEST_N_SHAPES] = {
  "empty", "full", "dots", "border", "spiral", "comb", "u-comb", "snake",
  "checker", "random 10%", "random 50%", "random 70%",
};

static void
set_px (CipImage * m, int x, int y, guint8 v)
{
  ((guint8 *) m->data)[(size_t) y * m->stride + x] = v;
}

static guint8
get_px (const CipImage * m, int x, int y)
{
  return ((const guint8 *) m->data)[(size_t) y * m->stride + x];
}

static gboolean
spiral_free (const CipImage * m, int x, int y)
{
  return x < 0 || y < 0 || x >= m->width || y >= m->height ||
      get_px (m, x, y) == 0;
}

/* A square spiral from the top-left corner inwards, arms two apart. */
static void
draw_spiral (CipImage * m)
{
  int x = 0, y = 0, dx = 1, dy = 0, turns = 0;

  set_px (m, 0, 0, 255);
  while (turns < 2) {
    int nx = x + dx, ny = y + dy;

    if (nx >= 0 && ny >= 0 && nx < m->width && ny < m->height &&
        get_px (m, nx, ny) == 0 && spiral_free (m, nx + dx, ny + dy) &&
        spiral_free (m, nx + dx - dy, ny + dy + dx) &&
        spiral_free (m, nx + dx + dy, ny + dy - dx)) {
      x = nx;
      y = ny;
      set_px (m, x, y, 255);
      turns = 0;
    } else {
      int t = dx;

      dx = -dy;
      dy = t;
      turns++;
    }
  }
}

void
cip_test_draw_shape (CipImage * m, CipTestShape shape)
{
  int w = m->width, h = m->height;

  for (int y = 0; y < h; y++) {
    for (int x = 0; x < w; x++) {
      guint8 v = get_px (m, x, y);
      gboolean on = FALSE;

      switch (shape) {
        case CIP_TEST_SHAPE_EMPTY:
        case CIP_TEST_SHAPE_SPIRAL:
          break;
        case CIP_TEST_SHAPE_FULL:
          on = TRUE;
          break;
        case CIP_TEST_SHAPE_DOTS:
          on = x % 2 == 0 && y % 2 == 0;
          break;
        case CIP_TEST_SHAPE_BORDER:
          on = x == 0 || y == 0 || x == w - 1 || y == h - 1 ||
              (x % 4 == 2 && y % 4 == 2 && x < w - 2 && y < h - 2);
          break;
        case CIP_TEST_SHAPE_COMB:
          on = y == 0 || (x % 2 == 0 && y < h - 1);
          break;
        case CIP_TEST_SHAPE_U_COMB:
          on = y == h - 1 || x % 2 == 0;
          break;
        case CIP_TEST_SHAPE_SNAKE:
          on = y % 2 == 0 || x == ((y / 2) % 2 == 0 ? w - 1 : 0);
          break;
        case CIP_TEST_SHAPE_CHECKER:
          on = (x + y) % 2 == 0;
          break;
        case CIP_TEST_SHAPE_SPARSE:
          on = v < 26;
          break;
        case CIP_TEST_SHAPE_HALF:
          on = v < 128;
          break;
        case CIP_TEST_SHAPE_DENSE:
          on = v < 179;
          break;
        case CIP_TEST_N_SHAPES:
          g_assert_not_reached ();
      }
      set_px (m, x, y, on ? 1 + v % 255 : 0);
    }
  }
  if (shape == CIP_TEST_SHAPE_SPIRAL)
    draw_spiral (m);
}

gchar *
cip_test_data_path (const char *name)
{
  const gchar *dir = g_getenv ("CIP_TEST_DATA");

  g_assert_nonnull (dir);
  return g_build_filename (dir, name, NULL);
}

/* Skips whitespace and '#' comments in a netpbm header. */
static const guint8 *
netpbm_skip (const guint8 * p, const guint8 * end)
{
  while (p < end && (g_ascii_isspace (*p) || *p == '#')) {
    if (*p == '#')
      while (p < end && *p != '\n')
        p++;
    else
      p++;
  }
  return p;
}

static const guint8 *
netpbm_int (const guint8 * p, const guint8 * end, int *value)
{
  p = netpbm_skip (p, end);
  *value = 0;
  while (p < end && g_ascii_isdigit (*p))
    *value = *value * 10 + (*p++ - '0');
  return p;
}

CipImage
cip_test_image_load (const char *name)
{
  gchar *path = cip_test_data_path (name), *contents;
  gsize length;
  GError *error = NULL;
  const guint8 *p, *end;
  int width, height, maxval;
  CipFormat format;
  CipImage image;
  size_t row;
  int y;

  if (!g_file_get_contents (path, &contents, &length, &error))
    g_error ("cannot read %s: %s", path, error->message);
  p = (const guint8 *) contents;
  end = p + length;
  g_assert_true (length > 2 && p[0] == 'P' && (p[1] == '5' || p[1] == '6'));
  format = p[1] == '5' ? CIP_FORMAT_GRAY8 : CIP_FORMAT_RGB;
  p = netpbm_int (p + 2, end, &width);
  p = netpbm_int (p, end, &height);
  p = netpbm_int (p, end, &maxval);
  /* 16-bit gray: big-endian samples, GRAY16 (little-endian) here */
  g_assert_true (maxval == 255 || (maxval == 65535 &&
          format == CIP_FORMAT_GRAY8));
  if (maxval == 65535)
    format = CIP_FORMAT_GRAY16;
  p++;                          /* the single whitespace before the pixels */

  image = cip_test_image_new (width, height, format, 0);
  row = (size_t) width *cip_format_bytes_per_pixel (format);
  g_assert_cmpuint ((gsize) (end - p), >=, row * height);
  for (y = 0; y < height; y++) {
    guint8 *out = (guint8 *) image.data + y * image.stride;
    size_t i;

    memcpy (out, p + y * row, row);
    if (format == CIP_FORMAT_GRAY16)
      for (i = 0; i < row; i += 2) {
        guint8 high = out[i];

        out[i] = out[i + 1];
        out[i + 1] = high;
      }
  }

  g_free (contents);
  g_free (path);
  return image;
}

CipImage
cip_test_image_repack (const CipImage * rgb, CipFormat format, guint8 filler,
    size_t pad)
{
  CipImage out = cip_test_image_new (rgb->width, rgb->height, format, pad);
  int bpp = cip_format_bytes_per_pixel (format);
  int r, g, b, x, y;

  g_assert_true (rgb->format == CIP_FORMAT_RGB);
  /* Channel offsets of each format, as GStreamer names them. */
  switch (format) {
    case CIP_FORMAT_RGBA:
    case CIP_FORMAT_RGBX:
    case CIP_FORMAT_RGB:
      r = 0, g = 1, b = 2;
      break;
    case CIP_FORMAT_BGRA:
    case CIP_FORMAT_BGRX:
    case CIP_FORMAT_BGR:
      r = 2, g = 1, b = 0;
      break;
    case CIP_FORMAT_ARGB:
      r = 1, g = 2, b = 3;
      break;
    case CIP_FORMAT_ABGR:
      r = 3, g = 2, b = 1;
      break;
    default:
      g_assert_not_reached ();
  }

  memset (out.data, filler, out.stride * out.height);
  for (y = 0; y < rgb->height; y++) {
    const guint8 *in = (const guint8 *) rgb->data + y * rgb->stride;
    guint8 *o = (guint8 *) out.data + y * out.stride;

    for (x = 0; x < rgb->width; x++, in += 3, o += bpp) {
      o[r] = in[0];
      o[g] = in[1];
      o[b] = in[2];
    }
  }
  return out;
}

gboolean
cip_test_images_equal (const CipImage * a, const CipImage * b, gchar ** where)
{
  size_t row = (size_t) a->width * cip_format_bytes_per_pixel (a->format);
  int x, y, differing = 0;
  gboolean found = FALSE;

  g_assert_cmpint (a->width, ==, b->width);
  g_assert_cmpint (a->height, ==, b->height);
  g_assert_cmpint (a->format, ==, b->format);

  for (y = 0; y < a->height; y++) {
    const guint8 *pa = (const guint8 *) a->data + y * a->stride;
    const guint8 *pb = (const guint8 *) b->data + y * b->stride;

    for (x = 0; x < (int) row; x++) {
      if (pa[x] == pb[x])
        continue;
      if (!found && where)
        *where = g_strdup_printf ("byte %d of row %d: %u != %u", x, y,
            pa[x], pb[x]);
      found = TRUE;
      differing++;
    }
  }
  if (found && where) {
    gchar *first = *where;

    *where = g_strdup_printf ("%d bytes differ in %dx%d %s; first at %s",
        differing, a->width, a->height, cip_format_name (a->format), first);
    g_free (first);
  }
  return !found;
}

void
cip_test_assert_images_equal (const CipImage * a, const CipImage * b,
    const char *what)
{
  gchar *where = NULL;

  if (!cip_test_images_equal (a, b, &where)) {
    gchar *message = g_strdup_printf ("%s: %s", what, where);

    g_assertion_message (G_LOG_DOMAIN, __FILE__, __LINE__, G_STRFUNC, message);
    g_free (message);
  }
  g_free (where);
}

guint32
cip_test_image_fnv1a (const CipImage * image)
{
  size_t row = (size_t) image->width * cip_format_bytes_per_pixel
      (image->format), x;
  guint32 hash = 0x811c9dc5u;
  int y;

  for (y = 0; y < image->height; y++)
    for (x = 0; x < row; x++)
      hash = (hash ^ ((const guint8 *) image->data)[y * image->stride + x]) *
          0x01000193u;
  return hash;
}

gchar *
cip_test_image_md5 (const CipImage * image)
{
  GChecksum *checksum = g_checksum_new (G_CHECKSUM_MD5);
  size_t row = (size_t) image->width * cip_format_bytes_per_pixel
      (image->format);
  gchar *md5;
  int y;

  for (y = 0; y < image->height; y++)
    g_checksum_update (checksum,
        (const guchar *) image->data + (size_t) y * image->stride, row);
  md5 = g_strdup (g_checksum_get_string (checksum));
  g_checksum_free (checksum);
  return md5;
}

GKeyFile *
cip_test_expected_file (const char *name)
{
  GKeyFile *file = g_key_file_new ();
  gchar *path = cip_test_data_path (name);
  GError *error = NULL;

  if (!g_key_file_load_from_file (file, path, G_KEY_FILE_NONE, &error))
    g_error ("cannot load %s: %s", path, error->message);
  g_free (path);
  return file;
}

GKeyFile *
cip_test_expected (void)
{
  return cip_test_expected_file ("expected.ini");
}

/* Aborts the test if reading [@group] @key set @error. */
static void
ini_check (GError * error, const gchar * group, const gchar * key)
{
  if (error)
    g_error ("[%s] %s: %s", group, key, error->message);
}

/* Aborts the test unless the list [@group] @key read without @error and
 * held @n values. */
static void
ini_check_list (GError * error, const gchar * group, const gchar * key,
    gsize length, gsize n)
{
  ini_check (error, group, key);
  if (length != n)
    g_error ("[%s] %s: %" G_GSIZE_FORMAT " values, not %" G_GSIZE_FORMAT,
        group, key, length, n);
}

gint
cip_test_ini_int (GKeyFile * file, const gchar * group, const gchar * key)
{
  GError *error = NULL;
  gint value = g_key_file_get_integer (file, group, key, &error);

  ini_check (error, group, key);
  return value;
}

guint64
cip_test_ini_uint64 (GKeyFile * file, const gchar * group, const gchar * key)
{
  GError *error = NULL;
  guint64 value = g_key_file_get_uint64 (file, group, key, &error);

  ini_check (error, group, key);
  return value;
}

gdouble
cip_test_ini_double (GKeyFile * file, const gchar * group, const gchar * key)
{
  GError *error = NULL;
  gdouble value = g_key_file_get_double (file, group, key, &error);

  ini_check (error, group, key);
  return value;
}

gchar *
cip_test_ini_string (GKeyFile * file, const gchar * group, const gchar * key)
{
  GError *error = NULL;
  gchar *value = g_key_file_get_string (file, group, key, &error);

  ini_check (error, group, key);
  return value;
}

gint *
cip_test_ini_ints (GKeyFile * file, const gchar * group, const gchar * key,
    gsize n)
{
  GError *error = NULL;
  gsize length = 0;
  gint *values = g_key_file_get_integer_list (file, group, key, &length,
      &error);

  ini_check_list (error, group, key, length, n);
  return values;
}

gdouble *
cip_test_ini_doubles (GKeyFile * file, const gchar * group,
    const gchar * key, gsize n)
{
  GError *error = NULL;
  gsize length = 0, i;
  gchar **strings = g_key_file_get_string_list (file, group, key, &length,
      &error);
  gdouble *values;

  ini_check_list (error, group, key, length, n);
  values = g_new (gdouble, MAX (n, 1));
  for (i = 0; i < length; i++) {
    gchar *end = NULL;

    values[i] = g_ascii_strtod (strings[i], &end);
    if (end == strings[i] || *end != '\0')
      g_error ("[%s] %s: '%s' is not a number", group, key, strings[i]);
  }
  g_strfreev (strings);
  return values;
}

gboolean
cip_test_backend_is_cuda (void)
{
  return g_strcmp0 (g_getenv ("CIP_TEST_BACKEND"), "cuda") == 0;
}

const gchar *
cip_test_backend_name (void)
{
  return cip_test_backend_is_cuda ()? "cuda" : "cpu";
}

gboolean
cip_test_have_cuda_device (void)
{
  int count = 0;

  return cip_device_count (&count) == CIP_OK && count > 0;
}

void
cip_test_bad_images_init (CipBadImages * other, const CipImage * rgba)
{
  other->rgba = *rgba;
  other->wide_src = cip_test_image_new (CIP_MAX_DIMENSION + 1, 1,
      CIP_FORMAT_GRAY8, 0);
  other->wide_dst = cip_test_image_new (CIP_MAX_DIMENSION + 1, 1,
      CIP_FORMAT_GRAY8, 0);
  other->high_src = cip_test_image_new (5, CIP_MAX_DIMENSION + 1,
      CIP_FORMAT_GRAY8, 0);
  other->high_dst = cip_test_image_new (5, CIP_MAX_DIMENSION + 1,
      CIP_FORMAT_GRAY8, 0);
}

void
cip_test_bad_images_clear (CipBadImages * other)
{
  cip_test_image_free (&other->high_dst);
  cip_test_image_free (&other->high_src);
  cip_test_image_free (&other->wide_dst);
  cip_test_image_free (&other->wide_src);
}

void
cip_test_spoil_arguments (CipBadCase bad_case, const CipBadImages * other,
    CipImage * src, CipImage * dst, const CipImage ** src_arg,
    CipImage ** dst_arg, gboolean * extra_null)
{
  switch (bad_case) {
    case CIP_BAD_SRC_NULL:
      *src_arg = NULL;
      break;
    case CIP_BAD_DST_NULL:
      *dst_arg = NULL;
      break;
    case CIP_BAD_SRC_DATA_NULL:
      src->data = NULL;
      break;
    case CIP_BAD_DST_DATA_NULL:
      dst->data = NULL;
      break;
    case CIP_BAD_SRC_WIDTH_0:
      src->width = dst->width = 0;
      break;
    case CIP_BAD_SRC_HEIGHT_0:
      src->height = dst->height = 0;
      break;
    case CIP_BAD_DST_WIDTH_0:
      dst->width = 0;
      break;
    case CIP_BAD_SRC_WIDTH_NEGATIVE:
      src->width = dst->width = -5;
      break;
    case CIP_BAD_SRC_TOO_WIDE:
      *src = other->wide_src;
      *dst = other->wide_dst;
      break;
    case CIP_BAD_SRC_TOO_HIGH:
      *src = other->high_src;
      *dst = other->high_dst;
      break;
    case CIP_BAD_SRC_STRIDE_SMALL:
      src->stride = src->width - 1;
      break;
    case CIP_BAD_DST_STRIDE_SMALL:
      dst->stride = dst->width - 1;
      break;
    case CIP_BAD_SRC_STRIDE_NEGATIVE:
      src->stride = (size_t) -(gssize) src->stride;
      break;
    case CIP_BAD_DST_STRIDE_NEGATIVE:
      dst->stride = (size_t) -(gssize) dst->stride;
      break;
    case CIP_BAD_WIDTH_MISMATCH:
      dst->width = src->width - 1;
      break;
    case CIP_BAD_HEIGHT_MISMATCH:
      dst->height = src->height - 1;
      break;
    case CIP_BAD_DST_NOT_GRAY:
      *dst = other->rgba;
      break;
    case CIP_BAD_SRC_NOT_GRAY:
      *src = other->rgba;
      break;
    case CIP_BAD_SRC_BAD_FORMAT:
      src->format = (CipFormat) CIP_N_FORMATS;
      break;
    case CIP_BAD_DST_BAD_FORMAT:
      dst->format = (CipFormat) 1000;
      break;
    case CIP_BAD_EXTRA_NULL:
      *extra_null = TRUE;
      break;
    case CIP_N_BAD_CASES:
      g_assert_not_reached ();
  }
}

const CipTestBoxFrame cip_test_box_frames[CIP_TEST_N_BOX_FRAMES] = {
  /* A, B, C */
  {{{2, 2, 12, 10}, {20, 4, 28, 12}, {40, 30, 50, 40}}, 3, {1, 2, 3}},
  /* A, B moved (B first now), C moved */
  {{{4, 2, 14, 10}, {20, 1, 28, 9}, {43, 31, 53, 41}}, 3, {2, 1, 3}},
  /* A, C, D and E new, B gone: A, E, D, C in raster order */
  {{{6, 2, 16, 10}, {45, 32, 55, 42}, {2, 30, 8, 36}, {30, 20, 34, 24}}, 4,
      {1, 4, 5, 3}},
  /* C and E merged, 100 and 16 pixels of each: C's id */
  {{{8, 2, 18, 10}, {30, 20, 55, 42}, {2, 30, 8, 36}}, 3, {1, 3, 5}},
  /* A gone; the merged region split: 220 and 242 pixels */
  {{{30, 20, 40, 42}, {44, 20, 55, 42}, {2, 30, 8, 36}}, 3, {6, 3, 5}},
  /* the right part split in equal halves */
  {{{30, 20, 40, 42}, {44, 20, 49, 42}, {50, 20, 55, 42}, {2, 30, 8, 36}},
      4, {6, 3, 7, 5}},
};

CipImage
cip_test_boxes_mask (gint width, gint height, const CipTestBox * boxes, guint n)
{
  CipImage mask = cip_test_image_new (width, height, CIP_FORMAT_GRAY8, 0);
  guint i;
  gint x, y;

  for (i = 0; i < n; i++)
    for (y = boxes[i].y0; y < boxes[i].y1; y++)
      for (x = boxes[i].x0; x < boxes[i].x1; x++)
        ((guint8 *) mask.data)[y * mask.stride + x] = 255;
  return mask;
}
