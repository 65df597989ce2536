// SPDX-License-Identifier: MIT
/*
 * The calls table from branches (lib/export/sql-pt-calls.c), perf's
 * thread-stack rules one at a time: the rows written into an SQLite
 * export, read back: a tail call (a jump to another function's start,
 * "jump"), a return past its caller, a return from a call not seen, a call
 * at a trace end returned when the trace begins again, a return to user
 * space leaving the kernel's entries, an x86 retpoline taken out, and the order of the threads' stacks
 * flushed at the end (perf's tid % 256, then tid).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include <prism/export-sql.h>
#include <prism/features.h>
#include <prism/pt.h>

#include "export/sql-internal.h"

#include "test.h"

#define CALL (PRISM_PT_FL_BRANCH | PRISM_PT_FL_CALL)
#define RET (PRISM_PT_FL_BRANCH | PRISM_PT_FL_RETURN)
#define JMP PRISM_PT_FL_BRANCH
#define K 0xffffffff81000000ULL

/* symbols (rows ids): main 1, f 2, g 3, h 4, kernel functions 5 and 6 */
struct br {
	uint32_t flags;
	uint64_t ip, addr;
	int64_t from, to;
	bool at_start;
	int32_t tid;
	const char *to_name;
};

static char dir[64], db[96];

/*
 * Feed @n branches (sample ids 1.., times 10, 20, ...) to a new export,
 * flush and commit; the calls rows (and call paths) as text into @out.
 * Return: 0, or an error.
 */
static int run(const struct br *b, size_t n, struct prism_strbuf *calls, struct prism_strbuf *paths)
{
	struct prism_sql_opts o = { .kind = PRISM_SQL_SQLITE, .target = db };
	struct prism_sql *x;
	struct sql_pt_calls *c = sql_pt_calls__new();
	struct sql_db *d = NULL;
	size_t i;
	int err;

	unlink(db);
	err = c ? prism_sql__open(&o, &x) : -ENOMEM;
	for (i = 0; !err && i < n; i++) {
		struct sql_pt_branch e = {
			.pid = b[i].tid ? b[i].tid : 100,
			.tid = b[i].tid ? b[i].tid : 100,
			.thread = b[i].tid ? b[i].tid : 7,
			.comm = 9,
			.ref = (int64_t)i + 1,
			.time = 10 * (i + 1),
			.ip = b[i].ip,
			.addr = b[i].addr,
			.flags = b[i].flags,
			.insn_len = 5,
			.from_sym = b[i].from,
			.to_sym = b[i].to,
			.to_at_start = b[i].at_start,
			.to_name = b[i].to_name,
		};

		err = sql_pt_calls__branch(x, c, &e);
	}
	if (!err)
		err = sql_pt_calls__flush(x, c);
	if (!err)
		err = prism_sql__commit(x);
	prism_sql__free(x);
	sql_pt_calls__free(c);
	if (!err)
		err = sql_sqlite_ops.open(db, true, &d);
	if (!err)
		err = sql_sqlite_ops.query_text(
			d,
			"SELECT group_concat(r, ' ') FROM (SELECT id || ':' || thread_id || ',' || "
			"call_path_id || ',' || call_time || '-' || return_time || ',' || "
			"branch_count || ',' || call_id || '-' || return_id || ',' || "
			"parent_call_path_id || ',' || flags || ',' || parent_id AS r FROM calls "
			"WHERE id != 0 ORDER BY id)",
			calls);
	if (!err)
		err = sql_sqlite_ops.query_text(
			d,
			"SELECT group_concat(r, ' ') FROM (SELECT id || ':' || parent_id || ',' || "
			"symbol_id || ',' || ip AS r FROM call_paths WHERE id != 0 ORDER BY id)",
			paths);
	if (d)
		sql_sqlite_ops.free(d);
	return err;
}

static bool setup(void)
{
	if (!prism_feature_enabled(PRISM_FEATURE_LIBSQLITE3)) {
		test_skip_reason = "built without libsqlite3";
		return false;
	}
	if (!dir[0]) {
		snprintf(dir, sizeof(dir), "/tmp/prism-test-ptcalls.XXXXXX");
		if (!mkdtemp(dir))
			return false;
		snprintf(db, sizeof(db), "%s/x.db", dir);
	}
	return true;
}

static void check(const struct br *b, size_t n, const char *calls, const char *paths)
{
	struct prism_strbuf c = STRBUF_INIT, p = STRBUF_INIT;

	TEST_EQ(run(b, n, &c, &p), 0);
	TEST_STREQ(c.buf, calls);
	if (paths)
		TEST_STREQ(p.buf, paths);
	prism_strbuf_release(&c);
	prism_strbuf_release(&p);
}

/* main calls f, f jumps to g's start (a tail call), g returns to main */
static void test_tail_call(void)
{
	const struct br b[] = {
		{ CALL, 0x100, 0x200, 1, 2, true },
		{ JMP, 0x210, 0x300, 2, 3, true },
		{ RET, 0x304, 0x105, 3, 1, false },
	};

	if (!setup())
		return;
	/*
	 * g: a jump not returned (flags 6), its id taken first, f's (its
	 * parent) with it; f returned (3 - 1 branches); main, not called and
	 * not returned (3), flushed with the last time and no return sample
	 */
	check(b, 3, "1:7,4,20-30,1,2-3,3,6,2 2:7,3,10-30,2,1-3,2,0,3 3:7,2,10-30,3,1-0,1,3,0",
	      "1:0,0,0 2:1,1,0 3:2,2,0 4:3,3,0");
}

