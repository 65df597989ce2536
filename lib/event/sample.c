// SPDX-License-Identifier: MIT
/*
 * PERF_RECORD_SAMPLE and sample_id trailer decoding, in the kernel's field
 * order (perf_output_sample).
 */
#include <byteswap.h>

#include "internal.h"
#include "session/evsel-internal.h"
#include "event/parse.h"
#include "event/sample-fast.h"

struct cursor {
	uint8_t *p, *end;
};

static bool take(struct cursor *c, size_t n, uint8_t **out)
{
	if ((size_t)(c->end - c->p) < n)
		return false;
	*out = c->p;
	c->p += n;
	return true;
}

static bool take_u64(struct cursor *c, uint64_t *v)
{
	uint8_t *p;

	if (!take(c, 8, &p))
		return false;
	*v = get_u64(p);
	return true;
}

/* a u32 pair in one u64 word; after a u64 swap the halves trade places */
static bool take_u32_pair(struct cursor *c, bool swapped, uint32_t *a, uint32_t *b)
{
	uint64_t v;

	if (!take_u64(c, &v))
		return false;
	if (swapped) {
		*a = (uint32_t)(v >> 32);
		*b = (uint32_t)v;
	} else {
		*a = (uint32_t)v;
		*b = (uint32_t)(v >> 32);
	}
	return true;
}

/* undo the u64-word swap over [p, p + n): those bytes are not u64 values */
static void unswap_words(uint8_t *p, size_t n)
{
	size_t i;

	for (i = 0; i + 8 <= n; i += 8) {
		uint64_t v = bswap_64(get_u64(p + i));

		memcpy(p + i, &v, 8);
	}
}

static bool take_regs(struct cursor *c, unsigned int nr, uint64_t *abi, const uint64_t **regs)
{
	uint8_t *p;

	if (!take_u64(c, abi))
		return false;
	*regs = NULL;
	if (!*abi)
		return true;
	if (nr > (size_t)(c->end - c->p) / 8 || !take(c, (size_t)nr * 8, &p))
		return false;
	*regs = (const uint64_t *)(void *)p;
	return true;
}

static bool take_read(struct cursor *c, uint64_t fmt, struct prism_read *r)
{
	size_t entry = 8 + (fmt & PERF_FORMAT_ID ? 8 : 0) + (fmt & PERF_FORMAT_LOST ? 8 : 0);
	uint8_t *p;

	memset(r, 0, sizeof(*r));
	if (fmt & PERF_FORMAT_GROUP) {
		if (!take_u64(c, &r->nr))
			return false;
		if ((fmt & PERF_FORMAT_TOTAL_TIME_ENABLED) && !take_u64(c, &r->time_enabled))
			return false;
		if ((fmt & PERF_FORMAT_TOTAL_TIME_RUNNING) && !take_u64(c, &r->time_running))
			return false;
		if (r->nr > (uint64_t)(c->end - c->p) / entry || !take(c, r->nr * entry, &p))
			return false;
		r->values_raw = p;
		if (r->nr) {
			r->one.value = get_u64(p);
			if (fmt & PERF_FORMAT_ID)
				r->one.id = get_u64(p + 8);
			if (fmt & PERF_FORMAT_LOST)
				r->one.lost = get_u64(p + entry - 8);
		}
		return true;
	}
	r->nr = 1;
	if (!take_u64(c, &r->one.value))
		return false;
	if ((fmt & PERF_FORMAT_TOTAL_TIME_ENABLED) && !take_u64(c, &r->time_enabled))
		return false;
	if ((fmt & PERF_FORMAT_TOTAL_TIME_RUNNING) && !take_u64(c, &r->time_running))
		return false;
	if ((fmt & PERF_FORMAT_ID) && !take_u64(c, &r->one.id))
		return false;
	if ((fmt & PERF_FORMAT_LOST) && !take_u64(c, &r->one.lost))
		return false;
	return true;
}

void prism_sample__clear_cold(struct prism_sample *s)
{
	memset(&s->read, 0, sizeof(*s) - offsetof(struct prism_sample, read));
	s->branch_hw_idx = ~0ull;
}

int prism_sample__parse(const struct prism_evsel *evsel, void *rec, bool swapped,
			struct prism_sample *s)
{
	prism_sample__clear_cold(s);
	return prism_sample__parse_hot(evsel, rec, swapped, s);
}

static int parse_fast(const struct prism_evsel *evsel, const uint8_t *rec, size_t size,
		      struct prism_sample *s)
{
	uint64_t st = evsel->a.attr.sample_type, v;

