// SPDX-License-Identifier: MIT
/*
 * libFuzzer target: kernel symbol sources that prism reads from disk, both
 * untrusted: kallsyms text (/proc/kallsyms, or a copy in a build-id cache
 * or an archive from another machine) and prism's own index of it
 * ($XDG_CACHE_HOME/prism/kallsyms/<build id>, lib/symbol/ksym-cache.c).
 *
 * An input that starts with the index magic "PRSMKSY1" is an index, parsed
 * with the key its own header claims (so the checks past the key are
 * reached); any other input is kallsyms text.  What loads is looked up at
 * addresses taken from the input, then written back as an index and read
 * again (the round trip must succeed).  tests/fuzz/make-kcache-seeds.py
 * writes the seeds.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "symbol/symbol-internal.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static volatile uint64_t sink;

static void lookups(struct ksyms *k, const uint8_t *data, size_t size)
{
	size_t i, m;

	for (i = 0; i + 8 <= size && i < 64 * 8; i += 8) {
		uint64_t a = get_u64(data + i);
		const struct sym *s = symtab__find(&k->kernel, a);

		if (s)
			sink += strlen(s->name);
		for (m = 0; m < k->nr_mods; m++) {
			s = symtab__find(&k->mods[m].syms, a);
			if (s)
				sink += strlen(s->name);
		}
	}
}

static void round_trip(struct ksyms *k)
{
	static char path[64];
	static const uint8_t bid[20] = { 1, 2, 3 };
	struct ksyms again;

	if (!path[0])
		snprintf(path, sizeof(path), "/tmp/prism-fuzz-kcache.%d", (int)getpid());
	if (ksym_cache__save(path, bid, 20, 9, k))
		return; /* a table too large for the format */
	if (ksym_cache__load(path, bid, 20, 0, 9, &again))
		abort(); /* what was written must load */
	if (again.kernel.nr != k->kernel.nr || again.nr_mods != k->nr_mods)
		abort();
	ksyms__release(&again);
	unlink(path);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct ksyms k;
	char *buf;

	memset(&k, 0, sizeof(k));
	if (size >= 72 && !memcmp(data, "PRSMKSY1", 8)) {
		uint8_t bid[20];
		uint8_t bid_size = data[16] > 20 ? 20 : data[16];

		memcpy(bid, data + 20, 20);
		buf = malloc(size);
		if (!buf)
			return 0;
		memcpy(buf, data, size);
		if (ksym_cache__parse(buf, size, bid, bid_size, get_u64(data + 40),
				      get_u64(data + 48), &k)) {
			free(buf);
			return 0;
		}
	} else {
		buf = malloc(size + 1);
		if (!buf)
			return 0;
		memcpy(buf, data, size);
		buf[size] = '\0';
		k.blob = buf;
		if (kallsyms__parse(buf, size, &k)) {
			ksyms__release(&k);
			return 0;
		}
	}
	lookups(&k, data, size);
	round_trip(&k);
	ksyms__release(&k);
	return 0;
}
