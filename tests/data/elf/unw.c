// SPDX-License-Identifier: MIT
/*
 * The source of the ELF files next to it (see README): three nested calls,
 * so that a stack copy has frames to unwind, built once per flavour.
 */
#ifdef UNW_LIB
#define ENTRY unw_lib_entry
#else
#define ENTRY main
#endif

volatile unsigned long unw_sink;

__attribute__((noinline)) unsigned long unw_leaf(unsigned long n)
{
	unsigned long i, v = 0;

	for (i = 0; i < n; i++)
		v += i * unw_sink;
	return v;
}

__attribute__((noinline)) unsigned long unw_mid(unsigned long n)
{
	return unw_leaf(n + 1) + 1;
}

int ENTRY(int argc, char **argv)
{
	(void)argv;
	unw_sink = unw_mid((unsigned long)argc * 1000);
	return 0;
}
