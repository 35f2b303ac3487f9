/* gst-cuda-imgproc
 * Copyright (C) 2026 The gst-cuda-imgproc authors
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2 of the License, or (at your option) any later version.
 */

/* Helpers shared by the test programs: test images, comparisons, and the
 * backend a test binary runs on. */

#ifndef __CIP_TEST_UTIL_H__
#define __CIP_TEST_UTIL_H__

#include <glib.h>

#include "cip.h"

G_BEGIN_DECLS

/* meson's exit code for a skipped test. */
#define CIP_TEST_SKIP 77

/* A host image owning its pixels; rows are @pad bytes longer than needed. */
CipImage cip_test_image_new (int width, int height, CipFormat format,
    size_t pad);
void cip_test_image_free (CipImage * image);
CipImage cip_test_image_copy (const CipImage * image, size_t pad);

/* Fills every byte (padding included) with a deterministic random
 * sequence. */
void cip_test_image_fill_random (CipImage * image, guint32 seed);

/* Fast deterministic bytes (splitmix64, as tests/data/make-label-data.py
 * makes them): the large images are hundreds of megabytes. */
void cip_test_fill_bytes (guint8 * p, size_t n, guint64 seed);

/* Masks for the labelling tests: shapes that defeat naive label
 * propagation (a spiral, combs, a snake, a checkerboard) and random ones
 * of three densities. */
typedef enum
{
  CIP_TEST_SHAPE_EMPTY, CIP_TEST_SHAPE_FULL, CIP_TEST_SHAPE_DOTS,
  CIP_TEST_SHAPE_BORDER, CIP_TEST_SHAPE_SPIRAL, CIP_TEST_SHAPE_COMB,
  CIP_TEST_SHAPE_U_COMB, CIP_TEST_SHAPE_SNAKE, CIP_TEST_SHAPE_CHECKER,
  CIP_TEST_SHAPE_SPARSE, CIP_TEST_SHAPE_HALF, CIP_TEST_SHAPE_DENSE,
  CIP_TEST_N_SHAPES
} CipTestShape;

extern const char *const cip_test_shape_names[CIP_TEST_N_SHAPES];

/* Draws @shape over the GRAY8 image @mask, whose bytes are random before:
 * they decide the random shapes and become the foreground's values (any
 * non-zero value is foreground). */
void cip_test_draw_shape (CipImage * mask, CipTestShape shape);

/* Loads tests/data/@name (binary PGM as GRAY8, PPM as RGB). Aborts the
 * test if the file is missing or malformed. */
CipImage cip_test_image_load (const char *name);

/* The same colour image in another packed format, padding bytes (alpha,
 * x) set to @filler. */
CipImage cip_test_image_repack (const CipImage * rgb, CipFormat format,
    guint8 filler, size_t pad);

/* Compares the pixels (not the padding) of two images of the same size and
 * format.  On a difference, returns FALSE and describes the first one in
 * @where (free with g_free), if set. */
gboolean cip_test_images_equal (const CipImage * a, const CipImage * b,
    gchar ** where);

/* Compares the pixels of two images like cip_test_images_equal() and
 * fails the test, naming @what and the first difference, unless they are
 * equal. */
void cip_test_assert_images_equal (const CipImage * a, const CipImage * b,
    const char *what);

/* The FNV-1a hash and the MD5 (a hex string, free with g_free) of the pixel
 * rows of @image without their padding, as the data scripts compute
 * them. */
guint32 cip_test_image_fnv1a (const CipImage * image);
gchar *cip_test_image_md5 (const CipImage * image);

/* tests/data/expected.ini: figures computed by OpenCV. */
GKeyFile *cip_test_expected (void);
gchar *cip_test_data_path (const char *name);

/* The key file tests/data/@name (an expected-*.ini). Aborts the test if it
 * is missing or malformed. */
GKeyFile *cip_test_expected_file (const char *name);

/* The value of @key in [@group] of @file.  Each aborts the test if the key
 * is missing or does not hold a value of its type. */
gint cip_test_ini_int (GKeyFile * file, const gchar * group,
    const gchar * key);
guint64 cip_test_ini_uint64 (GKeyFile * file, const gchar * group,
    const gchar * key);
gdouble cip_test_ini_double (GKeyFile * file, const gchar * group,
    const gchar * key);
/* Free with g_free. */
gchar *cip_test_ini_string (GKeyFile * file, const gchar * group,
    const gchar * key);

/* The @n integers of the list @key in [@group] (free with g_free); aborts
 * the test unless there are exactly @n. */
gint *cip_test_ini_ints (GKeyFile * file, const gchar * group,
    const gchar * key, gsize n);
