/* SPDX-License-Identifier: MIT */
/*
 * Command-line option tables: one table per command gives both the parser's
 * behaviour and the --help text (after git's parse-options).
 */
#ifndef PRISM_CMD_OPTIONS_H
#define PRISM_CMD_OPTIONS_H

#include <stdbool.h>
#include <stdint.h>

enum opt_type {
	OPT_END_,
	OPT_GROUP_, /* a heading in --help */
	OPT_BOOL_, /* bool; --no-NAME clears it */
	OPT_COUNT_, /* int, incremented per use (-vv) */
	OPT_STRING_, /* const char * */
	OPT_INT_, /* int, decimal or 0x hex */
	OPT_U64_, /* uint64_t */
	OPT_DOUBLE_, /* double */
	OPT_CALLBACK_ /* cb(opt, arg) */
};

struct option_def;
/* returns 0, or -1 after printing an error (a usage error: exit 129) */
typedef int (*option_cb)(const struct option_def *opt, const char *arg);

struct option_def {
	enum opt_type type;
	int short_name;
	const char *long_name;
	void *value;
	const char *argh; /* argument name in --help, NULL for no argument */
	const char *help;
	unsigned int flags;
	option_cb cb;
	const char *def; /* value used when an OPTARG option has no argument */
	/*
	 * an OPTARG option also takes the next word as its value when the word
	 * (up to a ',') is one of these (perf's "-g caller" beside a bare "-g");
	 * { "*", NULL }: any next word that is not an option
	 */
	const char *const *choices;
};

#define OPTF_OPTARG 1u /* argument is optional: --name[=arg] */
#define OPTF_HIDDEN 2u /* not shown in --help */
#define OPTF_POSITIVE 4u /* OPT_U64/OPT_DOUBLE: 0, negatives, inf and nan are usage errors */

#define OPT_END()                \
	{                        \
		.type = OPT_END_ \
	}
#define OPT_GROUP(h)                            \
	{                                       \
		.type = OPT_GROUP_, .help = (h) \
	}
#define OPT_BOOL(s, l, v, h)                                                                      \
	{                                                                                         \
		.type = OPT_BOOL_, .short_name = (s), .long_name = (l), .value = (v), .help = (h) \
	}
#define OPT_COUNT(s, l, v, h)                                                                      \
	{                                                                                          \
		.type = OPT_COUNT_, .short_name = (s), .long_name = (l), .value = (v), .help = (h) \
	}
#define OPT_STRING(s, l, v, a, h)                                                       \
	{                                                                               \
		.type = OPT_STRING_, .short_name = (s), .long_name = (l), .value = (v), \
		.argh = (a), .help = (h)                                                \
	}
#define OPT_INT(s, l, v, a, h)                                                                    \
	{                                                                                         \
		.type = OPT_INT_, .short_name = (s), .long_name = (l), .value = (v), .argh = (a), \
		.help = (h)                                                                       \
	}
#define OPT_U64(s, l, v, a, h)                                                                    \
	{                                                                                         \
		.type = OPT_U64_, .short_name = (s), .long_name = (l), .value = (v), .argh = (a), \
		.help = (h)                                                                       \
	}
#define OPT_DOUBLE(s, l, v, a, h)                                                       \
	{                                                                               \
		.type = OPT_DOUBLE_, .short_name = (s), .long_name = (l), .value = (v), \
		.argh = (a), .help = (h)                                                \
	}
/* a count, rate or time that must be above 0 (-F 0, --duration -1 are errors) */
#define OPT_U64_POSITIVE(s, l, v, a, h)                                                           \
	{                                                                                         \
		.type = OPT_U64_, .short_name = (s), .long_name = (l), .value = (v), .argh = (a), \
		.help = (h), .flags = OPTF_POSITIVE                                               \
	}
#define OPT_DOUBLE_POSITIVE(s, l, v, a, h)                                              \
	{                                                                               \
		.type = OPT_DOUBLE_, .short_name = (s), .long_name = (l), .value = (v), \
		.argh = (a), .help = (h), .flags = OPTF_POSITIVE                        \
	}
#define OPT_CALLBACK(s, l, v, a, h, f)                                                    \
	{                                                                                 \
		.type = OPT_CALLBACK_, .short_name = (s), .long_name = (l), .value = (v), \
		.argh = (a), .help = (h), .cb = (f)                                       \
	}
#define OPT_CALLBACK_OPTARG(s, l, v, a, h, f, d)                                          \
	{                                                                                 \
		.type = OPT_CALLBACK_, .short_name = (s), .long_name = (l), .value = (v), \
		.argh = (a), .help = (h), .cb = (f), .flags = OPTF_OPTARG, .def = (d)     \
	}
#define OPT_CALLBACK_CHOICE(s, l, v, a, h, f, d, c)                                       \
	{                                                                                 \
		.type = OPT_CALLBACK_, .short_name = (s), .long_name = (l), .value = (v), \
		.argh = (a), .help = (h), .cb = (f), .flags = OPTF_OPTARG, .def = (d),    \
		.choices = (c)                                                            \
	}

/* the options every command accepts: -v, -q, --color */
extern const struct option_def common_options[];

#define PARSE_OPT_STOP_AT_NON_OPTION 1u /* stop at the first non-option (a command) */
#define PARSE_OPT_KEEP_DASHDASH 2u /* leave "--" in the remaining arguments */

/**
 * parse_options - parse argv against @opts (and common_options)
 *
 * -h/--help prints the usage and exits 0.  A usage error prints what was
 * wrong with a "did you mean" hint, then the usage, and exits 129.
 *
 * Return: the number of remaining (non-option) arguments, moved to argv[0..].
 */
/*
 * "1,4-6" (a range at most 65536 long) into a malloc()ed array of numbers.
 * Return: 0, or -EINVAL for anything else (nothing allocated; says nothing).
 */
int parse_num_list(const char *s, int64_t **out, size_t *nr);

int parse_options(int argc, const char **argv, const struct option_def *opts,
		  const char *const *usage, unsigned int flags);

/* print usage lines and option help to stdout (err=false) or stderr */
void usage_with_options(const char *const *usage, const struct option_def *opts, bool err);

/*
 * Hidden options every command takes (the build generates the docs with
 * them, cmd/options-doc.c): --help-man prints the command's man page in
 * roff, --list-opts its options one a line ("-s<TAB>--long<TAB>argname").
 */
void options_print_man(const char *const *usage, const struct option_def *opts);
void options_print_list(const struct option_def *opts);

/* print an error and the usage, exit 129 */
__attribute__((noreturn, format(printf, 3, 4))) void
usage_error(const char *const *usage, const struct option_def *opts, const char *fmt, ...);

#endif /* PRISM_CMD_OPTIONS_H */