/* main calls f, f calls g, g returns to main: g not returned, f returned */
static void test_return_past(void)
{
	const struct br b[] = {
		{ CALL, 0x100, 0x200, 1, 2, true },
		{ CALL, 0x210, 0x300, 2, 3, true },
		{ RET, 0x304, 0x105, 3, 1, false },
	};

	if (!setup())
		return;
	check(b, 3, "1:7,4,20-30,1,2-3,3,2,2 2:7,3,10-30,2,1-3,2,0,3 3:7,2,10-30,3,1-0,1,3,0",
	      NULL);
}

/* a return from h, whose call was not seen, back into main (not its bottom) */
static void test_no_call(void)
{
	const struct br b[] = {
		{ JMP, 0x100, 0x110, 1, 1, false },
		{ RET, 0x404, 0x120, 4, 1, false },
	};

	if (!setup())
		return;
	/* main -> main (the return's target) -> h pushed and popped: "no call" */
	check(b, 2, "1:7,4,20-20,0,2-2,3,1,2 2:7,3,20-20,0,2-0,2,3,3 3:7,2,10-20,2,1-0,1,3,0",
	      "1:0,0,0 2:1,1,0 3:2,1,0 4:3,4,0");
}

/* a call as the trace ends (tr end call), the trace begins again where it returns */
static void test_trace_end_call(void)
{
	const struct br b[] = {
		{ CALL | PRISM_PT_FL_TRACE_END, 0x100, 0x200, 1, 2, true },
		{ JMP | PRISM_PT_FL_TRACE_BEGIN, 0, 0x105, 0, 1, false },
		{ RET, 0x130, 0x900, 1, 0, false },
	};

	if (!setup())
		return;
	/* f returned at the trace begin; main returns to nowhere known: popped at the bottom */
	check(b, 3, "1:7,3,10-20,1,1-2,2,0,2 2:7,2,10-30,3,1-3,1,1,0", NULL);
}

/* an interrupt: a kernel function returns to user space, the kernel's entries go */
static void test_kernel_return(void)
{
	const struct br b[] = {
		{ JMP, 0x100, 0x110, 1, 1, false },
		{ CALL | PRISM_PT_FL_ASYNC | PRISM_PT_FL_INTERRUPT, 0x110, K, 1, 5, true },
		{ CALL, K + 0x10, K + 0x100, 5, 6, true },
		{ RET | PRISM_PT_FL_INTERRUPT, K + 0x120, 0x110, 6, 1, false },
	};

	if (!setup())
		return;
	/*
	 * the iret returns to main+0x10, the interrupt's return address is
	 * main+0x15 (ip + insn_len): no match, the kernel's entries are popped
	 * as not returned; then a return from a call not seen: main+0x10
	 * (main under main) pushed, the kernel function pushed and popped
	 * ("no call"); main+0x10 and main flushed at the end
	 */
	check(b, 4,
	      "1:7,4,30-40,1,3-4,3,2,2 2:7,3,20-40,2,2-4,2,2,3 3:7,2,10-40,4,1-0,1,3,0 "
	      "4:7,6,40-40,0,4-4,5,1,5 5:7,5,40-40,0,4-0,2,3,3",
	      "1:0,0,0 2:1,1,0 3:2,5,0 4:3,6,0 5:2,1,0 6:5,6,0");
}

/*
 * a retpoline: main calls the thunk (symbol 7), the thunk calls into its
 * own middle and "returns" to g, g returns to main: the thunk is taken out,
 * g is main's callee
 */
static void test_retpoline(void)
{
	static const char thunk[] = "__x86_indirect_thunk_rax";
	const struct br b[] = {
		{ CALL, 0x100, 0x500, 1, 7, true, 0, thunk },
		{ CALL, 0x505, 0x510, 7, 7, false, 0, thunk },
		{ RET, 0x515, 0x300, 7, 3, true },
		{ RET, 0x310, 0x105, 3, 1, false },
	};

	if (!setup())
		return;
	check(b, 4, "1:7,3,10-40,3,1-4,2,0,2 2:7,2,10-40,4,1-0,1,3,0", "1:0,0,0 2:1,1,0 3:2,3,0");
}

/* the stacks left at the end, flushed in perf's order of threads: tid % 256, then tid */
static void test_flush_order(void)
{
	const struct br b[] = {
		{ JMP, 0x100, 0x110, 1, 1, false, 44 },
		{ JMP, 0x100, 0x110, 1, 1, false, 300 },
		{ JMP, 0x100, 0x110, 1, 1, false, 256 },
	};

	if (!setup())
		return;
	check(b, 3, "1:256,2,30-30,1,3-0,1,3,0 2:44,2,10-10,1,1-0,1,3,0 3:300,2,20-20,1,2-0,1,3,0",
	      NULL);
}

static void test_cleanup(void)
{
	if (!dir[0])
		return;
	unlink(db);
	TEST_EQ(rmdir(dir), 0);
}

TEST_MAIN(TEST(tail_call), TEST(return_past), TEST(no_call), TEST(trace_end_call),
	  TEST(kernel_return), TEST(retpoline), TEST(flush_order), TEST(cleanup));
