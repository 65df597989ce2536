// SPDX-License-Identifier: MIT
/*
 * Version and build-feature queries.
 */
#include "internal.h"

#ifndef PRISM_VERSION
#define PRISM_VERSION "0.0.0-unknown"
#endif

const char *prism_version(void)
{
	return PRISM_VERSION;
}

/* HAVE_* come from the Makefile's feature probes. */
#ifndef HAVE_LIBTRACEEVENT
#define HAVE_LIBTRACEEVENT 0
#endif
#ifndef HAVE_LIBZSTD
#define HAVE_LIBZSTD 0
#endif
#ifndef HAVE_LIBELF
#define HAVE_LIBELF 0
#endif
#ifndef HAVE_LIBDW
#define HAVE_LIBDW 0
#endif
#ifndef HAVE_LIBBPF
#define HAVE_LIBBPF 0
#endif
#ifndef HAVE_LIBIBERTY
#define HAVE_LIBIBERTY 0
#endif

static const struct {
	const char *name;
	const char *packages;
	bool enabled;
} features[] = {
#define PRISM_FEATURE_ROW(id, name, pkg) { name, pkg, HAVE_##id },
	PRISM_FEATURES(PRISM_FEATURE_ROW)
#undef PRISM_FEATURE_ROW
};

const char *prism_feature_name(enum prism_feature feat)
{
	if ((unsigned int)feat >= PRISM_FEATURE__MAX)
		return NULL;
	return features[feat].name;
}

bool prism_feature_enabled(enum prism_feature feat)
{
	if ((unsigned int)feat >= PRISM_FEATURE__MAX)
		return false;
	return features[feat].enabled;
}

const char *prism_feature_packages(enum prism_feature feat)
{
	if ((unsigned int)feat >= PRISM_FEATURE__MAX)
		return "";
	return features[feat].packages;
}
