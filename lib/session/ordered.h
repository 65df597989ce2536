/* SPDX-License-Identifier: MIT */
/*
 * Time ordering of perf.data records across CPUs.  Internal to lib/.
 *
 * perf record drains one ring buffer per CPU in turn and then writes
 * PERF_RECORD_FINISHED_ROUND, so the data section is sorted per CPU but not
 * globally.  A prism_ordered queue restores global time order with perf's
 * semantics (tools/perf/util/ordered-events.c):
 *
 *  - every timestamped record is queued with prism_ordered__queue() (a
 *    copy) or prism_ordered__queue_ref() (stays in its file);
 *  - on FINISHED_ROUND, the records with time <= the largest time that had
 *    been queued when the previous FINISHED_ROUND was processed are
 *    delivered in time order; everything that round n can still be missing
 *    arrives by the end of round n + 1;
 *  - at end of input prism_ordered__flush_all() delivers the rest;
 *  - records with equal times are delivered in arrival order;
 *  - when the queue would grow over its memory limit (files without rounds)
 *    the older half is delivered early.  A record that arrives afterwards
 *    with a time older than the last delivered one is "out of order": it is
 *    delivered at once, from prism_ordered__queue(), and counted.  No record
 *    is ever dropped.
 *
 * Callers deliver records without a usable time (0 or -1, e.g. synthesized
 * ones) themselves, without queueing them.
 *
 * Ownership: prism_ordered__queue() copies the record it is given.
 * prism_ordered__queue_ref() does not: the record stays in its file, which
 * the queue reads back when it delivers it (see there).  Either way the
 * pointer handed to the deliver callback is 8-byte aligned and valid only
 * during the call.
 */
#ifndef PRISM_ORDERED_H
#define PRISM_ORDERED_H

#include <stddef.h>
#include <stdint.h>

/*
 * the memory limit used when prism_ordered__new() is given 0: records
 * queued by reference cost little, copied ones (pipes, compressed data)
 * are bounded by it, so that prism stays well under 64 MB in total
 */
#define PRISM_ORDERED_DEFAULT_MEM_LIMIT ((size_t)32 << 20)

/* bookkeeping bytes counted per queued record on top of its aligned copy */
#define PRISM_ORDERED_REC_OVERHEAD 32

struct prism_ordered;

/*
 * prism_ordered_deliver_fn - receives each record in delivery order
 * @ctx: the context given to prism_ordered__new()
 * @rec: 8-byte aligned copy of the record, valid during the call only
 * @size: the record's size as queued
 * @time: its time as queued
 * @file_offset: its file offset as queued
 *
 * The callback must not call back into the queue.
 *
 * Return: 0 to go on; any other value stops the delivery and is returned
 * as-is by the queue function that was delivering.
 */
typedef int (*prism_ordered_deliver_fn)(void *ctx, const void *rec, size_t size, uint64_t time,
					uint64_t file_offset);

/**
 * prism_ordered__new - create an empty queue
 * @mem_limit: bytes of queued records (each counted as its size rounded up
 *	to 8 plus PRISM_ORDERED_REC_OVERHEAD) above which the older half is
 *	delivered early; 0 means PRISM_ORDERED_DEFAULT_MEM_LIMIT and SIZE_MAX
 *	means no limit
 * @fn: the deliver callback
 * @ctx: passed to @fn
 *
 * Return: the queue, to be freed with prism_ordered__free(), or NULL with
 * errno set (EINVAL when @fn is NULL, ENOMEM).
 */
struct prism_ordered *prism_ordered__new(size_t mem_limit, prism_ordered_deliver_fn fn, void *ctx);

/**
 * prism_ordered__free - free a queue and drop the records not yet delivered
 * @o: the queue, or NULL
 */
void prism_ordered__free(struct prism_ordered *o);

/**
 * prism_ordered__queue - copy one record into the queue
 * @o: the queue
 * @rec: the record, any alignment (may be NULL when @size is 0)
 * @size: its size in bytes
 * @time: its time
 * @file_offset: where it was read, handed back to the callback
 *
 * May deliver records: the older half of the queue when the memory limit
 * would be exceeded, and this record itself when it is older than the last
 * delivered one (counted by prism_ordered__nr_out_of_order()).
 *
 * Return: 0, -EINVAL (NULL @o, or @size over UINT32_MAX), -EBUSY (called
 * from the deliver callback), -ENOMEM (the record was not queued), or the
 * callback's non-zero return.
 */
int prism_ordered__queue(struct prism_ordered *o, const void *rec, size_t size, uint64_t time,
			 uint64_t file_offset);

/*
 * prism_ordered_read_fn - read @len bytes at @off of input @file (as given
 * to prism_ordered__queue_ref()) into @buf
 *
 * Return: 0, or a negative error code (the callee reports what failed).
 */
typedef int (*prism_ordered_read_fn)(void *ctx, uint32_t file, void *buf, size_t len, uint64_t off);

/*
 * prism_ordered_view_fn - the bytes of input @file from @off on, in place
 * (e.g. mapped), pinned until the unview callback is called with @off
 *
 * Return: the bytes, with *@avail readable (at least the record at @off when
 * it is whole in the input), or NULL: the queue then reads them into a
 * buffer of its own with the read callback.
 */
