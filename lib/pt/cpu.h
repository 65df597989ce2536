/* SPDX-License-Identifier: MIT */
/* lib/pt: the recording CPU in libipt's configuration (cpu.c) */
#ifndef PRISM_PT_CPU_H
#define PRISM_PT_CPU_H

#include <intel-pt.h>

#include <prism/pt.h>

/* @cfg's cpu and errata for @cpu (NULL: none), skd010 always on */
void pt_cpu_config(struct pt_config *cfg, const struct prism_pt_cpu *cpu);

#endif /* PRISM_PT_CPU_H */
