// SPDX-License-Identifier: MIT
/*
 * The SQL schema: perf's export-to-sqlite.py / export-to-postgresql.py
 * tables and views (column names, order and types as perf creates them),
 * prism's hosts and prism_meta tables, and host_id as the last column of
 * every table.  One description, written out in SQLite's or PostgreSQL's
 * dialect.
 */
#include "internal.h"
#include "export/sql-internal.h"

#define COL(n, t)                        \
	{                                \
		.name = (n), .type = (t) \
	}
#define TXT(n, w)                                           \
	{                                                   \
		.name = (n), .type = SQL_TEXT, .width = (w) \
	}
#define HOST COL("host_id", SQL_I64)
#define TABLE(n, c)                                                                      \
	{                                                                                \
		.name = (n), .cols = (c), .nr_cols = PRISM_ARRAY_SIZE(c), .has_id = true \
	}

static const struct sql_col meta_cols[] = { TXT("key", 64), TXT("value", 256) };
static const struct sql_col hosts_cols[] = {
	COL("id", SQL_ID),	     TXT("hostname", 256),
	TXT("os_release", 256),	     TXT("arch", 64),
	COL("nr_cpus", SQL_I32),     TXT("perf_version", 64),
	COL("record_time", SQL_I64), TXT("file_name", 4096),
	TXT("cmdline", 4096),
};
static const struct sql_col selected_events_cols[] = { COL("id", SQL_ID), TXT("name", 80), HOST };
static const struct sql_col machines_cols[] = { COL("id", SQL_ID), COL("pid", SQL_I32),
						TXT("root_dir", 4096), HOST };
static const struct sql_col threads_cols[] = {
	COL("id", SQL_ID),   COL("machine_id", SQL_I64), COL("process_id", SQL_I64),
	COL("pid", SQL_I32), COL("tid", SQL_I32),	 HOST,
};
static const struct sql_col comms_cols[] = {
	COL("id", SQL_ID),	     TXT("comm", 16),
	COL("c_thread_id", SQL_I64), COL("c_time", SQL_I64),
	COL("exec_flag", SQL_BOOL),  HOST,
};
static const struct sql_col comm_threads_cols[] = { COL("id", SQL_ID), COL("comm_id", SQL_I64),
						    COL("thread_id", SQL_I64), HOST };
static const struct sql_col dsos_cols[] = {
	COL("id", SQL_ID),	COL("machine_id", SQL_I64), TXT("short_name", 256),
	TXT("long_name", 4096), TXT("build_id", 64),	    HOST,
};
static const struct sql_col symbols_cols[] = {
	COL("id", SQL_ID),
	COL("dso_id", SQL_I64),
	COL("sym_start", SQL_I64),
	COL("sym_end", SQL_I64),
	COL("binding", SQL_I32),
	TXT("name", 2048),
	HOST,
};
static const struct sql_col branch_types_cols[] = { COL("id", SQL_ID), TXT("name", 80), HOST };
static const struct sql_col samples_cols[] = {
	COL("id", SQL_ID),
	COL("evsel_id", SQL_I64),
	COL("machine_id", SQL_I64),
	COL("thread_id", SQL_I64),
	COL("comm_id", SQL_I64),
	COL("dso_id", SQL_I64),
	COL("symbol_id", SQL_I64),
	COL("sym_offset", SQL_I64),
	COL("ip", SQL_I64),
	COL("time", SQL_I64),
	COL("cpu", SQL_I32),
	COL("to_dso_id", SQL_I64),
	COL("to_symbol_id", SQL_I64),
	COL("to_sym_offset", SQL_I64),
	COL("to_ip", SQL_I64),
	COL("period", SQL_I64),
	COL("weight", SQL_I64),
	{ .name = "transaction", .type = SQL_I64, .sqlite_name = "transaction_" },
	COL("data_src", SQL_I64),
	COL("branch_type", SQL_I32),
	COL("in_tx", SQL_BOOL),
	COL("call_path_id", SQL_I64),
	COL("insn_count", SQL_I64),
	COL("cyc_count", SQL_I64),
	COL("flags", SQL_I32),
	HOST,
};
static const struct sql_col call_paths_cols[] = {
	COL("id", SQL_ID),
	COL("parent_id", SQL_I64),
	COL("symbol_id", SQL_I64),
	COL("ip", SQL_I64),
	HOST,
};
static const struct sql_col context_switches_cols[] = {
	COL("id", SQL_ID),
	COL("machine_id", SQL_I64),
	COL("time", SQL_I64),
	COL("cpu", SQL_I32),
	COL("thread_out_id", SQL_I64),
	COL("comm_out_id", SQL_I64),
	COL("thread_in_id", SQL_I64),
	COL("comm_in_id", SQL_I64),
	COL("flags", SQL_I32),
	HOST,
};

