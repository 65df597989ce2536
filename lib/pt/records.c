// SPDX-License-Identifier: MIT
/*
 * The AUX-area records of perf.data: AUXTRACE_INFO (Intel PT's priv[]
 * words), AUXTRACE, AUX, ITRACE_START, AUXTRACE_ERROR, TIME_CONV; and
 * TSC <-> perf time.  Layouts: tools/lib/perf/include/perf/event.h and
 * tools/perf/arch/x86/util/intel-pt.c (facts only).
 */
#include <string.h>

#include <prism/error.h>
#include <prism/pt.h>

#include "internal.h"

/* Intel PT's priv[] indices */
enum {
	PT_PMU_TYPE,
	PT_TIME_SHIFT,
	PT_TIME_MULT,
	PT_TIME_ZERO,
	PT_CAP_USER_TIME_ZERO,
	PT_TSC_BIT,
	PT_NORETCOMP_BIT,
	PT_HAVE_SCHED_SWITCH,
	PT_SNAPSHOT_MODE,
	PT_PER_CPU_MMAPS,
	PT_MTC_BIT,
	PT_MTC_FREQ_BITS,
	PT_TSC_CTC_N,
	PT_TSC_CTC_D,
	PT_CYC_BIT,
	PT_MAX_NONTURBO_RATIO,
	PT_FILTER_STR_LEN,
	PT_NR_PRIV,
};

/* the record's body after its 8-byte header, and its length */
static const uint8_t *body(const struct prism_event *ev, size_t *n)
{
	*n = ev->raw->size >= 8 ? ev->raw->size - 8u : 0;
	return (const uint8_t *)ev->raw + 8;
}

size_t prism_pt_info__write(const struct prism_pt_info *info, void *buf, size_t size)
{
	size_t flen = info->filter ? strlen(info->filter) : 0;
	size_t fpad = flen ? (flen + 1 + 7) / 8 * 8 : 0;
	size_t need = 16 + 8 * (size_t)PT_NR_PRIV + fpad;
	uint64_t w[PT_NR_PRIV] = {
		[PT_PMU_TYPE] = info->pmu_type,
		[PT_TIME_SHIFT] = info->time_shift,
		[PT_TIME_MULT] = info->time_mult,
		[PT_TIME_ZERO] = info->time_zero,
		[PT_CAP_USER_TIME_ZERO] = info->cap_user_time_zero,
		[PT_TSC_BIT] = info->tsc_bit,
		[PT_NORETCOMP_BIT] = info->noretcomp_bit,
		[PT_HAVE_SCHED_SWITCH] = info->have_sched_switch,
		[PT_SNAPSHOT_MODE] = info->snapshot_mode,
		[PT_PER_CPU_MMAPS] = info->per_cpu_mmaps,
		[PT_MTC_BIT] = info->mtc_bit,
		[PT_MTC_FREQ_BITS] = info->mtc_freq_bits,
		[PT_TSC_CTC_N] = info->tsc_ctc_n,
		[PT_TSC_CTC_D] = info->tsc_ctc_d,
		[PT_CYC_BIT] = info->cyc_bit,
		[PT_MAX_NONTURBO_RATIO] = info->max_nonturbo_ratio,
		[PT_FILTER_STR_LEN] = flen,
	};
	struct perf_event_header h = { .type = PRISM_RECORD_AUXTRACE_INFO, .size = (uint16_t)need };
	uint32_t type[2] = { PRISM_AUXTRACE_INTEL_PT, 0 };
	uint8_t *b = buf;

	if (need > size || need > UINT16_MAX)
		return 0;
	memset(b, 0, need);
	memcpy(b, &h, sizeof(h));
	memcpy(b + 8, type, sizeof(type));
	memcpy(b + 16, w, sizeof(w));
	if (flen)
		memcpy(b + 16 + sizeof(w), info->filter, flen);
	return need;
}