	if (size < evsel->at_end)
		return -PRISM_E_BAD_SAMPLE;
	s->type = st;
	s->id = sample_at_u64(rec, evsel->at_id);
	s->ip = sample_at_u64(rec, evsel->at_ip);
	v = sample_at_u64(rec, evsel->at_tid);
	s->pid = (uint32_t)v;
	s->tid = (uint32_t)(v >> 32);
	s->time = sample_at_u64(rec, evsel->at_time);
	s->addr = sample_at_u64(rec, evsel->at_addr);
	s->stream_id = sample_at_u64(rec, evsel->at_stream_id);
	s->cpu = evsel->at_cpu ? get_u32(rec + evsel->at_cpu) : (uint32_t)-1;
	s->period = evsel->at_period ? get_u64(rec + evsel->at_period) : evsel->period;
	return sample_fast_tail(st, rec, size, evsel->at_end, &s->callchain_nr, &s->callchain,
				&s->raw_size, &s->raw_data);
}

/* every other sample, field by field */
static __attribute__((noinline)) int parse_slow(const struct prism_evsel *evsel, void *rec,
						bool swapped, struct prism_sample *s)
{
	const struct perf_event_attr *attr = &evsel->a.attr;
	const struct perf_event_header *hdr = rec;
	uint64_t st = attr->sample_type, v;
	struct cursor c = { (uint8_t *)rec + sizeof(*hdr), (uint8_t *)rec + hdr->size };
	uint8_t *p;
	uint32_t res;

	memset(s, 0, offsetof(struct prism_sample, read));
	s->type = st;
	s->cpu = (uint32_t)-1;
	if ((st & PERF_SAMPLE_IDENTIFIER) && !take_u64(&c, &s->id))
		goto bad;
	if ((st & PERF_SAMPLE_IP) && !take_u64(&c, &s->ip))
		goto bad;
	if ((st & PERF_SAMPLE_TID) && !take_u32_pair(&c, swapped, &s->pid, &s->tid))
		goto bad;
	if ((st & PERF_SAMPLE_TIME) && !take_u64(&c, &s->time))
		goto bad;
	if ((st & PERF_SAMPLE_ADDR) && !take_u64(&c, &s->addr))
		goto bad;
	if ((st & PERF_SAMPLE_ID) && !take_u64(&c, &s->id))
		goto bad;
	if ((st & PERF_SAMPLE_STREAM_ID) && !take_u64(&c, &s->stream_id))
		goto bad;
	if ((st & PERF_SAMPLE_CPU) && !take_u32_pair(&c, swapped, &s->cpu, &res))
		goto bad;
	if (st & PERF_SAMPLE_PERIOD) {
		if (!take_u64(&c, &s->period))
			goto bad;
	} else {
		s->period = attr->freq ? 0 : attr->sample_period;
	}
	if ((st & PERF_SAMPLE_READ) && !take_read(&c, attr->read_format, &s->read))
		goto bad;
	if (st & PERF_SAMPLE_CALLCHAIN) {
		if (!take_u64(&c, &s->callchain_nr))
			goto bad;
		if (s->callchain_nr > (uint64_t)(c.end - c.p) / 8 ||
		    !take(&c, s->callchain_nr * 8, &p))
			goto bad;
		s->callchain = (const uint64_t *)(void *)p;
	}
	if (st & PERF_SAMPLE_RAW) {
		uint32_t size;
		size_t words;

		if ((size_t)(c.end - c.p) < 4)
			goto bad;
		p = c.p;
		if (swapped) {
			/* the u32 size and the payload were swapped with the words around them */
			size = get_u32(p + 4);
			if (size > (size_t)(c.end - c.p) - 4)
				goto bad;
			/* the padded words, but never past the record (its size may be odd) */
			words = ((size_t)size + 4 + 7) & ~(size_t)7;
			unswap_words(p,
				     words < (size_t)(c.end - c.p) ? words : (size_t)(c.end - c.p));
			size = bswap_32(get_u32(p));
		} else {
			size = get_u32(p);
		}
		if (size > (size_t)(c.end - c.p) - 4)
			goto bad;
		s->raw_size = size;
		s->raw_data = p + 4;
		c.p += 4 + size;
	}
	if (st & PERF_SAMPLE_BRANCH_STACK) {
		if (!take_u64(&c, &s->branch_nr))
			goto bad;
		if ((attr->branch_sample_type & PERF_SAMPLE_BRANCH_HW_INDEX) &&
		    !take_u64(&c, &s->branch_hw_idx))
			goto bad;
		if (s->branch_nr > (uint64_t)(c.end - c.p) / 24 || !take(&c, s->branch_nr * 24, &p))
			goto bad;
		s->branch_entries = p;
		if (attr->branch_sample_type & (1ull << 19) /* COUNTERS */) {
			if (!take(&c, s->branch_nr * 8, &p))
				goto bad;
			s->branch_counters = (const uint64_t *)(void *)p;
		}
	}
	if ((st & PERF_SAMPLE_REGS_USER) &&
	    !take_regs(&c, evsel->nr_regs_user, &s->user_regs_abi, &s->user_regs))
		goto bad;
	if (st & PERF_SAMPLE_STACK_USER) {
		if (!take_u64(&c, &s->user_stack_size))
			goto bad;
		if (s->user_stack_size) {
			if (!take(&c, s->user_stack_size, &p) ||
			    !take_u64(&c, &s->user_stack_dyn_size))
				goto bad;
			if (swapped)
				unswap_words(p, s->user_stack_size);
			s->user_stack = p;
		}
	}
	if (st & (PERF_SAMPLE_WEIGHT | PERF_SAMPLE_WEIGHT_STRUCT)) {
		if (!take_u64(&c, &v))
			goto bad;
		if (st & PERF_SAMPLE_WEIGHT_STRUCT) {
			s->weight = (uint32_t)v;
			s->weight_var2 = (uint16_t)(v >> 32);
			s->weight_var3 = (uint16_t)(v >> 48);
		} else {
			s->weight = v;
		}
	}
	if ((st & PERF_SAMPLE_DATA_SRC) && !take_u64(&c, &s->data_src))
		goto bad;
	if ((st & PERF_SAMPLE_TRANSACTION) && !take_u64(&c, &s->transaction))
		goto bad;
	if ((st & PERF_SAMPLE_REGS_INTR) &&
	    !take_regs(&c, evsel->nr_regs_intr, &s->intr_regs_abi, &s->intr_regs))
		goto bad;
	if ((st & PERF_SAMPLE_PHYS_ADDR) && !take_u64(&c, &s->phys_addr))
		goto bad;
	if ((st & PERF_SAMPLE_CGROUP) && !take_u64(&c, &s->cgroup))
		goto bad;
	if ((st & PERF_SAMPLE_DATA_PAGE_SIZE) && !take_u64(&c, &s->data_page_size))
		goto bad;
	if ((st & PERF_SAMPLE_CODE_PAGE_SIZE) && !take_u64(&c, &s->code_page_size))
		goto bad;
	if (st & PERF_SAMPLE_AUX) {
		if (!take_u64(&c, &s->aux_size) || !take(&c, s->aux_size, &p))
			goto bad;
		if (swapped)
			unswap_words(p, s->aux_size);
		s->aux_data = p;
	}
	return 0;
bad:
	return -PRISM_E_BAD_SAMPLE;
}