static const struct sql_col calls_cols[] = {
	COL("id", SQL_ID),
	COL("thread_id", SQL_I64),
	COL("comm_id", SQL_I64),
	COL("call_path_id", SQL_I64),
	COL("call_time", SQL_I64),
	COL("return_time", SQL_I64),
	COL("branch_count", SQL_I64),
	COL("call_id", SQL_I64),
	COL("return_id", SQL_I64),
	COL("parent_call_path_id", SQL_I64),
	COL("flags", SQL_I32),
	COL("parent_id", SQL_I64),
	COL("insn_count", SQL_I64),
	COL("cyc_count", SQL_I64),
	HOST,
};
/* prism's: an off-CPU sample's block (prism offcpu record files, event offcpu-time) */
static const struct sql_col offcpu_cols[] = {
	COL("id", SQL_ID),
	COL("sample_id", SQL_I64),
	COL("thread_id", SQL_I64),
	COL("comm_id", SQL_I64),
	COL("call_path_id", SQL_I64),
	TXT("state", 4),
	COL("blocks", SQL_I64),
	COL("start_time", SQL_I64),
	COL("off_cpu_ns", SQL_I64),
	TXT("kind", 16),
	HOST,
};
/* prism util --csv's row records: its columns, times in ms (cpu -1 = its ALL row) */
#define F(n) COL(n, SQL_F64)
static const struct sql_col util_tasks_cols[] = {
	COL("id", SQL_ID),
	TXT("scope", 16),
	COL("pid", SQL_I64),
	COL("tid", SQL_I64),
	COL("image", SQL_I32),
	TXT("comm", 16),
	COL("cpu", SQL_I32),
	F("user_ms"),
	F("sys_ms"),
	F("irq_ms"),
	F("softirq_ms"),
	F("hv_ms"),
	F("busy_ms"),
	F("idle_ms"),
	F("wait_ms"),
	F("sleep_ms"),
	F("util_pct"),
	COL("moves", SQL_I64),
	COL("wakeups", SQL_I64),
	F("wakeup_avg_ms"),
	F("wakeup_max_ms"),
	F("inferred_ms"),
	F("steal_ms"),
	HOST,
};
/* and its call records */
static const struct sql_col util_calls_cols[] = {
	COL("id", SQL_ID),
	TXT("scope", 16),
	COL("pid", SQL_I64),
	COL("tid", SQL_I64),
	COL("image", SQL_I32),
	TXT("kind", 16),
	COL("call_id", SQL_I64),
	TXT("name", 256),
	COL("count", SQL_I64),
	F("elapsed_ms"),
	F("pending_ms"),
	F("average_ms"),
	F("minimum_ms"),
	F("maximum_ms"),
	F("oncpu_ms"),
	COL("pending_start", SQL_I64),
	COL("pending_end", SQL_I64),
	COL("inherited", SQL_I64),
	COL("unmatched_exits", SQL_I64),
	COL("duplicate_exits", SQL_I64),
	HOST,
};

const struct sql_table sql_tables[SQL_T__NR] = {
	[SQL_T_META] = { .name = "prism_meta",
			 .cols = meta_cols,
			 .nr_cols = PRISM_ARRAY_SIZE(meta_cols) },
	[SQL_T_HOSTS] = TABLE("hosts", hosts_cols),
	[SQL_T_SELECTED_EVENTS] = TABLE("selected_events", selected_events_cols),
	[SQL_T_MACHINES] = TABLE("machines", machines_cols),
	[SQL_T_THREADS] = TABLE("threads", threads_cols),
	[SQL_T_COMMS] = TABLE("comms", comms_cols),
	[SQL_T_COMM_THREADS] = TABLE("comm_threads", comm_threads_cols),
	[SQL_T_DSOS] = TABLE("dsos", dsos_cols),
	[SQL_T_SYMBOLS] = TABLE("symbols", symbols_cols),
	[SQL_T_BRANCH_TYPES] = TABLE("branch_types", branch_types_cols),
	[SQL_T_SAMPLES] = TABLE("samples", samples_cols),
	[SQL_T_CALL_PATHS] = TABLE("call_paths", call_paths_cols),
	[SQL_T_CONTEXT_SWITCHES] = TABLE("context_switches", context_switches_cols),
	[SQL_T_CALLS] = TABLE("calls", calls_cols),
	[SQL_T_OFFCPU] = TABLE("offcpu", offcpu_cols),
	[SQL_T_UTIL_TASKS] = TABLE("util_tasks", util_tasks_cols),
	[SQL_T_UTIL_CALLS] = TABLE("util_calls", util_calls_cols),
};