int prism_pt_info__parse(const struct prism_event *ev, struct prism_pt_info *out)
{
	size_t n;
	const uint8_t *b = body(ev, &n);
	uint64_t w[PT_NR_PRIV] = { 0 };
	size_t i;

	memset(out, 0, sizeof(*out));
	if (ev->type != PRISM_RECORD_AUXTRACE_INFO || n < 8)
		return -PRISM_E_BAD_RECORD;
	out->type = get_u32(b);
	out->nr_priv = (uint32_t)((n - 8) / 8);
	if (out->type != PRISM_AUXTRACE_INTEL_PT)
		return 0;
	if (out->nr_priv < PT_PER_CPU_MMAPS + 1)
		return -PRISM_E_BAD_RECORD;
	for (i = 0; i < PT_NR_PRIV && i < out->nr_priv; i++)
		w[i] = get_u64(b + 8 + 8 * i);
	out->pmu_type = w[PT_PMU_TYPE];
	out->time_shift = w[PT_TIME_SHIFT];
	out->time_mult = w[PT_TIME_MULT];
	out->time_zero = w[PT_TIME_ZERO];
	out->cap_user_time_zero = w[PT_CAP_USER_TIME_ZERO];
	out->tsc_bit = w[PT_TSC_BIT];
	out->noretcomp_bit = w[PT_NORETCOMP_BIT];
	out->have_sched_switch = w[PT_HAVE_SCHED_SWITCH];
	out->snapshot_mode = w[PT_SNAPSHOT_MODE];
	out->per_cpu_mmaps = w[PT_PER_CPU_MMAPS];
	out->has_mtc = out->nr_priv > PT_MAX_NONTURBO_RATIO;
	if (out->has_mtc) {
		out->mtc_bit = w[PT_MTC_BIT];
		out->mtc_freq_bits = w[PT_MTC_FREQ_BITS];
		out->tsc_ctc_n = w[PT_TSC_CTC_N];
		out->tsc_ctc_d = w[PT_TSC_CTC_D];
		out->cyc_bit = w[PT_CYC_BIT];
		out->max_nonturbo_ratio = w[PT_MAX_NONTURBO_RATIO];
	}
	out->has_filter = out->nr_priv > PT_FILTER_STR_LEN;
	if (out->has_filter) {
		size_t at = 8 + 8 * (size_t)PT_NR_PRIV;

		out->filter_str_len = w[PT_FILTER_STR_LEN];
		/* the string is padded to 8 bytes after its NUL */
		if (out->filter_str_len && out->filter_str_len < n - at &&
		    memchr(b + at, 0, n - at))
			out->filter = (const char *)b + at;
	}
	return 0;
}

void prism_pt_info__time_conv(const struct prism_pt_info *info, struct prism_time_conv *out)
{
	memset(out, 0, sizeof(*out));
	out->time_shift = info->time_shift;
	out->time_mult = info->time_mult;
	out->time_zero = info->time_zero;
	out->cap_user_time_zero = info->cap_user_time_zero;
}

int prism_auxtrace__parse(const struct prism_event *ev, struct prism_auxtrace *out)
{
	size_t n;
	const uint8_t *b = body(ev, &n);

	memset(out, 0, sizeof(*out));
	if (ev->type != PRISM_RECORD_AUXTRACE || n < 36)
		return -PRISM_E_BAD_RECORD;
	out->size = get_u64(b);
	out->offset = get_u64(b + 8);
	out->reference = get_u64(b + 16);
	out->idx = get_u32(b + 24);
	out->tid = get_u32(b + 28);
	out->cpu = get_u32(b + 32);
	if (ev->payload && ev->payload_size == out->size)
		out->data = ev->payload;
	return 0;
}

int prism_aux__parse(const struct prism_event *ev, struct prism_aux *out)
{
	size_t n;
	const uint8_t *b = body(ev, &n);

	memset(out, 0, sizeof(*out));
	if (ev->type != PERF_RECORD_AUX || n < 24)
		return -PRISM_E_BAD_RECORD;
	out->offset = get_u64(b);
	out->size = get_u64(b + 8);
	out->flags = get_u64(b + 16);
	return 0;
}

int prism_itrace_start__parse(const struct prism_event *ev, uint32_t *pid, uint32_t *tid)
{
	size_t n;
	const uint8_t *b = body(ev, &n);

	if (ev->type != PERF_RECORD_ITRACE_START || n < 8)
		return -PRISM_E_BAD_RECORD;
	*pid = get_u32(b);
	*tid = get_u32(b + 4);
	return 0;
}