int prism_sample__parse_hot(const struct prism_evsel *evsel, void *rec, bool swapped,
			    struct prism_sample *s)
{
	if (evsel->sample_fast && !swapped)
		return parse_fast(evsel, rec, ((const struct perf_event_header *)rec)->size, s);
	return parse_slow(evsel, rec, swapped, s);
}

void prism_sample__basic_of(const struct prism_sample *s, struct prism_sample_basic *b)
{
	b->time = s->time;
	b->pid = s->pid;
	b->tid = s->tid;
	b->cpu = s->cpu;
	b->raw_size = s->raw_size;
	b->raw_data = s->raw_data;
	b->callchain_nr = s->callchain_nr;
	b->callchain = s->callchain;
}

int prism_sample__parse_id(const struct prism_evsel *evsel, const void *rec, bool swapped,
			   struct prism_sample *s)
{
	const struct perf_event_header *hdr = rec;
	uint64_t st = evsel->a.attr.sample_type;
	const uint8_t *end = (const uint8_t *)rec + hdr->size;
	const uint8_t *p;
	uint64_t v;

	memset(s, 0, sizeof(*s));
	s->cpu = (uint32_t)-1;
	s->branch_hw_idx = ~0ull;
	if (!evsel->id_hdr_size)
		return 0;
	if (hdr->size < sizeof(*hdr) + evsel->id_hdr_size)
		return -PRISM_E_BAD_RECORD;
	s->type = st & (PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_ID |
			PERF_SAMPLE_STREAM_ID | PERF_SAMPLE_CPU | PERF_SAMPLE_IDENTIFIER);
	/* parsed backwards from the end: that is what keeps it extensible */
	p = end;
	if (st & PERF_SAMPLE_IDENTIFIER) {
		p -= 8;
		s->id = get_u64(p);
	}
	if (st & PERF_SAMPLE_CPU) {
		p -= 8;
		v = get_u64(p);
		s->cpu = swapped ? (uint32_t)(v >> 32) : (uint32_t)v;
	}
	if (st & PERF_SAMPLE_STREAM_ID) {
		p -= 8;
		s->stream_id = get_u64(p);
	}
	if (st & PERF_SAMPLE_ID) {
		p -= 8;
		s->id = get_u64(p);
	}
	if (st & PERF_SAMPLE_TIME) {
		p -= 8;
		s->time = get_u64(p);
	}
	if (st & PERF_SAMPLE_TID) {
		p -= 8;
		v = get_u64(p);
		s->pid = swapped ? (uint32_t)(v >> 32) : (uint32_t)v;
		s->tid = swapped ? (uint32_t)v : (uint32_t)(v >> 32);
	}
	return 0;
}
