/* SPDX-License-Identifier: MIT */
/* prism annotate's state, shared by cmd/annotate.c (reading) and annotate-print.c */
#ifndef PRISM_CMD_ANNOTATE_H
#define PRISM_CMD_ANNOTATE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "lists.h"

struct prism_session;
struct prism_symbols;
struct prism_annotate;
struct prism_group_reads;

struct annotate_cmd {
	const char *input; /* as named to the user */
	const char *symbol, *event, *symfs, *vmlinux;
	struct strlist dsos;
	bool print_line, full_paths, source, asm_raw, show_nr, show_period;
	int percent_type; /* enum prism_percent_type */
	double percent_limit;
	struct prism_session *s;
	struct prism_symbols *sy;
	struct prism_symbols *label_sy; /* the same with C++ parameters, for objdump's labels */
	struct prism_annotate *a;
	char *last_path; /* -l: the file:line shown last (perf keeps it across symbols) */
	struct prism_group_reads *reads; /* leader sampling: the counts last read */
};

/* every event's symbols, as perf annotate --stdio; returns the exit code */
int annotate_print(struct annotate_cmd *c);

#endif /* PRISM_CMD_ANNOTATE_H */