int prism_auxtrace_error__parse(const struct prism_event *ev, struct prism_auxtrace_error *out)
{
	size_t n;
	const uint8_t *b = body(ev, &n);

	memset(out, 0, sizeof(*out));
	/* type, code, cpu, pid, tid, fmt, ip, time, msg[64] */
	if (ev->type != PRISM_RECORD_AUXTRACE_ERROR || n < 32)
		return -PRISM_E_BAD_RECORD;
	out->type = get_u32(b);
	out->code = get_u32(b + 4);
	out->cpu = get_u32(b + 8);
	out->pid = get_u32(b + 12);
	out->tid = get_u32(b + 16);
	out->fmt = get_u32(b + 20);
	out->ip = get_u64(b + 24);
	/* fmt 0 (before perf 4.15) has no time: msg follows ip */
	if (out->fmt >= 1 && n >= 40)
		out->time = get_u64(b + 32);
	if (out->fmt >= 1) {
		if (n > 40)
			memcpy(out->msg, b + 40, n - 40 < 64 ? n - 40 : 64);
	} else if (n > 32) {
		memcpy(out->msg, b + 32, n - 32 < 64 ? n - 32 : 64);
	}
	if (out->fmt >= 2 && n >= 112) {
		out->machine_pid = get_u32(b + 104);
		out->vcpu = get_u32(b + 108);
	}
	return 0;
}

int prism_time_conv__parse(const struct prism_event *ev, struct prism_time_conv *out)
{
	size_t n;
	const uint8_t *b = body(ev, &n);

	memset(out, 0, sizeof(*out));
	if (ev->type != PRISM_RECORD_TIME_CONV || n < 24)
		return -PRISM_E_BAD_RECORD;
	out->time_shift = get_u64(b);
	out->time_mult = get_u64(b + 8);
	out->time_zero = get_u64(b + 16);
	out->cap_user_time_zero = true; /* implied by the record's being written */
	if (n >= 48) {
		out->has_ext = true;
		out->time_cycles = get_u64(b + 24);
		out->time_mask = get_u64(b + 32);
		out->cap_user_time_zero = b[40];
		out->cap_user_time_short = b[41];
	}
	return 0;
}

__wraps uint64_t prism_tsc_to_perf_time(const struct prism_time_conv *tc, uint64_t tsc)
{
	unsigned int shift = tc->time_shift < 64 ? (unsigned int)tc->time_shift : 63;
	uint64_t quot, rem;

	if (tc->cap_user_time_short)
		tsc = tc->time_cycles + ((tsc - tc->time_cycles) & tc->time_mask);
	quot = tsc >> shift;
	rem = tsc & ((1ull << shift) - 1);
	return tc->time_zero + quot * tc->time_mult + ((rem * tc->time_mult) >> shift);
}

/* @ns -> TSC ticks by a multiplier and shift (perf's); @ns where there is none */
static __wraps uint64_t ticks(uint64_t mult, uint64_t time_shift, uint64_t ns)
{
	unsigned int shift = time_shift < 64 ? (unsigned int)time_shift : 63;

	if (!mult)
		return ns;
	return ((ns / mult) << shift) + ((ns % mult) << shift) / mult;
}

__wraps uint64_t prism_ns_to_tsc_ticks(const struct prism_time_conv *tc, uint64_t ns)
{
	return ticks(tc->time_mult, tc->time_shift, ns);
}

__wraps uint64_t prism_perf_time_to_tsc(const struct prism_time_conv *tc, uint64_t ns)
{
	return tc->time_mult ? ticks(tc->time_mult, tc->time_shift, ns - tc->time_zero) : 0;
}

void prism_pt_cbr_freq(const struct prism_pt_info *info, unsigned int cbr, unsigned int *mhz,
		       unsigned int *percent)
{
	uint64_t hz = 1000000000, khz = 0;

	*percent = 0;
	if (info->has_mtc && info->max_nonturbo_ratio) {
		/* perf: the TSC ticks of a second over the ratio, in kHz; the percentage rounded */
		hz = ticks(info->time_mult, info->time_shift, hz);
		khz = hz / info->max_nonturbo_ratio / 1000;
		*percent =
			(unsigned int)((5 + 1000 * (uint64_t)cbr / info->max_nonturbo_ratio) / 10);
	}
	*mhz = (unsigned int)((cbr * khz + 500) / 1000);
}
