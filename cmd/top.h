/* SPDX-License-Identifier: MIT */
/*
 * prism top: the snapshot of an interval the reader thread hands to the
 * display, the view's settings, and the frame rendering (cmd/top-view.c).
 */
#ifndef PRISM_CMD_TOP_H
#define PRISM_CMD_TOP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <prism/strbuf.h>
#include <prism/util.h>

#include "top-hot.h"

/* one interval, copied out of the analysis (the display owns it) */
struct top_snap {
	struct prism_util_interval iv; /* its arrays point to the copies below */
	struct prism_util_cpu_row *cpus;
	struct prism_util_iv_task *tasks;
	struct prism_util_iv_call *syscalls;
	uint64_t lost_total; /* lost events since the start */
	unsigned int seq; /* 1, 2, ... */
	struct top_hot *hot; /* the hot functions of the interval */
};

enum top_sort { TOP_SORT_UTIL, TOP_SORT_SYS, TOP_SORT_USER, TOP_SORT_LAT };

struct top_view {
	enum top_sort sort;
	bool procs; /* one row per process, not per task */
	bool hot; /* the hot functions, not the tasks */
	bool paused;
	char filter[64]; /* a pid/tid (digits) or part of a comm; "" = all */
	int rows; /* task rows to show; 0 = all */
	int cols; /* width to cut lines at; 0 = none */
	bool ansi; /* an interactive frame: escapes, status line */
	const char *prompt; /* the filter being typed, or NULL */
};

/* "util", "sys", "user", "latency" -> the key; -1 for another word */
int top_sort_parse(const char *s);
const char *top_sort_name(enum top_sort s);

/* the frame of @s as @v shows it, lines ending in '\n' */
void top_render(struct prism_strbuf *out, const struct top_snap *s, const struct top_view *v);

void top_snap_free(struct top_snap *s);

#endif /* PRISM_CMD_TOP_H */
