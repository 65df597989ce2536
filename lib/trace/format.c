// SPDX-License-Identifier: MIT
/*
 * The argument names and types of a syscall, from the "field:" lines of its
 * syscalls:sys_enter_<name> tracefs format:
 *
 *	field:int __syscall_nr;	offset:8;	size:4;	signed:1;
 *	field:const char * filename;	offset:24;	size:8;	signed:0;
 *
 * The fields after __syscall_nr are the arguments, in register order.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "trace/trace-internal.h"

static bool is_ident(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
	       c == '_';
}

/* split "TYPE NAME" (NAME may carry "[N]"); false if either part is empty */
static bool split_decl(const char *d, size_t len, size_t *type_len, const char **name,
		       size_t *name_len)
{
	size_t end = len, start;

	while (end && d[end - 1] == ' ')
		end--;
	if (end && d[end - 1] == ']') {
		while (end && d[end - 1] != '[')
			end--;
		if (!end)
			return false;
		end--;
	}
	start = end;
	while (start && is_ident(d[start - 1]))
		start--;
	if (start == end)
		return false;
	*name = d + start;
	*name_len = end - start;
	while (start && d[start - 1] == ' ')
		start--;
	*type_len = start;
	return start > 0;
}

static char *dup_trim(const char *s, size_t len)
{
	char *p;

	while (len && (*s == ' ' || *s == '\t')) {
		s++;
		len--;
	}
	p = malloc(len + 1);
	if (p) {
		memcpy(p, s, len);
		p[len] = '\0';
	}
	return p;
}

void strace_format_release(struct strace_format *f)
{
	size_t i;

	for (i = 0; i < f->nr_args; i++) {
		free(f->names[i]);
		free(f->types[i]);
	}
	memset(f, 0, sizeof(*f));
}

int strace_format_parse(const char *text, size_t len, struct strace_format *f)
{
	const char *p = text, *end = text + len;
	bool seen_nr = false;
	int err = -EINVAL;

	memset(f, 0, sizeof(*f));
	while (p < end) {
		const char *eol = memchr(p, '\n', (size_t)(end - p));
		const char *line_end = eol ? eol : end, *decl, *semi, *name;
		size_t type_len, name_len;

		decl = p;
		p = eol ? eol + 1 : end;
		while (decl < line_end && (*decl == ' ' || *decl == '\t'))
			decl++;
		if ((size_t)(line_end - decl) < 6 || memcmp(decl, "field:", 6))
			continue;
		decl += 6;
		semi = memchr(decl, ';', (size_t)(line_end - decl));
		if (!semi || !split_decl(decl, (size_t)(semi - decl), &type_len, &name, &name_len))
			goto fail;
		if (!seen_nr) {
			seen_nr = name_len == 12 && !memcmp(name, "__syscall_nr", 12);
			continue;
		}
		if (f->nr_args == STRACE_MAX_ARGS)
			goto fail;
		f->names[f->nr_args] = dup_trim(name, name_len);
		f->types[f->nr_args] = dup_trim(decl, type_len);
		if (!f->names[f->nr_args] || !f->types[f->nr_args]) {
			f->nr_args++;
			err = -ENOMEM;
			goto fail;
		}
		f->nr_args++;
	}
	if (seen_nr)
		return 0;
fail:
	strace_format_release(f);
	return err;
}
