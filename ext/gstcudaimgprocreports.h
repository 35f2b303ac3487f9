/* gst-cuda-imgproc
 * Copyright (C) 2026 The gst-cuda-imgproc authors
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2 of the License, or (at your option) any later version.
 */

/* Results a frame reads back for its element to report (a property, a bus
 * message) rather than to carry on the frame, so that the frame path never
 * waits for them.  Each frame's kernels write into a slot of page-locked
 * memory and an event is recorded after them; the slot is reported once
 * its event has passed: in frame order, at a later frame, when every slot
 * is taken, or when the stream is drained.  Every call is made with the
 * stream's CUDA context current; on the cpu backend @stream is NULL and a
 * report is ready as soon as it is committed. */

#ifndef __GST_CUDA_IMGPROC_REPORTS_H__
#define __GST_CUDA_IMGPROC_REPORTS_H__

#include <gst/gst.h>

#include "cip.h"
#include "gstcudaimgprocfilter.h"

G_BEGIN_DECLS

/* Frames whose reports may wait: past this the oldest is waited for. */
#define GST_CUDA_IMGPROC_MAX_REPORTS 8

typedef struct
{
  guint8 *area;                 /* the slots, slot_size bytes each */
  gsize slot_size;
  CipEvent *ready[GST_CUDA_IMGPROC_MAX_REPORTS];
  GstCudaImgprocFrameReport reports[GST_CUDA_IMGPROC_MAX_REPORTS];
  guint first;
  guint count;
  /* the newest reports, of frames held back: not reported before their
   * frame goes out, nor at all if it is dropped */
  guint held;
} GstCudaImgprocReports;

/* Slots of @slot_size bytes, page-locked when @stream is set. */
CipStatus gst_cuda_imgproc_reports_init (GstCudaImgprocReports * reports,
    gsize slot_size, CipStream * stream);
/* Frees them; reports still waiting are dropped. */
void gst_cuda_imgproc_reports_clear (GstCudaImgprocReports * reports,
    CipStream * stream);

/* Reports what is ready, oldest first, through @filter's report(); with
 * @wait, waits for all of it first.  Reports of held frames wait. */
CipStatus gst_cuda_imgproc_reports_deliver (GstCudaImgprocReports * reports,
    GstCudaImgprocFilter * filter, gboolean wait, CipStream * stream);
/* The slot the next frame writes into: reports what is ready and, when
 * every slot is taken, waits for the oldest.  NULL when waiting failed. */
guint8 *gst_cuda_imgproc_reports_next_slot (GstCudaImgprocReports * reports,
    GstCudaImgprocFilter * filter, CipStream * stream);
/* The frame of @buffer (in @segment) wrote its slot: records the event
 * after the work enqueued on @stream so far. */
CipStatus gst_cuda_imgproc_reports_commit (GstCudaImgprocReports * reports,
    GstBuffer * buffer, const GstSegment * segment, CipStream * stream);
/* Takes the last commit back: its frame failed after it, and is not
 * pushed. */
void gst_cuda_imgproc_reports_drop_last (GstCudaImgprocReports * reports);

/* The last commit's frame is held back: its report waits for it. */
void gst_cuda_imgproc_reports_hold_last (GstCudaImgprocReports * reports);
/* The oldest held frame goes out: its report may be delivered. */
void gst_cuda_imgproc_reports_release_held (GstCudaImgprocReports *
    reports);
/* The newest held frame is dropped: its report goes with it. */
void gst_cuda_imgproc_reports_drop_held (GstCudaImgprocReports * reports);

G_END_DECLS

#endif /* __GST_CUDA_IMGPROC_REPORTS_H__ */
