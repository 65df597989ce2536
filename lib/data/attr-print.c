// SPDX-License-Identifier: MIT
/*
 * perf's text form of a perf_event_attr and of its sample_type/read_format
 * bits (perf 6.1 tools/perf/util/perf_event_attr_fprintf.c).
 */
#include <inttypes.h>

#include <prism/evsel.h>
#include <prism/strbuf.h>

#include "internal.h"
#include "data/attr-print.h"

struct bit_name {
	int bit;
	const char *name;
};

/*
 * perf 6.1's order, which is not bit order.  TRANSACTION (bit 17) is
 * missing from perf 6.1's table, so it never names it; we print what perf
 * prints (fixture m-many-bits has the bit set).
 */
static const struct bit_name sample_type_names[] = {
	{ 0, "IP" },
	{ 1, "TID" },
	{ 2, "TIME" },
	{ 3, "ADDR" },
	{ 4, "READ" },
	{ 5, "CALLCHAIN" },
	{ 6, "ID" },
	{ 7, "CPU" },
	{ 8, "PERIOD" },
	{ 9, "STREAM_ID" },
	{ 10, "RAW" },
	{ 11, "BRANCH_STACK" },
	{ 12, "REGS_USER" },
	{ 13, "STACK_USER" },
	{ 16, "IDENTIFIER" },
	{ 18, "REGS_INTR" },
	{ 15, "DATA_SRC" },
	{ 14, "WEIGHT" },
	{ 19, "PHYS_ADDR" },
	{ 20, "AUX" },
	{ 21, "CGROUP" },
	{ 22, "DATA_PAGE_SIZE" },
	{ 23, "CODE_PAGE_SIZE" },
	{ 24, "WEIGHT_STRUCT" },
};

static const struct bit_name branch_type_names[] = {
	{ 0, "USER" },	     { 1, "KERNEL" },	  { 2, "HV" },	       { 3, "ANY" },
	{ 4, "ANY_CALL" },   { 5, "ANY_RETURN" }, { 6, "IND_CALL" },   { 7, "ABORT_TX" },
	{ 8, "IN_TX" },	     { 9, "NO_TX" },	  { 10, "COND" },      { 11, "CALL_STACK" },
	{ 12, "IND_JUMP" },  { 13, "CALL" },	  { 14, "NO_FLAGS" },  { 15, "NO_CYCLES" },
	{ 16, "TYPE_SAVE" }, { 17, "HW_INDEX" },  { 18, "PRIV_SAVE" },
};

static const struct bit_name read_format_names[] = {
	{ 0, "TOTAL_TIME_ENABLED" },
	{ 1, "TOTAL_TIME_RUNNING" },
	{ 2, "ID" },
	{ 3, "GROUP" },
	{ 4, "LOST" },
};

/* the flag bit-fields at offset 40, in perf's order (= bit order); precise_ip is 2 bits */
static const struct bit_name flag_names[] = {
	{ 0, "disabled" },
	{ 1, "inherit" },
	{ 2, "pinned" },
	{ 3, "exclusive" },
	{ 4, "exclude_user" },
	{ 5, "exclude_kernel" },
	{ 6, "exclude_hv" },
	{ 7, "exclude_idle" },
	{ 8, "mmap" },
	{ 9, "comm" },
	{ 10, "freq" },
	{ 11, "inherit_stat" },
	{ 12, "enable_on_exec" },
	{ 13, "task" },
	{ 14, "watermark" },
	{ 15, "precise_ip" },
	{ 17, "mmap_data" },
	{ 18, "sample_id_all" },
	{ 19, "exclude_host" },
	{ 20, "exclude_guest" },
	{ 21, "exclude_callchain_kernel" },
	{ 22, "exclude_callchain_user" },
	{ 23, "mmap2" },
	{ 24, "comm_exec" },
	{ 25, "use_clockid" },
	{ 26, "context_switch" },
	{ 27, "write_backward" },
	{ 28, "namespaces" },
	{ 29, "ksymbol" },
	{ 30, "bpf_event" },
	{ 31, "aux_output" },
	{ 32, "cgroup" },
	{ 33, "text_poke" },
	{ 34, "build_id" },
	{ 35, "inherit_thread" },
	{ 36, "remove_on_exec" },
	{ 37, "sigtrap" },
};

static void print_bits(struct prism_strbuf *sb, uint64_t value, const struct bit_name *names,
		       size_t n)
{
	bool first = true;
	size_t i;

	for (i = 0; i < n; i++) {
		if (!(value & (1ull << names[i].bit)))
			continue;
		if (!first)
			prism_strbuf_addch(sb, '|');
		prism_strbuf_addstr(sb, names[i].name);
		first = false;
	}
}

void prism_sample_type__str(uint64_t sample_type, struct prism_strbuf *sb)
{
	print_bits(sb, sample_type, sample_type_names, PRISM_ARRAY_SIZE(sample_type_names));
}

