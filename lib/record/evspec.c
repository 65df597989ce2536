// SPDX-License-Identifier: MIT
/*
 * The list of parsed events: creation, access, error messages and --filter.
 * The parser itself is in evspec-parse.c.
 */
#include <stdarg.h>
#include <stdio.h>

#include <prism/strbuf.h>

#include "internal.h"
#include "record/evspec-internal.h"

struct prism_evspecs *prism_evspecs__new(void)
{
	struct prism_evspecs *l = calloc(1, sizeof(*l));

	if (!l)
		errno = ENOMEM;
	return l;
}

void evspec_node__free(struct evspec_node *n)
{
	if (!n)
		return;
	free((char *)n->pub.name);
	free((char *)n->pub.tp_sys);
	free((char *)n->pub.tp_name);
	free((char *)n->pub.filter);
	free(n);
}

void prism_evspecs__free(struct prism_evspecs *l)
{
	size_t i;

	if (!l)
		return;
	for (i = 0; i < l->nr; i++)
		evspec_node__free(l->v[i]);
	free(l->v);
	free(l->error);
	free(l);
}

struct evspec_node *evspec_node__new(uint32_t type, uint64_t config, const char *name, size_t len)
{
	struct evspec_node *n = calloc(1, sizeof(*n));

	if (!n)
		return NULL;
	n->pub.attr.size = sizeof(n->pub.attr);
	n->pub.attr.type = type;
	n->pub.attr.config = config;
	/* perf counts host only unless a G/H/u/p modifier says otherwise */
	n->pub.attr.exclude_guest = 1;
	n->pub.tracepoint = type == PERF_TYPE_TRACEPOINT;
	n->pub.name = strndup(name, len);
	if (!n->pub.name) {
		free(n);
		return NULL;
	}
	return n;
}

int evparse__add(struct evparse *p, struct evspec_node *n)
{
	if (prism_ensure_mem((void **)&p->v, &p->cap, sizeof(*p->v), p->nr + 1)) {
		evspec_node__free(n);
		return -ENOMEM;
	}
	p->v[p->nr++] = n;
	return 0;
}

static void set_error(struct prism_evspecs *l, int col, const char *fmt, va_list ap)
{
	struct prism_strbuf sb = STRBUF_INIT;

	prism_strbuf_vaddf(&sb, fmt, ap);
	free(l->error);
	l->error = prism_strbuf_detach(&sb, NULL);
	l->error_col = col;
}

int evparse__error(struct evparse *p, int err, int col, const char *fmt, ...)
{
	va_list ap;

	/* the first error wins: it is the one the user has to fix */
	if (p->l->error && *p->l->error)
		return err;
	va_start(ap, fmt);
	set_error(p->l, col, fmt, ap);
	va_end(ap);
	return err;
}

size_t prism_evspecs__nr(const struct prism_evspecs *l)
{
	return l->nr;
}

struct prism_evspec *prism_evspecs__get(struct prism_evspecs *l, size_t idx)
{
	return idx < l->nr ? &l->v[idx]->pub : NULL;
}

const char *prism_evspecs__error(const struct prism_evspecs *l)
{
	return l->error ? l->error : "";
}

int prism_evspecs__error_column(const struct prism_evspecs *l)
{
	return l->error ? l->error_col : 0;
}

static int filter_error(struct prism_evspecs *l, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	set_error(l, 0, fmt, ap);
	va_end(ap);
	return -EINVAL;
}

int prism_evspecs__set_filter(struct prism_evspecs *l, const char *filter)
{
	char **next;
	size_t i, n;

	zfree(&l->error);
	l->error_col = 0;
	if (!filter || !*filter)
		return filter_error(l, "empty --filter expression");
	if (l->last_start >= l->nr)
		return filter_error(
			l,
			"--filter '%s' must follow a -e option that names "
			"tracepoints (e.g. -e sched:sched_switch --filter 'prev_pid != 0')",
			filter);
	for (i = l->last_start; i < l->nr; i++)
		if (!l->v[i]->pub.tracepoint && !l->v[i]->pub.aux)
			return filter_error(l,
					    "--filter '%s' follows -e '%s', which is neither a "
					    "tracepoint nor intel_pt: put --filter right after the "
					    "-e of the events it applies to",
					    filter, l->v[i]->pub.name);
	n = l->nr - l->last_start;
	next = calloc(n, sizeof(*next));
	if (!next)
		return -ENOMEM;
	for (i = 0; i < n; i++) {
		const char *old = l->v[l->last_start + i]->pub.filter;
		bool aux = l->v[l->last_start + i]->pub.aux;
		/* address filters (intel_pt) are a comma list, as perf joins them */
		int len = old ? asprintf(&next[i], aux ? "%s,%s" : "(%s) && (%s)", old, filter) :
				asprintf(&next[i], "%s", filter);

		if (len < 0) {
			while (i--)
				free(next[i]);
			free(next);
			return -ENOMEM;
		}
	}
	/* all allocated: now replace, so a failure leaves the filters as they were */
	for (i = 0; i < n; i++) {
		struct prism_evspec *s = &l->v[l->last_start + i]->pub;

		free((char *)s->filter);
		s->filter = next[i];
	}
	free(next);
	return 0;
}
