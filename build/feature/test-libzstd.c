// SPDX-License-Identifier: MIT
/* feature probe: libzstd */
#include <zstd.h>
int main(void)
{
	ZSTD_DStream *d = ZSTD_createDStream();
	ZSTD_freeDStream(d);
	return 0;
}