void prism_read_format__str(uint64_t read_format, struct prism_strbuf *sb)
{
	print_bits(sb, read_format, read_format_names, PRISM_ARRAY_SIZE(read_format_names));
}

/*
 * The flag word in the host's bit-field layout: prism_attr__read() leaves it
 * so.  GCC allocates bit-fields from the most significant end on big-endian
 * hosts.
 */
static uint64_t flag(const struct perf_event_attr *attr, int bit, int width)
{
	uint64_t w, mask = (1ull << width) - 1;

	memcpy(&w, (const uint8_t *)attr + 40, sizeof(w));
#if __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
	return (w >> (64 - bit - width)) & mask;
#else
	return (w >> bit) & mask;
#endif
}

/* one "name = value" (header) or "name: value" (evlist) field */
struct emitter {
	struct prism_strbuf *sb;
	bool evlist;
	bool first;
};

static void field(struct emitter *e, const char *name)
{
	if (e->evlist) {
		prism_strbuf_addstr(e->sb, e->first ? ": " : ", ");
		prism_strbuf_addf(e->sb, "%s: ", name);
	} else {
		prism_strbuf_addf(e->sb, ", %s = ", name);
	}
	e->first = false;
}

static void field_u(struct emitter *e, const char *name, uint64_t v)
{
	if (!v)
		return;
	field(e, name);
	prism_strbuf_addf(e->sb, "%" PRIu64, v);
}

static void field_x(struct emitter *e, const char *name, uint64_t v)
{
	if (!v)
		return;
	field(e, name);
	prism_strbuf_addf(e->sb, "%#" PRIx64, v);
}

static void field_bits(struct emitter *e, const char *name, uint64_t v,
		       const struct bit_name *names, size_t n)
{
	if (!v)
		return;
	field(e, name);
	print_bits(e->sb, v, names, n);
}

/* perf_event_attr__fprintf(): every non-zero field, in perf 6.1's order */
static void print_fields(struct emitter *e, const struct prism_attr_ext *a)
{
	const struct perf_event_attr *attr = &a->attr;
	size_t i;

	field_u(e, "type", attr->type);
	/* the size as written: perf prints the stored field, 0 for VER0 */
	field_u(e, "size", a->file_size);
	field_x(e, "config", attr->config);
	field_u(e, "{ sample_period, sample_freq }", attr->sample_period);
	field_bits(e, "sample_type", attr->sample_type, sample_type_names,
		   PRISM_ARRAY_SIZE(sample_type_names));
	field_bits(e, "read_format", attr->read_format, read_format_names,
		   PRISM_ARRAY_SIZE(read_format_names));
	for (i = 0; i < PRISM_ARRAY_SIZE(flag_names); i++)
		field_u(e, flag_names[i].name,
			flag(attr, flag_names[i].bit, flag_names[i].bit == 15 ? 2 : 1));
	field_u(e, "{ wakeup_events, wakeup_watermark }", attr->wakeup_events);
	field_u(e, "bp_type", attr->bp_type);
	field_x(e, "{ bp_addr, config1 }", attr->bp_addr);
	field_x(e, "{ bp_len, config2 }", attr->bp_len);
	field_bits(e, "branch_sample_type", attr->branch_sample_type, branch_type_names,
		   PRISM_ARRAY_SIZE(branch_type_names));
	field_x(e, "sample_regs_user", attr->sample_regs_user);
	field_u(e, "sample_stack_user", attr->sample_stack_user);
	if (attr->clockid) {
		field(e, "clockid");
		prism_strbuf_addf(e->sb, "%" PRId64, (int64_t)attr->clockid);
	}
	field_x(e, "sample_regs_intr", attr->sample_regs_intr);
	field_u(e, "aux_watermark", attr->aux_watermark);
	field_u(e, "sample_max_stack", attr->sample_max_stack);
	field_u(e, "aux_sample_size", attr->aux_sample_size);
	field_u(e, "sig_data", attr->sig_data);
}

void prism_attr__print(const struct prism_attr_ext *a, const char *name, const uint64_t *ids,
		       size_t nr_ids, struct prism_strbuf *out)
{
	struct emitter e = { .sb = out, .first = true };
	size_t i;

	/* perf 6.1 prints "name = %s, " and then ", id = {": hence ", ," */
	prism_strbuf_addf(out, "name = %s, ", name ? name : "");
	if (nr_ids) {
		prism_strbuf_addstr(out, ", id = {");
		for (i = 0; i < nr_ids; i++)
			prism_strbuf_addf(out, "%s %" PRIu64, i ? "," : "", ids[i]);
		prism_strbuf_addstr(out, " }");
	}
	print_fields(&e, a);
}

void prism_attr__print_evlist(const struct prism_attr_ext *a, const char *name,
			      struct prism_strbuf *out)
{
	struct emitter e = { .sb = out, .evlist = true, .first = true };

	prism_strbuf_addstr(out, name ? name : "");
	print_fields(&e, a);
}
