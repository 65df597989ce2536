// SPDX-License-Identifier: MIT
/*
 * prism script --itrace -F: the fields of Intel PT samples, chosen as perf
 * 6.1 chooses them.  perf keeps a field set per output type; the samples
 * --itrace synthesizes are of two: "hw" (branches, instructions,
 * transactions) and "synth" (ptwrite and the power events).  -F takes
 *
 *   [hw:|synth:]FIELD,...        those fields, of every type or of one
 *   [hw:|synth:]+FIELD,-FIELD    fields added to / removed from the defaults
 *
 * (a list sets or changes, never both; -F, --insn-trace and --call-trace
 * apply in command-line order); "flags" is a switch of every type that
 * leaves the others' defaults alone.  A field a list of every type names
 * that the samples do not carry is an error (time without timestamps, cpu
 * of a per-thread trace; addr, cpu, data_src, weight and phys_addr pass
 * where the file has the AUXTRACE index, as perf lets them); one of the
 * defaults, or of a type's own list, is dropped.  The names are those of
 * cmd/script-fields.c plus the ones of these samples: flags, callindent,
 * insn, insnlen, disasm (prism's libcapstone disassembly), ipc, synth (the
 * events' payload), misc, and perf's metric, machine_pid, vcpu (nothing
 * printed for these samples).
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <prism/features.h>
#include <prism/pt.h>
#include <prism/session.h>
#include <prism/suggest.h>

#include "cmd.h"
#include "options.h"
#include "script.h"

#define HW_DEFAULT \
	(F_COMM | F_TID | F_CPU | F_TIME | F_EVENT | F_IP | F_SYM | F_SYMOFF | F_DSO | F_PERIOD)
#define SYNTH_DEFAULT \
	(F_COMM | F_TID | F_CPU | F_TIME | F_EVENT | F_IP | F_SYM | F_SYMOFF | F_DSO | F_SYNTH)
/* fields of ordinary samples that these never carry, nor print as perf 6.1 */
#define F_NEVER (F_CGROUP | F_INS_LAT | F_DATA_PAGE_SIZE | F_CODE_PAGE_SIZE)

static const struct {
	const char *name;
	unsigned int bit;
} pt_names[] = {
	{ "callindent", F_CALLINDENT },
	{ "insn", F_INSN },
	{ "insnlen", F_INSNLEN },
	{ "disasm", F_DISASM },
	{ "ipc", F_IPC },
	{ "synth", F_SYNTH },
	{ "misc", F_MISC },
	/* perf prints nothing of these for Intel PT samples */
	{ "metric", F_NOTHING },
	{ "machine_pid", F_NOTHING },
	{ "vcpu", F_NOTHING },
};

/* fields perf takes that prism does not print for these samples, and why */
static const struct {
	const char *name, *why;
} refused[] = {
	{ "iregs", "Intel PT samples have no registers" },
	{ "uregs", "Intel PT samples have no registers" },
	{ "tod", "not printed by prism (perf: the wall-clock time of files with clock data)" },
	{ "srccode", "not printed by prism (perf: the source line's text)" },
	{ "brstackinsn", "not printed by prism (perf: the instructions of the branch stack)" },
	{ "brstackinsnlen", "not printed by prism (perf: the instructions of the branch stack)" },
};

static unsigned int field_bit(const char *name)
{
	size_t i;

	for (i = 0; i < PRISM_ARRAY_SIZE(pt_names); i++)
		if (!strcmp(name, pt_names[i].name))
			return pt_names[i].bit;
	return script_field_bit(name);
}

static const char *field_name(unsigned int bit)
{
	size_t i;

	for (i = 0; i < PRISM_ARRAY_SIZE(pt_names); i++)
		if (pt_names[i].bit == bit)
			return pt_names[i].name;
	return script_field_name(bit);
}

/* the field of FIELD_LIST_PT closest to @word, if close enough */
static const char *suggest(const char *word)
{
	static char list[] = FIELD_LIST_PT;
	static const char *names[32];
	static size_t n;
	char *save = NULL, *tok;

	if (!n)
		for (tok = strtok_r(list, ",", &save); tok && n < PRISM_ARRAY_SIZE(names);
		     tok = strtok_r(NULL, ",", &save))
			names[n++] = tok;
	return prism_suggest(word, names, n);
}

