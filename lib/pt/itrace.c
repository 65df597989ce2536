// SPDX-License-Identifier: MIT
/*
 * perf's --itrace option string and branch-flag names (perf 6.1's words).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <prism/pt.h>
#include <prism/strbuf.h>

/*
 * "100us", "1i", "10000" (ns): a period after 'i'; as perf, a unit may
 * follow spaces or commas, and a number without one ends the string.
 * Return: past the period, or NULL for something else after the number
 * (then *@stop points at it).
 */
static const char *period(const char *p, struct prism_itrace *o, const char **stop)
{
	char *end;
	uint64_t v = strtoull(p, &end, 10);

	if (end == p)
		return p;
	o->period = v;
	o->period_type = PRISM_ITRACE_NS;
	p = end;
	while (*p == ' ' || *p == ',')
		p++;
	if (*p == 'i') {
		o->period_type = PRISM_ITRACE_INSNS;
		return p + 1;
	}
	if (*p == 't') {
		o->period_type = PRISM_ITRACE_TICKS;
		return p + 1;
	}
	if (p[0] && p[1] == 's' && (p[0] == 'm' || p[0] == 'u' || p[0] == 'n')) {
		o->period *= p[0] == 'm' ? 1000000 : p[0] == 'u' ? 1000 : 1;
		return p + 2;
	}
	/* a bare number is in ns, as perf's default unit, and ends the options */
	*stop = p;
	return *p ? NULL : p;
}

/*
 * the N of g[N] and l[N]: @def without one, else 1 to 1024 (perf's
 * limits).  Return: past it, or NULL for 0 or more than 1024.
 */
static const char *count(const char *p, unsigned int def, unsigned int *out)
{
	unsigned long v = 0;

	*out = def;
	if (*p < '0' || *p > '9')
		return p;
	while (*p >= '0' && *p <= '9' && v <= 1024)
		v = v * 10 + (unsigned long)(*p++ - '0');
	if (!v || v > 1024)
		return NULL;
	*out = (unsigned int)v;
	return p;
}

int prism_itrace__parse(const char *s, struct prism_itrace *o, const char **bad)
{
	const char *p = s, *q;
	char *end;

	memset(o, 0, sizeof(*o));
	o->period_type = PRISM_ITRACE_NS;
	o->period = 100000;
	while (*p) {
		switch (*p++) {
		case 'i': {
			const char *stop = NULL;

			q = period(p, o, &stop);
			o->instructions = true;
			if (!q) {
				p = stop + 1; /* err: the letter after the number */
				goto err;
			}
			p = q;
			break;
		}
		case 'b':
			o->branches = true;
			break;
		case 'c':
			o->branches = o->calls = true;
			break;
		case 'r':
			o->branches = o->returns = true;
			break;
		case 'e':
			o->errors = true;
			break;
		case 'x':
			o->transactions = true;
			break;
		case 'p':
			o->pwr_events = true;
			break;
		case 'w':
			o->ptwrites = true;
			break;
		case 'd':
			o->log = true;
			break;
		case 'g': /* g[N] call chains, l[N] last branches */
		case 'l':
			if (p[-1] == 'g')
				o->callchain = true;
			else
				o->last_branch = true;
			q = count(p, p[-1] == 'g' ? 16 : 64,
				  p[-1] == 'g' ? &o->callchain_sz : &o->last_branch_sz);
			if (!q)
				goto err;
			p = q;
			break;
		case 's':
			o->skip = strtoull(p, &end, 10);
			p = end;
			break;
		case ' ':
		case ',':
			break;
		default:
			goto err;
		}
		if (o->instructions && !o->period)
			goto err;
	}
	return 0;
err:
	if (bad)
		*bad = p > s ? p - 1 : p;
	return -EINVAL;
}

/* perf's names of the branch kinds, without the trace begin/end bits */
static const char *kind_name(uint32_t f)
{
	switch (f) {
	case PRISM_PT_FL_BRANCH | PRISM_PT_FL_CALL:
		return "call";
	case PRISM_PT_FL_BRANCH | PRISM_PT_FL_RETURN:
		return "return";
	case PRISM_PT_FL_BRANCH | PRISM_PT_FL_CONDITIONAL:
		return "jcc";
	case PRISM_PT_FL_BRANCH:
		return "jmp";
	case PRISM_PT_FL_BRANCH | PRISM_PT_FL_CALL | PRISM_PT_FL_INTERRUPT:
		return "int";
	case PRISM_PT_FL_BRANCH | PRISM_PT_FL_RETURN | PRISM_PT_FL_INTERRUPT:
		return "iret";
	case PRISM_PT_FL_BRANCH | PRISM_PT_FL_CALL | PRISM_PT_FL_SYSCALLRET:
		return "syscall";
	case PRISM_PT_FL_BRANCH | PRISM_PT_FL_RETURN | PRISM_PT_FL_SYSCALLRET:
		return "sysret";
	case PRISM_PT_FL_BRANCH | PRISM_PT_FL_ASYNC:
		return "async";
	case PRISM_PT_FL_BRANCH | PRISM_PT_FL_CALL | PRISM_PT_FL_ASYNC | PRISM_PT_FL_INTERRUPT:
		return "hw int";
	case PRISM_PT_FL_BRANCH | PRISM_PT_FL_TX_ABORT:
		return "tx abrt";
	default:
		return "";
	}
}

void prism_pt_flags__str(uint32_t flags, struct prism_strbuf *sb)
{
	const uint32_t ends = PRISM_PT_FL_TRACE_BEGIN | PRISM_PT_FL_TRACE_END;
	const char *k = kind_name(flags & ~(ends | PRISM_PT_FL_IN_TX));
	static const char chars[] = "bcrosyiABExgh"; /* perf's letters of the bits */
	size_t start = sb->len, i;

	if (!*k && (flags & ~ends)) { /* no name: a letter a bit, as perf */
		for (i = 0; i < sizeof(chars) - 1; i++)
			if (flags & (1u << i))
				prism_strbuf_addch(sb, chars[i]);
		return;
	}
	if (flags & PRISM_PT_FL_TRACE_BEGIN)
		prism_strbuf_addstr(sb, "tr strt ");
	if (flags & PRISM_PT_FL_TRACE_END)
		prism_strbuf_addstr(sb, "tr end  ");
	prism_strbuf_addstr(sb, k);
	while (sb->len > start && sb->buf[sb->len - 1] == ' ')
		prism_strbuf_setlen(sb, sb->len - 1);
	if (flags & PRISM_PT_FL_IN_TX) { /* "(x)" right-aligned in 21 columns */
		prism_strbuf_pad_to(sb, start + 15, ' ');
		prism_strbuf_addstr(sb, "   (x)");
	}
}
