// SPDX-License-Identifier: MIT
/*
 * prism_strerror(): one message table for errno values and PRISM_E_* codes.
 */
#include <stdio.h>

#include "internal.h"

static const char *const messages[] = {
#define PRISM_ERROR_MSG(id, msg) [PRISM_E_##id - PRISM_E__START - 1] = msg,
	PRISM_ERRORS(PRISM_ERROR_MSG)
#undef PRISM_ERROR_MSG
};

char *prism_strerror(int err, char *buf, size_t len)
{
	const char *msg;

	if (!len)
		return buf;
	if (err < 0)
		err = -err;
	if (err > PRISM_E__START && err < PRISM_E__END) {
		msg = messages[err - PRISM_E__START - 1];
	} else {
		/* strerror_r is the GNU variant here: it may return a static string */
		msg = strerror_r(err, buf, len);
	}
	if (msg != buf)
		snprintf(buf, len, "%s", msg);
	return buf;
}
