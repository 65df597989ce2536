// SPDX-License-Identifier: MIT
/*
 * prism script's fields as perf 6.1 chooses and prints them: -F's list,
 * the default fields of each event type and the memory-sample fields
 * (data_src, page sizes, physical address) in perf's layout.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include <prism/evsel.h>
#include <prism/session.h>
#include <prism/suggest.h>

#include "cmd.h"
#include "script.h"

static const struct {
	const char *name;
	unsigned int bit;
	uint64_t needs; /* sample_type bits the field needs (0: none) */
} field_names[] = {
	{ "comm", F_COMM, 0 },
	{ "tid", F_TID, PERF_SAMPLE_TID },
	{ "pid", F_PID, PERF_SAMPLE_TID },
	{ "cpu", F_CPU, PERF_SAMPLE_CPU },
	{ "time", F_TIME, PERF_SAMPLE_TIME },
	{ "event", F_EVENT, 0 },
	{ "period", F_PERIOD, 0 },
	{ "ip", F_IP, PERF_SAMPLE_IP },
	{ "addr", F_ADDR, PERF_SAMPLE_ADDR },
	{ "trace", F_TRACE, PERF_SAMPLE_RAW },
	{ "phys_addr", F_PHYS_ADDR, PERF_SAMPLE_PHYS_ADDR },
	{ "weight", F_WEIGHT, PERF_SAMPLE_WEIGHT | PERF_SAMPLE_WEIGHT_STRUCT },
	{ "data_src", F_DATA_SRC, PERF_SAMPLE_DATA_SRC },
	{ "cgroup", F_CGROUP, PERF_SAMPLE_CGROUP },
	{ "sym", F_SYM, PERF_SAMPLE_IP | PERF_SAMPLE_CALLCHAIN },
	{ "symoff", F_SYMOFF, PERF_SAMPLE_IP | PERF_SAMPLE_CALLCHAIN },
	{ "dso", F_DSO, PERF_SAMPLE_IP | PERF_SAMPLE_CALLCHAIN },
	{ "srcline", F_SRCLINE, PERF_SAMPLE_IP | PERF_SAMPLE_CALLCHAIN },
	{ "ins_lat", F_INS_LAT, PERF_SAMPLE_WEIGHT_STRUCT },
	{ "data_page_size", F_DATA_PAGE_SIZE, PERF_SAMPLE_DATA_PAGE_SIZE },
	{ "code_page_size", F_CODE_PAGE_SIZE, PERF_SAMPLE_CODE_PAGE_SIZE },
	{ "brstack", F_BRSTACK, PERF_SAMPLE_BRANCH_STACK },
	{ "brstacksym", F_BRSTACKSYM, PERF_SAMPLE_BRANCH_STACK },
	{ "brstackoff", F_BRSTACKOFF, PERF_SAMPLE_BRANCH_STACK },
};

unsigned int script_field_bit(const char *name)
{
	size_t i;

	for (i = 0; i < PRISM_ARRAY_SIZE(field_names); i++)
		if (!strcmp(name, field_names[i].name))
			return field_names[i].bit;
	return 0;
}

const char *script_field_name(unsigned int bit)
{
	size_t i;

	for (i = 0; i < PRISM_ARRAY_SIZE(field_names); i++)
		if (field_names[i].bit == bit)
			return field_names[i].name;
	return "?";
}

/* perf script's output types: its defaults are per type, checked on its first event */
static unsigned int output_type(const struct perf_event_attr *a)
{
	return a->type < PERF_TYPE_MAX ? a->type : PERF_TYPE_MAX;
}

/* fields perf drops from its defaults when the samples lack them */
static const struct {
	unsigned int field;
	uint64_t needs;
} optional[] = {
	{ F_TID, PERF_SAMPLE_TID },
	{ F_TIME, PERF_SAMPLE_TIME },
	{ F_CPU, PERF_SAMPLE_CPU },
	{ F_ADDR, PERF_SAMPLE_ADDR },
	{ F_DATA_SRC, PERF_SAMPLE_DATA_SRC },
	{ F_WEIGHT, PERF_SAMPLE_WEIGHT | PERF_SAMPLE_WEIGHT_STRUCT },
	{ F_PHYS_ADDR, PERF_SAMPLE_PHYS_ADDR },
	{ F_DATA_PAGE_SIZE, PERF_SAMPLE_DATA_PAGE_SIZE },
	{ F_CODE_PAGE_SIZE, PERF_SAMPLE_CODE_PAGE_SIZE },
	{ F_INS_LAT, PERF_SAMPLE_WEIGHT_STRUCT },
};

/*
 * perf 6.1's defaults for the event's type (raw events, memory samples
 * among them, add addr, data_src, weight, phys_addr, page sizes and
 * ins_lat), less the fields the first event of that type (dummy events
 * aside) does not sample
 */
unsigned int script_default_fields(struct prism_session *s, const struct prism_evsel *evsel)
{
	const struct perf_event_attr *attr = prism_evsel__attr(evsel), *first = attr;
	unsigned int f, type = output_type(attr);
	size_t i;

	for (i = 0; i < prism_session__nr_evsels(s); i++) {
		const struct perf_event_attr *a = prism_evsel__attr(prism_session__evsel(s, i));

		if (output_type(a) == type &&
		    !(a->type == PERF_TYPE_SOFTWARE && a->config == PERF_COUNT_SW_DUMMY)) {
			first = a;
			break;
		}
	}
	if (type == PERF_TYPE_TRACEPOINT)
		f = F_COMM | F_TID | F_CPU | F_TIME | F_EVENT | F_TRACE;
	else
		f = F_COMM | F_TID | F_CPU | F_TIME | F_EVENT | F_IP | F_SYM | F_SYMOFF | F_DSO |
		    F_PERIOD;
	if (type == PERF_TYPE_RAW)
		f |= F_ADDR | F_DATA_SRC | F_WEIGHT | F_PHYS_ADDR | F_DATA_PAGE_SIZE |
		     F_CODE_PAGE_SIZE | F_INS_LAT;
	for (i = 0; i < PRISM_ARRAY_SIZE(optional); i++)
		if (!(first->sample_type & optional[i].needs))
			f &= ~optional[i].field;
	return f;
}

