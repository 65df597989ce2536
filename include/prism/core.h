/* SPDX-License-Identifier: MIT */
/*
 * prism core: export macro, version and build features.
 */
#ifndef PRISM_CORE_H
#define PRISM_CORE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifndef PRISM_API
#define PRISM_API __attribute__((visibility("default")))
#endif

#define PRISM_ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

/**
 * prism_version - the library's version string, e.g. "0.1.0"
 *
 * Return: a static string.
 */
PRISM_API const char *prism_version(void);

/*
 * Optional features, each compiled in when its library was found at build
 * time.  A feature that is absent is compiled to a stub that fails with
 * -PRISM_E_NOFEATURE; prism_feature_hint() tells the user how to enable it.
 */
#define PRISM_FEATURES(_)                                      \
	_(LIBTRACEEVENT, "libtraceevent", "libtraceevent-dev") \
	_(LIBZSTD, "zstd", "libzstd-dev")                      \
	_(LIBELF, "libelf", "libelf-dev")                      \
	_(LIBDW, "libdw", "libdw-dev")                         \
	_(LIBBPF, "bpf", "libbpf-dev clang llvm bpftool")      \
	_(LIBIBERTY, "demangle", "libiberty-dev")              \
	_(LIBBZ2, "bzip2", "libbz2-dev")                       \
	_(ZLIB, "zlib", "zlib1g-dev")                          \
	_(LIBSQLITE3, "sqlite", "libsqlite3-dev")              \
	_(LIBPQ, "postgresql", "libpq-dev")                    \
	_(LIBIPT, "intel-pt", "libipt-dev")                    \
	_(LIBCAPSTONE, "capstone", "libcapstone-dev")

enum prism_feature {
#define PRISM_FEATURE_ENUM(id, name, pkg) PRISM_FEATURE_##id,
	PRISM_FEATURES(PRISM_FEATURE_ENUM)
#undef PRISM_FEATURE_ENUM
		PRISM_FEATURE__MAX
};

/**
 * prism_feature_name - short name of a feature ("zstd", "libdw", ...)
 * @feat: the feature
 *
 * Return: a static string, or NULL when @feat is out of range.
 */
PRISM_API const char *prism_feature_name(enum prism_feature feat);

/**
 * prism_feature_enabled - whether this build has @feat compiled in
 * @feat: the feature
 */
PRISM_API bool prism_feature_enabled(enum prism_feature feat);

/**
 * prism_feature_packages - the Debian packages that enable @feat
 * @feat: the feature
 *
 * Return: a static, space-separated list of package names.
 */
PRISM_API const char *prism_feature_packages(enum prism_feature feat);

/**
 * prism_feature_hint - how to get @feat into prism
 * @feat: the feature
 *
 * Return: a static sentence: install the packages and rebuild, or, for a
 * build that left the feature out on purpose (NO_LIBBPF=1 ...), rebuild
 * without that option.
 */
PRISM_API const char *prism_feature_hint(enum prism_feature feat);

#endif /* PRISM_CORE_H */
