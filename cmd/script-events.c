// SPDX-License-Identifier: MIT
/*
 * prism script --show-*-events: the records perf script shows beside the
 * samples (task, mmap, switch, lost, namespace, cgroup, bpf, text poke and
 * round records), each as perf 6.1's perf_event__fprintf prints it after
 * the sample fields of its event.
 */
#include <inttypes.h>

#include <prism/event.h>
#include <prism/symbol.h>

#include "script.h"

unsigned int script_show_of(uint32_t type)
{
	switch (type) {
	case PERF_RECORD_COMM:
	case PERF_RECORD_FORK:
	case PERF_RECORD_EXIT:
		return SHOW_TASK;
	case PERF_RECORD_MMAP:
	case PERF_RECORD_MMAP2:
		return SHOW_MMAP;
	case PERF_RECORD_SWITCH:
	case PERF_RECORD_SWITCH_CPU_WIDE:
		return SHOW_SWITCH;
	case PERF_RECORD_LOST:
		return SHOW_LOST;
	case PERF_RECORD_NAMESPACES:
		return SHOW_NAMESPACE;
	case PERF_RECORD_CGROUP:
		return SHOW_CGROUP;
	case PERF_RECORD_KSYMBOL:
		return SHOW_BPF | SHOW_TEXT_POKE;
	case PERF_RECORD_BPF_EVENT:
		return SHOW_BPF;
	case PERF_RECORD_TEXT_POKE:
		return SHOW_TEXT_POKE;
	case PRISM_RECORD_FINISHED_ROUND:
		return SHOW_ROUND;
	default:
		return 0;
	}
}

/* the process and thread perf's print_event gives a shown record (tid -1: none) */
void script_show_ids(const struct prism_event *ev, int64_t *pid, int64_t *tid)
{
	switch (ev->type) {
	case PERF_RECORD_COMM:
		*pid = ev->comm.pid;
		*tid = ev->comm.tid;
		break;
	case PERF_RECORD_FORK:
	case PERF_RECORD_EXIT:
		*pid = ev->fork.pid;
		*tid = ev->fork.tid;
		break;
	case PERF_RECORD_MMAP:
	case PERF_RECORD_MMAP2:
		*pid = ev->mmap.pid;
		*tid = ev->mmap.tid;
		break;
	case PERF_RECORD_NAMESPACES:
		*pid = ev->ns.pid;
		*tid = ev->ns.tid;
		break;
	default:
		*pid = (int32_t)ev->sample.pid;
		*tid = (int32_t)ev->sample.tid;
		break;
	}
}

void script_put_text_poke(struct prism_strbuf *sb, const struct prism_event *ev,
			  struct prism_symbols *sy)
{
	struct prism_frame fr;

	/* the kernel's symbol at the address, as perf finds it */
	if (sy && !prism_symbols__resolve(sy, 0, PERF_RECORD_MISC_KERNEL, ev->poke.addr, &fr) &&
	    fr.sym)
		prism_event__dump_text_poke(ev, fr.sym, fr.symoff, sb);
	else
		prism_event__dump_text_poke(ev, NULL, 0, sb);
}

void script_put_record(struct prism_strbuf *sb, const struct prism_event *ev,
		       struct prism_symbols *sy)
{
	prism_strbuf_addf(sb, "PERF_RECORD_%s", prism_record_type_name(ev->type));
	switch (ev->type) {
	case PERF_RECORD_LOST: /* (perf -D says it otherwise) */
		prism_strbuf_addf(sb, " lost %" PRIu64 "\n", ev->lost.lost);
		break;
	case PERF_RECORD_TEXT_POKE:
		script_put_text_poke(sb, ev, sy);
		break;
	default:
		prism_event__dump_detail(ev, sb);
		break;
	}
}
