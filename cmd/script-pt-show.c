// SPDX-License-Identifier: MIT
/*
 * prism script --itrace with --show-*-events: as perf, the shown side-band
 * records (task, mmap, switch, lost, ... records) between the synthesized
 * samples in time order.  The session is read before the trace is decoded,
 * so the records' lines are kept here (in the order they arrived, which is
 * time order) until the samples' times pass theirs.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <prism/strbuf.h>

#include "script.h"

struct pt_shown {
	uint64_t time;
	int64_t exit_tid; /* an EXIT record's thread, else -1 */
	char *text;
	size_t len;
};

int pt_show_add(struct pt_show *s, uint64_t time, int64_t exit_tid, const char *text, size_t len)
{
	struct pt_shown *e;

	if (s->n == s->cap) {
		size_t cap = s->cap ? 2 * s->cap : 64;
		struct pt_shown *v = realloc(s->v, cap * sizeof(*v));

		if (!v)
			return -ENOMEM;
		s->v = v;
		s->cap = cap;
	}
	e = &s->v[s->n];
	e->text = malloc(len ? len : 1);
	if (!e->text)
		return -ENOMEM;
	memcpy(e->text, text, len);
	e->len = len;
	e->time = time;
	e->exit_tid = exit_tid;
	s->n++;
	return 0;
}

static void put(struct pt_show *s, struct prism_strbuf *sb)
{
	struct pt_shown *e = &s->v[s->next++];

	prism_strbuf_add(sb, e->text, e->len);
	free(e->text);
	e->text = NULL;
}

void pt_show_flush(struct pt_show *s, uint64_t time, struct prism_strbuf *sb)
{
	while (s->next < s->n && s->v[s->next].time <= time)
		put(s, sb);
}

void pt_show_flush_to_exit(struct pt_show *s, int64_t tid, struct prism_strbuf *sb)
{
	while (s->next < s->n && s->v[s->next].exit_tid != tid)
		put(s, sb);
}

void pt_show_release(struct pt_show *s)
{
	size_t i;

	for (i = s->next; i < s->n; i++)
		free(s->v[i].text);
	free(s->v);
	memset(s, 0, sizeof(*s));
}
