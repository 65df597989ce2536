// SPDX-License-Identifier: MIT
/*
 * sysfs PMUs (/sys/bus/event_source/devices/PMU): type, format terms
 * ("config:0-7,32-35" bit ranges), event aliases, and a probe for events
 * the hardware may not have.
 */
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <prism/pmu.h>

#include "internal.h"
#include "record/pmu-internal.h"

static const char *sysfs_root = "/sys/bus/event_source/devices";

void pmu_set_sysfs_root(const char *dir)
{
	sysfs_root = dir ? dir : "/sys/bus/event_source/devices";
}

const char *pmu_sysfs_root(void)
{
	return sysfs_root;
}

int prism_pmu_set_sysfs(const char *sysfs)
{
	static char root[PATH_MAX];

	if (!sysfs) {
		pmu_set_sysfs_root(NULL);
		return 0;
	}
	if (snprintf(root, sizeof(root), "%s/bus/event_source/devices", sysfs) >= (int)sizeof(root))
		return -ENAMETOOLONG;
	pmu_set_sysfs_root(root);
	return 0;
}

static bool safe_name(const char *s)
{
	return *s && !strchr(s, '/') && strcmp(s, ".") && strcmp(s, "..");
}

/* small sysfs file into @buf, trailing newline removed */
static int read_small(const char *path, char *buf, size_t size)
{
	ssize_t n;
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return -errno;
	n = read(fd, buf, size - 1);
	if (n < 0) {
		int err = -errno;

		close(fd);
		return err;
	}
	close(fd);
	buf[n] = '\0';
	while (n > 0 && (buf[n - 1] == '\n' || buf[n - 1] == ' '))
		buf[--n] = '\0';
	return 0;
}

static int parse_uint(const char **s, unsigned int *v)
{
	char *end;
	unsigned long x;

	if (**s < '0' || **s > '9')
		return -EINVAL;
	errno = 0;
	x = strtoul(*s, &end, 10);
	if (errno || x > 63)
		return -EINVAL;
	*v = (unsigned int)x;
	*s = end;
	return 0;
}

int pmu_format__parse(struct pmu_format *f, const char *text)
{
	static const char *const fields[] = { "config", "config1", "config2", "config3" };
	const char *p = text, *colon = strchr(text, ':');
	size_t i, n;

	memset(f, 0, sizeof(*f));
	if (!colon)
		return -EINVAL;
	n = (size_t)(colon - text);
	f->field = -1;
	for (i = 0; i < PRISM_ARRAY_SIZE(fields); i++)
		if (strlen(fields[i]) == n && !memcmp(fields[i], text, n))
			f->field = (int)i;
	if (f->field < 0)
		return -EINVAL;
	p = colon + 1;
	for (;;) {
		unsigned int lo, hi;

		if (f->nr_ranges == PMU_MAX_RANGES || parse_uint(&p, &lo))
			return -EINVAL;
		hi = lo;
		if (*p == '-') {
			p++;
			if (parse_uint(&p, &hi) || hi < lo)
				return -EINVAL;
		}
		f->ranges[f->nr_ranges].lo = lo;
		f->ranges[f->nr_ranges].hi = hi;
		f->nr_ranges++;
		if (*p != ',')
			break;
		p++;
	}
	while (*p == '\n' || *p == ' ')
		p++;
	return *p ? -EINVAL : 0;
}

unsigned int pmu_format__bits(const struct pmu_format *f)
{
	unsigned int bits = 0;
	int i;

	for (i = 0; i < f->nr_ranges; i++)
		bits += f->ranges[i].hi - f->ranges[i].lo + 1;
	return bits;
}

void pmu_format__str(const struct pmu_format *f, char *buf, size_t size)
{
	static const char *const fields[] = { "config", "config1", "config2", "config3" };
	size_t len;
	int i;

	snprintf(buf, size, "%s:", fields[f->field]);
	for (i = 0; i < f->nr_ranges; i++) {
		len = strlen(buf);
		if (f->ranges[i].lo == f->ranges[i].hi)
			snprintf(buf + len, size - len, "%s%u", i ? "," : "", f->ranges[i].lo);
		else
			snprintf(buf + len, size - len, "%s%u-%u", i ? "," : "", f->ranges[i].lo,
				 f->ranges[i].hi);
	}
}

int pmu_format__apply(const struct pmu_format *f, uint64_t val, struct perf_event_attr *attr)
{
	uint64_t *dst, out = 0, mask = 0;
	unsigned int bits = pmu_format__bits(f), vbit = 0;
	int i;

	if (bits < 64 && (val >> bits))
		return -ERANGE;
	switch (f->field) {
	case 0:
		dst = (uint64_t *)&attr->config;
		break;
	case 1:
		dst = (uint64_t *)&attr->config1;
		break;
	case 2:
		dst = (uint64_t *)&attr->config2;
		break;
	default:
		/* config3 needs a newer perf_event_attr than perf 6.1 reads */
		return -EOPNOTSUPP;
	}
	for (i = 0; i < f->nr_ranges; i++) {
		unsigned int b;

		for (b = f->ranges[i].lo; b <= f->ranges[i].hi; b++, vbit++) {
			mask |= 1ULL << b;
			if ((val >> vbit) & 1)
				out |= 1ULL << b;
		}
	}
	*dst = (*dst & ~mask) | out;
	return 0;
}

