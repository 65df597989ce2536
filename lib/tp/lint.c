// SPDX-License-Identifier: MIT
/*
 * A sanity check of one event format text before libtraceevent parses it.
 *
 * libtraceevent's format parser trusts its input.  Fuzzing libtraceevent
 * 1.7.1 with corrupted tracing data found: NULL dereferences for a field
 * declaration whose '[' has no ']' (event_read_fields() runs into the end
 * of the text), for a print fmt naming an undeclared field inside
 * __print_flags() / __print_symbolic() (process_entry()) and for characters
 * C does not use ('$', control bytes: the tokenizer returns no token);
 * SIGFPE from constant folding "x / 0" (consolidate_op_arg()); an endless
 * loop on an unclosed string; a NULL dereference for an assignment after
 * a conditional ("a ? b : c = d") and for a subscript or member of the
 * operand right after a conditional's ':' ("a ? b : c[1]", "c.d", "c->d"),
 * and for a member through a subscript of a declared field ("f[16]->x").
 * Kernel-written formats never look like that (they assign only inside
 * statement expressions, whose ';' is refused anyway; none of the 2307
 * formats of this kernel has a subscript or member right after a ':', or
 * "]->"), so such a format is refused here and the event
 * skipped, as for any format that fails to parse.  This is a filter for known traps, not a
 * grammar: a NEEDSWORK for whoever finds the next one.
 */
#include <ctype.h>

#include "internal.h"
#include "tp/blob.h"

struct name {
	const char *s;
	size_t len;
};

static bool is_ident(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
	       c == '_';
}

static bool is_text(unsigned char c)
{
	return (c >= 0x20 && c < 0x7f) || c == '\t' || c == '\n' || c == '\r';
}

/*
 * The declared name of "\tfield:char prev_comm[16];\toffset:..." lines: the
 * identifier before the optional [N] at the end of the declaration.  Only
 * the characters of C declarations are allowed, brackets must pair up, and
 * quotes (__attribute__((btf_type_tag("user")))) may hold only a word.
 */
static int field_name(const char *decl, size_t len, bool ftrace, struct name *name)
{
	size_t i, end = len, first;
	int depth = 0, parens = 0;

	/* the type's first word (anything else leaks a token in libtraceevent) */
	for (i = 0; i < len && (decl[i] == ' ' || decl[i] == '\t'); i++)
		;
	if (i == len || !is_ident(decl[i]))
		return -1;
	first = i;

	for (i = 0; i < len; i++) {
		char c = decl[i];

		if (c == '"') {
			while (++i < len && is_ident(decl[i]))
				;
			if (i == len || decl[i] != '"')
				return -1;
			continue;
		}
		/* "." only in ftrace's own formats, as libtraceevent allows it */
		if (!is_ident(c) && !strchr(" \t[]*(),", c) && !(ftrace && c == '.'))
			return -1;
		/* a comma outside (...) leaks a token in libtraceevent */
		if (c == ',' && !parens)
			return -1;
		depth += (c == '[') - (c == ']');
		parens += (c == '(') - (c == ')');
		if (depth < 0 || depth > 1 || parens < 0)
			return -1;
	}
	if (depth || parens)
		return -1;
	while (end && (decl[end - 1] == ' ' || decl[end - 1] == '\t'))
		end--;
	if (end && decl[end - 1] == ']') {
		while (end && decl[end - 1] != '[')
			end--;
		if (!end)
			return -1;
		end--;
	}
	i = end;
	while (i && is_ident(decl[i - 1]))
		i--;
	/* a type must precede the name: "int0common_pid" alone leaks a token too */
	if (i == first)
		return -1;
	name->s = decl + i;
	name->len = end - i;
	return name->len ? 0 : -1;
}

static bool declared(const struct name *names, size_t nr, const char *s, size_t len)
{
	size_t i;

	for (i = 0; i < nr; i++) {
		if (names[i].len == len && !memcmp(names[i].s, s, len))
			return true;
	}
	return false;
}

