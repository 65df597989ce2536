// SPDX-License-Identifier: MIT
/* the SQL exporter's SQLite (libsqlite3) backend in a build without the library */
#include "internal.h"
#include "export/sql-internal.h"

static int no_open(const char *target, bool append, struct sql_db **out)
{
	(void)target;
	(void)append;
	*out = NULL;
	return -PRISM_E_NOFEATURE;
}

const struct sql_backend_ops sql_sqlite_ops = {
	.open = no_open,
};
