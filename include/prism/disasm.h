/* SPDX-License-Identifier: MIT */
/*
 * Disassembly of single x86 instructions (libcapstone), for perf script's
 * "disasm" field: mnemonic and operands in AT&T or Intel syntax.
 */
#ifndef PRISM_DISASM_H
#define PRISM_DISASM_H

#include <prism/core.h>

struct prism_strbuf;
struct prism_disasm;

enum prism_disasm_syntax { PRISM_DISASM_ATT, PRISM_DISASM_INTEL };

/* NULL + errno: PRISM_E_UNSUPPORTED without libcapstone, ENOMEM */
PRISM_API struct prism_disasm *prism_disasm__new(enum prism_disasm_syntax syntax);
PRISM_API void prism_disasm__free(struct prism_disasm *d);

/*
 * prism_disasm__insn - the first instruction of @code (at address @ip, 64-bit
 * code unless !@is64): "mnemonic operands" appended to @sb; when its only
 * operand is an immediate (a branch target), its value in *@imm and the
 * mnemonic alone in *@mnem_len (the caller may name the target instead).
 *
 * Return: the instruction's size, or -EINVAL when @code is no instruction
 * (nothing appended).
 */
PRISM_API int prism_disasm__insn(struct prism_disasm *d, const uint8_t *code, size_t len,
				 uint64_t ip, bool is64, struct prism_strbuf *sb, bool *has_imm,
				 uint64_t *imm, size_t *mnem_len);

/*
 * prism_disasm__zero_disp - whether the last instruction prism_disasm__insn()
 * decoded encodes a memory displacement of 0 (objdump writes it: "0x0(%rax)",
 * capstone leaves it out)
 */
PRISM_API bool prism_disasm__zero_disp(const struct prism_disasm *d);
/* the size in bytes of the last instruction's immediate operand (its operand size), 0 for none */
PRISM_API int prism_disasm__imm_size(const struct prism_disasm *d);

#endif /* PRISM_DISASM_H */
