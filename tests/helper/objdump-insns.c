// SPDX-License-Identifier: MIT
/*
 * objdump-insns: the instructions of a file's bytes as prism annotate
 * writes them, in objdump -d --no-show-raw-insn's lines, to compare with
 * objdump's:
 *
 *   objdump-insns FILE OFFSET LEN VADDR
 *
 * prints "VADDR:\ttext" per instruction ("(bad)" for a byte that is none),
 * trailing blanks trimmed.  Exit 1 when the file cannot be read.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

#include <prism/annotate.h>
#include <prism/disasm.h>
#include <prism/strbuf.h>

int main(int argc, char **argv)
{
	struct prism_strbuf sb = STRBUF_INIT;
	struct prism_disasm *d;
	uint64_t off, len, va, o;
	uint8_t *buf;
	FILE *f;
	int n;

	if (argc != 5) {
		fprintf(stderr, "usage: objdump-insns FILE OFFSET LEN VADDR\n");
		return 2;
	}
	off = strtoull(argv[2], NULL, 0);
	len = strtoull(argv[3], NULL, 0);
	va = strtoull(argv[4], NULL, 0);
	buf = malloc(len ? len : 1);
	f = fopen(argv[1], "rb");
	d = prism_disasm__new(PRISM_DISASM_ATT);
	if (!buf || !f || !d || fseek(f, (long)off, SEEK_SET) || fread(buf, 1, len, f) != len) {
		fprintf(stderr, "objdump-insns: cannot read %s\n", argv[1]);
		return 1;
	}
	fclose(f);
	for (o = 0; o < len; o += (uint64_t)n) {
		prism_strbuf_reset(&sb);
		n = prism_annotate__objdump_insn(d, buf + o, len - o, va + o, &sb);
		if (n <= 0) {
			printf("%" PRIx64 ":\t(bad)\n", va + o);
			n = 1;
			continue;
		}
		while (sb.len && sb.buf[sb.len - 1] == ' ')
			prism_strbuf_setlen(&sb, sb.len - 1);
		printf("%" PRIx64 ":\t%s\n", va + o, sb.buf);
	}
	prism_strbuf_release(&sb);
	prism_disasm__free(d);
	free(buf);
	return 0;
}