/* The @n doubles of a list, as Python's repr() wrote them: they read back
 * to the same bits.  Free with g_free; aborts as cip_test_ini_ints(). */
gdouble *cip_test_ini_doubles (GKeyFile * file, const gchar * group,
    const gchar * key, gsize n);

/* TRUE when this binary was asked to test the cuda backend
 * (CIP_TEST_BACKEND=cuda). */
gboolean cip_test_backend_is_cuda (void);
/* TRUE when a CUDA device is usable here. */
gboolean cip_test_have_cuda_device (void);
/* The backend's name, for element properties: "cuda" or "cpu". */
const gchar *cip_test_backend_name (void);

/* The ways an operation's arguments can be wrong, each of which it must
 * refuse with CIP_ERROR_INVALID_ARGUMENT. */
typedef enum
{
  CIP_BAD_SRC_NULL,
  CIP_BAD_DST_NULL,
  CIP_BAD_SRC_DATA_NULL,
  CIP_BAD_DST_DATA_NULL,
  CIP_BAD_SRC_WIDTH_0,
  CIP_BAD_SRC_HEIGHT_0,
  CIP_BAD_DST_WIDTH_0,
  CIP_BAD_SRC_WIDTH_NEGATIVE,
  CIP_BAD_SRC_TOO_WIDE,
  CIP_BAD_SRC_TOO_HIGH,
  CIP_BAD_SRC_STRIDE_SMALL,
  CIP_BAD_DST_STRIDE_SMALL,
  CIP_BAD_SRC_STRIDE_NEGATIVE,  /* a negative stride cast to size_t */
  CIP_BAD_DST_STRIDE_NEGATIVE,
  CIP_BAD_WIDTH_MISMATCH,
  CIP_BAD_HEIGHT_MISMATCH,
  CIP_BAD_DST_NOT_GRAY,
  CIP_BAD_SRC_NOT_GRAY,
  CIP_BAD_SRC_BAD_FORMAT,
  CIP_BAD_DST_BAD_FORMAT,
  CIP_BAD_EXTRA_NULL,           /* the operation's parameters or result */
  CIP_N_BAD_CASES
} CipBadCase;

/* Images of the right size and format for the cases that swap one in:
 * RGBA like the source, and over-sized sources and destinations. */
typedef struct
{
  CipImage rgba;
  CipImage wide_src, wide_dst;  /* CIP_MAX_DIMENSION + 1 wide */
  CipImage high_src, high_dst;  /* CIP_MAX_DIMENSION + 1 high */
} CipBadImages;

/* Fills @other with @rgba (still owned by the caller) and GRAY8 images of
 * (CIP_MAX_DIMENSION + 1) x 1 and 5 x (CIP_MAX_DIMENSION + 1): big enough
 * that a missed check reads and writes memory that exists and fails the
 * test rather than crashing.  Free them with cip_test_bad_images_clear(). */
void cip_test_bad_images_init (CipBadImages * other, const CipImage * rgba);
void cip_test_bad_images_clear (CipBadImages * other);

/* Spoils the valid arguments @src, @dst (whose addresses are in *src_arg
 * and *dst_arg) as @bad_case says; *extra_null is set for
 * CIP_BAD_EXTRA_NULL. */
void cip_test_spoil_arguments (CipBadCase bad_case, const CipBadImages * other,
    CipImage * src, CipImage * dst, const CipImage ** src_arg,
    CipImage ** dst_arg, gboolean * extra_null);

/* Tracks: boxes [x0, x1) x [y0, y1) of CIP_TEST_BOXES_W x CIP_TEST_BOXES_H
 * masks, frame after frame, with the track ids docs/regionprops.md
 * ("Tracks") gives them: A and B move, B above A in raster order from the
 * second frame; C vanishes, D and E appear; C and E merge, C's id kept;
 * the merged region splits (the larger part keeps the id), then splits
 * again in equal halves (the lower label keeps it). */
typedef struct
{
  gint x0, y0, x1, y1;
} CipTestBox;

typedef struct
{
  CipTestBox boxes[4];
  guint n;
  guint32 ids[4];
} CipTestBoxFrame;

#define CIP_TEST_BOXES_W 64
#define CIP_TEST_BOXES_H 48
#define CIP_TEST_N_BOX_FRAMES 6
extern const CipTestBoxFrame cip_test_box_frames[CIP_TEST_N_BOX_FRAMES];

/* A GRAY8 mask of @width x @height, 255 inside the @n @boxes. */
CipImage cip_test_boxes_mask (gint width, gint height,
    const CipTestBox * boxes, guint n);

G_END_DECLS

#endif /* __CIP_TEST_UTIL_H__ */
