// SPDX-License-Identifier: MIT
/*
 * The header block perf prints for 'perf report --header-only -I': the
 * file's own fields, then every feature (prism_features__print).
 */
#include <inttypes.h>
#include <sys/stat.h>
#include <time.h>

#include <prism/features.h>
#include <prism/session.h>
#include <prism/strbuf.h>

#include "internal.h"

void prism_session__header_text(const struct prism_session *s, const char *path, bool missing,
				struct prism_strbuf *sb)
{
	const struct prism_file_info *fi = prism_session__file_info(s);
	struct stat st;

	prism_strbuf_addstr(sb, "# ========\n");
	if (!fi->pipe && path && !stat(path, &st)) {
		char tbuf[64];
		struct tm tm;

		localtime_r(&st.st_mtime, &tm);
		strftime(tbuf, sizeof(tbuf), "%a %b %e %H:%M:%S %Y", &tm);
		prism_strbuf_addf(sb, "# captured on    : %s\n", tbuf);
		prism_strbuf_addf(sb, "# header version : %u\n", fi->version);
		prism_strbuf_addf(sb, "# data offset    : %" PRIu64 "\n", fi->data_offset);
		prism_strbuf_addf(sb, "# data size      : %" PRIu64 "\n", fi->data_size);
		prism_strbuf_addf(sb, "# feat offset    : %" PRIu64 "\n", fi->feat_offset);
	}
	prism_features__print(prism_session__features(s), sb);
	if (missing)
		prism_features__print_missing(prism_session__features(s), sb);
	prism_strbuf_addstr(sb, "# ========\n");
}
