/* gst-cuda-imgproc
 * Copyright (C) 2026 The gst-cuda-imgproc authors
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2 of the License, or (at your option) any later version.
 */

#include <string.h>

#include <gst/gst.h>

#include "example-util.h"

gboolean
example_is_file_pattern (const gchar * location)
{
  guint conversions = 0;
  const gchar *p;

  for (p = strchr (location, '%'); p; p = strchr (p, '%')) {
    p++;
    if (*p == '%') {
      p++;
      continue;
    }
    p += strspn (p, "0-+ #");
    p += strspn (p, "0123456789");
    if (*p != 'd' && *p != 'i' && *p != 'u')
      return FALSE;
    conversions++;
  }
  return conversions <= 1;
}

gchar *
example_quote (const gchar * s)
{
  GString *quoted = g_string_new (NULL);

  for (; *s; s++) {
    if (*s == '"' || *s == '\\')
      g_string_append_c (quoted, '\\');
    g_string_append_c (quoted, *s);
  }
  return g_string_free (quoted, FALSE);
}

gchar *
example_input_uri (const gchar * input, GError ** error)
{
  return gst_uri_is_valid (input) ? g_strdup (input) :
      gst_filename_to_uri (input, error);
}
