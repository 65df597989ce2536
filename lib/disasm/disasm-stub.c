// SPDX-License-Identifier: MIT
/* disassembly without libcapstone: not available */
#include <errno.h>

#include <prism/disasm.h>
#include <prism/error.h>

struct prism_disasm *prism_disasm__new(enum prism_disasm_syntax syntax)
{
	(void)syntax;
	errno = PRISM_E_UNSUPPORTED;
	return NULL;
}

void prism_disasm__free(struct prism_disasm *d)
{
	(void)d;
}

int prism_disasm__insn(struct prism_disasm *d, const uint8_t *code, size_t len, uint64_t ip,
		       bool is64, struct prism_strbuf *sb, bool *has_imm, uint64_t *imm,
		       size_t *mnem_len)
{
	(void)d, (void)code, (void)len, (void)ip, (void)is64, (void)sb, (void)imm, (void)mnem_len;
	*has_imm = false;
	return -PRISM_E_UNSUPPORTED;
}

bool prism_disasm__zero_disp(const struct prism_disasm *d)
{
	(void)d;
	return false;
}

int prism_disasm__imm_size(const struct prism_disasm *d)
{
	(void)d;
	return 0;
}
