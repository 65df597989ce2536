// SPDX-License-Identifier: MIT
/* feature probe: libsqlite3 */
#include <sqlite3.h>
int main(void)
{
	sqlite3 *db;

	if (sqlite3_open(":memory:", &db) == SQLITE_OK)
		sqlite3_close(db);
	return 0;
}
