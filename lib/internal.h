/* SPDX-License-Identifier: MIT */
/*
 * Helpers shared by every lib/ file: logging macros, array growth, unaligned
 * loads.  Not installed.
 */
#ifndef PRISM_INTERNAL_H
#define PRISM_INTERNAL_H

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <prism/core.h>
#include <prism/error.h>
#include <prism/log.h>

void prism__log(enum prism_log_level level, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

#define pr_err(fmt, ...) prism__log(PRISM_LOG_ERROR, fmt, ##__VA_ARGS__)
#define pr_warn(fmt, ...) prism__log(PRISM_LOG_WARN, fmt, ##__VA_ARGS__)
#define pr_info(fmt, ...) prism__log(PRISM_LOG_INFO, fmt, ##__VA_ARGS__)
#define pr_debug(fmt, ...) prism__log(PRISM_LOG_DEBUG, fmt, ##__VA_ARGS__)

/*
 * prism_ensure_mem - make room for @need elements of @elem_size bytes
 *
 * Grows *@data (capacity *@cap elements) geometrically.  Overflow-checked.
 * Return: 0, or -ENOMEM (then *@data and *@cap are unchanged).
 */
int prism_ensure_mem(void **data, size_t *cap, size_t elem_size, size_t need);

/* reallocarray with the overflow check, for code that sizes exactly */
void *prism_reallocarray(void *ptr, size_t nmemb, size_t size);

/*
 * dirnames.c: the names in @dir, dot files left out, that @keep accepts
 * (NULL: all), sorted or in directory order; free with prism_names_free().
 * Return: 0, or -errno (then *@out is NULL and *@nr 0).
 */
int prism_dir_names(const char *dir, bool sorted,
		    bool (*keep)(void *ctx, const char *dir, const char *name), void *ctx,
		    char ***out, size_t *nr);
void prism_names_free(char **names, size_t nr);

/*
 * elf-note.c: the NT_GNU_BUILD_ID descriptor (at most @max bytes) in the
 * ELF notes at [@notes, @notes + @len).
 * Return: 0 with *@id_len set, or -ENOENT.
 */
int prism_note_build_id(const void *notes, size_t len, uint8_t *id, size_t max, size_t *id_len);

/* unaligned loads: perf.data gives no alignment guarantee */
static inline uint16_t get_u16(const void *p)
{
	uint16_t v;
	memcpy(&v, p, sizeof(v));
	return v;
}

static inline uint32_t get_u32(const void *p)
{
	uint32_t v;
	memcpy(&v, p, sizeof(v));
	return v;
}

static inline uint64_t get_u64(const void *p)
{
	uint64_t v;
	memcpy(&v, p, sizeof(v));
	return v;
}

/*
 * Bounds checks on numbers that come from a file or the kernel (offsets,
 * sizes, addresses, counts): written so that no sum can wrap.  Use these
 * instead of 'off + len <= size', which a hostile @len turns true.
 *
 * range_ok - [@off, @off + @len) lies within [0, @size)
 * span_ok  - [@addr, @addr + @len) lies within [@lo, @lo + @size)
 */
static inline bool range_ok(uint64_t off, uint64_t len, uint64_t size)
{
	return off <= size && len <= size - off;
}

static inline bool span_ok(uint64_t addr, uint64_t len, uint64_t lo, uint64_t size)
{
	return addr >= lo && range_ok(addr - lo, len, size);
}

/*
 * Functions whose unsigned arithmetic wraps on purpose (hashes, 0 - 1 as
 * "none yet", branch-free masks, perf's own u64 differences): the fuzz
 * builds check every other unsigned wrap (clang's
 * -fsanitize=unsigned-integer-overflow); gcc has no such check.
 */
#ifdef __clang__
#define __wraps __attribute__((no_sanitize("unsigned-integer-overflow")))
#else
#define __wraps
#endif

/* @a + @b, or UINT64_MAX when that would wrap: totals of numbers from a file */
static inline uint64_t sat_add(uint64_t a, uint64_t b)
{
	uint64_t s;

	return __builtin_add_overflow(a, b, &s) ? UINT64_MAX : s;
}

/* FNV-1a over the string @s, from @h (PRISM_FNV_SEED, or a seed mixed into it) */
#define PRISM_FNV_SEED 1469598103934665603ull

static inline __wraps uint64_t prism_fnv1a(uint64_t h, const char *s)
{
	while (*s)
		h = (h ^ (uint8_t)*s++) * 1099511628211ull;
	return h;
}

/* branch hints for the per-record paths */
#define likely(x) __builtin_expect(!!(x), 1)
#define unlikely(x) __builtin_expect(!!(x), 0)

/* free and NULL */
#define zfree(pp)             \
	do {                  \
		free(*(pp));  \
		*(pp) = NULL; \
	} while (0)

#include "banned.h"

#endif /* PRISM_INTERNAL_H */
