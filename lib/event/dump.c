// SPDX-License-Identifier: MIT
/*
 * A record's decoded line in perf report -D's layout (perf 6.1): what
 * follows "TIME OFFSET [SIZE]: PERF_RECORD_NAME" for the records whose
 * fields perf prints, and the lines under it (ID_INDEX entries,
 * EVENT_UPDATE fields, a sample's call chain).
 */
#include <inttypes.h>
#include <string.h>
#include <sys/mman.h>

#include <prism/event.h>
#include <prism/strbuf.h>

#include "internal.h"

/* "r-xp": MMAP2's protection and sharing, as perf prints them */
static void prot_flags(struct prism_strbuf *sb, uint32_t prot, uint32_t flags)
{
	prism_strbuf_addch(sb, prot & PROT_READ ? 'r' : '-');
	prism_strbuf_addch(sb, prot & PROT_WRITE ? 'w' : '-');
	prism_strbuf_addch(sb, prot & PROT_EXEC ? 'x' : '-');
	prism_strbuf_addch(sb, flags & MAP_SHARED ? 's' : 'p');
}

static void dump_mmap(struct prism_strbuf *sb, const struct prism_event *ev)
{
	const struct prism_ev_mmap *m = &ev->mmap;
	size_t i;

	prism_strbuf_addf(sb, " %d/%d: [%#" PRIx64 "(%#" PRIx64 ") @ %#" PRIx64, (int)m->pid,
			  (int)m->tid, m->start, m->len, m->pgoff);
	if (ev->type == PERF_RECORD_MMAP) {
		/* PERF_RECORD_MISC_MMAP_DATA */
		prism_strbuf_addf(sb, "]: %c %s\n", ev->raw->misc & (1 << 13) ? 'r' : 'x',
				  m->filename ? m->filename : "");
		return;
	}
	if (ev->raw->misc & PRISM_MISC_MMAP_BUILD_ID) {
		prism_strbuf_addstr(sb, " <");
		for (i = 0; i < m->build_id_size && m->build_id; i++)
			prism_strbuf_addf(sb, "%02x", m->build_id[i]);
		prism_strbuf_addstr(sb, ">]: ");
	} else {
		prism_strbuf_addf(sb, " %02x:%02x %" PRIu64 " %" PRIu64 "]: ", m->maj, m->min,
				  m->ino, m->ino_generation);
	}
	prot_flags(sb, m->prot, m->flags);
	prism_strbuf_addf(sb, " %s\n", m->filename ? m->filename : "");
}

static void dump_id_index(struct prism_strbuf *sb, const struct prism_event *ev)
{
	const uint8_t *b = (const uint8_t *)ev->raw + 8;
	size_t n = ev->raw->size >= 8 ? ev->raw->size - 8u : 0, i;
	uint64_t nr = n >= 8 ? get_u64(b) : 0;

	prism_strbuf_addf(sb, " nr: %" PRIu64 "\n", nr);
	for (i = 0; i < nr && 8 + (i + 1) * 32 <= n; i++) {
		const uint8_t *e = b + 8 + i * 32;

		prism_strbuf_addf(sb,
				  " ... id: %" PRIu64 "  idx: %" PRIu64 "  cpu: %" PRId64
				  "  tid: %" PRId64 "\n",
				  get_u64(e), get_u64(e + 8), (int64_t)get_u64(e + 16),
				  (int64_t)get_u64(e + 24));
	}
}

static void dump_thread_map(struct prism_strbuf *sb, const struct prism_event *ev)
{
	const uint8_t *b = (const uint8_t *)ev->raw + 8;
	size_t n = ev->raw->size >= 8 ? ev->raw->size - 8u : 0, i;
	uint64_t nr = n >= 8 ? get_u64(b) : 0;

	prism_strbuf_addf(sb, " nr: %" PRIu64 " thread%s: ", nr, nr == 1 ? "" : "s");
	for (i = 0; i < nr && 8 + (i + 1) * 24 <= n; i++)
		prism_strbuf_addf(sb, "%s%d", i ? "," : "", (int)get_u64(b + 8 + i * 24));
	prism_strbuf_addstr(sb, "\n: unhandled!\n");
}

/* a string field of @len bytes at most, up to its NUL */
static void add_field(struct prism_strbuf *sb, const uint8_t *p, size_t len)
{
	prism_strbuf_add(sb, p, strnlen((const char *)p, len));
}

