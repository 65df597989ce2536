// SPDX-License-Identifier: MIT
/*
 * pt-loop: code whose control flow tests/tools/perfdata-pt.py knows, for
 * synthesized Intel PT traces.  The traced functions are written in
 * assembly so that their layout does not depend on the compiler:
 *
 *   pt_loop(n): for (i = n; i; i--) { r = pt_leaf(i); if (i & 1) r += 2; }
 *               then one indirect call of pt_leaf
 *   pt_leaf(x): return x + 1
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
	".size pt_loop, .-pt_loop\n");

int pt_loop(int n);

int main(int argc, char **argv)
{
	return pt_loop(argc > 1 ? atoi(argv[1]) : 3) & 1;
}
