// SPDX-License-Identifier: MIT
/*
 * Names of the calls the utilization report lists: syscalls (generated
 * per-architecture tables), softirq vectors, POWER hypervisor calls.
 */
#include <inttypes.h>
#include <stdio.h>

#include "util/syscall-tables.h"
#include "util/util-internal.h"

/* uname -m spellings (and perf's HEADER_ARCH) to table names */
static const struct {
	const char *prefix;
	const char *table;
	bool exact;
} arch_map[] = {
	{ "x86_64", "x86_64", true },
	{ "amd64", "x86_64", true },
	{ "i386", "i386", true },
	{ "i486", "i386", true },
	{ "i586", "i386", true },
	{ "i686", "i386", true },
	{ "x86", "i386", true },
	{ "aarch64", "arm64", true },
	{ "arm64", "arm64", true },
	{ "riscv64", "riscv64", true },
	{ "loongarch64", "arm64", true },
	{ "ppc64", "powerpc64", false },
	{ "powerpc64", "powerpc64", false },
	{ "ppc", "powerpc32", false },
	{ "powerpc", "powerpc32", false },
	{ "s390x", "s390x", true },
	{ "s390", "s390", true },
	{ "arm", "arm", false },
};

static const struct syscall_table *find_table(const char *arch)
{
	size_t i, j;

	if (!arch)
		return NULL;
	for (i = 0; i < PRISM_ARRAY_SIZE(arch_map); i++) {
		size_t n = strlen(arch_map[i].prefix);

		if (arch_map[i].exact ? strcmp(arch, arch_map[i].prefix) :
					strncmp(arch, arch_map[i].prefix, n))
			continue;
		for (j = 0; j < nr_syscall_tables; j++)
			if (!strcmp(syscall_tables[j].arch, arch_map[i].table))
				return &syscall_tables[j];
	}
	for (j = 0; j < nr_syscall_tables; j++)
		if (!strcmp(syscall_tables[j].arch, arch))
			return &syscall_tables[j];
	return NULL;
}

const char *prism_syscall_table(const char *arch)
{
	const struct syscall_table *t = find_table(arch);

	return t ? t->arch : NULL;
}

const char *prism_syscall_name(const char *arch, int64_t id)
{
	const struct syscall_table *t = find_table(arch);
	const char *name = NULL;

	if (id < 0)
		return NULL;
	/* a table kept as differences falls back to its base for its holes */
	for (; t && !name; t = t->base ? find_table(t->base) : NULL)
		name = (uint64_t)id < t->nr ? t->names[id] : NULL;
	return name && *name ? name : NULL;
}

const char *prism_softirq_name(int64_t vec)
{
	/* include/linux/interrupt.h, enum { HI_SOFTIRQ = 0, ... } */
	static const char *const names[] = { "HI",	 "TIMER",   "NET_TX", "NET_RX",	 "BLOCK",
					     "IRQ_POLL", "TASKLET", "SCHED",  "HRTIMER", "RCU" };

	if (vec < 0 || (uint64_t)vec >= PRISM_ARRAY_SIZE(names))
		return NULL;
	return names[vec];
}

const char *prism_hcall_name(int64_t opcode)
{
	size_t lo = 0, hi = nr_hcall_names;

	while (lo < hi) {
		size_t mid = (lo + hi) / 2;

		if (hcall_names[mid].opcode == opcode)
			return hcall_names[mid].name;
		if (hcall_names[mid].opcode < opcode)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}

int prism_util__set_arch(struct prism_util *u, const char *arch)
{
	size_t n = strlen(arch);

	if (n >= sizeof(u->arch_buf))
		n = sizeof(u->arch_buf) - 1;
	memcpy(u->arch_buf, arch, n);
	u->arch_buf[n] = '\0';
	u->arch = prism_syscall_table(arch);
	return u->arch ? 0 : -ENOENT;
}

/*
 * The display name of a call; *@name is static or from @u, else the number
 * is written to @buf and *@name points there.
 */
int util_call_name(const struct prism_util *u, enum prism_util_call_kind kind, int64_t id,
		   char *buf, size_t len, const char **name)
{
	const char *n = NULL;

	switch (kind) {
	case PRISM_UTIL_SYSCALL:
		n = u->arch ? prism_syscall_name(u->arch, id) : NULL;
		break;
	case PRISM_UTIL_IRQ:
		n = util_irq_name(u, id);
		break;
	case PRISM_UTIL_SOFTIRQ:
		n = prism_softirq_name(id);
		break;
	case PRISM_UTIL_HCALL:
		n = prism_hcall_name(id);
		break;
	default:
		break;
	}
	if (!n) {
		if (kind == PRISM_UTIL_HCALL)
			snprintf(buf, len, "0x%" PRIx64, (uint64_t)id);
		else
			snprintf(buf, len, "%" PRId64, id);
		n = buf;
	}
	*name = n;
	return 0;
}

const char *const *prism_util_preset(void)
{
	static const char *const preset[] = {
		"sched:sched_switch",	    "raw_syscalls:sys_enter",	"raw_syscalls:sys_exit",
		"irq:irq_handler_entry",    "irq:irq_handler_exit",	"irq:softirq_entry",
		"irq:softirq_exit",	    "powerpc:hcall_entry",	"powerpc:hcall_exit",
		"sched:sched_waking",	    "sched:sched_stat_runtime", "sched:sched_wakeup_new",
		"sched:sched_migrate_task", "sched:sched_process_fork", "sched:sched_process_exec",
		"sched:sched_process_exit", "sched:sched_process_free", NULL,
	};

	return preset;
}