static void dump_event_update(struct prism_strbuf *sb, const struct prism_event *ev)
{
	const uint8_t *b = (const uint8_t *)ev->raw + 8;
	size_t n = ev->raw->size >= 8 ? ev->raw->size - 8u : 0;
	uint64_t type;
	double scale;

	prism_strbuf_addch(sb, '\n');
	if (n < 16)
		return;
	type = get_u64(b);
	prism_strbuf_addf(sb, "... id:    %" PRIu64 "\n", get_u64(b + 8));
	switch (type) {
	case 0: /* UNIT */
		prism_strbuf_addstr(sb, "... unit:  ");
		add_field(sb, b + 16, n - 16);
		prism_strbuf_addch(sb, '\n');
		break;
	case 1: /* SCALE */
		if (n < 24)
			break;
		memcpy(&scale, b + 16, sizeof(scale));
		prism_strbuf_addf(sb, "... scale: %f\n", scale);
		break;
	case 2: /* NAME */
		prism_strbuf_addstr(sb, "... name:  ");
		add_field(sb, b + 16, n - 16);
		prism_strbuf_addch(sb, '\n');
		break;
	default:
		prism_strbuf_addf(sb, "... unknown type\n");
		break;
	}
}

static void dump_switch(struct prism_strbuf *sb, const struct prism_event *ev)
{
	const struct prism_ev_switch *s = &ev->sw;
	const char *in_out = !s->out ? "IN         " : !s->preempt ? "OUT        " : "OUT preempt";

	if (ev->type == PERF_RECORD_SWITCH) {
		prism_strbuf_addf(sb, " %s\n", in_out);
		return;
	}
	prism_strbuf_addf(sb, " %s  %s pid/tid: %5d/%-5d\n", in_out, s->out ? "next" : "prev",
			  (int)s->next_prev_pid, (int)s->next_prev_tid);
}

/* perf's names of the namespaces, by index */
static const char *const ns_names[] = { "net", "uts", "ipc", "pid", "user", "mnt", "cgroup" };

static void dump_namespaces(struct prism_strbuf *sb, const struct prism_event *ev)
{
	const struct prism_ev_namespaces *ns = &ev->ns;
	uint64_t i;

	prism_strbuf_addf(sb, " %d/%d - nr_namespaces: %u\n\t\t[", (int)ns->pid, (int)ns->tid,
			  (unsigned int)ns->nr);
	for (i = 0; i < ns->nr; i++) {
		const uint8_t *l = (const uint8_t *)(ns->link_info + 2 * i);

		if (i && i % 4 == 0)
			prism_strbuf_addstr(sb, "\n\t\t ");
		prism_strbuf_addf(sb, "%u/%s: %" PRIu64 "/%#" PRIx64 "%s", (unsigned int)i,
				  i < PRISM_ARRAY_SIZE(ns_names) ? ns_names[i] : "UNKNOWN",
				  get_u64(l), get_u64(l + 8), i + 1 != ns->nr ? ", " : "]\n");
	}
	if (!ns->nr)
		prism_strbuf_addch(sb, '\n');
}

/* "            Old bytes: e9 1b 00 00 00": 16 bytes a line */
static void poke_bytes(struct prism_strbuf *sb, const char *which, const uint8_t *p, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		if (i % 16 == 0)
			prism_strbuf_addf(sb, "            %s bytes:", which);
		prism_strbuf_addf(sb, " %02x", p[i]);
		if (i % 16 == 15 || i + 1 == n)
			prism_strbuf_addch(sb, '\n');
	}
}

void prism_event__dump_text_poke(const struct prism_event *ev, const char *sym, uint64_t off,
				 struct prism_strbuf *sb)
{
	const struct prism_ev_text_poke *tp = &ev->poke;

	prism_strbuf_addf(sb, " %" PRIx64 " ", tp->addr);
	if (sym)
		prism_strbuf_addf(sb, "%s+0x%" PRIx64, sym, off);
	prism_strbuf_addf(sb, " old len %u new len %u\n", tp->old_len, tp->new_len);
	poke_bytes(sb, "Old", tp->old_bytes, tp->old_len);
	poke_bytes(sb, "New", tp->new_bytes, tp->new_len);
}

static void dump_sample(struct prism_strbuf *sb, const struct prism_event *ev)
{
	const struct prism_sample *s = &ev->sample;
	uint64_t i;

	prism_strbuf_addf(sb,
			  "(IP, %#x): %d/%d: %#" PRIx64 " period: %" PRIu64 " addr: %#" PRIx64 "\n",
			  ev->raw->misc, (int)s->pid, (int)s->tid, s->ip, s->period, s->addr);
	if (!(s->type & PERF_SAMPLE_CALLCHAIN))
		return;
	prism_strbuf_addf(sb, "... FP chain: nr:%" PRIu64 "\n", s->callchain_nr);
	for (i = 0; i < s->callchain_nr; i++)
		prism_strbuf_addf(sb, "..... %2" PRIu64 ": %016" PRIx64 "\n", i, s->callchain[i]);
}