/* perf's branch types: a branch kind, or-ed with trace begin (256) / end (512) */
const struct sql_branch_type sql_branch_types[] = {
	{ 0, "no branch" },
	{ 1, "unconditional jump" },
	{ 3, "call" },
	{ 5, "return" },
	{ 9, "conditional jump" },
	{ 19, "system call" },
	{ 21, "return from system call" },
	{ 33, "asynchronous branch" },
	{ 67, "software interrupt" },
	{ 69, "return from interrupt" },
	{ 99, "hardware interrupt" },
	{ 129, "transaction abort" },
	{ 256, "trace begin / no branch" },
	{ 257, "trace begin" },
	{ 259, "trace begin / call" },
	{ 261, "trace begin / return" },
	{ 265, "trace begin / conditional jump" },
	{ 275, "trace begin / system call" },
	{ 277, "trace begin / return from system call" },
	{ 289, "trace begin / asynchronous branch" },
	{ 323, "trace begin / software interrupt" },
	{ 325, "trace begin / return from interrupt" },
	{ 355, "trace begin / hardware interrupt" },
	{ 385, "trace begin / transaction abort" },
	{ 512, "no branch / trace end" },
	{ 513, "trace end" },
	{ 515, "call / trace end" },
	{ 517, "return / trace end" },
	{ 521, "conditional jump / trace end" },
	{ 531, "system call / trace end" },
	{ 533, "return from system call / trace end" },
	{ 545, "asynchronous branch / trace end" },
	{ 579, "software interrupt / trace end" },
	{ 581, "return from interrupt / trace end" },
	{ 611, "hardware interrupt / trace end" },
	{ 641, "transaction abort / trace end" },
	{ 2051, "vm entry" },
	{ 2307, "trace begin / vm entry" },
	{ 2563, "vm entry / trace end" },
	{ 4099, "vm exit" },
	{ 4355, "trace begin / vm exit" },
	{ 4611, "vm exit / trace end" },
};
const size_t sql_nr_branch_types = PRISM_ARRAY_SIZE(sql_branch_types);

const char *sql_col__name(const struct sql_col *c, enum sql_dialect d)
{
	return d == SQL_DIALECT_SQLITE && c->sqlite_name ? c->sqlite_name : c->name;
}

void sql_schema__create_table(enum sql_dialect d, enum sql_table_id t, struct prism_strbuf *sb)
{
	const struct sql_table *tab = &sql_tables[t];
	size_t i;

	prism_strbuf_addf(sb, "CREATE TABLE %s (", tab->name);
	for (i = 0; i < tab->nr_cols; i++) {
		const struct sql_col *c = &tab->cols[i];

		prism_strbuf_addf(sb, "%s%s ", i ? ", " : "", sql_col__name(c, d));
		switch (c->type) {
		case SQL_ID:
			/* PostgreSQL: the key after the load (sql_schema__primary_key()) */
			prism_strbuf_addstr(sb, d == SQL_DIALECT_SQLITE ?
							"integer NOT NULL PRIMARY KEY" :
							"bigint NOT NULL");
			break;
		case SQL_I64:
			prism_strbuf_addstr(sb, "bigint");
			break;
		case SQL_I32:
			prism_strbuf_addstr(sb, "integer");
			break;
		case SQL_BOOL:
			prism_strbuf_addstr(sb, "boolean");
			break;
		case SQL_F64:
			prism_strbuf_addstr(sb, "double precision");
			break;
		case SQL_TEXT:
			prism_strbuf_addf(sb, "varchar(%u)", c->width);
			break;
		}
	}
	prism_strbuf_addstr(sb, ")");
}

void sql_schema__primary_key(enum sql_table_id t, struct prism_strbuf *sb)
{
	prism_strbuf_addf(sb, "ALTER TABLE %s ADD PRIMARY KEY (id)", sql_tables[t].name);
}

