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

/* tests/data/expected.ini: figures computed by OpenCV. */
GKeyFile *cip_test_expected (void);
gchar *cip_test_data_path (const char *name);

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

/* Spoils the valid arguments @src, @dst (whose addresses are in *src_arg
 * and *dst_arg) as @bad_case says; *extra_null is set for
 * CIP_BAD_EXTRA_NULL. */
void cip_test_spoil_arguments (CipBadCase bad_case, const CipBadImages * other,
    CipImage * src, CipImage * dst, const CipImage ** src_arg,
    CipImage ** dst_arg, gboolean * extra_null);

G_END_DECLS

#endif /* __CIP_TEST_UTIL_H__ */
