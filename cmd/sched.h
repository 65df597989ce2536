/* SPDX-License-Identifier: MIT */
/*
 * prism sched's subcommands (cmd/sched*.c).
 */
#ifndef PRISM_CMD_SCHED_H
#define PRISM_CMD_SCHED_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct prism_session;

/* each returns the exit status; @input/@force as given before the subcommand */
int sched_timehist(int argc, const char **argv, const char *input, bool force);
int sched_latency(int argc, const char **argv, const char *input, bool force);
int sched_map(int argc, const char **argv, const char *input, bool force);
int sched_record(int argc, const char **argv);

/* perf's "%lu.%06lu" seconds of a perf time */
void sched_tstamp(uint64_t ns, char *buf, size_t len);
/* the same, right-aligned in @width, at @p (DIGITS_MAX + 8 + @width bytes); the end */
char *sched_put_tstamp(char *p, uint64_t ns, size_t width);
/* "0-1,3" into a flag per CPU (xcalloc()ed); 0, or -1 for a bad list */
int sched_parse_cpus(const char *str, uint8_t **out, size_t *nr);
/* the CPUs online when the file was recorded (0: it does not say, or pipe input) */
uint32_t sched_nr_cpus_online(struct prism_session *s);

#endif /* PRISM_CMD_SCHED_H */
