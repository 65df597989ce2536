/* SPDX-License-Identifier: MIT */
/*
 * perf's --time sample filter: windows of perf time (ns) in the forms perf
 * 6.1 takes, and whether a sample's time falls outside them.
 *
 *	struct prism_time_filter tf = { 0 };
 *	const char *why;
 *
 *	if (prism_time_filter__parse(&tf, "603.13,603.2", 0, 0, &why))
 *		... say why ...
 *	if (prism_time_filter__skip(&tf, sample_time))
 *		... leave the sample out ...
 *	prism_time_filter__release(&tf);
 */
#ifndef PRISM_TIME_FILTER_H
#define PRISM_TIME_FILTER_H

#include <prism/core.h>

/* one window, in ns; 0 is an open side (no start, no end) */
struct prism_time_range {
	uint64_t start, end;
};

struct prism_time_filter {
	struct prism_time_range *v;
	size_t nr; /* 0: no filter, every time passes */
};

/* whether @s uses the percent forms, which need the file's first and last sample times */
PRISM_API bool prism_time_filter__percent(const char *s);

/**
 * prism_time_filter__parse - perf's --time string into @tf
 * @tf: zeroed, or released, filter
 * @s: "START,END" in seconds with at most 9 decimals (either side may be
 *     empty: from the start of the file, to its end), several of them
 *     separated by blanks in ascending order without overlaps
 *     ("1.5,2 3,"); or percents of the file's sample time span: "A%/N"
 *     (the Nth slice of A%), "A%-B%" or "A%", several of one kind
 *     separated by commas ("10%/1,10%/3")
 * @first: the file's first sample time (percent forms only)
 * @last: its last sample time (percent forms only; both 0: unknown)
 * @why: set to what is wrong with @s on -EINVAL and -ENODATA
 *
 * Return: 0, -EINVAL (a bad string), -ENODATA (percents without
 * @first/@last) or -ENOMEM.
 */
PRISM_API int prism_time_filter__parse(struct prism_time_filter *tf, const char *s, uint64_t first,
				       uint64_t last, const char **why);

/* whether a sample at @time is left out (as perf: a time of 0 never is) */
PRISM_API bool prism_time_filter__skip(const struct prism_time_filter *tf, uint64_t time);

PRISM_API void prism_time_filter__release(struct prism_time_filter *tf);

#endif /* PRISM_TIME_FILTER_H */
