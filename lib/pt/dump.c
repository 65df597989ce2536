// SPDX-License-Identifier: MIT
/*
 * The AUX-area records' lines in perf report -D's layout (perf 6.1):
 * what follows "... PERF_RECORD_NAME" for AUXTRACE_INFO (with Intel PT's
 * fields under it), AUXTRACE, AUX, ITRACE_START, AUXTRACE_ERROR and
 * TIME_CONV.
 */
#include <inttypes.h>

#include <prism/pt.h>
#include <prism/strbuf.h>

static void info_dec(struct prism_strbuf *sb, const char *name, uint64_t v)
{
	prism_strbuf_addf(sb, "  %-20s%" PRId64 "\n", name, (int64_t)v);
}

static void info_hex(struct prism_strbuf *sb, const char *name, uint64_t v)
{
	prism_strbuf_addf(sb, "  %-20s%#" PRIx64 "\n", name, v);
}

static void dump_info(const struct prism_event *ev, struct prism_strbuf *sb)
{
	struct prism_pt_info i;

	if (prism_pt_info__parse(ev, &i) && i.type != PRISM_AUXTRACE_INTEL_PT) {
		prism_strbuf_addch(sb, '\n');
		return;
	}
	prism_strbuf_addf(sb, " type: %u\n", i.type);
	if (i.type != PRISM_AUXTRACE_INTEL_PT || i.nr_priv < 10)
		return;
	info_dec(sb, "PMU Type", i.pmu_type);
	info_dec(sb, "Time Shift", i.time_shift);
	info_dec(sb, "Time Muliplier", i.time_mult); /* sic */
	info_dec(sb, "Time Zero", i.time_zero);
	info_dec(sb, "Cap Time Zero", i.cap_user_time_zero);
	info_hex(sb, "TSC bit", i.tsc_bit);
	info_hex(sb, "NoRETComp bit", i.noretcomp_bit);
	info_dec(sb, "Have sched_switch", i.have_sched_switch);
	info_dec(sb, "Snapshot mode", i.snapshot_mode);
	info_dec(sb, "Per-cpu maps", i.per_cpu_mmaps);
	if (!i.has_mtc)
		return;
	info_hex(sb, "MTC bit", i.mtc_bit);
	info_hex(sb, "MTC freq bits", i.mtc_freq_bits);
	info_dec(sb, "TSC:CTC numerator", i.tsc_ctc_n);
	info_dec(sb, "TSC:CTC denominator", i.tsc_ctc_d);
	info_hex(sb, "CYC bit", i.cyc_bit);
	info_dec(sb, "Max non-turbo ratio", i.max_nonturbo_ratio);
	if (!i.has_filter)
		return;
	info_dec(sb, "Filter string len.", i.filter_str_len);
	prism_strbuf_addf(sb, "  %-20s%s\n", "Filter string", i.filter ? i.filter : "");
}

static void dump_time_conv(const struct prism_event *ev, struct prism_strbuf *sb)
{
	struct prism_time_conv tc;

	prism_strbuf_addch(sb, '\n');
	if (prism_time_conv__parse(ev, &tc) == 0) {
		prism_strbuf_addf(sb, "... Time Shift      %" PRIu64 "\n", tc.time_shift);
		prism_strbuf_addf(sb, "... Time Muliplier  %" PRIu64 "\n", tc.time_mult);
		prism_strbuf_addf(sb, "... Time Zero       %" PRIu64 "\n", tc.time_zero);
		if (tc.has_ext) {
			prism_strbuf_addf(sb, "... Time Cycles     %" PRIu64 "\n", tc.time_cycles);
			prism_strbuf_addf(sb, "... Time Mask       %#" PRIx64 "\n", tc.time_mask);
			prism_strbuf_addf(sb, "... Cap Time Zero   %d\n", tc.cap_user_time_zero);
			prism_strbuf_addf(sb, "... Cap Time Short  %d\n", tc.cap_user_time_short);
		}
	}
	prism_strbuf_addstr(sb, ": unhandled!\n");
}

bool prism_pt__dump_detail(const struct prism_event *ev, struct prism_strbuf *sb)
{
	struct prism_auxtrace at;
	struct prism_aux aux;
	uint32_t pid, tid;

	switch (ev->type) {
	case PRISM_RECORD_AUXTRACE_INFO:
		dump_info(ev, sb);
		return true;
	case PRISM_RECORD_AUXTRACE:
		if (prism_auxtrace__parse(ev, &at))
			break;
		prism_strbuf_addf(sb,
				  " size: %#" PRIx64 "  offset: %#" PRIx64 "  ref: %#" PRIx64
				  "  idx: %u  tid: %d  cpu: %d\n",
				  at.size, at.offset, at.reference, at.idx, (int)at.tid,
				  (int)at.cpu);
		return true;
	case PERF_RECORD_AUX:
		if (prism_aux__parse(ev, &aux))
			break;
		prism_strbuf_addf(sb,
				  " offset: %#" PRIx64 " size: %#" PRIx64 " flags: %#" PRIx64
				  " [%s%s%s]\n",
				  aux.offset, aux.size, aux.flags,
				  aux.flags & PRISM_AUX_FLAG_TRUNCATED ? "T" : "",
				  aux.flags & PRISM_AUX_FLAG_OVERWRITE ? "O" : "",
				  aux.flags & PRISM_AUX_FLAG_PARTIAL ? "P" : "");
		return true;
	case PERF_RECORD_ITRACE_START:
		if (prism_itrace_start__parse(ev, &pid, &tid))
			break;
		prism_strbuf_addf(sb, " pid: %u tid: %u\n", pid, tid);
		return true;
	case PRISM_RECORD_AUXTRACE_ERROR:
		prism_strbuf_addstr(sb, ": unhandled!\n");
		return true;
	case PRISM_RECORD_TIME_CONV:
		dump_time_conv(ev, sb);
		return true;
	default:
		return false;
	}
	prism_strbuf_addch(sb, '\n');
	return true;
}
