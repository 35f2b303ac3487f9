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

#include <string.h>

#include "gstcudaimgprocreports.h"

#define RING_SIZE GST_CUDA_IMGPROC_MAX_REPORTS

CipStatus
gst_cuda_imgproc_reports_init (GstCudaImgprocReports * reports,
    gsize slot_size, CipStream * stream)
{
  CipStatus status = CIP_OK;
  guint i;

  memset (reports, 0, sizeof (*reports));
  reports->slot_size = MAX (slot_size, 1);
  if (stream == NULL) {
    reports->area = g_malloc0 (RING_SIZE * reports->slot_size);
    return CIP_OK;
  }
  status = cip_host_alloc ((void **) &reports->area,
      RING_SIZE * reports->slot_size, stream);
  for (i = 0; status == CIP_OK && i < RING_SIZE; i++)
    status = cip_event_new (&reports->ready[i], stream);
  return status;
}

void
gst_cuda_imgproc_reports_clear (GstCudaImgprocReports * reports,
    CipStream * stream)
{
  guint i;

  if (stream == NULL) {
    g_free (reports->area);
  } else {
    /* the kernels of the reports dropped must be done with their slots */
    cip_stream_synchronize (stream);
    cip_host_free (reports->area, stream);
  }
  for (i = 0; i < RING_SIZE; i++)
    g_clear_pointer (&reports->ready[i], cip_event_free);
  memset (reports, 0, sizeof (*reports));
}

static void
report_oldest (GstCudaImgprocReports * reports, GstCudaImgprocFilter * filter)
{
  GstCudaImgprocFilterClass *klass = GST_CUDA_IMGPROC_FILTER_GET_CLASS (filter);

  klass->report (filter, &reports->reports[reports->first]);
  reports->first = (reports->first + 1) % RING_SIZE;
  reports->count--;
}

CipStatus
gst_cuda_imgproc_reports_deliver (GstCudaImgprocReports * reports,
    GstCudaImgprocFilter * filter, gboolean wait, CipStream * stream)
{
  while (reports->count > reports->held) {
    CipEvent *ready = reports->ready[reports->first];

    if (stream != NULL && !cip_event_done (ready)) {
      CipStatus status;

      if (!wait)
        break;
      status = cip_event_synchronize (ready, stream);
      if (status != CIP_OK)
        return status;
    }
    report_oldest (reports, filter);
  }
  return CIP_OK;
}

guint8 *
gst_cuda_imgproc_reports_next_slot (GstCudaImgprocReports * reports,
    GstCudaImgprocFilter * filter, CipStream * stream)
{
  guint slot;

  gst_cuda_imgproc_reports_deliver (reports, filter, FALSE, stream);
  if (reports->count == RING_SIZE) {
    if (cip_event_synchronize (reports->ready[reports->first],
            stream) != CIP_OK)
      return NULL;
    report_oldest (reports, filter);
  }
  slot = (reports->first + reports->count) % RING_SIZE;
  return reports->area + slot * reports->slot_size;
}

CipStatus
gst_cuda_imgproc_reports_commit (GstCudaImgprocReports * reports,
    GstBuffer * buffer, const GstSegment * segment, CipStream * stream)
{
  guint slot = (reports->first + reports->count) % RING_SIZE;
  GstCudaImgprocFrameReport *report = &reports->reports[slot];

  if (stream != NULL) {
    CipStatus status = cip_event_record (reports->ready[slot], stream);

    if (status != CIP_OK)
      return status;
  }
  report->pts = GST_BUFFER_PTS (buffer);
  report->duration = GST_BUFFER_DURATION (buffer);
  gst_segment_copy_into (segment, &report->segment);
  report->readback = reports->area + slot * reports->slot_size;
  reports->count++;
  return CIP_OK;
}

void
gst_cuda_imgproc_reports_drop_last (GstCudaImgprocReports * reports)
{
  if (reports->count > reports->held)
    reports->count--;
}

void
gst_cuda_imgproc_reports_hold_last (GstCudaImgprocReports * reports)
{
  g_return_if_fail (reports->held < reports->count);
  reports->held++;
}

void
gst_cuda_imgproc_reports_release_held (GstCudaImgprocReports * reports)
{
  g_return_if_fail (reports->held > 0);
  reports->held--;
}

void
gst_cuda_imgproc_reports_drop_held (GstCudaImgprocReports * reports)
{
  g_return_if_fail (reports->held > 0);
  reports->held--;
  reports->count--;
}
