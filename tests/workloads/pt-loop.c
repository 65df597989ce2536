// SPDX-License-Identifier: MIT
/*
 * pt-loop: code whose control flow tests/tools/perfdata-pt.py knows, for
 * synthesized Intel PT traces.  The traced functions are written in
 * assembly so that their layout does not depend on the compiler:
 *
 *   pt_loop(n): for (i = n; i; i--) { r = pt_leaf(i); if (i & 1) r += 2; }
 *               then one indirect call of pt_leaf
 *   pt_leaf(x): return x + 1
 *   pt_calls(n): pt_rec(n) (recursion n deep), pt_mid() (whose callee
 *               pt_jump returns to pt_calls), pt_leaf()
 *
 * The generator checks the bytes it expects at each instruction.
 */
#include <stdlib.h>

__asm__(".text\n"
	".globl pt_leaf\n"
	".type pt_leaf, @function\n"
	"pt_leaf:\n"
	"	lea 1(%rdi), %eax\n" /* +0: 8d 47 01 */
	"	ret\n" /* +3: c3 */
	".size pt_leaf, .-pt_leaf\n"
	".globl pt_loop\n"
	".type pt_loop, @function\n"
	"pt_loop:\n"
	"	push %rbx\n" /* +0: 53 */
	"	mov %edi, %ebx\n" /* +1: 89 fb */
	"1:	mov %ebx, %edi\n" /* +3: 89 df */
	"	call pt_leaf\n" /* +5: e8 rel32 */
	"	test $1, %bl\n" /* +10: f6 c3 01 */
	"	jz 2f\n" /* +13: 74 03 */
	"	add $2, %eax\n" /* +15: 83 c0 02 */
	"2:	dec %ebx\n" /* +18: ff cb */
	"	jnz 1b\n" /* +20: 75 ed */
	"	lea pt_leaf(%rip), %rcx\n" /* +22: 48 8d 0d rel32 */
	"	call *%rcx\n" /* +29: ff d1 */
	"	pop %rbx\n" /* +31: 5b */
	"	ret\n" /* +32: c3 */
	".size pt_loop, .-pt_loop\n"
	/* call stacks (perfdata-pt.py --calls): recursion, a return past its caller, a call at a trace end */
	".globl pt_rec\n"
	".type pt_rec, @function\n"
	"pt_rec:\n"
	"	test %edi, %edi\n" /* +0: 85 ff */
	"	jz 1f\n" /* +2: 74 07 */
	"	dec %edi\n" /* +4: ff cf */
	"	call pt_rec\n" /* +6: e8 rel32 */
	"1:	ret\n" /* +11: c3 */
	".size pt_rec, .-pt_rec\n"
	".globl pt_jump\n"
	".type pt_jump, @function\n"
	"pt_jump:\n"
	"	pop %rax\n" /* +0: 58 (its own return address) */
	"	ret\n" /* +1: c3 (to its caller's caller) */
	".size pt_jump, .-pt_jump\n"
	".globl pt_mid\n"
	".type pt_mid, @function\n"
	"pt_mid:\n"
	"	call pt_jump\n" /* +0: e8 rel32 */
	"	ret\n" /* +5: c3 (not reached) */
	".size pt_mid, .-pt_mid\n"
	".globl pt_calls\n"
	".type pt_calls, @function\n"
	"pt_calls:\n"
	"	push %rbx\n" /* +0: 53 */
	"	call pt_rec\n" /* +1: e8 rel32 */
	"	call pt_mid\n" /* +6: e8 rel32 */
	"	lea pt_leaf(%rip), %rcx\n" /* +11: 48 8d 0d rel32 */
	"	call *%rcx\n" /* +18: ff d1 */
	"	pop %rbx\n" /* +20: 5b */
	"	ret\n" /* +21: c3 */
	".size pt_calls, .-pt_calls\n");

int pt_loop(int n);
int pt_calls(int n);

int main(int argc, char **argv)
{
	if (argc > 2)
		return pt_calls(atoi(argv[2])) & 1;
	return pt_loop(argc > 1 ? atoi(argv[1]) : 3) & 1;
}
