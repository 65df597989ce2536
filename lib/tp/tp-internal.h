/* SPDX-License-Identifier: MIT */
/*
 * The tracepoint objects shared by tp.c (loading, lookup, checked
 * libtraceevent printing) and compiled.c (the compiled print fmt).
 */
#ifndef PRISM_TP_INTERNAL_H
#define PRISM_TP_INTERNAL_H

#include <traceevent/event-parse.h>
#include <traceevent/trace-seq.h>

#include <prism/tp.h>

struct prism_strbuf;
struct fast_op;

struct prism_tp_event {
	const struct prism_tp *tp;
	struct tep_event *tev;
	struct prism_tp_field *fields;
	size_t nr_fields;
	bool check_args; /* the print fmt reads lengths or indexes from the payload */
	/* the print fmt compiled to ops (compiled.c): fast_state 1, or not compilable: 2 */
	int fast_state;
	struct fast_op *ops;
	size_t nr_ops;
	size_t need; /* payload bytes every op reads lie below this */
};

struct prism_tp {
	struct tep_handle *tep;
	bool swap; /* payloads are in the other byte order */
	struct prism_tp_event *events; /* ascending id */
	size_t nr_events;
	const struct prism_tp_field *type_field; /* common_type, shared by every event */
	struct trace_seq seq; /* formatter scratch */
	bool seq_init;
	uint8_t *copy; /* the payload being formatted, and PAYLOAD_SLACK zero bytes */
	size_t copy_cap;
};

/*
 * Format @raw with @ev's print fmt compiled to ops, for the formats made of
 * literals, integer fields and char arrays.  1: formatted into @out; 0: not
 * compilable or the payload is too short (take the checked libtraceevent
 * path); -ENOMEM.
 */
int tp_compiled__format(struct prism_tp_event *ev, const uint8_t *raw, size_t raw_size,
			struct prism_strbuf *out);

#endif /* PRISM_TP_INTERNAL_H */
