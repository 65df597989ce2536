// SPDX-License-Identifier: MIT
/*
 * Records for what existed before the recording (-a, -C, -p, -t): the
 * kernel's MMAP, and COMM per thread and MMAP2 per executable mapping from
 * /proc, so that samples of tasks that started earlier are attributable;
 * with --all-cgroups a CGROUP per existing cgroup (v2 hierarchy, whose ids
 * PERF_SAMPLE_CGROUP reports), so that their samples are named; with
 * --namespaces a NAMESPACES after each COMM.
 * They carry a sample_id trailer with time 0 (delivered first by readers).
 */
#include <dirent.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "record/record-internal.h"

size_t rec_trailer(struct prism_record *r, uint8_t *p, uint32_t pid, uint32_t tid)
{
	uint64_t t = r->trailer_type;
	size_t n = 0;

	if (t & PERF_SAMPLE_TID) {
		memcpy(p + n, &pid, 4);
		memcpy(p + n + 4, &tid, 4);
		n += 8;
	}
	if (t & PERF_SAMPLE_TIME)
		memset(p + n, 0, 8), n += 8;
	if (t & PERF_SAMPLE_ID)
		memset(p + n, 0, 8), n += 8;
	if (t & PERF_SAMPLE_STREAM_ID)
		memset(p + n, 0, 8), n += 8;
	if (t & PERF_SAMPLE_CPU)
		memset(p + n, 0, 8), n += 8;
	if (t & PERF_SAMPLE_IDENTIFIER)
		memset(p + n, 0, 8), n += 8;
	return n;
}

static size_t put_name(uint8_t *p, const char *s)
{
	size_t len = strlen(s) + 1, padded = (len + 7) & ~(size_t)7;

	memset(p, 0, padded);
	memcpy(p, s, len);
	return padded;
}

static int emit(struct prism_record *r, uint8_t *rec, size_t len, uint32_t type, uint16_t misc)
{
	struct perf_event_header h = { .type = type, .misc = misc, .size = (uint16_t)len };

	memcpy(rec, &h, sizeof(h));
	return prism_writer__write(r->w, rec, len);
}

static int synth_kernel(struct prism_record *r)
{
	FILE *f = fopen("/proc/kallsyms", "re");
	char line[512], name[256], type;
	uint64_t addr = 0, a;
	uint8_t rec[256];
	uint32_t pid = (uint32_t)-1, tid = 0;
	size_t n = 8;

	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%" SCNx64 " %c %255s", &a, &type, name) != 3)
			continue;
		if (!strcmp(name, "_text") || !strcmp(name, "_stext")) {
			addr = a;
			if (!strcmp(name, "_text"))
				break;
		}
	}
	fclose(f);
	if (!addr)
		return 0; /* kptr_restrict hides addresses */
	memcpy(rec + n, &pid, 4);
	memcpy(rec + n + 4, &tid, 4);
	n += 8;
	a = ~0ULL - addr;
	memcpy(rec + n, &addr, 8);
	memcpy(rec + n + 8, &a, 8);
	memcpy(rec + n + 16, &addr, 8);
	n += 24;
	n += put_name(rec + n, "[kernel.kallsyms]_text");
	n += rec_trailer(r, rec + n, pid, tid);
	if (!r->o.no_buildid)
		rec_track_mmap(r, rec, false);
	return emit(r, rec, n, PERF_RECORD_MMAP, PERF_RECORD_MISC_KERNEL);
}

/* --namespaces: the thread's namespaces, dev and inode of each /proc link (perf's order) */
static int synth_namespaces(struct prism_record *r, int pid, int tid)
{
	static const char *const names[] = { "net", "uts", "ipc", "pid", "user", "mnt", "cgroup" };
	uint8_t rec[8 + 16 + 16 * PRISM_ARRAY_SIZE(names) + 64];
	uint64_t nr = PRISM_ARRAY_SIZE(names);
	size_t n = 8, i;

	memcpy(rec + n, &pid, 4);
	memcpy(rec + n + 4, &tid, 4);
	memcpy(rec + n + 8, &nr, 8);
	n += 16;
	for (i = 0; i < nr; i++) {
		char path[96];
		struct stat st;
		uint64_t dev = 0, ino = 0;

		snprintf(path, sizeof(path), "/proc/%d/task/%d/ns/%s", pid, tid, names[i]);
		if (!stat(path, &st)) {
			dev = st.st_dev;
			ino = st.st_ino;
		}
		memcpy(rec + n, &dev, 8);
		memcpy(rec + n + 8, &ino, 8);
		n += 16;
	}
	n += rec_trailer(r, rec + n, (uint32_t)pid, (uint32_t)tid);
	return emit(r, rec, n, PERF_RECORD_NAMESPACES, 0);
}