static const char *skip_space(const char *p, const char *end)
{
	while (p < end && (*p == ' ' || *p == '\t' || *p == '\n'))
		p++;
	return p;
}

/*
 * libtraceevent folds constant sub-expressions while parsing, and any word
 * that is not a field or a function is a constant to it (strtoull() of
 * the word, 0 for "C" or "\"x\"").  So "x / 0", "x % (2 - 2)", "x / C" and
 * "x % 08" (octal: 0) divide by zero before any payload is seen.  Accept a
 * divisor that is a nonzero number, a field, a function call, or a unary
 * operator or cast applied to one of those, or a bracketed group holding a
 * field or call: those are left for print time, where check_args() in tp.c
 * tests them against each payload.
 */
static bool divisor_ok(const char *p, const char *end, int level)
{
	const char *q;
	int depth = 0;

	p = skip_space(p, end);
	if (p >= end || level > 8)
		return false;
	if (*p == '-' || *p == '+' || *p == '!' || *p == '~')
		return divisor_ok(p + 1, end, level + 1);
	if (*p >= '0' && *p <= '9') {
		bool hex = *p == '0' && p + 1 < end && (p[1] == 'x' || p[1] == 'X');

		/* as strtoull(, 0): hex, octal after a 0, else decimal */
		for (q = hex ? p + 2 : p; q < end; q++) {
			if (hex ? !isxdigit((unsigned char)*q) :
				  (*q < '0' || *q > (*p == '0' ? '7' : '9')))
				break;
			if (*q != '0')
				return true;
		}
		return false;
	}
	if (is_ident(*p)) {
		if ((size_t)(end - p) > 5 && !memcmp(p, "REC->", 5))
			return true;
		for (q = p; q < end && is_ident(*q); q++)
			;
		q = skip_space(q, end);
		return q < end && *q == '(';
	}
	if (*p != '(')
		return false;
	for (q = p; q < end; q++) {
		depth += (*q == '(') - (*q == ')');
		if (!depth)
			break;
		if ((size_t)(end - q) > 5 && !memcmp(q, "REC->", 5))
			return true;
	}
	/* "(type) x": a cast of the next operand */
	return q < end && divisor_ok(q + 1, end, level + 1);
}

/*
 * Whether the operand right after a conditional's ':' at @p goes on with a
 * subscript or a member ("c ? a : x[1]", "x.y", "x->y", also after REC->x,
 * (x), (int)x, "s", 5 or words in a row: "char x[1]"): libtraceevent
 * dereferences NULL on those.  A
 * unary operator or a call before them ("~x[1]", "f(x)->y") is parsed
 * without harm, as kernel formats have it.
 */
static bool member_after_colon(const char *p, const char *end)
{
	for (;;) {
		p = skip_space(p, end);
		if (p >= end)
			return false;
		if (*p == '(') {
			int depth = 0;

			for (; p < end; p++) {
				depth += (*p == '(') - (*p == ')');
				if (!depth)
					break;
			}
			p = skip_space(p + 1, end);
			/* "(type) x": a cast, its operand follows */
			if (p < end && (*p == '(' || *p == '"' || is_ident(*p)))
				continue;
			break;
		}
		if (*p == '"') {
			for (p++; p < end && *p != '"'; p++)
				if (*p == '\\')
					p++;
			p = skip_space(p + 1, end);
			break;
		}
		if (!is_ident(*p))
			return false; /* a unary operator */
		/* words in a row make one operand to it ("unsigned long x") */
		while (p < end && is_ident(*p)) {
			if ((size_t)(end - p) > 5 && !memcmp(p, "REC->", 5))
				p += 5;
			while (p < end && is_ident(*p))
				p++;
			p = skip_space(p, end);
		}
		if (p < end && *p == '(')
			return false; /* a call */
		break;
	}
	return p < end && (*p == '[' || *p == '.' || (*p == '-' && p + 1 < end && p[1] == '>'));
}

/* "->" after blanks at @p */
static bool arrow_follows(const char *p, const char *end)
{
	while (p < end && (*p == ' ' || *p == '\t'))
		p++;
	return end - p >= 2 && p[0] == '-' && p[1] == '>';
}