static void hexdump(struct prism_strbuf *sb, const uint8_t *p, size_t n)
{
	size_t i, j;

	for (i = 0; i < n; i += 16) {
		prism_strbuf_addf(sb, ".  %04zx: ", i);
		for (j = i; j < i + 16; j++) {
			if (j < n)
				prism_strbuf_addf(sb, " %02x", p[j]);
			else
				prism_strbuf_addstr(sb, "   ");
		}
		prism_strbuf_addstr(sb, "  ");
		for (j = i; j < i + 16 && j < n; j++)
			prism_strbuf_addch(sb, p[j] >= 0x20 && p[j] < 0x7f ? (char)p[j] : '.');
		prism_strbuf_addch(sb, '\n');
	}
}

void prism_event__dump_raw(const struct prism_event *ev, uint64_t offset, const char *where,
			   struct prism_strbuf *sb)
{
	/* a record out of a COMPRESSED one: the offset is that record's, as perf's */
	prism_strbuf_addf(sb,
			  "\n%#" PRIx64 "@%s [%#x]: event: %u\n.\n. ... raw event: size %u bytes\n",
			  offset, where, ev->raw->size, ev->type, ev->raw->size);
	hexdump(sb, (const uint8_t *)ev->raw, ev->raw->size);
}

void prism_event__dump_tstamp(const struct prism_event *ev, uint64_t sample_type, bool id_all,
			      struct prism_strbuf *sb)
{
	if (ev->type != PERF_RECORD_SAMPLE && !id_all) {
		prism_strbuf_addstr(sb, "-1 -1 ");
		return;
	}
	if (sample_type & PERF_SAMPLE_CPU)
		prism_strbuf_addf(sb, "%u ", ev->sample.cpu);
	if (sample_type & PERF_SAMPLE_TIME)
		prism_strbuf_addf(sb, "%" PRIu64 " ", ev->sample.time);
}

void prism_event__dump_detail(const struct prism_event *ev, struct prism_strbuf *sb)
{
	switch (ev->type) {
	case PERF_RECORD_SAMPLE:
		dump_sample(sb, ev);
		break;
	case PERF_RECORD_MMAP:
	case PERF_RECORD_MMAP2:
		dump_mmap(sb, ev);
		break;
	case PERF_RECORD_COMM:
		prism_strbuf_addf(sb, "%s: %s:%d/%d\n", ev->comm.exec ? " exec" : "",
				  ev->comm.comm ? ev->comm.comm : "", (int)ev->comm.pid,
				  (int)ev->comm.tid);
		break;
	case PERF_RECORD_FORK:
	case PERF_RECORD_EXIT:
		prism_strbuf_addf(sb, "(%d:%d):(%d:%d)\n", (int)ev->fork.pid, (int)ev->fork.tid,
				  (int)ev->fork.ppid, (int)ev->fork.ptid);
		break;
	case PERF_RECORD_LOST:
		prism_strbuf_addf(sb, ": id:%" PRIu64 ": lost:%" PRIu64 "\n", ev->lost.id,
				  ev->lost.lost);
		break;
	case PERF_RECORD_LOST_SAMPLES:
		prism_strbuf_addf(sb, ": id:%" PRIu64 ": lost samples :%" PRIu64 "\n",
				  ev->sample.id, ev->lost.lost);
		break;
	case PERF_RECORD_SWITCH:
	case PERF_RECORD_SWITCH_CPU_WIDE:
		dump_switch(sb, ev);
		break;
	case PERF_RECORD_NAMESPACES:
		dump_namespaces(sb, ev);
		break;
	case PERF_RECORD_CGROUP:
		prism_strbuf_addf(sb, " cgroup: %" PRIu64 " %s\n", ev->cgroup.id,
				  ev->cgroup.path ? ev->cgroup.path : "");
		break;
	case PERF_RECORD_KSYMBOL:
		prism_strbuf_addf(sb, " addr %" PRIx64 " len %u type %u flags 0x%x name %s\n",
				  ev->ksymbol.addr, ev->ksymbol.len, ev->ksymbol.ksym_type,
				  ev->ksymbol.flags, ev->ksymbol.name ? ev->ksymbol.name : "");
		break;
	case PERF_RECORD_BPF_EVENT:
		if (ev->raw->size >= 16) {
			const uint8_t *b = (const uint8_t *)ev->raw + 8;

			prism_strbuf_addf(sb, " type %u, flags %u, id %u\n", get_u16(b),
					  get_u16(b + 2), get_u32(b + 4));
		} else {
			prism_strbuf_addch(sb, '\n');
		}
		break;
	case PERF_RECORD_TEXT_POKE:
		prism_event__dump_text_poke(ev, NULL, 0, sb);
		break;
	case PRISM_RECORD_ID_INDEX:
		dump_id_index(sb, ev);
		break;
	case PRISM_RECORD_THREAD_MAP:
		dump_thread_map(sb, ev);
		break;
	case PRISM_RECORD_EVENT_UPDATE:
		dump_event_update(sb, ev);
		break;
	case PRISM_RECORD_FINISHED_INIT:
		prism_strbuf_addstr(sb, ": unhandled!\n");
		break;
	default:
		prism_strbuf_addch(sb, '\n');
		break;
	}
}