void script_pt_fields_init(struct pt_fields *f)
{
	if (f->init)
		return;
	f->init = true;
	f->type[PT_HW].fields = HW_DEFAULT;
	f->type[PT_SYNTH].fields = SYNTH_DEFAULT;
	f->type[PT_OTHER].fields = HW_DEFAULT;
}

/* perf's rules of one type's fields, whatever the samples hold */
static const char *rules(unsigned int fl)
{
	static char why[160];
	unsigned int never = fl & F_NEVER;

	if (never) {
		snprintf(why, sizeof(why),
			 "'%s': Intel PT samples have no such field (as perf: their events do "
			 "not sample it)",
			 field_name(never & -never));
		return why;
	}
	if ((fl & F_SYMOFF) && !(fl & F_SYM))
		return "symoff needs the sym field (perf: \"Display of offsets requested but "
		       "symbol is not selected\")";
	if ((fl & F_SRCLINE) && !(fl & F_IP))
		return "srcline needs the ip field: no address to look the source line up";
	return NULL;
}

const char *script_pt_fields(const char *list, struct pt_fields *f)
{
	static char why[400];
	char buf[256], *tok, *save = NULL, *rest = buf;
	enum { DEFAULT, SET, ADD, REMOVE } change = DEFAULT;
	size_t i;
	int only = -1; /* a type's prefix: PT_HW, PT_SYNTH, or PT_NR (another type's) */
	bool relative;
	int t;

	script_pt_fields_init(f);
	if (!list)
		return NULL;
	if (strlen(list) >= sizeof(buf))
		return "the list is too long";
	strcpy(buf, list);
	tok = strchr(buf, ':');
	if (tok) {
		static const char *const types[] = { "hw", "synth", "sw", "trace", "raw", "break" };

		*tok = '\0';
		for (i = 0; i < PRISM_ARRAY_SIZE(types) && strcmp(buf, types[i]); i++)
			;
		if (i == PRISM_ARRAY_SIZE(types)) {
			snprintf(why, sizeof(why),
				 "'%.32s:' is not an event type (hw: branches, instructions, "
				 "transactions; synth: ptwrite and power events; sw, trace, raw, "
				 "break)",
				 buf);
			return why;
		}
		only = i == 0 ? PT_HW : i == 1 ? PT_SYNTH : PT_NR;
		rest = tok + 1;
		/* perf: "synth:" hides the events; no other type's list is empty */
		if (!*rest && only != PT_SYNTH) {
			snprintf(why, sizeof(why),
				 "'%s:' with no fields (perf: \"events do not exist\"; 'synth:' "
				 "alone leaves the events out)",
				 buf);
			return why;
		}
	} else if (!*rest) {
		return "no fields: a type's fields cannot all be left out";
	}
	relative = strchr(rest, '+') || strchr(rest, '-');
	for (t = 0; t < PT_NR; t++) {
		if (only >= 0 && t != only)
			continue;
		if (!relative) {
			f->type[t].fields = 0;
			f->type[t].user_set = f->type[t].reset = true;
		}
	}
	for (tok = strtok_r(rest, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		unsigned int bit;

		if (*tok == '+' || *tok == '-') {
			if (change == SET)
				goto badmix;
			change = *tok++ == '+' ? ADD : REMOVE;
		} else {
			if (change != SET && change != DEFAULT)
				goto badmix;
			change = SET;
		}
		if (!strcmp(tok, "flags")) { /* perf's switch of every type */
			f->flags = change != REMOVE;
			continue;
		}
		if (!strcmp(tok, "bpf-output")) { /* perf: not of these types, ignored */
			warning("-F %s: not a field of Intel PT samples: ignored", tok);
			continue;
		}
		bit = field_bit(tok);
		for (i = 0; !bit && i < PRISM_ARRAY_SIZE(refused); i++) {
			if (!strcmp(tok, refused[i].name)) {
				snprintf(why, sizeof(why), "'%s': %s", tok, refused[i].why);
				return why;
			}
		}
		if (!bit) {
			const char *best = suggest(tok);

			snprintf(why, sizeof(why),
				 "'%.64s' is not a field of --itrace samples%s%s%s (" FIELD_LIST_PT
				 ")",
				 tok, best ? " (did you mean '" : "", best ? best : "",
				 best ? "'?)" : "");
			return why;
		}
		if (bit == F_TRACE) { /* perf: ignored */
			warning("-F %s: not a field of Intel PT samples: ignored", tok);
			continue;
		}
		for (t = 0; t < PT_NR; t++) {
			if (only >= 0 && t != only)
				continue;
			/*
			 * perf 6.1 takes a field as asked for (an error where the
			 * samples lack it) or taken away (no ip, sym added for call
			 * chains) only from a list of every type; one of a type's
			 * own is dropped where the samples lack it
			 */
			if (change == REMOVE) {
				f->type[t].fields &= ~bit;
				f->type[t].asked &= ~bit;
				f->type[t].unset |= only < 0 ? bit : 0;
			} else {
				f->type[t].fields |= bit;
				f->type[t].asked |= only < 0 ? bit : 0;
				f->type[t].unset &= ~bit;
			}
			f->type[t].user_set = true;
		}
	}
	/* a list of every type: its rules now (perf checks the intel_pt event first) */
	return rules(f->type[PT_OTHER].fields);
badmix:
	return "a list either sets the fields or changes the defaults with +field and "
	       "-field, not both";
}

/* -F and the options that set fields themselves, in command-line order: perf applies them so */
static const char *reqs[32];
static size_t nr_reqs;

static int push(const char *list)
{
	if (nr_reqs == PRISM_ARRAY_SIZE(reqs)) {
		error("more than %zu -F, --insn-trace, --call-trace options", nr_reqs);
		return -1;
	}
	reqs[nr_reqs++] = list;
	return 0;
}

int script_opt_fields(const struct option_def *opt, const char *arg)
{
	*(const char **)opt->value = arg;
	return push(arg);
}

int script_opt_call_trace(const struct option_def *opt, const char *arg)
{
	(void)arg; /* none: the option takes no value */
	*(bool *)opt->value = true;
	/* perf's fields of call traces */
	return push(strcmp(opt->long_name, "call-trace") ?
			    "-ip,-addr,-event,-period,+callindent,+flags" :
			    "-ip,-addr,-event,-period,+callindent");
}

void script_pt_fields_push(const char *list)
{
	push(list);
}

const char *script_pt_fields_apply(const char *fields, struct pt_fields *f)
{
	static char why[480];
	const char *bad;
	size_t i;

	script_pt_fields_init(f);
	if (!nr_reqs && fields) /* not through the options' callbacks */
		push(fields);
	for (i = 0; i < nr_reqs; i++) {
		if ((bad = script_pt_fields(reqs[i], f))) {
			snprintf(why, sizeof(why), "-F %.64s: %s", reqs[i], bad);
			return why;
		}
	}
	nr_reqs = 0;
	return NULL;
}

void script_pt_show_fields(const struct pt_fields *f, unsigned int *fields, unsigned int *add,
			   unsigned int *del)
{
	const unsigned int ordinary = F_CALLINDENT - 1; /* enum field's bits */

	if (!f->type[PT_OTHER].user_set)
		return;
	if (f->type[PT_OTHER].reset) {
		*fields = f->type[PT_OTHER].fields & ordinary;
	} else {
		*add = f->type[PT_OTHER].asked & ordinary;
		*del = f->type[PT_OTHER].unset & ordinary;
	}
}

/*
 * perf's check of one type's fields against the sample_type @st of its
 * first event (@name): a field asked for that the samples lack is an error
 * (addr and cpu pass with @allow: the file has the AUXTRACE index), a
 * default one is dropped from *@fl
 */
static const char *check(unsigned int *fl, unsigned int asked, uint64_t st, bool allow,
			 const char *name)
{
	static const struct {
		unsigned int field;
		uint64_t needs;
		bool allow;
	} needs[] = {
		{ F_ADDR, PERF_SAMPLE_ADDR, true },
		/* perf: zeros, in a file with the index */
		{ F_DATA_SRC, PERF_SAMPLE_DATA_SRC, true },
		{ F_WEIGHT, PERF_SAMPLE_WEIGHT | PERF_SAMPLE_WEIGHT_STRUCT, true },
		{ F_PHYS_ADDR, PERF_SAMPLE_PHYS_ADDR, true },
		{ F_TID | F_PID, PERF_SAMPLE_TID, false },
		{ F_TIME, PERF_SAMPLE_TIME, false },
		{ F_CPU, PERF_SAMPLE_CPU, true },
	};
	static char why[256];
	size_t i;

	for (i = 0; i < PRISM_ARRAY_SIZE(needs); i++) {
		unsigned int field = *fl & needs[i].field;

		if (!field || (st & needs[i].needs))
			continue;
		if (!(asked & needs[i].field)) {
			*fl &= ~needs[i].field;
			continue;
		}
		if (needs[i].allow && allow)
			continue;
		snprintf(why, sizeof(why), "-F %s: the '%s' samples have no %s (%s)%s",
			 field_name(field & -field), name, field_name(field & -field),
			 field == F_TIME ? "the trace has no timestamps: recorded without tsc" :
			 field == F_CPU	 ? "a per-thread trace" :
					   "not sampled by the intel_pt event",
			 needs[i].allow ? "; perf lets a file with an AUXTRACE index print it" :
					  "");
		return why;
	}
	return NULL;
}

const char *script_pt_fields_check(const struct pt_fields *f, struct prism_session *s,
				   const struct perf_event_attr *pt, const char *pt_name,
				   const struct prism_pt_info *info, const struct prism_itrace *it,
				   const char *mods, unsigned int *hw, unsigned int *synth)
{
	bool allow = prism_session__file_info(s)->features[0] >> PRISM_FEAT_AUXTRACE & 1;
	unsigned int other = f->type[PT_OTHER].fields;
	uint64_t st = pt->sample_type & ~(uint64_t)PERF_SAMPLE_ADDR;
	const char *why;
	char name[32];

	*hw = f->type[PT_HW].fields;
	*synth = f->type[PT_SYNTH].fields;
	/* first the intel_pt event itself (perf checks it as the file is opened) */
	if ((why = check(&other, f->type[PT_OTHER].asked, pt->sample_type, allow, pt_name)))
		return why;
	/* the synthesized ones: IP, TID, TIME with timestamps, CPU per CPU */
	st |= PERF_SAMPLE_IP | PERF_SAMPLE_TID;
	st &= ~(uint64_t)(PERF_SAMPLE_TIME | PERF_SAMPLE_CPU);
	if (info->tsc_bit && (pt->config & info->tsc_bit))
		st |= PERF_SAMPLE_TIME;
	if (info->per_cpu_mmaps)
		st |= pt->sample_type & PERF_SAMPLE_CPU;
	/* a type's own list: fields the samples lack dropped, its rules where its samples are */
	*hw &= ~(F_NEVER & ~f->type[PT_HW].asked);
	*synth &= ~(F_NEVER & ~f->type[PT_SYNTH].asked);
	if ((it->branches || it->instructions || it->transactions) && (why = rules(*hw)))
		return why;
	if ((it->ptwrites || it->pwr_events) && (why = rules(*synth)))
		return why;
	if (it->branches || it->instructions || it->transactions) {
		snprintf(name, sizeof(name), "%s%s",
			 it->branches	  ? "branches" :
			 it->instructions ? "instructions" :
					    "transactions",
			 it->branches || it->instructions ? mods : "");
		if ((why = check(hw, f->type[PT_HW].asked,
				 st | (it->branches ? PERF_SAMPLE_ADDR : 0), allow, name)))
			return why;
	}
	if ((it->ptwrites || it->pwr_events) &&
	    (why = check(synth, f->type[PT_SYNTH].asked, st, allow,
			 it->ptwrites ? "ptwrite" : "cbr")))
		return why;
	/*
	 * perf: a type whose first event has call chains (after branches,
	 * none) prints ip and sym unless -F took them away
	 */
	if (it->callchain && !it->branches && (it->instructions || it->transactions))
		*hw |= (F_IP | F_SYM) & ~f->type[PT_HW].unset;
	if (it->callchain && (it->ptwrites || it->pwr_events))
		*synth |= (F_IP | F_SYM) & ~f->type[PT_SYNTH].unset;
	return NULL;
}
