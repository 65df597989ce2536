// SPDX-License-Identifier: MIT
/* feature probe: libbpf */
#include <bpf/libbpf.h>
int main(void)
{
	return libbpf_major_version() < 1;
}
