// SPDX-License-Identifier: MIT
/* feature probe: libsqlite3 */
#include <sqlite3.h>
int main(void)
{
	return sqlite3_libversion_number() < 3000000;
}