/*
 * Quotes closed, ( [ { balanced, only C's characters outside strings,
 * every REC->x declared, no divisor that may fold to zero, no assignment
 * ('=' alone), no subscript or member right after a conditional's ':',
 * no "]->".
 */
static int check_print_fmt(const char *p, const char *end, const struct name *names, size_t nr)
{
	bool in_str = false;
	int depth = 0;

	for (; p < end; p++) {
		if (in_str) {
			if (*p == '\\' && p + 1 < end)
				p++;
			else if (*p == '"')
				in_str = false;
			continue;
		}
		if (!is_text((unsigned char)*p) ||
		    (!is_ident(*p) && !strchr(" \t\r\n()[]{},-><+*/%&|^!~?:=\"'", *p)))
			return -1;
		if (*p == '"') {
			in_str = true;
		} else if (*p == '\'') {
			/* a char literal: '(' or '"' must not count */
			p += p + 2 < end && p[1] == '\\' ? 3 : 2;
			if (p >= end || *p != '\'')
				return -1;
		} else if (*p == '(' || *p == '[' || *p == '{') {
			depth++;
		} else if (*p == ')' || *p == ']' || *p == '}') {
			if (--depth < 0)
				return -1;
			if (*p == ']' && arrow_follows(p + 1, end))
				return -1;
		} else if ((*p == '/' || *p == '%') && !divisor_ok(p + 1, end, 0)) {
			return -1;
		} else if (*p == ':' && member_after_colon(p + 1, end)) {
			return -1;
		} else if (*p == '=') {
			if (p + 1 < end && p[1] == '=')
				p++; /* == */
			else if (!strchr("!<>", p[-1])) /* "print fmt:" comes first */
				return -1;
		} else if ((size_t)(end - p) > 5 && !memcmp(p, "REC->", 5)) {
			const char *id = p + 5, *e = id;

			while (e < end && is_ident(*e))
				e++;
			if (!declared(names, nr, id, (size_t)(e - id)))
				return -1;
			p = e - 1;
		}
	}
	return in_str || depth ? -1 : 0;
}

int tp_format__lint(const char *text, size_t size, bool ftrace)
{
	static const char field_tag[] = "field:", fmt_tag[] = "print fmt:";
	const char *p = text, *end = text + size;
	struct name *names = NULL;
	size_t nr = 0, cap = 0;
	int err = 0;

	/* a NUL ends the text for the tokenizer, wherever it sits */
	if (memchr(text, '\0', size))
		return -PRISM_E_TRACEPOINT;
	while (p < end && !err) {
		const char *eol = memchr(p, '\n', (size_t)(end - p));
		const char *line = p, *semi, *c;

		if (!eol)
			eol = end;
		p = eol + 1;
		while (line < eol && (*line == ' ' || *line == '\t'))
			line++;
		if ((size_t)(eol - line) >= sizeof(fmt_tag) - 1 &&
		    !memcmp(line, fmt_tag, sizeof(fmt_tag) - 1)) {
			/* the print fmt runs to the end of the text */
			err = check_print_fmt(line, end, names, nr) ? -PRISM_E_TRACEPOINT : 0;
			break;
		}
		/* the tokenizer stops at a NUL or any other non-printing byte */
		for (c = line; c < eol && !err; c++)
			err = is_text((unsigned char)*c) ? 0 : -PRISM_E_TRACEPOINT;
		if (err || (size_t)(eol - line) < sizeof(field_tag) - 1 ||
		    memcmp(line, field_tag, sizeof(field_tag) - 1))
			continue;
		line += sizeof(field_tag) - 1;
		semi = memchr(line, ';', (size_t)(eol - line));
		err = prism_ensure_mem((void **)&names, &cap, sizeof(*names), nr + 1);
		if (!err && (!semi || field_name(line, (size_t)(semi - line), ftrace, &names[nr])))
			err = -PRISM_E_TRACEPOINT;
		nr += !err;
	}
	free(names);
	return err;
}
