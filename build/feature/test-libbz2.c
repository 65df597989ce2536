// SPDX-License-Identifier: MIT
/* feature probe: libbz2 */
#include <bzlib.h>
#include <stdio.h>
int main(void)
{
	int err;
	BZFILE *b = BZ2_bzWriteOpen(&err, stdout, 9, 0, 0);
	BZ2_bzWriteClose(&err, b, 1, NULL, NULL);
	return 0;
}
