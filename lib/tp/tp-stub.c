// SPDX-License-Identifier: MIT
/*
 * prism built without libtraceevent: tracing data cannot be loaded, so no
 * event or field object ever exists.  The field accessors (lib/tp/field.c)
 * are compiled in every build; the event accessors below are never reached
 * with a valid object and return empty values.
 */
#include <prism/tp.h>

#include "internal.h"

struct prism_tp *prism_tp__new(const void *blob, size_t size)
{
	errno = PRISM_E_NOFEATURE;
	return NULL;
}

void prism_tp__free(struct prism_tp *tp)
{
}

size_t prism_tp__nr_events(const struct prism_tp *tp)
{
	return 0;
}

const struct prism_tp_event *prism_tp__event_at(const struct prism_tp *tp, size_t idx)
{
	return NULL;
}

const struct prism_tp_event *prism_tp__event(const struct prism_tp *tp, uint64_t id)
{
	return NULL;
}

const struct prism_tp_event *prism_tp__event_of(const struct prism_tp *tp, const void *raw,
						size_t raw_size)
{
	errno = PRISM_E_NOFEATURE;
	return NULL;
}

int prism_tp__format(const struct prism_tp *tp, const void *raw, size_t raw_size,
		     struct prism_strbuf *out)
{
	return -PRISM_E_NOFEATURE;
}

int prism_tp__format_fields(const struct prism_tp *tp, const void *raw, size_t raw_size,
			    struct prism_strbuf *out)
{
	return -PRISM_E_NOFEATURE;
}

const char *prism_tp__comm(const struct prism_tp *tp, int pid)
{
	return NULL;
}

const char *prism_tp_event__name(const struct prism_tp_event *ev)
{
	return NULL;
}

const char *prism_tp_event__system(const struct prism_tp_event *ev)
{
	return NULL;
}

uint64_t prism_tp_event__id(const struct prism_tp_event *ev)
{
	return 0;
}

const struct prism_tp_field *prism_tp_event__field(const struct prism_tp_event *ev,
						   const char *name)
{
	return NULL;
}

size_t prism_tp_event__nr_fields(const struct prism_tp_event *ev)
{
	return 0;
}

const struct prism_tp_field *prism_tp_event__field_at(const struct prism_tp_event *ev, size_t idx)
{
	return NULL;
}
