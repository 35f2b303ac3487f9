/* gst-cuda-imgproc
 * Copyright (C) 2026 The gst-cuda-imgproc authors
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2 of the License, or (at your option) any later version.
 */

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "gstcudaimgprocdevice.h"
#include "gstcudaimgprochostallocator.h"
#include "gstcudaimgprocpool.h"

gboolean
gst_cuda_imgproc_device_find (gint device_id, gchar ** why, gchar ** detail)
{
  const gchar *name = NULL;
  gint n_devices = gst_cuda_imgproc_device_count (&name);

  if (n_devices < 0) {
    *why = g_strdup ("No CUDA driver: the NVIDIA driver library "
        "(libcuda.so.1) could not be loaded.");
    *detail = g_strdup (gst_cuda_imgproc_have_cuda_memory ()?
        "gst_cuda_load_library() failed" : "libcuda.so.1 could not be loaded");
    return FALSE;
  }
  if (n_devices == 0) {
    *why = g_strdup ("No usable CUDA device.");
    *detail = g_strdup_printf ("cuInit/cuDeviceGetCount: %s, %d devices",
        name ? name : "no error", n_devices);
    return FALSE;
  }
  if (device_id >= n_devices) {
    *why = g_strdup_printf ("CUDA device %d is not available: there are %d "
        "devices.", device_id, n_devices);
    *detail = NULL;
    return FALSE;
  }
  return TRUE;
}

gboolean
gst_cuda_imgproc_device_check (GstElement * element, gint device_id)
{
  gchar *why = NULL, *detail = NULL;

  if (gst_cuda_imgproc_device_find (device_id, &why, &detail))
    return TRUE;
  GST_ELEMENT_ERROR (element, RESOURCE, NOT_FOUND,
      ("%s Use backend=cpu (or auto) to run without a GPU.", why),
      ("%s", detail ? detail : why));
  g_free (why);
  g_free (detail);
  return FALSE;
}

gboolean
gst_cuda_imgproc_device_open (GstCudaImgprocDevice * device,
    GstElement * element, gint device_id)
{
  gchar error[256] = "";
  CipStatus status;

  /* Checked again: the backend may have changed in READY. */
  if (!gst_cuda_imgproc_device_check (element, device_id))
    return FALSE;
  if (!gst_cuda_ensure_element_context (element, device_id, &device->context))
    goto no_device;
  if (!gst_cuda_context_push (device->context))
    goto push_failed;

  device->host_allocator =
      gst_cuda_imgproc_host_allocator_new (device->context);
#if CIP_TEST_SWITCHES
  /* Test-only, compiled in with -Dtest-switches=true alone. */
  device->sync_handover = g_getenv ("CIP_SYNC_HANDOVER") != NULL;
#else
  device->sync_handover = FALSE;
#endif
  if (!device->sync_handover)
    device->shared_stream = gst_cuda_imgproc_stream_new (device->context);
  if (device->shared_stream)
    status = cip_stream_new_on (&device->stream,
        gst_cuda_imgproc_stream_handle (device->shared_stream),
        &device->memory, error, sizeof (error));
  else
    status = cip_stream_new (&device->stream, &device->memory, error,
        sizeof (error));
  if (status == CIP_OK) {
    status = cip_event_new (&device->upstream_done, device->stream);
    if (status != CIP_OK)
      g_strlcpy (error, cip_stream_error (device->stream), sizeof (error));
  }
  gst_cuda_context_pop (NULL);
  if (status != CIP_OK)
    goto stream_failed;

  GST_DEBUG_OBJECT (element, "running on CUDA device %d", device_id);
  return TRUE;

no_device:
  if (device_id < 0)
    GST_ELEMENT_ERROR (element, RESOURCE, NOT_FOUND,
        ("No usable CUDA device. Use backend=cpu to run without a GPU."),
        ("gst_cuda_ensure_element_context() failed for the default device"));
  else
    GST_ELEMENT_ERROR (element, RESOURCE, NOT_FOUND,
        ("CUDA device %d is not available. Use backend=cpu to run without "
            "a GPU.", device_id),
        ("gst_cuda_ensure_element_context() failed for device %d", device_id));
  return FALSE;
push_failed:
  GST_ELEMENT_ERROR (element, RESOURCE, FAILED,
      ("Could not make the CUDA context current."), (NULL));
  gst_clear_object (&device->context);
  return FALSE;
stream_failed:
  GST_ELEMENT_ERROR (element, RESOURCE, FAILED,
      ("Could not set up the CUDA stream and its buffers."),
      ("%s: %s", cip_status_name (status), error));
  gst_cuda_imgproc_device_close (device);
  return FALSE;
}

void
gst_cuda_imgproc_device_close (GstCudaImgprocDevice * device)
{
  if (device->context && gst_cuda_context_push (device->context)) {
    g_clear_pointer (&device->upstream_done, cip_event_free);
    g_clear_pointer (&device->stream, cip_stream_free);
    gst_cuda_context_pop (NULL);
  }
  gst_cuda_imgproc_clear_stream (&device->shared_stream);
  gst_clear_object (&device->host_allocator);
}

CipStatus
gst_cuda_imgproc_device_order_after (GstCudaImgprocDevice * device,
    GstBuffer * inbuf)
{
  CipEvent *ready = gst_cuda_imgproc_buffer_ready_event (inbuf);
  GstCudaStream *writer =
      gst_cuda_imgproc_memory_get_stream (gst_buffer_peek_memory (inbuf, 0));
  CipStatus status = CIP_OK;

  if (ready)
    return cip_stream_wait_event (device->stream, ready);
  if (writer && writer != device->shared_stream) {
    status = cip_stream_wait_stream (device->stream,
        gst_cuda_imgproc_stream_handle (writer), device->upstream_done);
    if (status == CIP_OK && device->sync_handover)
      status = cip_event_synchronize (device->upstream_done, device->stream);
  }
  return status;
}

gboolean
gst_cuda_imgproc_device_reader_orders (GstCudaImgprocDevice * device,
    GstBuffer * outbuf, gboolean downstream_waits)
{
  if (downstream_waits && gst_cuda_imgproc_buffer_ready_event (outbuf))
    return TRUE;
  return device->shared_stream && gst_cuda_imgproc_memory_get_stream
      (gst_buffer_peek_memory (outbuf, 0)) == device->shared_stream;
}
