// SPDX-License-Identifier: MIT
/* feature probe: zlib */
#include <zlib.h>
int main(void)
{
	z_stream z = { 0 };

	deflateInit2(&z, 6, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY);
	return deflateEnd(&z) == Z_OK ? 0 : 1;
}
