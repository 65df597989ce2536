// SPDX-License-Identifier: MIT
/*
 * Explain a failed perf_event_open(): the error first, then "hint: " lines
 * with the facts that matter (perf_event_paranoid, RLIMIT_NOFILE, the PMUs
 * of this machine) and the fixes, as perf's evsel__open_strerror() does.
 */
#include <stdarg.h>
#include <stdio.h>
#include <sys/resource.h>
#include <unistd.h>

#include <prism/perf-open.h>
#include <prism/pmu.h>
#include <prism/strbuf.h>

#include "internal.h"

static bool read_int(const char *path, long *v)
{
	char buf[64], *end;
	FILE *f = fopen(path, "re");
	bool ok = false;

	if (!f)
		return false;
	if (fgets(buf, sizeof(buf), f)) {
		errno = 0;
		*v = strtol(buf, &end, 10);
		ok = !errno && end != buf;
	}
	fclose(f);
	return ok;
}

static void hint(struct prism_strbuf *sb, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void hint(struct prism_strbuf *sb, const char *fmt, ...)
{
	va_list ap;

	prism_strbuf_addstr(sb, "\nhint: ");
	va_start(ap, fmt);
	prism_strbuf_vaddf(sb, fmt, ap);
	va_end(ap);
}

static bool is_hw_type(uint32_t type)
{
	return type == PERF_TYPE_HARDWARE || type == PERF_TYPE_HW_CACHE || type == PERF_TYPE_RAW;
}

static void permission(struct prism_strbuf *sb, const struct perf_event_attr *a, const char *name,
		       int err, int pid, int cpu)
{
	long paranoid;
	bool have = read_int("/proc/sys/kernel/perf_event_paranoid", &paranoid);
	bool kernel = !a->exclude_kernel;
	bool cpu_wide = pid == -1;
	bool raw_tp = a->type == PERF_TYPE_TRACEPOINT && (a->sample_type & PERF_SAMPLE_RAW);

	prism_strbuf_addf(sb, "no permission to open event '%s' (%s)", name,
			  err == EPERM ? "EPERM" : "EACCES");
	if (geteuid() == 0) {
		hint(sb, "prism runs as root and was still denied: kernel lockdown "
			 "(/sys/kernel/security/lockdown), an LSM policy (SELinux, AppArmor) or a "
			 "seccomp filter (containers) may block perf_event_open");
		return;
	}
	if (!have) {
		hint(sb, "cannot read /proc/sys/kernel/perf_event_paranoid");
	} else {
		hint(sb,
		     "/proc/sys/kernel/perf_event_paranoid is %ld; for processes without "
		     "CAP_PERFMON (or CAP_SYS_ADMIN):",
		     paranoid);
		hint(sb, "  -1: allow (almost) everything,  >= 0: no raw tracepoint data "
			 "system-wide,");
		hint(sb, "  >= 1: no system-wide (per-CPU) events,  >= 2: no kernel profiling,  "
			 ">= 3 (Debian): no perf_event_open at all");
		if (paranoid >= 3)
			hint(sb, "the value %ld blocks every perf_event_open by unprivileged users",
			     paranoid);
		else if (cpu_wide && paranoid >= 1)
			hint(sb,
			     "'%s' was opened system-wide (-a or -C), which %ld blocks; record a "
			     "command or -p PID instead",
			     name, paranoid);
		else if (kernel && paranoid >= 2)
			hint(sb,
			     "'%s' includes the kernel, which %ld blocks; count user space only "
			     "with '%s:u'",
			     name, paranoid, name);
		else if (raw_tp && paranoid >= 0)
			hint(sb, "tracepoint '%s' records raw data, which %ld blocks", name,
			     paranoid);
	}
	if (a->type == PERF_TYPE_TRACEPOINT)
		hint(sb, "tracepoints also need a readable tracefs (/sys/kernel/tracing), normally "
			 "root only");
	hint(sb, "fixes: run as root; or give prism CAP_PERFMON (Linux 5.8+): sudo setcap "
		 "cap_perfmon,cap_sys_ptrace,cap_syslog=ep $(command -v prism)");
	hint(sb,
	     "or lower the setting: sudo sysctl kernel.perf_event_paranoid=%d (make it "
	     "permanent with 'kernel.perf_event_paranoid = %d' in /etc/sysctl.d/99-perf.conf)",
	     cpu_wide || raw_tp ? -1 : 1, cpu_wide || raw_tp ? -1 : 1);
}

static void no_pmu(struct prism_strbuf *sb, const struct perf_event_attr *a, const char *name)
{
	prism_strbuf_addf(sb,
			  "event '%s' is not supported on this machine: no hardware PMU "
			  "(a VM without PMU passthrough?); use cpu-clock or task-clock",
			  name);
	hint(sb, "software events (cpu-clock, task-clock, page-faults, context-switches) and "
		 "tracepoints work without a PMU: see 'prism list'");
	hint(sb, "for a VM, enable the virtual PMU (e.g. QEMU/KVM '-cpu host' with 'pmu=on', "
		 "VMware 'Virtualize CPU performance counters')");
}

static void too_many_files(struct prism_strbuf *sb, const char *name, int err)
{
	struct rlimit rl;
	long ncpu = sysconf(_SC_NPROCESSORS_ONLN);

	if (err == ENFILE) {
		long max = 0;

		prism_strbuf_addf(sb,
				  "cannot open event '%s': the system-wide file table is full "
				  "(ENFILE)",
				  name);
		if (read_int("/proc/sys/fs/file-max", &max))
			hint(sb, "fs.file-max is %ld; raise it: sudo sysctl fs.file-max=%ld", max,
			     max * 2);
		return;
	}
	prism_strbuf_addf(sb, "cannot open event '%s': too many open files (EMFILE)", name);
	if (getrlimit(RLIMIT_NOFILE, &rl) == 0) {
		hint(sb, "RLIMIT_NOFILE: soft limit %llu, hard limit %llu%s",
		     (unsigned long long)rl.rlim_cur, (unsigned long long)rl.rlim_max,
		     rl.rlim_max == RLIM_INFINITY ? " (unlimited)" : "");
		if (rl.rlim_cur < rl.rlim_max)
			hint(sb,
			     "raise the soft limit up to the hard one: 'ulimit -n %llu' in the "
			     "shell that runs prism",
			     (unsigned long long)rl.rlim_max);
		hint(sb, "to raise the hard limit: '* hard nofile 1048576' in "
			 "/etc/security/limits.conf (then log in again), LimitNOFILE= for a "
			 "systemd service, or 'ulimit -Hn N' as root");
	}
	hint(sb,
	     "prism needs one file descriptor per event per CPU (%ld CPUs online): fewer "
	     "events, or -C with fewer CPUs, need fewer",
	     ncpu > 0 ? ncpu : 1);
}

static void invalid(struct prism_strbuf *sb, const struct perf_event_attr *a, const char *name)
{
	long max_rate;

	prism_strbuf_addf(sb, "invalid attributes for event '%s' (EINVAL)", name);
	if (a->precise_ip)
		hint(sb,
		     "precise_ip %u (the %.*s modifier) is not supported by '%s': use fewer "
		     "'p' modifiers, or none",
		     a->precise_ip, (int)a->precise_ip + 1, ":ppp", name);
	if (a->freq && read_int("/proc/sys/kernel/perf_event_max_sample_rate", &max_rate) &&
	    a->sample_freq > (uint64_t)max_rate)
		hint(sb,
		     "frequency %llu Hz is above kernel.perf_event_max_sample_rate (%ld): use "
		     "-F %ld or less, or raise the sysctl",
		     (unsigned long long)a->sample_freq, max_rate, max_rate);
	if (a->use_clockid)
		hint(sb, "clockid %d may not be supported by this kernel for perf events",
		     a->clockid);
	if (a->exclude_host || a->exclude_guest)
		hint(sb, "the guest/host modifiers (:G, :H) may not be supported by this event");
	if (a->branch_sample_type)
		hint(sb, "branch stack sampling needs a PMU with LBR/BRBE support");
	if (a->type >= PERF_TYPE_MAX)
		hint(sb, "check the terms against /sys/bus/event_source/devices/*/format");
	hint(sb, "'dmesg | grep -i perf' may say more");
}

void prism_perf_open_strerror_at(int err, const struct perf_event_attr *attr, const char *evname,
				 int pid, int cpu, char *buf, size_t size)
{
	struct prism_strbuf sb = STRBUF_INIT;
	const char *name = evname ? evname : "?";
	bool hw = is_hw_type(attr->type);

	if (err < 0)
		err = -err;
	switch (err) {
	case EPERM:
	case EACCES:
		permission(&sb, attr, name, err, pid, cpu);
		break;
	case EMFILE:
	case ENFILE:
		too_many_files(&sb, name, err);
		break;
	case ENOENT:
	case EOPNOTSUPP:
	case ENODEV:
		if (hw && !prism_pmu_have_hw()) {
			no_pmu(&sb, attr, name);
		} else if (err == EOPNOTSUPP && (attr->sample_period || attr->freq)) {
			prism_strbuf_addf(&sb,
					  "event '%s' cannot sample (EOPNOTSUPP): its PMU has no "
					  "overflow interrupt",
					  name);
			hint(&sb, "count it instead of sampling, or sample another event in a "
				  "group with it");
		} else if (err == ENODEV) {
			if (cpu >= 0)
				prism_strbuf_addf(&sb,
						  "event '%s' is not available on CPU %d (ENODEV)",
						  name, cpu);
			else
				prism_strbuf_addf(&sb, "event '%s' is not available (ENODEV)",
						  name);
			hint(&sb, "the CPU may be offline, or the PMU covers only some CPUs: see "
				  "/sys/bus/event_source/devices/*/cpus");
		} else if (attr->type == PERF_TYPE_TRACEPOINT) {
			prism_strbuf_addf(&sb,
					  "tracepoint '%s' (id %llu) does not exist in this "
					  "kernel",
					  name, (unsigned long long)attr->config);
			hint(&sb, "see 'prism list tracepoint'");
		} else {
			prism_strbuf_addf(&sb,
					  "event '%s' is not supported by this kernel or CPU (%s)",
					  name, err == ENOENT ? "ENOENT" : "EOPNOTSUPP");
			hint(&sb, "see 'prism list' for the events this machine has");
		}
		break;
	case EINVAL:
		invalid(&sb, attr, name);
		break;
	case EBUSY:
		prism_strbuf_addf(&sb,
				  "event '%s' is busy (EBUSY): another user holds the PMU "
				  "counters",
				  name);
		hint(&sb, "stop other profilers (perf, oprofile, a BPF tool); the NMI watchdog "
			  "takes a counter: 'sudo sysctl kernel.nmi_watchdog=0'");
		break;
	case ESRCH:
		if (pid > 0)
			prism_strbuf_addf(&sb, "cannot open event '%s' for pid %d: no such process",
					  name, pid);
		else
			prism_strbuf_addf(&sb, "cannot open event '%s': no such process (ESRCH)",
					  name);
		break;
	case E2BIG:
		prism_strbuf_addf(&sb,
				  "this kernel does not accept perf_event_attr size %u (E2BIG) "
				  "for event '%s'",
				  attr->size, name);
		hint(&sb, "the kernel is older than the attributes prism uses; a newer kernel is "
			  "needed");
		break;
	case ENOSPC:
		prism_strbuf_addf(&sb, "no free slot for event '%s' (ENOSPC)", name);
		hint(&sb, "hardware breakpoint and counter slots are limited; use fewer such "
			  "events");
		break;
	case ENOMEM:
		prism_strbuf_addf(&sb, "out of memory opening event '%s' (ENOMEM)", name);
		break;
	default:
		prism_strbuf_addf(&sb, "cannot open event '%s': %s (errno %d)", name, strerror(err),
				  err);
		hint(&sb, "'dmesg | grep -i perf' may say more");
		break;
	}
	if (size) {
		snprintf(buf, size, "%s",
			 prism_strbuf_failed(&sb) ? "cannot open event (out of memory)" : sb.buf);
	}
	prism_strbuf_release(&sb);
}

void prism_perf_open_strerror(int err, const struct perf_event_attr *attr, const char *evname,
			      char *buf, size_t size)
{
	prism_perf_open_strerror_at(err, attr, evname, PRISM_PERF_OPEN_UNKNOWN,
				    PRISM_PERF_OPEN_UNKNOWN, buf, size);
}
