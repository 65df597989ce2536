// SPDX-License-Identifier: MIT
/* feature probe: libcapstone (disassembler) */
#include <capstone/capstone.h>
int main(void)
{
	csh h;

	if (cs_open(CS_ARCH_X86, CS_MODE_64, &h) == CS_ERR_OK)
		cs_close(&h);
	return 0;
}
