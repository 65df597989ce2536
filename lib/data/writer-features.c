// SPDX-License-Identifier: MIT
/*
 * Feature payloads of the perf.data writer, each the exact inverse of its
 * decoder in features.c / features-topology.c (perf's write_* functions):
 * strings are a u32 length then the bytes, NUL and zero padding to 64.
 */
#include <ctype.h>
#include <limits.h>
#include <stdio.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#include <prism/features.h>
#include <prism/strbuf.h>

#include "data/writer-internal.h"
#include "internal.h"

#define NAME_ALIGN 64

static void put_u32(struct prism_strbuf *sb, uint32_t v)
{
	prism_strbuf_add(sb, &v, sizeof(v));
}

static void put_u64(struct prism_strbuf *sb, uint64_t v)
{
	prism_strbuf_add(sb, &v, sizeof(v));
}

static void put_str(struct prism_strbuf *sb, const char *s)
{
	static const char zeros[NAME_ALIGN];
	size_t n = strlen(s) + 1;
	size_t len = (n + NAME_ALIGN - 1) / NAME_ALIGN * NAME_ALIGN;

	put_u32(sb, (uint32_t)len);
	prism_strbuf_add(sb, s, n);
	prism_strbuf_add(sb, zeros, len - n);
}

/* first line of a small file, trailing newline removed; 0 or -errno */
static int read_line(const char *path, char *buf, size_t size)
{
	FILE *f = fopen(path, "re");
	size_t n;

	if (!f)
		return -errno;
	if (!fgets(buf, (int)size, f)) {
		fclose(f);
		return -EIO;
	}
	fclose(f);
	n = strlen(buf);
	while (n && (buf[n - 1] == '\n' || buf[n - 1] == ' '))
		buf[--n] = 0;
	return 0;
}

/* value of "key<spaces>: value" in /proc/cpuinfo (first match) */
static int cpuinfo_value(const char *key, char *buf, size_t size)
{
	FILE *f = fopen("/proc/cpuinfo", "re");
	char line[1024];
	size_t klen = strlen(key);
	int err = -ENOENT;

	if (!f)
		return -errno;
	while (fgets(line, sizeof(line), f)) {
		char *p;

		if (strncmp(line, key, klen) ||
		    (line[klen] != ' ' && line[klen] != '\t' && line[klen] != ':'))
			continue;
		p = strchr(line, ':');
		if (!p)
			continue;
		p++;
		while (*p == ' ' || *p == '\t')
			p++;
		snprintf(buf, size, "%s", p);
		p = buf + strlen(buf);
		while (p > buf && (p[-1] == '\n' || p[-1] == ' '))
			*--p = 0;
		err = 0;
		break;
	}
	fclose(f);
	return err;
}

/* squash runs of blanks into one (perf does this for CPUDESC) */
static void squash(char *s)
{
	char *d = s, *p = s;
	bool blank = false;

	while (isspace((unsigned char)*p))
		p++;
	for (; *p; p++) {
		if (isspace((unsigned char)*p)) {
			blank = true;
			continue;
		}
		if (blank)
			*d++ = ' ';
		blank = false;
		*d++ = *p;
	}
	*d = 0;
}

static int max_present_cpu(void)
{
	char buf[256], *p;
	long max = -1;

	if (read_line("/sys/devices/system/cpu/present", buf, sizeof(buf)))
		return (int)sysconf(_SC_NPROCESSORS_CONF);
	for (p = buf; *p;) {
		char *end;
		long v = strtol(p, &end, 10);

		if (end == p)
			break;
		if (v > max)
			max = v;
		p = end;
		if (*p == '-' || *p == ',')
			p++;
	}
	return (int)max + 1;
}

static int feat_string(struct prism_strbuf *sb, const char *s)
{
	put_str(sb, s);
	return 0;
}

static int feat_cpudesc(struct prism_strbuf *sb)
{
	char buf[512];

	if (cpuinfo_value("model name", buf, sizeof(buf)) &&
	    cpuinfo_value("cpu model", buf, sizeof(buf)) &&
	    cpuinfo_value("Processor", buf, sizeof(buf)) && cpuinfo_value("cpu", buf, sizeof(buf)))
		return -ENOENT;
	squash(buf);
	return feat_string(sb, buf);
}

