// SPDX-License-Identifier: MIT
/*
 * What the BPF off-CPU method needs from the system, checked without
 * loading anything: kernel BTF and privileges.  Also the cgroup id lookup
 * for the cgroup filter.  Compiled with and without libbpf.
 */
#include <fcntl.h>
#include <stdio.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/syscall.h>
#include <unistd.h>
#include <linux/capability.h>

#include "internal.h"
#include "offcpu/offcpu-internal.h"

#ifndef CAP_PERFMON
#define CAP_PERFMON 38
#endif
#ifndef CAP_BPF
#define CAP_BPF 39
#endif

static bool cap_effective(const struct __user_cap_data_struct *d, int cap)
{
	return d[cap / 32].effective & (1u << (cap % 32));
}

int offcpu_env_check(char *reason, size_t len)
{
	struct __user_cap_header_struct hdr = { .version = _LINUX_CAPABILITY_VERSION_3 };
	struct __user_cap_data_struct data[2] = {};

	if (access(OFFCPU_BTF_PATH, R_OK)) {
		snprintf(reason, len,
			 "the kernel has no BTF (%s: %s): tp_btf programs cannot be loaded",
			 OFFCPU_BTF_PATH, strerror(errno));
		return -EOPNOTSUPP;
	}
	if (geteuid() == 0)
		return 0;
	if (syscall(SYS_capget, &hdr, data)) {
		snprintf(reason, len, "cannot read the process capabilities: %s", strerror(errno));
		return -EPERM;
	}
	if (cap_effective(data, CAP_SYS_ADMIN) ||
	    (cap_effective(data, CAP_BPF) && cap_effective(data, CAP_PERFMON)))
		return 0;
	snprintf(reason, len,
		 "loading BPF programs needs root or CAP_BPF and CAP_PERFMON (running as uid %u "
		 "without them)",
		 (unsigned int)geteuid());
	return -EPERM;
}

const char *offcpu_env_hint(int err)
{
	switch (err) {
	case -EOPNOTSUPP:
		return "boot a kernel built with CONFIG_DEBUG_INFO_BTF=y, or use the context-switch "
		       "method (prism record --off-cpu=sched)";
	case -EPERM:
		return "run as root, or grant the capabilities: setcap cap_bpf,cap_perfmon+ep prism; "
		       "the context-switch method (--off-cpu=sched) needs perf_event_paranoid <= 1";
	default:
		return "run with -v to see libbpf's and the verifier's messages";
	}
}

/*
 * A cgroup v2 id is the kernfs node id, which name_to_handle_at() returns
 * as the file handle (the same value bpf_get_current_cgroup_id() gives).
 */
int prism_offcpu_cgroup_id(const char *path, uint64_t *id)
{
	struct {
		struct file_handle fh;
		uint64_t id;
	} h = { .fh = { .handle_bytes = sizeof(uint64_t) } };
	int mount_id;

	if (!path || !id)
		return -EINVAL;
	if (name_to_handle_at(AT_FDCWD, path, &h.fh, &mount_id, 0)) {
		struct statfs sfs;
		struct stat st;

		/*
		 * Newer kernels (6.18) give cgroupfs handles of 12 bytes
		 * (EOVERFLOW here).  On 64-bit the inode number of a cgroup v2
		 * directory is the same kernfs node id.
		 */
		if (errno != EOVERFLOW || sizeof(ino_t) < sizeof(uint64_t))
			return -errno;
		if (statfs(path, &sfs) || stat(path, &st))
			return -errno;
		if (sfs.f_type != 0x63677270 /* CGROUP2_SUPER_MAGIC */)
			return -EOPNOTSUPP;
		*id = (uint64_t)st.st_ino;
		return 0;
	}
	if (h.fh.handle_bytes != sizeof(uint64_t))
		return -EOPNOTSUPP;
	memcpy(id, h.fh.f_handle, sizeof(*id));
	return 0;
}
