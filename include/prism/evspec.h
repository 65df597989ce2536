/* SPDX-License-Identifier: MIT */
/*
 * Parsing of event specifications (-e arguments) into perf_event_attrs, as
 * perf 6.1 parses them:
 *
 *	software events		cpu-clock, task-clock, page-faults/faults, cs, ...
 *	hardware events		cycles, instructions, cache-misses, branches, ...
 *	hw cache events		L1-dcache-load-misses, LLC-loads, dTLB-stores, ...
 *	raw events		r1a8 (PERF_TYPE_RAW, hex config)
 *	PMU events		pmu/term=val,.../ with terms from sysfs format/,
 *				sysfs event aliases (msr/tsc/), config/config1/config2
 *	terms			period=N, freq=N, name=NAME (also sym/terms/: cpu-clock/period=1000/)
 *	tracepoints		sys:name, with fnmatch() globs (sched:*, sched:sched_wak*)
 *	breakpoints		mem:addr[/len][:rwx] (every hit is a sample, as in perf)
 *	groups			{a,b,...}[:mods]; group modifiers apply to every member
 *	modifiers		:u :k :h (count only user/kernel/hypervisor), :G :H (guest/host),
 *				:I (exclude idle), :p :pp :ppp (precise_ip 1..3), :S (sample read),
 *				:P (the highest precise_ip the PMU takes), :D (pinned),
 *				:e (exclusive), :W (weak group: opened apart when the
 *				group cannot be); several at once (:uk, :upp)
 *
 * Ownership: a struct prism_evspecs owns its specs and their strings; the
 * pointers stay valid until prism_evspecs__free() (appending more specs
 * does not move them).
 */
#ifndef PRISM_EVSPEC_H
#define PRISM_EVSPEC_H

#include <linux/perf_event.h>
#include <prism/core.h>

struct prism_evspecs; /* opaque list of parsed events */

struct prism_evspec {
	/*
	 * size=sizeof, type, config(+config1/2), exclude_* from modifiers,
	 * sample_period or sample_freq+freq=1 when given by terms, precise_ip,
	 * pinned (:D).  Tracepoints get sample_period 1 without user_period
	 * (perf's weak default: -c/-F may override it).  exclude_guest is 1
	 * unless a modifier says otherwise (perf's default).
	 * sample_type/read_format/disabled/inherit are NOT set here: the
	 * recorder owns them.
	 */
	struct perf_event_attr attr;
	/* the name perf shows: "cpu-clock", "sched:sched_switch", "cpu-clock:u", "msr/tsc/" */
	const char *name;
	int idx; /* own index in the list */
	int leader; /* index of its group leader; == idx for leaders and singletons */
	int nr_members; /* leaders: members in the group incl. itself; others: 0 */
	bool tracepoint; /* attr.type == PERF_TYPE_TRACEPOINT */
	const char *tp_sys, *tp_name; /* tracepoints, else NULL */
	const char *filter; /* tracepoint filter from --filter, NULL if none */
	bool user_period,
		user_freq; /* period/freq fixed by the event string: recorder keeps them */
	bool sample_read; /* :S modifier: the leader samples the counts of the whole group */
	bool precise_max; /* :P: precise_ip 3, lowered at open until the PMU takes it */
	bool weak_group; /* :W on a group: its events are opened apart if the group fails */
	/*
	 * intel_pt: a PMU that writes an AUX area (perf's default config
	 * applied before the event's terms); filter is then an address filter
	 */
	bool aux;
};

/**
 * prism_evspecs__new - an empty list
 *
 * Return: the list, or NULL (errno ENOMEM).
 */
PRISM_API struct prism_evspecs *prism_evspecs__new(void);

/**
 * prism_evspecs__free - free the list, its specs and their strings
 * @l: the list, or NULL
 */
PRISM_API void prism_evspecs__free(struct prism_evspecs *l);

/**
 * prism_evspecs__parse - parse one -e argument and append its events
 * @l: the list
 * @str: e.g. "a,b,{c,d}:u,sched:*,cpu/config=1/"
 *
 * Globs in tracepoint names expand via tracefs (sorted by name); a
 * tracepoint needs tracefs (prism_tracefs_init() is called, without
 * mounting, when it was not called yet).  On error nothing is appended.
 *
 * Return: 0; -EINVAL for a syntax error or unknown event; -ENOENT for a
 * missing tracepoint or PMU; -EACCES/-ENOENT when tracefs cannot be used;
 * -ENOMEM.  prism_evspecs__error() then gives the full message.
 */
PRISM_API int prism_evspecs__parse(struct prism_evspecs *l, const char *str);

/**
 * prism_evspecs__set_filter - attach a tracepoint filter (--filter)
 * @l: the list
 * @filter: the kernel filter expression, e.g. "prev_pid != 0"
 *
 * Applies to every event added by the last prism_evspecs__parse() call, as
 * perf does; all of them must be tracepoints.  A second filter for the
 * same events is combined: "(first) && (second)".  The expression itself is
 * checked by the kernel when the recorder sets it.
 *
 * Return: 0; -EINVAL (no events yet, or a non-tracepoint among them; see
 * prism_evspecs__error()); -ENOMEM.
 */
PRISM_API int prism_evspecs__set_filter(struct prism_evspecs *l, const char *filter);

/**
 * prism_evspecs__nr - number of events in the list
 * @l: the list
 */
PRISM_API size_t prism_evspecs__nr(const struct prism_evspecs *l);

/**
 * prism_evspecs__get - the @idx'th event
 * @l: the list
 * @idx: 0 .. prism_evspecs__nr() - 1
 *
 * Return: the spec (owned by @l; the caller may adjust attr), or NULL when
 * @idx is out of range.
 */
PRISM_API struct prism_evspec *prism_evspecs__get(struct prism_evspecs *l, size_t idx);

/**
 * prism_evspecs__error - message of the last failed parse or set_filter
 * @l: the list
 *
 * Names the bad token and its column in the argument, e.g. "unknown event
 * 'cpu-clok' at column 8 (did you mean 'cpu-clock'?)" or "no tracepoint
 * 'sched:sched_swich'; closest: sched:sched_switch, sched:sched_stick_numa".
 *
 * Return: a string owned by @l ("" when there was no error).
 */
PRISM_API const char *prism_evspecs__error(const struct prism_evspecs *l);

/**
 * prism_evspecs__error_column - where the last error is in the parsed argument
 * @l: the list
 *
 * Return: the 1-based column of the bad token, 0 when there is none (the
 * CLI can print the argument with a caret under it, as perf does).
 */
PRISM_API int prism_evspecs__error_column(const struct prism_evspecs *l);

/* symbolic (named) events known to the parser, for listing */
enum prism_evsym_kind {
	PRISM_EVSYM_SOFTWARE,
	PRISM_EVSYM_HARDWARE,
	PRISM_EVSYM_HW_CACHE,
};

struct prism_evsym {
	const char *name; /* "context-switches" */
	const char *alias; /* "cs", or NULL */
	uint32_t type; /* PERF_TYPE_SOFTWARE, ... */
	uint64_t config;
};

/**
 * prism_evsyms - the named events of one kind
 * @kind: software, hardware or hardware cache events
 * @nr: set to the number of entries
 *
 * Cache events are the valid (cache, op, result) combinations with perf's
 * names ("L1-dcache-loads", "L1-dcache-load-misses", ...).
 *
 * Return: a static table, sorted by name for software events, in perf's
 * order otherwise.
 */
PRISM_API const struct prism_evsym *prism_evsyms(enum prism_evsym_kind kind, size_t *nr);

#endif /* PRISM_EVSPEC_H */