static int feat_cpuid(struct prism_strbuf *sb)
{
	char vendor[128], fam[32], model[32], step[32], buf[256];

	if (cpuinfo_value("vendor_id", vendor, sizeof(vendor)) ||
	    cpuinfo_value("cpu family", fam, sizeof(fam)) ||
	    cpuinfo_value("model", model, sizeof(model)) ||
	    cpuinfo_value("stepping", step, sizeof(step)))
		return -ENOENT;
	snprintf(buf, sizeof(buf), "%s,%s,%s,%s", vendor, fam, model, step);
	return feat_string(sb, buf);
}

static int feat_total_mem(struct prism_strbuf *sb)
{
	FILE *f = fopen("/proc/meminfo", "re");
	char line[256];
	unsigned long long kb = 0;
	bool found = false;

	if (!f)
		return -errno;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "MemTotal: %llu kB", &kb) == 1) {
			found = true;
			break;
		}
	fclose(f);
	if (!found)
		return -ENOENT;
	put_u64(sb, kb);
	return 0;
}

static int feat_cmdline(struct prism_writer *w, struct prism_strbuf *sb)
{
	char exe[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	int i;

	if (!w->argc)
		return -ENOENT;
	if (n > 0)
		exe[n] = 0;
	else
		snprintf(exe, sizeof(exe), "%s", w->argv[0]);
	put_u32(sb, (uint32_t)w->argc);
	put_str(sb, exe);
	for (i = 1; i < w->argc; i++)
		put_str(sb, w->argv[i]);
	return 0;
}

static int feat_event_desc(struct prism_writer *w, struct prism_strbuf *sb)
{
	size_t i;

	put_u32(sb, (uint32_t)w->nr_ev);
	put_u32(sb, PRISM_WRITER_ATTR_SIZE);
	for (i = 0; i < w->nr_ev; i++) {
		uint8_t attr[PRISM_WRITER_ATTR_SIZE] = { 0 };

		memcpy(attr, &w->ev[i].attr, sizeof(attr));
		prism_strbuf_add(sb, attr, sizeof(attr));
		put_u32(sb, (uint32_t)w->ev[i].nr_ids);
		put_str(sb, w->ev[i].name);
		if (w->ev[i].nr_ids)
			prism_strbuf_add(sb, w->ev[i].ids, w->ev[i].nr_ids * sizeof(uint64_t));
	}
	return 0;
}

/* topology string lists: the distinct values of one sysfs file over all CPUs */
struct str_set {
	char **v;
	size_t nr, cap;
};

static int set_add(struct str_set *s, const char *str)
{
	size_t i;

	for (i = 0; i < s->nr; i++)
		if (!strcmp(s->v[i], str))
			return 0;
	if (prism_ensure_mem((void **)&s->v, &s->cap, sizeof(*s->v), s->nr + 1))
		return -ENOMEM;
	s->v[s->nr] = strdup(str);
	if (!s->v[s->nr])
		return -ENOMEM;
	s->nr++;
	return 0;
}

static void set_put(struct prism_strbuf *sb, struct str_set *s)
{
	size_t i;

	put_u32(sb, (uint32_t)s->nr);
	for (i = 0; i < s->nr; i++) {
		put_str(sb, s->v[i]);
		free(s->v[i]);
	}
	free(s->v);
	memset(s, 0, sizeof(*s));
}

static int topo_read(int cpu, const char *a, const char *b, char *buf, size_t size)
{
	char path[256];

	snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu%d/topology/%s", cpu, a);
	if (!read_line(path, buf, size))
		return 0;
	if (!b)
		return -ENOENT;
	snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu%d/topology/%s", cpu, b);
	return read_line(path, buf, size);
}

static int feat_cpu_topology(struct prism_strbuf *sb)
{
	struct str_set pkg = { 0 }, thr = { 0 }, die = { 0 };
	int cpu, nr = max_present_cpu();
	char buf[1024];
	int err = 0;
	bool dies = true;

	for (cpu = 0; cpu < nr && !err; cpu++) {
		if (!topo_read(cpu, "package_cpus_list", "core_siblings_list", buf, sizeof(buf)))
			err = set_add(&pkg, buf);
		if (!err &&
		    !topo_read(cpu, "core_cpus_list", "thread_siblings_list", buf, sizeof(buf)))
			err = set_add(&thr, buf);
		if (!err && !topo_read(cpu, "die_cpus_list", NULL, buf, sizeof(buf)))
			err = set_add(&die, buf);
		else
			dies = false;
	}
	if (err || !pkg.nr || !thr.nr)
		dies = false;
	set_put(sb, &pkg);
	set_put(sb, &thr);
	for (cpu = 0; cpu < nr; cpu++) {
		int core = -1, sock = -1;

		if (!topo_read(cpu, "core_id", NULL, buf, sizeof(buf)))
			core = atoi(buf);
		if (!topo_read(cpu, "physical_package_id", NULL, buf, sizeof(buf)))
			sock = atoi(buf);
		put_u32(sb, (uint32_t)core);
		put_u32(sb, (uint32_t)sock);
	}
	if (dies) {
		set_put(sb, &die);
		for (cpu = 0; cpu < nr; cpu++) {
			int d = -1;

			if (!topo_read(cpu, "die_id", NULL, buf, sizeof(buf)))
				d = atoi(buf);
			put_u32(sb, (uint32_t)d);
		}
	} else {
		size_t i;

		for (i = 0; i < die.nr; i++)
			free(die.v[i]);
		free(die.v);
	}
	return err;
}

static int feat_group_desc(struct prism_writer *w, struct prism_strbuf *sb)
{
	uint32_t nr = 0;
	size_t i;

	for (i = 0; i < w->nr_ev; i++)
		if (w->ev[i].leader == (int)i && w->ev[i].nr_members > 1)
			nr++;
	if (!nr)
		return -ENOENT;
	put_u32(sb, nr);
	for (i = 0; i < w->nr_ev; i++) {
		if (w->ev[i].leader != (int)i || w->ev[i].nr_members <= 1)
			continue;
		put_str(sb, "{anon_group}");
		put_u32(sb, (uint32_t)i);
		put_u32(sb, (uint32_t)w->ev[i].nr_members);
	}
	return 0;
}

static int feat_build_id(struct prism_writer *w, struct prism_strbuf *sb)
{
	static const char zeros[NAME_ALIGN];
	size_t i;

	if (!w->nr_bids)
		return -ENOENT;
	for (i = 0; i < w->nr_bids; i++) {
		const struct wr_build_id *b = &w->bids[i];
		size_t n = strlen(b->name) + 1;
		size_t len = (n + NAME_ALIGN - 1) / NAME_ALIGN * NAME_ALIGN;
		struct perf_event_header h = {
			.type = 0,
			.misc = (uint16_t)(b->cpumode | PRISM_MISC_BUILD_ID_SIZE),
			.size = (uint16_t)(36 + len),
		};
		int32_t pid = -1;
		uint8_t tail[4] = { b->size, 0, 0, 0 };

		prism_strbuf_add(sb, &h, sizeof(h));
		prism_strbuf_add(sb, &pid, sizeof(pid));
		prism_strbuf_add(sb, b->id, sizeof(b->id));
		prism_strbuf_add(sb, tail, sizeof(tail));
		prism_strbuf_add(sb, b->name, n);
		prism_strbuf_add(sb, zeros, len - n);
	}
	return 0;
}

static int feat_clockid(struct prism_writer *w, struct prism_strbuf *sb)
{
	struct timespec ts;
	uint64_t res = 0;

	if (w->clockid >= 0 && !clock_getres(w->clockid, &ts))
		res = (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
	put_u64(sb, res);
	return 0;
}

bool wr_feature_wanted(const struct prism_writer *w, unsigned int feat, bool pipe)
{
	switch (feat) {
	case PRISM_FEAT_TRACING_DATA:
		return !pipe && w->tdata;
	case PRISM_FEAT_BUILD_ID:
		return !pipe && w->nr_bids;
	case PRISM_FEAT_HOSTNAME:
	case PRISM_FEAT_OSRELEASE:
	case PRISM_FEAT_VERSION:
	case PRISM_FEAT_ARCH:
	case PRISM_FEAT_NRCPUS:
	case PRISM_FEAT_CPUDESC:
	case PRISM_FEAT_CPUID:
	case PRISM_FEAT_TOTAL_MEM:
	case PRISM_FEAT_CMDLINE:
	case PRISM_FEAT_EVENT_DESC:
	case PRISM_FEAT_CPU_TOPOLOGY:
	case PRISM_FEAT_GROUP_DESC:
	case PRISM_FEAT_SAMPLE_TIME:
		return true;
	case PRISM_FEAT_CLOCKID:
		return w->clockid >= 0;
	case PRISM_FEAT_COMPRESSED:
		return w->z != NULL;
	case PRISM_FEAT_UTIL_CHECK:
		return !pipe && w->util_check_len;
	case PRISM_FEAT_AUXTRACE:
		return !pipe && w->nr_aux_index;
	default:
		return false;
	}
}

int wr_feature(struct prism_writer *w, unsigned int feat, struct prism_strbuf *sb)
{
	struct utsname u;
	char host[256];
	int err = 0;

	if (feat >= PRISM_FEAT_HOSTNAME && feat <= PRISM_FEAT_ARCH && uname(&u))
		return -errno;
	switch (feat) {
	case PRISM_FEAT_TRACING_DATA:
		if (!w->tdata)
			return -ENOENT;
		prism_strbuf_add(sb, w->tdata, w->tdata_len);
		break;
	case PRISM_FEAT_BUILD_ID:
		err = feat_build_id(w, sb);
		break;
	case PRISM_FEAT_HOSTNAME:
		snprintf(host, sizeof(host), "%s", u.nodename);
		err = feat_string(sb, host);
		break;
	case PRISM_FEAT_OSRELEASE:
		err = feat_string(sb, u.release);
		break;
	case PRISM_FEAT_VERSION:
		err = feat_string(sb, w->version);
		break;
	case PRISM_FEAT_ARCH:
		err = feat_string(sb, u.machine);
		break;
	case PRISM_FEAT_NRCPUS:
		put_u32(sb, (uint32_t)max_present_cpu());
		put_u32(sb, (uint32_t)sysconf(_SC_NPROCESSORS_ONLN));
		break;
	case PRISM_FEAT_CPUDESC:
		err = feat_cpudesc(sb);
		break;
	case PRISM_FEAT_CPUID:
		err = feat_cpuid(sb);
		break;
	case PRISM_FEAT_TOTAL_MEM:
		err = feat_total_mem(sb);
		break;
	case PRISM_FEAT_CMDLINE:
		err = feat_cmdline(w, sb);
		break;
	case PRISM_FEAT_EVENT_DESC:
		err = feat_event_desc(w, sb);
		break;
	case PRISM_FEAT_CPU_TOPOLOGY:
		err = feat_cpu_topology(sb);
		break;
	case PRISM_FEAT_GROUP_DESC:
		err = feat_group_desc(w, sb);
		break;
	case PRISM_FEAT_SAMPLE_TIME:
		put_u64(sb, w->first_time);
		put_u64(sb, w->last_time);
		break;
	case PRISM_FEAT_CLOCKID:
		err = feat_clockid(w, sb);
		break;
	case PRISM_FEAT_COMPRESSED: {
		uint64_t ratio =
			w->comp_bytes ? (w->raw_bytes + w->comp_bytes / 2) / w->comp_bytes : 0;

		put_u32(sb, 0); /* version */
		put_u32(sb, 1); /* zstd */
		put_u32(sb, (uint32_t)w->compress_level);
		put_u32(sb, (uint32_t)ratio);
		put_u32(sb, (uint32_t)w->comp_mmap_len);
		break;
	}
	case PRISM_FEAT_UTIL_CHECK:
		prism_strbuf_add(sb, w->util_check, w->util_check_len);
		break;
	case PRISM_FEAT_AUXTRACE: /* u64 nr, then nr (file offset, size) pairs */
		put_u64(sb, w->nr_aux_index);
		prism_strbuf_add(sb, w->aux_index, w->nr_aux_index * 16);
		break;
	default:
		return -ENOENT;
	}
	if (!err && prism_strbuf_failed(sb))
		err = -ENOMEM;
	return err;
}
