/* gst-cuda-imgproc
 * Copyright (C) 2026 The gst-cuda-imgproc authors
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2 of the License, or (at your option) any later version.
 */

/* What the examples share: command-line text made safe for a launch
 * line. */

#ifndef __EXAMPLE_UTIL_H__
#define __EXAMPLE_UTIL_H__

#include <glib.h>

G_BEGIN_DECLS

/* Whether @location is a multifilesink location: at most one integer
 * conversion (the frame index, e.g. %05d), %% for a %, no other. */
gboolean example_is_file_pattern (const gchar * location);

/* @s as launch-line text within double quotes. */
gchar *example_quote (const gchar * s);

/* @input (a URI or a file name) as a URI; NULL with @error set when it
 * is neither. */
gchar *example_input_uri (const gchar * input, GError ** error);

G_END_DECLS

#endif /* __EXAMPLE_UTIL_H__ */