/*
 * data_src as perf prints it: "%16" PRIx64 " %s" with the decoded bits, cut
 * to 99 bytes (perf's buffer) and padded to the longest one printed so far
 */
void script_put_data_src(struct prism_strbuf *sb, int *width, uint64_t src)
{
	size_t start = sb->len, len;

	prism_strbuf_addf(sb, "%16" PRIx64 " ", src);
	prism_mem_src__format(src, sb);
	len = sb->len - start;
	if (len > 99) {
		len = 99;
		sb->len = start + len;
		sb->buf[sb->len] = '\0';
	}
	if ((int)len > *width)
		*width = (int)len;
	prism_strbuf_addf(sb, "%*s", *width - (int)len, "");
}

/* what perf prints after the symbol (and after the call chain): physical address, page sizes */
void script_put_tail(struct prism_strbuf *sb, struct prism_symbols *sy,
		     const struct prism_event *ev, unsigned int f)
{
	const struct prism_sample *s = &ev->sample;

	if ((f & F_BRSTACKS) && sy && (s->type & PERF_SAMPLE_BRANCH_STACK))
		script_put_brstack(sb, sy, ev, f);
	if (f & F_PHYS_ADDR) /* "%16" PRIx64 */
		prism_strbuf_addf(sb, "%16" PRIx64, s->phys_addr);
	if (f & F_DATA_PAGE_SIZE) {
		prism_strbuf_addch(sb, ' ');
		prism_page_size__format(s->data_page_size, sb);
	}
	if (f & F_CODE_PAGE_SIZE) {
		prism_strbuf_addch(sb, ' ');
		prism_page_size__format(s->code_page_size, sb);
	}
}

/*
 * -F list: the fields to print, or with a leading '+' / '-' (perf's form)
 * fields added to / removed from the defaults, each name taking its own sign
 */
int script_parse_fields(const char *list, unsigned int *fields, unsigned int *add,
			unsigned int *del)
{
	char *dup = xstrdup(list), *tok, *save = NULL;
	bool relative = list[0] == '+' || list[0] == '-';
	unsigned int f = 0;
	size_t i;

	for (tok = strtok_r(dup, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		const char *names[PRISM_ARRAY_SIZE(field_names)];
		char sign = relative ? '+' : 0;
		bool found = false;

		if (relative && (tok[0] == '+' || tok[0] == '-'))
			sign = *tok++;
		for (i = 0; i < PRISM_ARRAY_SIZE(field_names); i++) {
			names[i] = field_names[i].name;
			if (!strcmp(tok, field_names[i].name)) {
				if (sign == '+')
					*add |= field_names[i].bit;
				else if (sign == '-')
					*del |= field_names[i].bit;
				else
					f |= field_names[i].bit;
				found = true;
			}
		}
		if (found)
			continue;
		{
			const char *best = prism_suggest(tok, names, PRISM_ARRAY_SIZE(names));

			error("unknown field '%s' in -F", tok);
			if (best)
				hint("did you mean '%s'?", best);
			hint("fields: " FIELD_LIST);
			if (!relative && strchr(tok, '+'))
				hint("'+' adds fields to the defaults only at the start of the list: -F +%s",
				     tok);
		}
		free(dup);
		return -1;
	}
	free(dup);
	*fields = f;
	if (relative) /* the defaults print ip, sym and symoff */
		f = (F_IP | F_SYM | F_SYMOFF | *add) & ~*del;
	/* perf's rules: offsets need symbols, source lines need addresses */
	if ((f & F_SYMOFF) && !(f & F_SYM)) {
		error("-F symoff needs the sym field");
		hint("add sym: -F ...,ip,sym,symoff");
		return -1;
	}
	if ((f & F_SRCLINE) && !(f & F_IP)) {
		error("-F srcline needs the ip field (the address to look up)");
		hint("add ip: -F ...,ip,srcline");
		return -1;
	}
	return 0;
}

/* like perf: a requested field the samples cannot carry is an error */
int script_check_fields(struct prism_session *s, unsigned int fields)
{
	size_t i, j;

	for (i = 0; i < PRISM_ARRAY_SIZE(field_names); i++) {
		bool ok = false;

		if (!(fields & field_names[i].bit) || !field_names[i].needs)
			continue;
		if (field_names[i].bit == F_TRACE)
			continue; /* ignored for non-tracepoint events, as perf does */
		for (j = 0; j < prism_session__nr_evsels(s); j++) {
			const struct perf_event_attr *a =
				prism_evsel__attr(prism_session__evsel(s, j));

			if (a->sample_type & field_names[i].needs)
				ok = true;
		}
		if (!ok) {
			error("samples have no '%s' field (its sample_type bit was not recorded)",
			      field_names[i].name);
			hint("drop '%s' from -F, or record with the option that adds it",
			     field_names[i].name);
			return -1;
		}
	}
	return 0;
}
