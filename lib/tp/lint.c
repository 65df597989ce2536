// SPDX-License-Identifier: MIT
/*
 * A sanity check of one event format text before libtraceevent parses it.
 *
 * libtraceevent's format parser trusts its input: fuzzing libtraceevent
 * 1.7.1 with corrupted perf.data tracing data found NULL dereferences for a
 * field declaration whose '[' has no ']' (event_read_fields() runs into the
 * end of the text) and for a print fmt that names a field the format does
 * not declare inside __print_flags() / __print_symbolic() (process_entry()).
 * Kernel-written formats never look like that, so such a format is refused
 * here and the event skipped, as for any format that fails to parse.
 * This is a filter for known traps, not a grammar.
 */
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

/*
 * The declared name of "\tfield:char prev_comm[16];\toffset:..." lines: the
 * identifier before the optional [N] at the end of the declaration.  The
 * brackets of the declaration must pair up.
 */
static int field_name(const char *decl, size_t len, struct name *name)
{
	size_t i, end = len;
	int depth = 0;

	for (i = 0; i < len; i++) {
		depth += decl[i] == '[';
		depth -= decl[i] == ']';
		if (depth < 0 || depth > 1)
			return -1;
	}
	if (depth)
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

/* quotes closed, ( [ { balanced, every REC->x declared */
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
		if (*p == '"') {
			in_str = true;
		} else if (*p == '(' || *p == '[' || *p == '{') {
			depth++;
		} else if (*p == ')' || *p == ']' || *p == '}') {
			if (--depth < 0)
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

int tp_format__lint(const char *text, size_t size)
{
	static const char field_tag[] = "field:", fmt_tag[] = "print fmt:";
	const char *p = text, *end = text + size;
	struct name *names = NULL;
	size_t nr = 0, cap = 0;
	int err = 0;

	while (p < end && !err) {
		const char *eol = memchr(p, '\n', (size_t)(end - p));
		const char *line = p, *semi;

		if (!eol)
			eol = end;
		p = eol + 1;
		while (line < eol && (*line == ' ' || *line == '\t'))
			line++;
		if ((size_t)(eol - line) >= sizeof(fmt_tag) - 1 &&
		    !memcmp(line, fmt_tag, sizeof(fmt_tag) - 1)) {
			/* the print fmt runs to the end of the text */
			err = check_print_fmt(line, end, names, nr);
			break;
		}
		if ((size_t)(eol - line) < sizeof(field_tag) - 1 ||
		    memcmp(line, field_tag, sizeof(field_tag) - 1))
			continue;
		line += sizeof(field_tag) - 1;
		semi = memchr(line, ';', (size_t)(eol - line));
		err = prism_ensure_mem((void **)&names, &cap, sizeof(*names), nr + 1);
		if (!err && (!semi || field_name(line, (size_t)(semi - line), &names[nr])))
			err = -PRISM_E_TRACEPOINT;
		nr += !err;
	}
	free(names);
	return err;
}
