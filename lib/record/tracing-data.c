// SPDX-License-Identifier: MIT
/*
 * Build the tracing-data blob perf writes as feature TRACING_DATA (and as
 * the payload of PERF_RECORD_HEADER_TRACING_DATA in pipe mode).  Layout
 * (integers in host byte order, flagged in the blob):
 *
 *	u8[3] 23 8 68, "tracing", "0.6\0", u8 big_endian, u8 sizeof(long),
 *	u32 page size,
 *	"header_page\0" u64 size + bytes, "header_event\0" u64 size + bytes,
 *	u32 nr ftrace formats, each u64 size + bytes,
 *	u32 nr systems, each: "sys\0", u32 nr formats, each u64 size + bytes,
 *	u32 kallsyms size (0) + bytes, u32 printk_formats size + bytes,
 *	u64 saved_cmdlines size + bytes.
 */
#include <limits.h>
#include <stdio.h>
#include <unistd.h>

#include <prism/evspec.h>
#include <prism/strbuf.h>
#include <prism/tracefs.h>
#include <prism/tracing-data.h>

#include "internal.h"
#include "record/tracefs-internal.h"

static void add_u32(struct prism_strbuf *sb, uint32_t v)
{
	prism_strbuf_add(sb, &v, sizeof(v));
}

static void add_u64(struct prism_strbuf *sb, uint64_t v)
{
	prism_strbuf_add(sb, &v, sizeof(v));
}

/* the contents of a tracefs file, preceded by its size as a u32 or u64 */
static int add_file(struct prism_strbuf *sb, const char *rel, bool size64, bool optional)
{
	char *buf;
	size_t len;
	int err = prism_tracefs_read(rel, &buf, &len);

	if (err == -ENOENT && optional) {
		buf = NULL;
		len = 0;
	} else if (err) {
		pr_err("tracing data: cannot read %s/%s: %s", prism_tracefs_path(), rel,
		       strerror(-err));
		return err;
	}
	if (size64) {
		add_u64(sb, len);
	} else {
		if (len > UINT32_MAX) {
			free(buf);
			return -EFBIG;
		}
		add_u32(sb, (uint32_t)len);
	}
	prism_strbuf_add(sb, buf ? buf : "", len);
	free(buf);
	return 0;
}

/* whether @specs has the tracepoint @sys:@name (@name NULL: any of @sys) */
static bool wanted(struct prism_evspecs *specs, const char *sys, const char *name)
{
	size_t i, nr = prism_evspecs__nr(specs);

	for (i = 0; i < nr; i++) {
		const struct prism_evspec *s = prism_evspecs__get(specs, i);

		if (s->tracepoint && !strcmp(s->tp_sys, sys) &&
		    (!name || !strcmp(s->tp_name, name)))
			return true;
	}
	return false;
}

/*
 * Names in @dir (relative to tracefs) in directory order, which is the
 * order perf writes (it walks the directories with readdir): with the same
 * events, prism's blob is byte for byte perf's.
 */
static int dir_names(const char *dir, char ***names, size_t *nr)
{
	char path[PATH_MAX];

	*names = NULL;
	*nr = 0;
	if (snprintf(path, sizeof(path), "%s/%s", prism_tracefs_path(), dir) >= (int)sizeof(path))
		return -ENAMETOOLONG;
	return prism_dir_names(path, false, NULL, NULL, names, nr);
}

/* u32 count, then each wanted format of @sys as u64 size + text */
static int add_system(struct prism_strbuf *sb, struct prism_evspecs *specs, const char *sys)
{
	char rel[PATH_MAX], **evs;
	size_t i, nr;
	uint32_t count = 0;
	int err;

	snprintf(rel, sizeof(rel), "events/%s", sys);
	err = dir_names(rel, &evs, &nr);
	if (err) {
		prism_names_free(evs, nr);
		pr_err("tracing data: cannot list %s/%s: %s", prism_tracefs_path(), rel,
		       strerror(-err));
		return err;
	}
	for (i = 0; i < nr; i++)
		if (wanted(specs, sys, evs[i]))
			count++;
	add_u32(sb, count);
	for (i = 0; !err && i < nr; i++) {
		if (!wanted(specs, sys, evs[i]))
			continue;
		snprintf(rel, sizeof(rel), "events/%s/%s/format", sys, evs[i]);
		err = add_file(sb, rel, true, false);
	}
	prism_names_free(evs, nr);
	return err;
}

static int build(struct prism_strbuf *sb, struct prism_evspecs *specs)
{
	static const uint8_t magic[] = { 23, 8, 68, 't', 'r', 'a', 'c', 'i', 'n', 'g' };
	char **systems;
	size_t i, nr;
	uint32_t nr_sys = 0;
	long page = sysconf(_SC_PAGESIZE);
	uint8_t flags[2];
	int err;

	prism_strbuf_add(sb, magic, sizeof(magic));
	prism_strbuf_add(sb, "0.6", 4);
	flags[0] = __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__;
	flags[1] = sizeof(long);
	prism_strbuf_add(sb, flags, sizeof(flags));
	add_u32(sb, page > 0 ? (uint32_t)page : 4096);

	prism_strbuf_add(sb, "header_page", sizeof("header_page"));
	err = add_file(sb, "events/header_page", true, false);
	if (err)
		return err;
	prism_strbuf_add(sb, "header_event", sizeof("header_event"));
	err = add_file(sb, "events/header_event", true, false);
	if (err)
		return err;

	/* ftrace's own events (ftrace:function, ...) go in their own section */
	if (wanted(specs, "ftrace", NULL)) {
		err = add_system(sb, specs, "ftrace");
		if (err)
			return err;
	} else {
		add_u32(sb, 0);
	}

	err = dir_names("events", &systems, &nr);
	for (i = 0; !err && i < nr; i++)
		if (strcmp(systems[i], "ftrace") && wanted(specs, systems[i], NULL))
			nr_sys++;
	if (!err)
		add_u32(sb, nr_sys);
	for (i = 0; !err && i < nr; i++) {
		if (!strcmp(systems[i], "ftrace") || !wanted(specs, systems[i], NULL))
			continue;
		prism_strbuf_add(sb, systems[i], strlen(systems[i]) + 1);
		err = add_system(sb, specs, systems[i]);
	}
	prism_names_free(systems, nr);
	if (err)
		return err;

	/* kallsyms: empty, as perf has written it since 5.x */
	add_u32(sb, 0);
	err = add_file(sb, "printk_formats", false, true);
	if (!err)
		err = add_file(sb, "saved_cmdlines", true, true);
	return err;
}

int prism_tracing_data_build(struct prism_evspecs *specs, void **buf, size_t *len)
{
	struct prism_strbuf sb = STRBUF_INIT;
	int err;

	*buf = NULL;
	*len = 0;
	err = tracefs__find();
	if (err) {
		pr_debug("tracing data: tracefs is not mounted");
		return err;
	}
	err = build(&sb, specs);
	if (!err && prism_strbuf_failed(&sb))
		err = -ENOMEM;
	if (err) {
		prism_strbuf_release(&sb);
		return err;
	}
	*buf = prism_strbuf_detach(&sb, len);
	return *buf ? 0 : -ENOMEM;
}
