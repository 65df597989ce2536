/* SPDX-License-Identifier: MIT */
/*
 * Decoded perf records.
 *
 * A struct prism_event is filled by the session (from a perf.data file or a
 * live ring buffer) and is valid only during the callback that receives it:
 * its pointers point into the record, which the session may reuse.  The raw
 * record (ev->raw) is always 8-byte aligned and in the reader's byte order.
 */
#ifndef PRISM_EVENT_H
#define PRISM_EVENT_H

#include <linux/perf_event.h>
#include <prism/core.h>

/* perf's own record types (tools/lib/perf/include/perf/event.h) */
enum prism_user_record_type {
	PRISM_RECORD_HEADER_ATTR = 64,
	PRISM_RECORD_HEADER_EVENT_TYPE = 65,
	PRISM_RECORD_HEADER_TRACING_DATA = 66,
	PRISM_RECORD_HEADER_BUILD_ID = 67,
	PRISM_RECORD_FINISHED_ROUND = 68,
	PRISM_RECORD_ID_INDEX = 69,
	PRISM_RECORD_AUXTRACE_INFO = 70,
	PRISM_RECORD_AUXTRACE = 71,
	PRISM_RECORD_AUXTRACE_ERROR = 72,
	PRISM_RECORD_THREAD_MAP = 73,
	PRISM_RECORD_CPU_MAP = 74,
	PRISM_RECORD_STAT_CONFIG = 75,
	PRISM_RECORD_STAT = 76,
	PRISM_RECORD_STAT_ROUND = 77,
	PRISM_RECORD_EVENT_UPDATE = 78,
	PRISM_RECORD_TIME_CONV = 79,
	PRISM_RECORD_HEADER_FEATURE = 80,
	PRISM_RECORD_COMPRESSED = 81,
	PRISM_RECORD_FINISHED_INIT = 82,
	PRISM_RECORD_COMPRESSED2 = 83,
	PRISM_RECORD_BPF_METADATA = 84,
	PRISM_RECORD_SCHEDSTAT_CPU = 85,
	PRISM_RECORD_SCHEDSTAT_DOMAIN = 86,
	PRISM_RECORD_TYPE_MAX = 87, /* types >= this are "unknown" */
};

/* kernel types newer than some uapi headers */
#define PRISM_RECORD_CALLCHAIN_DEFERRED 22
#define PRISM_RECORD_KERNEL_MAX 23

/* misc bits */
#define PRISM_MISC_CPUMODE_MASK 7
#define PRISM_MISC_MMAP_BUILD_ID (1 << 14)
#define PRISM_MISC_COMM_EXEC (1 << 13)
#define PRISM_MISC_SWITCH_OUT (1 << 13)
#define PRISM_MISC_SWITCH_OUT_PREEMPT (1 << 14)
#define PRISM_MISC_EXACT_IP (1 << 14)
#define PRISM_MISC_BUILD_ID_SIZE (1 << 15)

/**
 * prism_record_type_name - perf's name for a record type ("SAMPLE", "MMAP2")
 * @type: record type
 *
 * Return: a static string; "UNKNOWN" for types nobody defined.
 */
PRISM_API const char *prism_record_type_name(uint32_t type);

/* One read_format value (PERF_SAMPLE_READ and PERF_RECORD_READ). */
struct prism_read_value {
	uint64_t value;
	uint64_t id;
	uint64_t lost;
};

struct prism_read {
	uint64_t time_enabled;
	uint64_t time_running;
	uint64_t nr; /* 1 without PERF_FORMAT_GROUP */
	/* nr entries; without GROUP the only entry is "one" */
	const void *values_raw; /* GROUP: raw {value[,id][,lost]} entries */
	struct prism_read_value one;
};

/*
 * Every field of a sample.  Fields whose sample_type bit is clear are 0 /
 * NULL; 'type' says which bits were present.  For non-sample records the
 * sample_id trailer (TID, TIME, ID, STREAM_ID, CPU, IDENTIFIER) is decoded
 * into the same fields.
 */
