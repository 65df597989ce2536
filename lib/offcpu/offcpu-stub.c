// SPDX-License-Identifier: MIT
/*
 * prism built without BPF support (no libbpf, clang or bpftool at build
 * time): the BPF off-CPU engine cannot exist.  prism_offcpu__new() still
 * works so that callers get the explanation from prism_offcpu__open() and
 * prism_offcpu__error(); everything else fails with -PRISM_E_NOFEATURE.
 */
#include <stdio.h>

#include "internal.h"
#include "offcpu/offcpu-internal.h"

#define NO_BPF_MSG                                                                      \
	"offcpu: prism was built without BPF support, so the BPF skeleton for off-CPU " \
	"profiling is not available"
#define NO_BPF_OTHER "hint: or use the context-switch method (prism record --off-cpu=sched)"

struct prism_offcpu {
	char err[512];
};

int prism_offcpu_check(char *reason, size_t len)
{
	snprintf(reason, len, "prism was built without BPF support (%s)",
		 prism_feature_hint(PRISM_FEATURE_LIBBPF));
	return -PRISM_E_NOFEATURE;
}

struct prism_offcpu *prism_offcpu__new(const struct prism_offcpu_opts *opts)
{
	struct prism_offcpu *off = calloc(1, sizeof(*off));

	if (off)
		snprintf(off->err, sizeof(off->err), "%s\nhint: %s\n%s", NO_BPF_MSG,
			 prism_feature_hint(PRISM_FEATURE_LIBBPF), NO_BPF_OTHER);
	return off;
}

int prism_offcpu__open(struct prism_offcpu *off)
{
	return -PRISM_E_NOFEATURE;
}

int prism_offcpu__add_pid(struct prism_offcpu *off, int pid)
{
	return -PRISM_E_NOFEATURE;
}

int prism_offcpu__hold_pid(struct prism_offcpu *off, int pid)
{
	return -PRISM_E_NOFEATURE;
}

int prism_offcpu__start(struct prism_offcpu *off)
{
	return -PRISM_E_NOFEATURE;
}

int prism_offcpu__poll(struct prism_offcpu *off, int timeout_ms)
{
	return -PRISM_E_NOFEATURE;
}

int prism_offcpu__poll_fd(const struct prism_offcpu *off)
{
	return -PRISM_E_NOFEATURE;
}

int prism_offcpu__stop(struct prism_offcpu *off)
{
	return -PRISM_E_NOFEATURE;
}

size_t prism_offcpu__nr_entries(const struct prism_offcpu *off)
{
	return 0;
}

const struct prism_offcpu_entry *prism_offcpu__entry(const struct prism_offcpu *off, size_t idx)
{
	return NULL;
}

size_t prism_offcpu__nr_blocks(const struct prism_offcpu *off)
{
	return 0;
}

const struct prism_offcpu_block *prism_offcpu__block(const struct prism_offcpu *off, size_t idx)
{
	return NULL;
}

int prism_offcpu__read_stats(const struct prism_offcpu *off, struct prism_offcpu_stats *st)
{
	return -PRISM_E_NOFEATURE;
}

const char *prism_offcpu__error(const struct prism_offcpu *off)
{
	return off ? off->err : NO_BPF_MSG;
}

void prism_offcpu__free(struct prism_offcpu *off)
{
	free(off);
}