int pmu_read_format(const char *pmu, const char *term, struct pmu_format *f)
{
	char path[PATH_MAX], buf[256];
	int err;

	if (!safe_name(pmu) || !safe_name(term))
		return -ENOENT;
	if (snprintf(path, sizeof(path), "%s/%s/format/%s", sysfs_root, pmu, term) >=
	    (int)sizeof(path))
		return -ENAMETOOLONG;
	err = read_small(path, buf, sizeof(buf));
	if (err)
		return err;
	err = pmu_format__parse(f, buf);
	if (err)
		pr_debug("pmu: %s: cannot parse format '%s'", path, buf);
	return err;
}

int pmu_read_file(const char *pmu, const char *dir, const char *name, char *buf, size_t size)
{
	char path[PATH_MAX];

	if (!safe_name(pmu) || !safe_name(name) || (dir && !safe_name(dir)))
		return -ENOENT;
	if (snprintf(path, sizeof(path), "%s/%s/%s%s%s", sysfs_root, pmu, dir ? dir : "",
		     dir ? "/" : "", name) >= (int)sizeof(path))
		return -ENAMETOOLONG;
	return read_small(path, buf, size);
}

/* not the side files of an alias (cpu/events/mem-loads.unit, ...) */
static bool not_alias_side_file(void *ctx, const char *dir, const char *name)
{
	static const char *const suffixes[] = { ".unit", ".scale", ".per-pkg", ".snapshot" };
	size_t len = strlen(name), i;

	for (i = 0; i < PRISM_ARRAY_SIZE(suffixes); i++) {
		size_t sl = strlen(suffixes[i]);

		if (len > sl && !strcmp(name + len - sl, suffixes[i]))
			return false;
	}
	return true;
}

/* sorted names in @dir, skipping dot files (and the alias side files) */
static int list_names(const char *dir, bool skip_alias_files, char ***out, size_t *nr)
{
	return prism_dir_names(dir, true, skip_alias_files ? not_alias_side_file : NULL, NULL, out,
			       nr);
}

int pmu_format_names(const char *pmu, char ***names, size_t *nr)
{
	char path[PATH_MAX];
	int err;

	if (!safe_name(pmu))
		return -ENOENT;
	snprintf(path, sizeof(path), "%s/%s/format", sysfs_root, pmu);
	err = list_names(path, false, names, nr);
	return err == -ENOENT ? 0 : err;
}

int pmu_read_alias(const char *pmu, const char *event, char **terms)
{
	char path[PATH_MAX], buf[1024];
	int err;

	*terms = NULL;
	if (!safe_name(pmu) || !safe_name(event))
		return -ENOENT;
	if (snprintf(path, sizeof(path), "%s/%s/events/%s", sysfs_root, pmu, event) >=
	    (int)sizeof(path))
		return -ENAMETOOLONG;
	err = read_small(path, buf, sizeof(buf));
	if (err)
		return err;
	*terms = strdup(buf);
	return *terms ? 0 : -ENOMEM;
}

int pmu_names(char ***names, size_t *nr)
{
	return list_names(sysfs_root, false, names, nr);
}

int prism_pmu_type(const char *pmu, uint32_t *type)
{
	char path[PATH_MAX], buf[32], *end;
	unsigned long v;
	int err;

	if (!safe_name(pmu))
		return -ENOENT;
	if (snprintf(path, sizeof(path), "%s/%s/type", sysfs_root, pmu) >= (int)sizeof(path))
		return -ENAMETOOLONG;
	err = read_small(path, buf, sizeof(buf));
	if (err)
		return err;
	errno = 0;
	v = strtoul(buf, &end, 10);
	if (errno || end == buf || *end || v > UINT32_MAX)
		return -EINVAL;
	*type = (uint32_t)v;
	return 0;
}

int prism_pmu_for_each(int (*cb)(void *ctx, const char *name, uint32_t type), void *ctx)
{
	char **names;
	size_t i, nr;
	int err = pmu_names(&names, &nr);

	for (i = 0; !err && i < nr; i++) {
		uint32_t type;

		if (prism_pmu_type(names[i], &type))
			continue;
		err = cb(ctx, names[i], type);
	}
	prism_names_free(names, nr);
	return err;
}

int prism_pmu_for_each_event(const char *pmu,
			     int (*cb)(void *ctx, const char *event, const char *terms), void *ctx)
{
	char path[PATH_MAX];
	char **names;
	size_t i, nr;
	int err;

	if (!safe_name(pmu))
		return -ENOENT;
	snprintf(path, sizeof(path), "%s/%s/events", sysfs_root, pmu);
	err = list_names(path, true, &names, &nr);
	if (err)
		return err == -ENOENT ? 0 : err;
	for (i = 0; !err && i < nr; i++) {
		char *terms;

		if (pmu_read_alias(pmu, names[i], &terms))
			continue;
		err = cb(ctx, names[i], terms);
		free(terms);
	}
	prism_names_free(names, nr);
	return err;
}

static int find_core(void *ctx, const char *name, uint32_t type)
{
	return type == PERF_TYPE_RAW;
}

bool prism_pmu_have_hw(void)
{
	return prism_pmu_for_each(find_core, NULL) == 1;
}

int prism_event_probe(uint32_t type, uint64_t config)
{
	struct perf_event_attr attr;
	int fd;

	memset(&attr, 0, sizeof(attr));
	attr.size = sizeof(attr);
	attr.type = type;
	attr.config = config;
	attr.disabled = 1;
	attr.exclude_kernel = 1;
	attr.exclude_hv = 1;
	fd = (int)syscall(SYS_perf_event_open, &attr, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
	if (fd < 0)
		return -errno;
	close(fd);
	return 0;
}
