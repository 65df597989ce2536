// SPDX-License-Identifier: MIT
/*
 * prism script's fields as perf 6.1 chooses and prints them: the default
 * fields of each event type and the memory-sample fields (data_src, page
 * sizes, physical address) in perf's layout.
 */
#include <inttypes.h>

#include <prism/evsel.h>
#include <prism/session.h>

#include "script.h"

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
void script_put_tail(struct prism_strbuf *sb, const struct prism_sample *s, unsigned int f)
{
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
