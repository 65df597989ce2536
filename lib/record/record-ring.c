// SPDX-License-Identifier: MIT
/*
 * Ring buffers: one per CPU, mapped on the first fd of that CPU, with every
 * other fd of the CPU redirected into it (PERF_EVENT_IOC_SET_OUTPUT).
 * Draining follows the kernel's protocol: load-acquire data_head, copy the
 * records between our tail and head (in two pieces when they wrap), then
 * store-release data_tail.  While walking the records it counts them, keeps
 * the first/last sample time and feeds the build-id tracker.
 */
#include <stdio.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <unistd.h>

#include "record/record-internal.h"

#define UNPRIV_MMAP_BYTES (512u << 10)

static size_t round_pow2_pages(size_t bytes, size_t page)
{
	size_t n = page;

	while (n < bytes)
		n <<= 1;
	return n;
}

/*
 * Data bytes per buffer: -m, else 128 MiB shared by the CPUs, each between
 * 2 and 32 MiB (32 MiB on a 2-CPU machine: a 2 M-call syscall loop traced
 * system-wide loses nothing even when prism waits long for a CPU).
 */
size_t rec_ring_bytes(const struct prism_record *r)
{
	size_t bytes = r->o.mmap_bytes;

	if (!bytes) {
		bytes = (128u << 20) / (r->nr_cpus ? r->nr_cpus : 1);
		if (bytes < (2u << 20))
			bytes = 2u << 20;
		if (bytes > (32u << 20))
			bytes = 32u << 20;
	}
	return round_pow2_pages(bytes, r->page);
}

static int map_one(struct prism_record *r, struct rec_ring *rg, int fd, size_t bytes)
{
	void *p = mmap(NULL, bytes + r->page, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);

	if (p == MAP_FAILED)
		return -errno;
	rg->fd = fd;
	rg->base = p;
	rg->data = (uint8_t *)p + r->page;
	rg->size = bytes;
	rg->tail = 0;
	return 0;
}

int rec_mmap_rings(struct prism_record *r)
{
	size_t c, i, per_cpu_fds = r->nr_ev * r->nr_threads;
	size_t bytes = rec_ring_bytes(r);
	int err;

	r->rings = calloc(r->nr_cpus, sizeof(*r->rings));
	if (!r->rings)
		return rec_error(r, "out of memory"), -ENOMEM;
	for (c = 0; c < r->nr_cpus; c++) {
		struct rec_ring *rg = &r->rings[r->nr_rings];
		/* intel_pt's fd owns the buffer: its AUX area is mapped above it */
		int first = -1, aux_fd = rec_aux_fd(r, c);

		for (i = 0; i <= per_cpu_fds; i++) {
			size_t e = i ? (i - 1) / r->nr_threads : 0,
			       t = i ? (i - 1) % r->nr_threads : 0;
			int fd = i ? r->fds[(e * r->nr_cpus + c) * r->nr_threads + t] : aux_fd;

			if (fd < 0 || (i && fd == aux_fd))
				continue;
			if (first < 0) {
				err = map_one(r, rg, fd, bytes);
				if (err == -EPERM && !r->o.mmap_bytes &&
				    bytes > UNPRIV_MMAP_BYTES) {
					/* not root: perf_event_mlock_kb allows about 512 KiB */
					bytes = UNPRIV_MMAP_BYTES;
					err = map_one(r, rg, fd, bytes);
				}
				if (err) {
					rec_error(r,
						  "cannot map a %zu KiB ring buffer for CPU %d: %s",
						  bytes >> 10, r->cpus[c], strerror(-err));
					if (err == -EPERM || err == -ENOMEM)
						rec_hint(
							r,
							"use a smaller buffer (-m), or raise /proc/sys/kernel/perf_event_mlock_kb (or run as root)");
					return err;
				}
				first = fd;
				r->nr_rings++;
				if (fd == aux_fd) {
					err = rec_aux_mmap(r, rg, c);
					if (err)
						return err;
				}
				continue;
			}
			if (ioctl(fd, PERF_EVENT_IOC_SET_OUTPUT, first)) {
				err = errno;
				return rec_error(
					       r,
					       "cannot redirect an event into CPU %d's buffer: %s",
					       r->cpus[c], strerror(err)),
				       -err;
			}
		}
	}
	r->st.mmap_bytes = bytes;
	r->st.nr_buffers = r->nr_rings;
	return 0;
}

void rec_unmap_rings(struct prism_record *r)
{
	size_t i;

	for (i = 0; i < r->nr_rings; i++) {
		rec_aux_unmap(&r->rings[i]);
		munmap(r->rings[i].base, r->rings[i].size + r->page);
	}
	free(r->rings);
	r->rings = NULL;
	r->nr_rings = 0;
}

/* copy len bytes at ring position pos (wrap-aware) */
static void ring_copy(const struct rec_ring *rg, uint64_t pos, void *dst, size_t len)
{
	uint64_t off = pos & (rg->size - 1);
	size_t first = rg->size - off < len ? (size_t)(rg->size - off) : len;

	memcpy(dst, rg->data + off, first);
	if (first < len)
		memcpy((uint8_t *)dst + first, rg->data, len - first);
}

