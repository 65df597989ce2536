// SPDX-License-Identifier: MIT
/*
 * intel_pt address filters as perf record takes them (--filter after
 * -e intel_pt//): a comma list of "ACTION WHAT [/ SIZE] [@ FILE]", ACTION
 * filter, start, stop or tracestop, WHAT an address or a function of FILE.
 * The kernel takes only numbers ("filter 0x1139/0x4@/bin/prog", file
 * offsets): a function is looked up in FILE's symbol table and its address
 * turned into the file offset of its PT_LOAD segment, its size the
 * function's unless given.
 */
#include <ctype.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include <prism/strbuf.h>

#include "record/record-internal.h"
#include "symbol/symbol-internal.h"

__attribute__((format(printf, 3, 4))) static int fail(char *err, size_t len, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(err, len, fmt, ap);
	va_end(ap);
	return -EINVAL;
}

/* @name in @path: file offset and size */
static int lookup(const char *path, const char *name, uint64_t *off, uint64_t *size, char *err,
		  size_t elen)
{
	struct symtab t = { 0 };
	struct segment *segs = NULL;
	const struct sym *found = NULL;
	bool has, exec;
	size_t i, nr = 0;
	int ret;

	ret = elf__load_syms(path, &t, true, false, &has);
	if (ret) {
		symtab__release(&t);
		return fail(err, elen, "cannot read the symbols of %s: %s", path, strerror(-ret));
	}
	symtab__fixup(&t);
	for (i = 0; i < t.nr; i++) {
		if (strcmp(t.syms[i].name, name))
			continue;
		if (found && found->start != t.syms[i].start) {
			ret = fail(err, elen, "%s has several functions named %s: give an address",
				   path, name);
			goto out;
		}
		found = &t.syms[i];
	}
	if (!found) {
		ret = fail(err, elen, "no function %s in %s", name, path);
		goto out;
	}
	*size = found->end - found->start;
	ret = elf__segments(path, &segs, &nr, &exec);
	if (ret) {
		ret = fail(err, elen, "cannot read the segments of %s: %s", path, strerror(-ret));
		goto out;
	}
	ret = fail(err, elen, "%s of %s is in no loaded segment", name, path);
	for (i = 0; i < nr; i++) {
		if (found->start >= segs[i].vaddr &&
		    found->start < segs[i].vaddr + segs[i].filesz) {
			*off = found->start - segs[i].vaddr + segs[i].offset;
			ret = 0;
		}
	}
out:
	free(segs);
	symtab__release(&t);
	return ret;
}

/* one "ACTION WHAT[/SIZE][@FILE]" (blanks already squeezed out after ACTION) into @sb */
static int one(const char *item, struct prism_strbuf *sb, char *err, size_t elen)
{
	static const char *const actions[] = { "filter", "start", "stop", "tracestop" };
	char buf[PATH_MAX + 256], what[256], path[PATH_MAX];
	const char *p = item, *at, *slash;
	uint64_t addr = 0, size = 0;
	bool has_size = false;
	size_t n, i;
	char *end;

	while (isspace((unsigned char)*p))
		p++;
	n = strcspn(p, " \t");
	for (i = 0; i < PRISM_ARRAY_SIZE(actions); i++)
		if (strlen(actions[i]) == n && !strncmp(p, actions[i], n))
			break;
	if (i == PRISM_ARRAY_SIZE(actions))
		return fail(err, elen,
			    "'%s': an address filter starts with filter, start, stop or tracestop",
			    item);
	for (p += n, n = 0; *p && n + 1 < sizeof(buf); p++)
		if (!isspace((unsigned char)*p))
			buf[n++] = *p;
	buf[n] = 0;
	at = strchr(buf, '@');
	slash = strchr(buf, '/');
	if (slash && at && slash > at)
		slash = NULL; /* a '/' of the file name */
	n = slash ? (size_t)(slash - buf) : at ? (size_t)(at - buf) : strlen(buf);
	if (!n || n >= sizeof(what))
		return fail(err, elen, "'%s': no address or function", item);
	memcpy(what, buf, n);
	what[n] = 0;
	if (slash) {
		errno = 0;
		size = strtoull(slash + 1, &end, 0);
		if (errno || end == slash + 1 || (*end && *end != '@') || !size)
			return fail(err, elen, "'%s': bad size after '/'", item);
		has_size = true;
	}
	path[0] = 0;
	if (at && (!at[1] || !realpath(at + 1, path)))
		return fail(err, elen, "'%s': cannot find the file '%s'", item, at + 1);
	if (isdigit((unsigned char)what[0])) {
		errno = 0;
		addr = strtoull(what, &end, 0);
		if (errno || *end)
			return fail(err, elen, "'%s': bad address '%s'", item, what);
	} else {
		uint64_t fsize = 0;
		int ret;

		if (!path[0])
			return fail(err, elen,
				    "'%s': a function needs its file: '%s %s @ /path/to/binary' "
				    "(kernel code: give an address)",
				    item, actions[i], what);
		ret = lookup(path, what, &addr, &fsize, err, elen);
		if (ret)
			return ret;
		if (!has_size && i == 0)
			size = fsize, has_size = true;
	}
	prism_strbuf_addf(sb, "%s%s %#llx", sb->len ? "," : "", actions[i],
			  (unsigned long long)addr);
	if (has_size)
		prism_strbuf_addf(sb, "/%#llx", (unsigned long long)size);
	if (path[0])
		prism_strbuf_addf(sb, "@%s", path);
	return 0;
}

int pt_filter_resolve(const char *in, char **out, char *err, size_t elen)
{
	struct prism_strbuf sb = STRBUF_INIT;
	char *copy = strdup(in), *item, *save = NULL;
	int ret = 0;

	*out = NULL;
	if (!copy)
		return -ENOMEM;
	for (item = strtok_r(copy, ",", &save); item && !ret; item = strtok_r(NULL, ",", &save))
		ret = one(item, &sb, err, elen);
	if (!ret && !sb.len)
		ret = fail(err, elen, "empty address filter");
	free(copy);
	if (ret) {
		prism_strbuf_release(&sb);
		return ret;
	}
	*out = prism_strbuf_detach(&sb, NULL);
	return *out ? 0 : -ENOMEM;
}
