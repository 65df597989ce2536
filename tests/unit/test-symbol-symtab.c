// SPDX-License-Identifier: MIT
/* symbol tables: one name per address (perf's choice), zero-size symbols, lookups */
#include <elf.h>

#include "symbol/symbol-internal.h"
#include "test.h"

static void test_alias_choice(void)
{
	struct symtab t = { 0 };
	const struct sym *s;

	/* libc's write(): perf shows __GI___libc_write */
	TEST_EQ(symtab__add(&t, 0x1000, 157, "write", STB_WEAK, true), 0);
	TEST_EQ(symtab__add(&t, 0x1000, 157, "__write", STB_WEAK, true), 0);
	TEST_EQ(symtab__add(&t, 0x1000, 157, "__libc_write", STB_LOCAL, true), 0);
	TEST_EQ(symtab__add(&t, 0x1000, 157, "__GI___libc_write", STB_LOCAL, true), 0);
	symtab__fixup(&t);
	TEST_EQ(t.nr, 1);
	s = symtab__find(&t, 0x1010);
	TEST_TRUE(s != NULL);
	TEST_STREQ(s->name, "__GI___libc_write");
	symtab__release(&t);
}

static void test_global_beats_local_and_sized_beats_zero(void)
{
	struct symtab t = { 0 };

	TEST_EQ(symtab__add(&t, 0x2000, 0, "zero_global", STB_GLOBAL, true), 0);
	TEST_EQ(symtab__add(&t, 0x2000, 32, "sized_local", STB_LOCAL, true), 0);
	TEST_EQ(symtab__add(&t, 0x3000, 16, "_under", STB_GLOBAL, true), 0);
	TEST_EQ(symtab__add(&t, 0x3000, 16, "plain", STB_GLOBAL, true), 0);
	TEST_EQ(symtab__add(&t, 0x3000, 16, "loc", STB_LOCAL, true), 0);
	symtab__fixup(&t);
	TEST_STREQ(symtab__find(&t, 0x2000)->name, "sized_local");
	TEST_STREQ(symtab__find(&t, 0x3004)->name, "plain");
	symtab__release(&t);
}

static void test_zero_size_ends_at_next(void)
{
	struct symtab t = { 0 };

	TEST_EQ(symtab__add(&t, 0x100, 0, "asm_entry", STB_GLOBAL, true), 0);
	TEST_EQ(symtab__add(&t, 0x180, 0x10, "c_func", STB_GLOBAL, true), 0);
	TEST_EQ(symtab__add(&t, 0x200, 0, "last", STB_GLOBAL, true), 0);
	symtab__fixup(&t);
	TEST_STREQ(symtab__find(&t, 0x17f)->name, "asm_entry");
	TEST_STREQ(symtab__find(&t, 0x18f)->name, "c_func");
	/* gap after a sized symbol stays unresolved */
	TEST_TRUE(symtab__find(&t, 0x190) == NULL);
	TEST_STREQ(symtab__find(&t, 0x200)->name, "last");
	TEST_TRUE(symtab__find(&t, 0xff) == NULL);
	symtab__release(&t);
}

static void test_demangle(void)
{
	char *d;

	if (!prism_feature_enabled(PRISM_FEATURE_LIBIBERTY))
		TEST_SKIP("built without libiberty");
	d = prism_demangle("_ZN3foo3barEi", true);
	TEST_STREQ(d, "foo::bar(int)");
	free(d);
	d = prism_demangle("_ZN3foo3barEi", false);
	TEST_STREQ(d, "foo::bar");
	free(d);
	/* Rust legacy: the hash is dropped */
	d = prism_demangle("_ZN4core3fmt5write17h0123456789abcdefE", true);
	TEST_STREQ(d, "core::fmt::write");
	free(d);
	/* Rust v0 */
	d = prism_demangle("_RNvCs1234_7mycrate3foo", true);
	TEST_STREQ(d, "mycrate::foo");
	free(d);
	/* PLT and symbol-version suffixes stay */
	d = prism_demangle("_ZN3foo3barEi@plt", false);
	TEST_STREQ(d, "foo::bar@plt");
	free(d);
	TEST_TRUE(prism_demangle("main", true) == NULL);
}

TEST_MAIN(TEST(alias_choice), TEST(global_beats_local_and_sized_beats_zero),
	  TEST(zero_size_ends_at_next), TEST(demangle));