struct prism_sample {
	uint64_t type; /* the sample_type bits that were decoded */
	uint64_t id;
	uint64_t ip;
	uint32_t pid, tid;
	uint64_t time;
	uint64_t addr;
	uint64_t stream_id;
	uint32_t cpu;
	uint64_t period;
	uint64_t callchain_nr;
	const uint64_t *callchain; /* includes PERF_CONTEXT_* markers */
	uint32_t raw_size;
	const void *raw_data; /* tracepoint payload */
	/* the rarer fields, from here on */
	struct prism_read read;
	uint64_t branch_nr;
	uint64_t branch_hw_idx; /* ~0 when absent */
	const void *branch_entries; /* branch_nr × {from, to, flags} */
	const uint64_t *branch_counters;
	uint64_t user_regs_abi;
	const uint64_t *user_regs; /* popcount(attr.sample_regs_user) values */
	uint64_t user_stack_size;
	const void *user_stack;
	/* as recorded: bytes of the copy that hold stack; above user_stack_size in a damaged file */
	uint64_t user_stack_dyn_size;
	uint64_t weight; /* WEIGHT, or WEIGHT_STRUCT's var1_dw */
	uint16_t weight_var2, weight_var3; /* WEIGHT_STRUCT only */
	uint64_t data_src;
	uint64_t transaction;
	uint64_t intr_regs_abi;
	const uint64_t *intr_regs;
	uint64_t phys_addr;
	uint64_t cgroup;
	uint64_t data_page_size;
	uint64_t code_page_size;
	uint64_t aux_size;
	const void *aux_data;
};

/* Typed bodies of the kernel records most consumers need. */
struct prism_ev_mmap { /* MMAP and MMAP2 */
	uint32_t pid, tid;
	uint64_t start, len, pgoff;
	uint32_t maj, min; /* MMAP2 without build id */
	uint64_t ino, ino_generation;
	uint8_t build_id_size; /* MMAP2 with PRISM_MISC_MMAP_BUILD_ID */
	const uint8_t *build_id;
	uint32_t prot, flags; /* MMAP2 */
	bool no_prot; /* MMAP2 of Linux 3.12-3.15 and RHEL 7: no prot and flags recorded */
	const char *filename;
};

struct prism_ev_comm {
	uint32_t pid, tid;
	const char *comm;
	bool exec;
};

struct prism_ev_fork { /* FORK and EXIT */
	uint32_t pid, ppid, tid, ptid;
	uint64_t time;
};

struct prism_ev_lost { /* LOST (id, lost) and LOST_SAMPLES (lost) */
	uint64_t id;
	uint64_t lost;
};

struct prism_ev_switch { /* SWITCH and SWITCH_CPU_WIDE */
	bool out, preempt;
	uint32_t next_prev_pid, next_prev_tid; /* CPU_WIDE only, else ~0 */
};

struct prism_ev_throttle {
	uint64_t time, id, stream_id;
};

struct prism_ev_read {
	uint32_t pid, tid;
	struct prism_read read;
};

struct prism_ev_ksymbol {
	uint64_t addr;
	uint32_t len;
	uint16_t ksym_type, flags;
	const char *name;
};

/* kernel code changed: @new_len bytes at @addr (cpumode in the header's misc) */
struct prism_ev_text_poke {
	uint64_t addr;
	uint16_t old_len, new_len;
	const uint8_t *old_bytes, *new_bytes;
};

struct prism_ev_namespaces {
	uint32_t pid, tid;
	uint64_t nr;
	const uint64_t *link_info; /* nr × {dev, ino} */
};

struct prism_ev_cgroup {
	uint64_t id;
	const char *path;
};

struct prism_evsel;

/*
 * The basic fields of a PERF_RECORD_SAMPLE, for a tool that reads no more
 * (struct prism_tool's sample_basic): decoded straight from the record.
 * Pointers are into the record, valid during the callback only.
 */