/* what the recorder learns from one record; true = leave it out (prism's own sample) */
static bool inspect(struct prism_record *r, const struct rec_ring *rg, uint64_t pos,
		    const struct perf_event_header *h)
{
	size_t skip = r->ident ? 8 : 0;
	uint64_t v[3];

	r->st.records++;
	switch (h->type) {
	case PERF_RECORD_SAMPLE:
		/* IP, TID, TIME lead every sample_type prism sets (after IDENTIFIER) */
		if (h->size < 8 + skip + 24) {
			r->st.samples++;
			break;
		}
		ring_copy(rg, pos + 8 + skip, v, sizeof(v));
		if (r->self_pid && (uint32_t)v[1] == r->self_pid) {
			r->st.records--;
			r->st.self_dropped++;
			return true;
		}
		r->st.samples++;
		if (!r->first_time || v[2] < r->first_time)
			r->first_time = v[2];
		if (v[2] > r->last_time)
			r->last_time = v[2];
		if (!r->o.no_buildid)
			rec_track_sample(r, (uint32_t)v[1], v[0], h->misc);
		break;
	case PERF_RECORD_LOST:
		r->st.lost_records++;
		ring_copy(rg, pos + 16, v, 8);
		r->st.lost += v[0];
		break;
	case PERF_RECORD_LOST_SAMPLES:
		ring_copy(rg, pos + 8, v, 8);
		r->st.lost_samples += v[0];
		break;
	case PERF_RECORD_THROTTLE:
		r->st.throttle++;
		break;
	case PERF_RECORD_MMAP:
	case PERF_RECORD_MMAP2:
		if (r->o.no_buildid)
			break;
		ring_copy(rg, pos, r->rec_buf, h->size);
		rec_track_mmap(r, r->rec_buf, h->type == PERF_RECORD_MMAP2);
		break;
	default:
		break;
	}
	return false;
}

/* write ring bytes [from, to) (whole records), in two pieces when they wrap */
static int write_span(struct prism_record *r, struct rec_ring *rg, uint64_t from, uint64_t to)
{
	uint64_t start = from & (rg->size - 1), end = to & (rg->size - 1);

	if (to == from)
		return 0;
	if (start < end || end == 0)
		return prism_writer__write_data(r->w, rg->data + start, to - from, NULL, 0);
	return prism_writer__write_data(r->w, rg->data + start, rg->size - start, rg->data, end);
}

/* spans of at most this many bytes, so a full disk keeps all but the last one */
#define SPAN_BYTES (256u << 10)

static int drain_one(struct prism_record *r, struct rec_ring *rg, bool *wrote)
{
	struct perf_event_mmap_page *pc = rg->base;
	uint64_t head = __atomic_load_n(&pc->data_head, __ATOMIC_ACQUIRE);
	uint64_t tail = rg->tail, pos, span;
	int err = 0;

	if (head == tail)
		return 0;
	if (head - tail > rg->size) {
		/* cannot happen in forward mode; resynchronise rather than read garbage */
		pr_warn("record: ring buffer head %llu is more than its size ahead of tail %llu",
			(unsigned long long)head, (unsigned long long)tail);
		tail = head - rg->size;
	}
	for (pos = span = tail; pos < head && !err;) {
		struct perf_event_header h;

		ring_copy(rg, pos, &h, sizeof(h));
		if (h.size < sizeof(h) || pos + h.size > head) {
			pr_warn("record: bad record size %u in a ring buffer; %llu bytes skipped",
				h.size, (unsigned long long)(head - pos));
			head = pos;
			break;
		}
		if (inspect(r, rg, pos, &h)) {
			/* prism's own sample: write around it */
			err = write_span(r, rg, span, pos);
			pos += h.size;
			span = pos;
			continue;
		}
		if (rec_stack_trimmable(r, &h)) {
			size_t n;

			ring_copy(rg, pos, r->rec_buf, h.size);
			n = rec_stack_trim(r, r->rec_buf);
			if (n < h.size) {
				/* the record cut: write up to it, then its new form */
				err = write_span(r, rg, span, pos);
				if (!err)
					err = prism_writer__write_data(r->w, r->rec_buf, n, NULL,
								       0);
				pos += h.size;
				span = pos;
				continue;
			}
		}
		pos += h.size;
		if (pos - span >= SPAN_BYTES) {
			err = write_span(r, rg, span, pos);
			span = pos;
		}
	}
	if (!err)
		err = write_span(r, rg, span, pos);
	rg->tail = head;
	__atomic_store_n(&pc->data_tail, head, __ATOMIC_RELEASE);
	*wrote = true;
	return err;
}

int rec_drain(struct prism_record *r, bool *wrote)
{
	size_t i;
	int err;

	for (i = 0; i < r->nr_rings; i++) {
		err = drain_one(r, &r->rings[i], wrote);
		if (!err)
			err = rec_aux_drain(r, &r->rings[i], wrote);
		if (err)
			return err;
	}
	return 0;
}
