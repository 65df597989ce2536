/* SPDX-License-Identifier: MIT */
/*
 * The PMUs of /sys/bus/event_source/devices: names, types, event aliases,
 * and whether this machine has a hardware (CPU) PMU.
 */
#ifndef PRISM_PMU_H
#define PRISM_PMU_H

#include <prism/core.h>

/**
 * prism_pmu_for_each - visit the PMUs in sysfs, sorted by name
 * @cb: called with each PMU's name and type; non-zero stops the walk
 * @ctx: passed to @cb
 *
 * Return: 0, @cb's non-zero value, or -errno when sysfs cannot be read.
 */
PRISM_API int prism_pmu_for_each(int (*cb)(void *ctx, const char *name, uint32_t type), void *ctx);

/**
 * prism_pmu_for_each_event - visit the event aliases of a PMU (its events/ directory)
 * @pmu: PMU name, e.g. "msr"
 * @cb: called with the alias name ("tsc") and its terms ("event=0x00"),
 *	sorted by name; files ending in .unit, .scale, .per-pkg and .snapshot
 *	are skipped; non-zero stops the walk
 * @ctx: passed to @cb
 *
 * Return: 0 (also when the PMU has no events/ directory), @cb's value, or -errno.
 */
PRISM_API int prism_pmu_for_each_event(const char *pmu,
				       int (*cb)(void *ctx, const char *event, const char *terms),
				       void *ctx);

/**
 * prism_pmu_type - the type of a PMU (its type file), for perf_event_attr.type
 * @pmu: PMU name
 * @type: the type
 *
 * Return: 0; -ENOENT no such PMU; -EINVAL for a bad name or type file.
 */
PRISM_API int prism_pmu_type(const char *pmu, uint32_t *type);

/**
 * prism_pmu_set_sysfs - read the PMUs from @sysfs/bus/event_source/devices
 * @sysfs: a sysfs root (tests point it at a fake tree); NULL: /sys
 *
 * Return: 0, or -ENAMETOOLONG.  The string is copied.
 */
PRISM_API int prism_pmu_set_sysfs(const char *sysfs);

/**
 * prism_pmu_have_hw - whether the machine has a hardware (CPU) PMU
 *
 * True when sysfs lists a PMU of type PERF_TYPE_RAW (the core PMU: "cpu"
 * on x86, "armv8_pmuv3_0" on arm64, "cpu_core" on hybrid CPUs), which is
 * what the generic hardware and cache events map to.  A VM without PMU
 * passthrough has none.
 */
PRISM_API bool prism_pmu_have_hw(void);

/**
 * prism_event_probe - try to open an event counting this thread, user space only
 * @type: perf_event_attr.type
 * @config: perf_event_attr.config
 *
 * Return: 0 when perf_event_open() accepted it (the fd is closed again),
 * else -errno from perf_event_open (-ENOENT / -EOPNOTSUPP: not supported).
 */
PRISM_API int prism_event_probe(uint32_t type, uint64_t config);

#endif /* PRISM_PMU_H */
