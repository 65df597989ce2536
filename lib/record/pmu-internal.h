/* SPDX-License-Identifier: MIT */
/*
 * sysfs PMU formats, shared by the event parser (evspec-*.c) and pmu.c.
 */
#ifndef PRISM_RECORD_PMU_INTERNAL_H
#define PRISM_RECORD_PMU_INTERNAL_H

#include <linux/perf_event.h>

#include <prism/core.h>

#define PMU_MAX_RANGES 8

/* one file of /sys/bus/event_source/devices/PMU/format: "config:0-7,32-35" */
struct pmu_format {
	int field; /* 0 config, 1 config1, 2 config2, 3 config3 */
	int nr_ranges;
	struct {
		unsigned int lo, hi; /* inclusive bit numbers */
	} ranges[PMU_MAX_RANGES];
};

/* the sysfs directory holding the PMUs (tests point it at a fake tree) */
void pmu_set_sysfs_root(const char *dir);
const char *pmu_sysfs_root(void);

/* parse the text of a format file; 0 or -EINVAL */
int pmu_format__parse(struct pmu_format *f, const char *text);
/* number of value bits the format holds */
unsigned int pmu_format__bits(const struct pmu_format *f);
/* "config:0-7,32-35" into @buf */
void pmu_format__str(const struct pmu_format *f, char *buf, size_t size);
/*
 * store @val into the bits of @f in @attr (low value bits go to the first
 * range); -ERANGE when @val does not fit
 */
int pmu_format__apply(const struct pmu_format *f, uint64_t val, struct perf_event_attr *attr);

/* read format/@term of @pmu; -ENOENT when the PMU has no such term */
int pmu_read_format(const char *pmu, const char *term, struct pmu_format *f);
/* @dir/@name (@dir NULL: @name) of @pmu into @buf, trailing newline removed; -ENOENT when absent */
int pmu_read_file(const char *pmu, const char *dir, const char *name, char *buf, size_t size);
/* malloc'd sorted names of the format terms of @pmu (may be 0 of them) */
int pmu_format_names(const char *pmu, char ***names, size_t *nr);
/* malloc'd contents of events/@event of @pmu, trailing newline removed */
int pmu_read_alias(const char *pmu, const char *event, char **terms);
/* malloc'd sorted PMU names */
int pmu_names(char ***names, size_t *nr);

#endif /* PRISM_RECORD_PMU_INTERNAL_H */
