/* SPDX-License-Identifier: MIT */
/*
 * perf's text form of a perf_event_attr, as perf 6.1 prints it
 * (perf_event_attr__fprintf): fields that are zero are left out, bit
 * fields are named in perf's order and spelling.
 */
#ifndef PRISM_DATA_ATTR_PRINT_H
#define PRISM_DATA_ATTR_PRINT_H

#include <stddef.h>
#include <stdint.h>

#include "data/attr.h"

struct prism_strbuf;

/*
 * prism_attr__print - the attr as perf's header printer shows an EVENT_DESC
 * event, without the leading "# event : " and the newline:
 * "name = cpu-clock, , id = { 895, 896 }, type = 1, size = 128, ..."
 * @a: the attr
 * @name: the event name
 * @ids: the event's ids (the "id = { }" part is left out when @nr_ids is 0)
 * @nr_ids: entries in @ids
 * @out: where to append
 *
 * Note: the ", ," after the name is perf 6.1's.
 */
void prism_attr__print(const struct prism_attr_ext *a, const char *name, const uint64_t *ids,
		       size_t nr_ids, struct prism_strbuf *out);

/*
 * prism_attr__print_evlist - the attr as `perf evlist -v` shows it, without
 * the newline: "cpu-clock: type: 1, size: 128, ..."
 */
void prism_attr__print_evlist(const struct prism_attr_ext *a, const char *name,
			      struct prism_strbuf *out);

#endif /* PRISM_DATA_ATTR_PRINT_H */