struct prism_sample_basic {
	struct prism_evsel *evsel;
	uint64_t time; /* 0 without PERF_SAMPLE_TIME */
	uint32_t pid, tid; /* 0 without PERF_SAMPLE_TID */
	uint32_t cpu; /* (uint32_t)-1 without PERF_SAMPLE_CPU */
	uint32_t raw_size;
	const void *raw_data; /* tracepoint payload, or NULL */
	uint64_t callchain_nr;
	const uint64_t *callchain; /* includes PERF_CONTEXT_* markers */
	uint64_t file_offset; /* where the record starts (in its chunk, if compressed) */
};

struct prism_event {
	const struct perf_event_header *raw;
	uint32_t type;
	uint64_t file_offset; /* where the record starts (in its chunk, if compressed) */
	bool compressed; /* came out of a COMPRESSED record */
	/* AUXTRACE: the trace bytes after the record (struct prism_tool's auxtrace_data) */
	const void *payload;
	uint64_t payload_size;
	struct prism_evsel *evsel; /* the record's event; NULL for user records */
	struct prism_sample sample; /* SAMPLE, or the sample_id trailer */
	union {
		struct prism_ev_mmap mmap;
		struct prism_ev_comm comm;
		struct prism_ev_fork fork;
		struct prism_ev_lost lost;
		struct prism_ev_switch sw;
		struct prism_ev_throttle throttle;
		struct prism_ev_read read;
		struct prism_ev_ksymbol ksymbol;
		struct prism_ev_text_poke poke;
		struct prism_ev_namespaces ns;
		struct prism_ev_cgroup cgroup;
	};
};

struct prism_strbuf;
/*
 * Append readperf's overview.csv row for @ev (nr,type,pid,tid,time,info and a
 * newline; text fields CSV-quoted when needed).  @period is the sample's
 * period as the caller counts it.
 */
PRISM_API void prism_event__overview_csv(struct prism_strbuf *sb, uint64_t nr,
					 const struct prism_event *ev, uint64_t period);

/* a record's raw dump as perf report -D shows it, at @offset of @where (the file's name, "pipe") */
PRISM_API void prism_event__dump_raw(const struct prism_event *ev, uint64_t offset,
				     const char *where, struct prism_strbuf *sb);
/*
 * The rest of a record's line in perf report -D's layout, after its
 * "TIME OFFSET [SIZE]: PERF_RECORD_NAME": its fields as perf 6.1 prints
 * them and the lines under it (ID_INDEX entries, EVENT_UPDATE fields, a
 * sample's call chain), ending with a newline; only the newline for
 * records whose fields perf does not print.
 */
PRISM_API void prism_event__dump_detail(const struct prism_event *ev, struct prism_strbuf *sb);
/*
 * A TEXT_POKE record's fields as perf prints them: the address, @sym+@off
 * when the kernel's symbols name it (@sym NULL: none), the lengths, and
 * the old and new bytes 16 a line
 */
PRISM_API void prism_event__dump_text_poke(const struct prism_event *ev, const char *sym,
					   uint64_t off, struct prism_strbuf *sb);
/*
 * The "CPU TIME " that starts that line: the fields @sample_type (every
 * event's, or-ed) has, "-1 -1 " for other records when the events have no
 * sample_id_all (@id_all)
 */
PRISM_API void prism_event__dump_tstamp(const struct prism_event *ev, uint64_t sample_type,
					bool id_all, struct prism_strbuf *sb);
/*
 * perf script's decoding of a PERF_SAMPLE_DATA_SRC value, appended to @sb:
 * "|OP LOAD|LVL L1 hit|SNP None|TLB L1 or L2 hit|LCK No|BLK  N/A" (perf
 * 6.1's words, including "(null)" for hop counts it has no name for)
 */
PRISM_API void prism_mem_src__format(uint64_t data_src, struct prism_strbuf *sb);
/* a PERF_SAMPLE_DATA_PAGE_SIZE / CODE_PAGE_SIZE value as perf prints it: "4K", "N/A" for 0 */
PRISM_API void prism_page_size__format(uint64_t size, struct prism_strbuf *sb);

#endif /* PRISM_EVENT_H */
