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
#ifndef HAVE_LIBIPT
#define HAVE_LIBIPT 0
#endif
#ifndef HAVE_LIBCAPSTONE
#define HAVE_LIBCAPSTONE 0
#endif

/* " LIBBPF LIBDW ": the features the build left out on purpose (NO_LIBBPF=1 ...) */
#ifndef PRISM_DISABLED_FEATURES
#define PRISM_DISABLED_FEATURES " "
#endif

static const struct {
	const char *name;
	const char *packages;
	bool enabled;
	const char *id; /* " LIBBPF " */
	const char *install_hint, *rebuild_hint;
} features[] = {
#define PRISM_FEATURE_ROW(id, name, pkg)                                                \
	{ name,                                                                         \
	  pkg,                                                                          \
	  HAVE_##id,                                                                    \
	  " " #id " ",                                                                  \
	  "install the packages " pkg " (apt-get install " pkg "), then rebuild prism", \
	  "this prism was built with NO_" #id "=1: rebuild it without that option" },
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

const char *prism_feature_hint(enum prism_feature feat)
{
	if ((unsigned int)feat >= PRISM_FEATURE__MAX)
		return "";
	if (strstr(PRISM_DISABLED_FEATURES, features[feat].id))
		return features[feat].rebuild_hint;
	return features[feat].install_hint;
}

const char *prism_feature_packages(enum prism_feature feat)
{
	if ((unsigned int)feat >= PRISM_FEATURE__MAX)
		return "";
	return features[feat].packages;
}