typedef const void *(*prism_ordered_view_fn)(void *ctx, uint32_t file, uint64_t off, size_t *avail);
typedef void (*prism_ordered_unview_fn)(void *ctx, uint32_t file, uint64_t off);

/*
 * prism_ordered_time_fn - the time of a record read back (8-byte aligned),
 * the same as was given to prism_ordered__queue_ref() for it
 */
typedef uint64_t (*prism_ordered_time_fn)(void *ctx, const void *rec, size_t size);

/**
 * prism_ordered__set_reader - allow prism_ordered__queue_ref()
 * @o: the queue
 * @read: reads queued records back from their input
 * @time_of: derives a record's time again
 *
 * Both callbacks get the context given to prism_ordered__new().
 */
void prism_ordered__set_reader(struct prism_ordered *o, prism_ordered_read_fn read,
			       prism_ordered_time_fn time_of);

/**
 * prism_ordered__set_sample_time - where PERF_RECORD_SAMPLE records have their time
 * @time_at: byte offset in the record (0: ask the time callback)
 *
 * Optional, with prism_ordered__set_reader(): the time of a sample read back
 * (of at least @time_at + 8 bytes) is then read there, without a call.
 */
void prism_ordered__set_sample_time(struct prism_ordered *o, size_t time_at);

/*
 * prism_ordered__set_view - read queued records back in place instead of
 * copying them (optional, with a reader set)
 */
void prism_ordered__set_view(struct prism_ordered *o, prism_ordered_view_fn view,
			     prism_ordered_unview_fn unview);

/**
 * prism_ordered__queue_ref - queue one record that stays in its input
 * @o: the queue, with a reader set
 * @rec: the record as read now (used only when it is delivered at once)
 * @size: its size: 8 to 65535, and equal to perf_event_header.size
 * @time: its time
 * @file: which input it is in, handed to the read callback
 * @file_offset: where it is in @file; handed back to the deliver callback
 *
 * The record must be a perf record in this machine's byte order: it is
 * read back with the read callback when it is delivered, its size taken
 * from its header and its time from the time callback.  Records queued one
 * after another that follow each other in the same input with
 * non-decreasing times form one run; the queue keeps only the bounds of
 * each run, so its memory follows the number of runs (about one per CPU
 * and round), not their size.  Records of both queue functions may be
 * mixed: they are delivered in one time order, equal times in arrival
 * order.  The rest is as for prism_ordered__queue(), and errors of the
 * read callback (or -PRISM_E_BAD_RECORD for a record that no longer fits
 * its run) are returned by the function that was delivering.
 *
 * Return: as prism_ordered__queue(); -EINVAL also without a reader.
 */
int prism_ordered__queue_ref(struct prism_ordered *o, const void *rec, size_t size, uint64_t time,
			     uint32_t file, uint64_t file_offset);

/**
 * prism_ordered__extend - the common case of prism_ordered__queue_ref(), in bulk
 * @o: the queue
 * @p: the records at @file_offset of input @file, 8-byte aligned
 * @avail: bytes readable at @p
 * @nr: set to the number of records queued
 *
 * Queues the records at @p as prism_ordered__queue_ref() would, as long
 * as all it takes is extending the last run: a sample of a size that is
 * a multiple of 8, following the run in the same input, with a time (not
 * 0 or ~0) not earlier than the run's last, and a run that already counts
 * all the memory it may (RUN_BUF_MIN bytes).  Sample times are read where
 * prism_ordered__set_sample_time() said; without it nothing is queued.
 *
 * Return: the bytes queued (whole records), 0 when the first record is
 * not such a record (queue it with prism_ordered__queue_ref() then).
 */
size_t prism_ordered__extend(struct prism_ordered *o, const void *p, size_t avail, uint32_t file,
			     uint64_t file_offset, size_t *nr);

/**
 * prism_ordered__finished_round - process a PERF_RECORD_FINISHED_ROUND
 * @o: the queue
 *
 * Delivers, in time order, the queued records whose time is at most the
 * largest time queued before the previous call (none on the first call),
 * then remembers the largest time queued so far for the next call.
 *
 * Return: 0, -EINVAL (NULL @o), -EBUSY (called from the deliver callback),
 * -ENOMEM (nothing was delivered), or the callback's non-zero return (the
 * record it failed on counts as delivered, the ones after it stay queued
 * and the limit for the next round is not moved).
 */
int prism_ordered__finished_round(struct prism_ordered *o);

/**
 * prism_ordered__flush_all - deliver every queued record, at end of input
 * @o: the queue
 *
 * The queue stays usable.
 *
 * Return: as prism_ordered__finished_round().
 */
int prism_ordered__flush_all(struct prism_ordered *o);

/**
 * prism_ordered__nr_out_of_order - records that arrived older than an
 * already delivered one (delivered at once, out of time order)
 * @o: the queue
 */
uint64_t prism_ordered__nr_out_of_order(const struct prism_ordered *o);

/**
 * prism_ordered__nr_early_flushes - how often the memory limit forced the
 * older half of the queue out before its round was finished
 * @o: the queue
 */
uint64_t prism_ordered__nr_early_flushes(const struct prism_ordered *o);

/**
 * prism_ordered__peak_bytes - high-water mark of queued bytes
 * @o: the queue
 *
 * Bytes are counted as for the memory limit of prism_ordered__new().
 */
size_t prism_ordered__peak_bytes(const struct prism_ordered *o);

#endif /* PRISM_ORDERED_H */
