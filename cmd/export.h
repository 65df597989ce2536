/* SPDX-License-Identifier: MIT */
/*
 * prism export: one entry per format, each in its own cmd/export-*.c.
 * argv[0] is the format's name; the return value is the exit code.
 */
#ifndef PRISM_CMD_EXPORT_H
#define PRISM_CMD_EXPORT_H

int export_sqlite(int argc, const char **argv);
int export_postgresql(int argc, const char **argv);

#endif /* PRISM_CMD_EXPORT_H */
