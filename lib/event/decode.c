// SPDX-License-Identifier: MIT
/*
 * Typed bodies of kernel records (MMAP, COMM, FORK, ...).  Layouts from
 * include/uapi/linux/perf_event.h; strings are NUL-terminated and padded to
 * 8 bytes, so the decoder checks that a NUL lies inside the body.
 */
#include "internal.h"
#include "session/evsel-internal.h"
#include "event/parse.h"

/* a NUL-terminated string in [p, end), or NULL */
static const char *str_in(const uint8_t *p, const uint8_t *end)
{
	if (p >= end || !memchr(p, '\0', (size_t)(end - p)))
		return NULL;
	return (const char *)p;
}

/* the fields MMAP and MMAP2 share: pid, tid, start, len, pgoff */
static void mmap_common(struct prism_ev_mmap *m, const uint8_t *b)
{
	memset(m, 0, sizeof(*m));
	m->pid = get_u32(b);
	m->tid = get_u32(b + 4);
	m->start = get_u64(b + 8);
	m->len = get_u64(b + 16);
	m->pgoff = get_u64(b + 24);
}

/*
 * MMAP2 as Linux 3.12-3.15 wrote it, before prot and flags were added (3.16),
 * and as RHEL 7's 3.10 kernels (e.g. 3.10.0-514) still write it: the
 * filename starts at body offset 56 (record offset 0x40), where the current
 * layout has prot.  perf reads the name 8 bytes too far; an "//anon" or
 * "[vdso]" mapping then makes an 88-byte record (with a 16-byte sample_id
 * trailer) too short for the current layout to hold any name.
 *
 * Told apart by the first byte there: prot holds only PROT_READ|WRITE|EXEC
 * (the kernel sets no other bit), so that byte is below 8 in either byte
 * order, where a path starts with a printable character ('/', '[').  The
 * name must end, NUL-terminated, inside the body.
 */
bool prism_mmap2__without_prot(const uint8_t *body, size_t n)
{
	return n > 56 && body[56] >= 0x20 && memchr(body + 56, '\0', n - 56);
}

