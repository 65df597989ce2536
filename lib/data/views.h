/* SPDX-License-Identifier: MIT */
/*
 * Views of input files, for reading queued records back in place (the time
 * sort's runs): one cache per session, whatever the number of inputs.
 */
#ifndef PRISM_DATA_VIEWS_H
#define PRISM_DATA_VIEWS_H

#include <stddef.h>
#include <stdint.h>

struct prism_input;
struct prism_views;

struct prism_views *prism_views__new(void);
/* unmaps every view, pinned ones too; accepts NULL */
void prism_views__free(struct prism_views *v);

/*
 * prism_views__get - the bytes of regular file @in from @off on, mapped
 *
 * *@avail bytes are readable from the pointer: at least 65535 (the largest
 * record), or up to the end of the file.  The view is pinned until
 * prism_views__put(@in, @off); a few views can be pinned at once (about
 * 2 MiB of a file each), no more, over all inputs.
 * Return: the bytes at @off, or NULL (a pipe, @off at or past the end,
 * every view pinned, or mmap failed): read them with pread instead.
 */
const void *prism_views__get(struct prism_views *v, struct prism_input *in, uint64_t off,
			     size_t *avail);
void prism_views__put(struct prism_views *v, const struct prism_input *in, uint64_t off);

#endif /* PRISM_DATA_VIEWS_H */