/*
 * one view: its text with HEX(x) and IPC (instructions per cycle, 2
 * decimals) written in the dialect's way
 */
static void add_view(enum sql_dialect d, struct prism_strbuf *sb, const char *text)
{
	const char *p = text;

	for (;;) {
		const char *h = strstr(p, "HEX("), *ipc = strstr(p, "IPC AS");
		const char *end;

		if (!h && !ipc)
			break;
		if (ipc && (!h || ipc < h)) {
			prism_strbuf_add(sb, p, (size_t)(ipc - p));
			prism_strbuf_addstr(
				sb,
				d == SQL_DIALECT_SQLITE ?
					"CASE WHEN cyc_count=0 THEN CAST(0 AS FLOAT) ELSE "
					"ROUND(CAST(insn_count AS FLOAT) / cyc_count, 2) END" :
					"CASE WHEN cyc_count=0 THEN CAST(0 AS NUMERIC(20, 2)) ELSE "
					"CAST((CAST(insn_count AS FLOAT) / cyc_count) AS NUMERIC(20, 2)) END");
			p = ipc + 3;
			continue;
		}
		end = strchr(h, ')');
		prism_strbuf_add(sb, p, (size_t)(h - p));
		if (d == SQL_DIALECT_SQLITE)
			prism_strbuf_addf(sb, "printf('%%x', %.*s)", (int)(end - h - 4), h + 4);
		else
			prism_strbuf_addf(sb, "to_hex(%.*s)", (int)(end - h - 4), h + 4);
		p = end + 1;
	}
	prism_strbuf_addstr(sb, p);
	prism_strbuf_addch(sb, '\0');
}