int prism_event__decode(struct prism_event *ev, const struct prism_evsel *evsel, size_t body_end)
{
	const uint8_t *b = (const uint8_t *)ev->raw + sizeof(struct perf_event_header);
	const uint8_t *end = (const uint8_t *)ev->raw + body_end;
	size_t n = body_end >= 8 ? body_end - 8 : 0;
	uint16_t misc = ev->raw->misc;

	switch (ev->type) {
	case PERF_RECORD_MMAP:
		if (n < 32 + 1)
			return -PRISM_E_BAD_RECORD;
		mmap_common(&ev->mmap, b);
		ev->mmap.filename = str_in(b + 32, end);
		return ev->mmap.filename ? 0 : -PRISM_E_BAD_RECORD;
	case PERF_RECORD_MMAP2:
		if (n < 56 + 1)
			return -PRISM_E_BAD_RECORD;
		mmap_common(&ev->mmap, b);
		if (misc & PRISM_MISC_MMAP_BUILD_ID) {
			ev->mmap.build_id_size = b[32] > 20 ? 20 : b[32];
			ev->mmap.build_id = b + 36;
		} else {
			ev->mmap.maj = get_u32(b + 32);
			ev->mmap.min = get_u32(b + 36);
			ev->mmap.ino = get_u64(b + 40);
			ev->mmap.ino_generation = get_u64(b + 48);
		}
		if (prism_mmap2__without_prot(b, n)) {
			ev->mmap.no_prot = true;
			ev->mmap.filename = (const char *)b + 56;
			return 0;
		}
		ev->mmap.prot = get_u32(b + 56);
		ev->mmap.flags = get_u32(b + 60);
		ev->mmap.filename = str_in(b + 64, end);
		return ev->mmap.filename ? 0 : -PRISM_E_BAD_RECORD;
	case PERF_RECORD_COMM:
		if (n < 8 + 1)
			return -PRISM_E_BAD_RECORD;
		ev->comm.pid = get_u32(b);
		ev->comm.tid = get_u32(b + 4);
		ev->comm.exec = misc & PRISM_MISC_COMM_EXEC;
		ev->comm.comm = str_in(b + 8, end);
		return ev->comm.comm ? 0 : -PRISM_E_BAD_RECORD;
	case PERF_RECORD_FORK:
	case PERF_RECORD_EXIT:
		if (n < 24)
			return -PRISM_E_BAD_RECORD;
		ev->fork.pid = get_u32(b);
		ev->fork.ppid = get_u32(b + 4);
		ev->fork.tid = get_u32(b + 8);
		ev->fork.ptid = get_u32(b + 12);
		ev->fork.time = get_u64(b + 16);
		return 0;
	case PERF_RECORD_LOST:
		if (n < 16)
			return -PRISM_E_BAD_RECORD;
		ev->lost.id = get_u64(b);
		ev->lost.lost = get_u64(b + 8);
		return 0;
	case PERF_RECORD_LOST_SAMPLES:
		if (n < 8)
			return -PRISM_E_BAD_RECORD;
		ev->lost.id = 0;
		ev->lost.lost = get_u64(b);
		return 0;
	case PERF_RECORD_SWITCH:
	case PERF_RECORD_SWITCH_CPU_WIDE:
		ev->sw.out = misc & PRISM_MISC_SWITCH_OUT;
		ev->sw.preempt = misc & PRISM_MISC_SWITCH_OUT_PREEMPT;
		ev->sw.next_prev_pid = ev->sw.next_prev_tid = (uint32_t)-1;
		if (ev->type == PERF_RECORD_SWITCH_CPU_WIDE) {
			if (n < 8)
				return -PRISM_E_BAD_RECORD;
			ev->sw.next_prev_pid = get_u32(b);
			ev->sw.next_prev_tid = get_u32(b + 4);
		}
		return 0;
	case PERF_RECORD_THROTTLE:
	case PERF_RECORD_UNTHROTTLE:
		if (n < 24)
			return -PRISM_E_BAD_RECORD;
		ev->throttle.time = get_u64(b);
		ev->throttle.id = get_u64(b + 8);
		ev->throttle.stream_id = get_u64(b + 16);
		return 0;
	case PERF_RECORD_READ: {
		uint64_t fmt = evsel ? evsel->a.attr.read_format : 0;
		const uint8_t *p = b + 8;

		if (n < 16)
			return -PRISM_E_BAD_RECORD;
		memset(&ev->read, 0, sizeof(ev->read));
		ev->read.pid = get_u32(b);
		ev->read.tid = get_u32(b + 4);
		ev->read.read.nr = 1;
		ev->read.read.one.value = get_u64(p);
		p += 8;
		if (fmt & PERF_FORMAT_GROUP)
			return 0; /* group reads are not written as READ records by perf */
		if ((fmt & PERF_FORMAT_TOTAL_TIME_ENABLED) && end - p >= 8) {
			ev->read.read.time_enabled = get_u64(p);
			p += 8;
		}
		if ((fmt & PERF_FORMAT_TOTAL_TIME_RUNNING) && end - p >= 8) {
			ev->read.read.time_running = get_u64(p);
			p += 8;
		}
		if ((fmt & PERF_FORMAT_ID) && end - p >= 8) {
			ev->read.read.one.id = get_u64(p);
			p += 8;
		}
		if ((fmt & PERF_FORMAT_LOST) && end - p >= 8)
			ev->read.read.one.lost = get_u64(p);
		return 0;
	}
	case PERF_RECORD_KSYMBOL:
		if (n < 16 + 1)
			return -PRISM_E_BAD_RECORD;
		ev->ksymbol.addr = get_u64(b);
		ev->ksymbol.len = get_u32(b + 8);
		ev->ksymbol.ksym_type = get_u16(b + 12);
		ev->ksymbol.flags = get_u16(b + 14);
		ev->ksymbol.name = str_in(b + 16, end);
		return ev->ksymbol.name ? 0 : -PRISM_E_BAD_RECORD;
	case PERF_RECORD_TEXT_POKE:
		if (n < 12)
			return -PRISM_E_BAD_RECORD;
		ev->poke.addr = get_u64(b);
		ev->poke.old_len = get_u16(b + 8);
		ev->poke.new_len = get_u16(b + 10);
		if ((size_t)ev->poke.old_len + ev->poke.new_len > n - 12)
			return -PRISM_E_BAD_RECORD;
		ev->poke.old_bytes = b + 12;
		ev->poke.new_bytes = b + 12 + ev->poke.old_len;
		return 0;
	case PERF_RECORD_NAMESPACES:
		if (n < 16)
			return -PRISM_E_BAD_RECORD;
		ev->ns.pid = get_u32(b);
		ev->ns.tid = get_u32(b + 4);
		ev->ns.nr = get_u64(b + 8);
		if (ev->ns.nr > (n - 16) / 16)
			return -PRISM_E_BAD_RECORD;
		ev->ns.link_info = (const uint64_t *)(const void *)(b + 16);
		return 0;
	case PERF_RECORD_CGROUP:
		if (n < 8 + 1)
			return -PRISM_E_BAD_RECORD;
		ev->cgroup.id = get_u64(b);
		ev->cgroup.path = str_in(b + 8, end);
		return ev->cgroup.path ? 0 : -PRISM_E_BAD_RECORD;
	default:
		return 0;
	}
}