/* COMM (and NAMESPACES with --namespaces) of a thread that existed before */
static int synth_comm(struct prism_record *r, int pid, int tid)
{
	char path[96], comm[64];
	uint8_t rec[128];
	size_t n = 8;
	FILE *f;
	int err;

	snprintf(path, sizeof(path), "/proc/%d/task/%d/comm", pid, tid);
	f = fopen(path, "re");
	if (!f)
		return 0; /* gone */
	if (!fgets(comm, sizeof(comm), f))
		comm[0] = 0;
	fclose(f);
	comm[strcspn(comm, "\n")] = 0;
	memcpy(rec + n, &pid, 4);
	memcpy(rec + n + 4, &tid, 4);
	n += 8;
	n += put_name(rec + n, comm);
	n += rec_trailer(r, rec + n, (uint32_t)pid, (uint32_t)tid);
	err = emit(r, rec, n, PERF_RECORD_COMM, 0);
	if (!err && r->o.namespaces)
		err = synth_namespaces(r, pid, tid);
	return err;
}

static int synth_maps(struct prism_record *r, int pid)
{
	char path[64], line[4096 + 256], perms[8], file[4096];
	uint8_t *rec = r->rec_buf;
	FILE *f;
	int err = 0;

	snprintf(path, sizeof(path), "/proc/%d/maps", pid);
	f = fopen(path, "re");
	if (!f)
		return 0;
	while (!err && fgets(line, sizeof(line), f)) {
		uint64_t start, end, pgoff, ino;
		unsigned int maj, min;
		uint32_t prot = 0, flags, u;
		int nfile = 0;
		size_t n = 8;

		file[0] = 0;
		if (sscanf(line, "%" SCNx64 "-%" SCNx64 " %7s %" SCNx64 " %x:%x %" SCNu64 " %n",
			   &start, &end, perms, &pgoff, &maj, &min, &ino, &nfile) < 7)
			continue;
		if (nfile > 0) {
			snprintf(file, sizeof(file), "%s", line + nfile);
			file[strcspn(file, "\n")] = 0;
		}
		if (perms[2] != 'x' && !r->o.data_addr)
			continue;
		if (!file[0])
			snprintf(file, sizeof(file), "//anon");
		prot = (perms[0] == 'r' ? PROT_READ : 0) | (perms[1] == 'w' ? PROT_WRITE : 0) |
		       (perms[2] == 'x' ? PROT_EXEC : 0);
		flags = perms[3] == 's' ? MAP_SHARED : MAP_PRIVATE;
		u = (uint32_t)pid;
		memcpy(rec + n, &u, 4);
		memcpy(rec + n + 4, &u, 4);
		n += 8;
		memcpy(rec + n, &start, 8);
		end -= start;
		memcpy(rec + n + 8, &end, 8);
		memcpy(rec + n + 16, &pgoff, 8);
		n += 24;
		u = maj;
		memcpy(rec + n, &u, 4);
		u = min;
		memcpy(rec + n + 4, &u, 4);
		memcpy(rec + n + 8, &ino, 8);
		memset(rec + n + 16, 0, 8);
		n += 24;
		memcpy(rec + n, &prot, 4);
		memcpy(rec + n + 4, &flags, 4);
		n += 8;
		n += put_name(rec + n, file);
		n += rec_trailer(r, rec + n, (uint32_t)pid, (uint32_t)pid);
		{
			struct perf_event_header h = { .type = PERF_RECORD_MMAP2,
						       .misc = PERF_RECORD_MISC_USER,
						       .size = (uint16_t)n };

			memcpy(rec, &h, sizeof(h));
		}
		if (!r->o.no_buildid)
			rec_track_mmap(r, rec, true);
		err = prism_writer__write(r->w, rec, n);
	}
	fclose(f);
	return err;
}

static int synth_process(struct prism_record *r, int pid, int only_tid)
{
	char path[64];
	struct dirent *d;
	DIR *dir;
	int err = 0;

	snprintf(path, sizeof(path), "/proc/%d/task", pid);
	dir = opendir(path);
	if (!dir)
		return 0;
	while (!err && (d = readdir(dir))) {
		int tid = atoi(d->d_name);

		if (tid <= 0 || (only_tid > 0 && tid != only_tid))
			continue;
		err = synth_comm(r, pid, tid);
	}
	closedir(dir);
	if (!err)
		err = synth_maps(r, pid);
	return err;
}