static const char *const views[] = {
	"CREATE VIEW machines_view AS SELECT id, pid, root_dir, "
	"CASE WHEN id=0 THEN 'unknown' WHEN pid=-1 THEN 'host' ELSE 'guest' END AS host_or_guest "
	"FROM machines",

	"CREATE VIEW dsos_view AS SELECT id, machine_id, "
	"(SELECT host_or_guest FROM machines_view WHERE id = machine_id) AS host_or_guest, "
	"short_name, long_name, build_id FROM dsos",

	"CREATE VIEW symbols_view AS SELECT id, name, "
	"(SELECT short_name FROM dsos WHERE id=dso_id) AS dso, dso_id, sym_start, sym_end, "
	"CASE WHEN binding=0 THEN 'local' WHEN binding=1 THEN 'global' ELSE 'weak' END AS binding "
	"FROM symbols",

	"CREATE VIEW threads_view AS SELECT id, machine_id, "
	"(SELECT host_or_guest FROM machines_view WHERE id = machine_id) AS host_or_guest, "
	"process_id, pid, tid FROM threads",

	"CREATE VIEW comm_threads_view AS SELECT comm_id, "
	"(SELECT comm FROM comms WHERE id = comm_id) AS command, thread_id, "
	"(SELECT pid FROM threads WHERE id = thread_id) AS pid, "
	"(SELECT tid FROM threads WHERE id = thread_id) AS tid FROM comm_threads",

	"CREATE VIEW call_paths_view AS SELECT c.id, HEX(c.ip) AS ip, c.symbol_id, "
	"(SELECT name FROM symbols WHERE id = c.symbol_id) AS symbol, "
	"(SELECT dso_id FROM symbols WHERE id = c.symbol_id) AS dso_id, "
	"(SELECT dso FROM symbols_view WHERE id = c.symbol_id) AS dso_short_name, "
	"c.parent_id, HEX(p.ip) AS parent_ip, p.symbol_id AS parent_symbol_id, "
	"(SELECT name FROM symbols WHERE id = p.symbol_id) AS parent_symbol, "
	"(SELECT dso_id FROM symbols WHERE id = p.symbol_id) AS parent_dso_id, "
	"(SELECT dso FROM symbols_view WHERE id = p.symbol_id) AS parent_dso_short_name "
	"FROM call_paths c INNER JOIN call_paths p ON p.id = c.parent_id",

	"CREATE VIEW calls_view AS SELECT calls.id, thread_id, "
	"(SELECT pid FROM threads WHERE id = thread_id) AS pid, "
	"(SELECT tid FROM threads WHERE id = thread_id) AS tid, "
	"(SELECT comm FROM comms WHERE id = comm_id) AS command, call_path_id, HEX(ip) AS ip, "
	"symbol_id, (SELECT name FROM symbols WHERE id = symbol_id) AS symbol, call_time, "
	"return_time, return_time - call_time AS elapsed_time, branch_count, insn_count, "
	"cyc_count, IPC AS IPC, call_id, return_id, "
	"CASE WHEN flags=0 THEN '' WHEN flags=1 THEN 'no call' WHEN flags=2 THEN 'no return' "
	"WHEN flags=3 THEN 'no call/return' WHEN flags=6 THEN 'jump' "
	"ELSE CAST(flags AS varchar(16)) END AS flags, parent_call_path_id, calls.parent_id "
	"FROM calls INNER JOIN call_paths ON call_paths.id = call_path_id",

	"CREATE VIEW samples_view AS SELECT id, time, cpu, "
	"(SELECT pid FROM threads WHERE id = thread_id) AS pid, "
	"(SELECT tid FROM threads WHERE id = thread_id) AS tid, "
	"(SELECT comm FROM comms WHERE id = comm_id) AS command, "
	"(SELECT name FROM selected_events WHERE id = evsel_id) AS event, "
	"HEX(ip) AS ip_hex, (SELECT name FROM symbols WHERE id = symbol_id) AS symbol, "
	"sym_offset, (SELECT short_name FROM dsos WHERE id = dso_id) AS dso_short_name, "
	"HEX(to_ip) AS to_ip_hex, (SELECT name FROM symbols WHERE id = to_symbol_id) AS to_symbol, "
	"to_sym_offset, (SELECT short_name FROM dsos WHERE id = to_dso_id) AS to_dso_short_name, "
	"(SELECT name FROM branch_types WHERE id = branch_type) AS branch_type_name, in_tx, "
	"insn_count, cyc_count, IPC AS IPC, flags, "
	"period, (SELECT hostname FROM hosts WHERE id = host_id) AS host FROM samples",

	"CREATE VIEW context_switches_view AS SELECT context_switches.id, "
	"context_switches.machine_id, context_switches.time, context_switches.cpu, "
	"th_out.pid AS pid_out, th_out.tid AS tid_out, comm_out.comm AS comm_out, "
	"th_in.pid AS pid_in, th_in.tid AS tid_in, comm_in.comm AS comm_in, "
	"CASE WHEN context_switches.flags = 0 THEN 'in' WHEN context_switches.flags = 1 THEN 'out' "
	"WHEN context_switches.flags = 3 THEN 'out preempt' "
	"ELSE CAST(context_switches.flags AS varchar(16)) END AS flags, "
	"(SELECT hostname FROM hosts WHERE id = context_switches.host_id) AS host "
	"FROM context_switches "
	"INNER JOIN threads AS th_out ON th_out.id = context_switches.thread_out_id "
	"INNER JOIN threads AS th_in ON th_in.id = context_switches.thread_in_id "
	"INNER JOIN comms AS comm_out ON comm_out.id = context_switches.comm_out_id "
	"INNER JOIN comms AS comm_in ON comm_in.id = context_switches.comm_in_id",

	"CREATE VIEW offcpu_view AS SELECT o.id, o.sample_id, s.time, "
	"(SELECT pid FROM threads WHERE id = o.thread_id) AS pid, "
	"(SELECT tid FROM threads WHERE id = o.thread_id) AS tid, "
	"(SELECT comm FROM comms WHERE id = o.comm_id) AS command, o.state, o.blocks, "
	"o.off_cpu_ns, o.kind, (SELECT name FROM symbols WHERE id = s.symbol_id) AS symbol, "
	"o.call_path_id, (SELECT hostname FROM hosts WHERE id = o.host_id) AS host "
	"FROM offcpu o INNER JOIN samples s ON s.id = o.sample_id",

	"CREATE VIEW hosts_view AS SELECT id, hostname, os_release, arch, nr_cpus, perf_version, "
	"record_time, file_name, cmdline, "
	"(SELECT count(*) FROM samples WHERE samples.host_id = hosts.id) AS samples FROM hosts",
};

size_t sql_schema__views(enum sql_dialect d, struct prism_strbuf *sb)
{
	size_t i;

	for (i = 0; i < PRISM_ARRAY_SIZE(views); i++)
		add_view(d, sb, views[i]);
	return PRISM_ARRAY_SIZE(views);
}
