/* SPDX-License-Identifier: MIT */
#ifndef PRISM_RECORD_TRACEFS_INTERNAL_H
#define PRISM_RECORD_TRACEFS_INTERNAL_H

#include <stdbool.h>

/*
 * tracefs__find - use a tracefs that is already mounted; never mounts
 *
 * Return: 0; -EACCES when it is mounted but we may not read it; -ENOENT
 * when none is mounted.
 */
int tracefs__find(void);

/* whether events/@sys exists in a mounted tracefs */
bool tracefs__has_system(const char *sys);

#endif /* PRISM_RECORD_TRACEFS_INTERNAL_H */