/* where the cgroup v2 hierarchy is mounted, or NULL */
static char *cgroup2_mount(char *buf, size_t len)
{
	FILE *f = fopen("/proc/self/mountinfo", "re");
	char line[4096], mnt[PATH_MAX], fstype[64];
	char *ret = NULL;

	if (!f)
		return NULL;
	while (!ret && fgets(line, sizeof(line), f)) {
		const char *sep = strstr(line, " - ");

		/* "36 25 0:31 / /sys/fs/cgroup rw,... - cgroup2 cgroup2 rw" */
		if (!sep || sscanf(line, "%*s %*s %*s %*s %4095s", mnt) != 1 ||
		    sscanf(sep + 3, "%63s", fstype) != 1 || strcmp(fstype, "cgroup2"))
			continue;
		if (snprintf(buf, len, "%s", mnt) < (int)len)
			ret = buf;
	}
	fclose(f);
	return ret;
}

/* one CGROUP record for the cgroup at @path (@rel from the hierarchy's root), then its children */
static int synth_cgroup_tree(struct prism_record *r, char *path, size_t len, size_t root_len,
			     int depth)
{
	struct {
		struct file_handle fh;
		uint64_t id;
	} h = { .fh.handle_bytes = sizeof(uint64_t) };
	uint8_t rec[8 + 8 + PATH_MAX + 64];
	const char *rel = path[root_len] ? path + root_len : "/";
	size_t n = 8, at = strlen(path);
	struct dirent *d;
	int mount_id, err = 0;
	DIR *dir;

	/* the cgroup id is the file handle of its directory (what the kernel puts in samples) */
	if (name_to_handle_at(AT_FDCWD, path, &h.fh, &mount_id, 0) || strlen(rel) >= PATH_MAX)
		return 0; /* gone, or not a cgroup2 directory */
	memcpy(rec + n, &h.id, 8);
	n += 8;
	n += put_name(rec + n, rel);
	n += rec_trailer(r, rec + n, 0, 0); /* as perf: swapper's */
	err = emit(r, rec, n, PERF_RECORD_CGROUP, 0);
	if (err || depth > 64 || !(dir = opendir(path)))
		return err;
	while (!err && (d = readdir(dir))) {
		if (d->d_type != DT_DIR || d->d_name[0] == '.' ||
		    at + 1 + strlen(d->d_name) + 1 > len)
			continue;
		snprintf(path + at, len - at, "/%s", d->d_name);
		err = synth_cgroup_tree(r, path, len, root_len, depth + 1);
		path[at] = '\0';
	}
	closedir(dir);
	return err;
}

static int synth_cgroups(struct prism_record *r)
{
	char path[PATH_MAX];

	if (!cgroup2_mount(path, sizeof(path))) {
		pr_warn("--all-cgroups: no cgroup2 hierarchy is mounted: samples carry cgroup ids that nothing names");
		return 0;
	}
	return synth_cgroup_tree(r, path, sizeof(path), strlen(path), 0);
}

static int tgid_of(int tid)
{
	char path[64], line[256];
	FILE *f;
	int tgid = tid;

	snprintf(path, sizeof(path), "/proc/%d/status", tid);
	f = fopen(path, "re");
	if (!f)
		return tid;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "Tgid: %d", &tgid) == 1)
			break;
	fclose(f);
	return tgid;
}

int rec_synthesize(struct prism_record *r)
{
	struct perf_event_header fin = { .type = PRISM_RECORD_FINISHED_INIT, .size = 8 };
	int err = synth_kernel(r);
	size_t i;

	if (!err && !r->o.system_wide && !r->o.cpu_list && !r->o.pid_list && !r->o.tid_list) {
		/* a workload: name the held child until its exec renames it */
		if (r->child > 0)
			err = synth_comm(r, r->child, r->child);
	} else if (!err && r->threads[0] == -1) {
		DIR *dir = opendir("/proc");
		struct dirent *d;

		if (!dir)
			return rec_error(r, "cannot read /proc: %s", strerror(errno)), -errno;
		while (!err && (d = readdir(dir))) {
			int pid = atoi(d->d_name);

			if (pid > 0)
				err = synth_process(r, pid, 0);
		}
		closedir(dir);
	} else {
		for (i = 0; !err && i < r->nr_threads; i++) {
			int tgid = tgid_of(r->threads[i]);

			err = synth_process(r, tgid, r->o.tid_list ? r->threads[i] : 0);
			/* -p: the maps and every thread once per process */
			while (!r->o.tid_list && i + 1 < r->nr_threads &&
			       tgid_of(r->threads[i + 1]) == tgid)
				i++;
		}
	}
	if (!err && r->o.all_cgroups)
		err = synth_cgroups(r);
	if (!err)
		err = prism_writer__write(r->w, &fin, sizeof(fin));
	if (err)
		return rec_error(r, "cannot write the synthesized records to %s: %s",
				 prism_writer__path(r->w), strerror(-err)),
		       err;
	return 0;
}
