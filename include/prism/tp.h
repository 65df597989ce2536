/* SPDX-License-Identifier: MIT */
/*
 * Tracepoint decoding: the event formats of a perf "tracing data" blob, field
 * access by name on PERF_SAMPLE_RAW payloads, and perf-script-compatible text.
 *
 * Ownership: a struct prism_tp owns every event and field object it hands
 * out; they stay valid until prism_tp__free().  Strings returned by the
 * accessors point into the tp (or, for field strings, into the caller's
 * payload) and must not be freed.
 *
 * A prism_tp is not safe for concurrent use from several threads (the
 * formatter keeps a scratch buffer, libtraceevent caches lookups).
 *
 * Payloads ("raw") are the PERF_SAMPLE_RAW bytes of a sample, starting with
 * the common fields (common_type, common_flags, ...).  They are untrusted:
 * every accessor checks that what it reads lies inside raw_size.
 *
 * Without libtraceevent every constructor fails with PRISM_E_NOFEATURE.
 */
#ifndef PRISM_TP_H
#define PRISM_TP_H

#include <prism/core.h>

struct prism_strbuf;
struct prism_tp;
struct prism_tp_event;
struct prism_tp_field;

/**
 * prism_tp__new - parse a perf tracing-data blob
 * @blob: the TRACING_DATA feature section of a perf.data file, or the
 *	  payload following a PERF_RECORD_HEADER_TRACING_DATA record in pipe
 *	  mode (trailing padding is ignored)
 * @size: bytes at @blob
 *
 * The blob is copied where needed; the caller may free it afterwards.  An
 * event format that libtraceevent cannot parse, or that looks malformed in
 * a way known to crash its parser, is logged as a warning and skipped; one
 * whose print fmt alone fails is kept and prints as "[FAILED TO PARSE]"
 * followed by its raw fields, as in perf.
 *
 * Return: a new object to release with prism_tp__free(), or NULL with errno
 * set: PRISM_E_TRUNCATED (the blob ends inside a section), PRISM_E_TRACEPOINT
 * (bad magic or malformed structure), ENOMEM, PRISM_E_NOFEATURE.
 */
PRISM_API struct prism_tp *prism_tp__new(const void *blob, size_t size);

/**
 * prism_tp__free - release a tp and everything it handed out
 * @tp: the object, or NULL
 */
PRISM_API void prism_tp__free(struct prism_tp *tp);

/**
 * prism_tp__nr_events - number of event formats in @tp
 * @tp: the tracing data
 */
PRISM_API size_t prism_tp__nr_events(const struct prism_tp *tp);

/**
 * prism_tp__event_at - the @idx'th event format, in ascending id order
 * @tp: the tracing data
 * @idx: 0 .. prism_tp__nr_events() - 1
 *
 * Return: the event, or NULL when @idx is out of range.
 */
PRISM_API const struct prism_tp_event *prism_tp__event_at(const struct prism_tp *tp, size_t idx);

/**
 * prism_tp__event - look an event format up by tracepoint id
 * @tp: the tracing data
 * @id: perf_event_attr.config of a PERF_TYPE_TRACEPOINT event, which is
 *	also the common_type field of its payloads
 *
 * Return: the event, or NULL when @tp has no format with that id.
 */
PRISM_API const struct prism_tp_event *prism_tp__event(const struct prism_tp *tp, uint64_t id);

/**
 * prism_tp__event_of - the event format a payload belongs to
 * @tp: the tracing data
 * @raw: a PERF_SAMPLE_RAW payload
 * @raw_size: its size in bytes
 *
 * Return: the event named by the payload's common_type, or NULL (errno
 * PRISM_E_TRUNCATED when the payload is too short to hold common_type,
 * PRISM_E_UNKNOWN_EVENT when no format has that id).
 */
PRISM_API const struct prism_tp_event *prism_tp__event_of(const struct prism_tp *tp,
							  const void *raw, size_t raw_size);

/**
 * prism_tp__format - append a payload formatted as perf script prints it
 * @tp: the tracing data
 * @raw: a PERF_SAMPLE_RAW payload
 * @raw_size: its size in bytes
 * @out: text is appended here
 *
 * The text is what perf script prints after the "event:" column (the
 * event's print fmt rendered by libtraceevent, no trailing newline), e.g.
 * "prev_comm=perf prev_pid=14933 prev_prio=120 prev_state=D ==> ...".
 * Nothing is appended on error.
 *
 * The payload is checked before libtraceevent sees it: every field, every
 * __data_loc array and every length, index and divisor the print fmt takes
 * from the payload must be in range.
 *
 * Return: 0; -PRISM_E_TRUNCATED when a field of the event, a dynamic array
 * it points to, or bytes a __print_hex() / __print_array() / x[i] of its
 * print fmt would read lie outside @raw_size; -PRISM_E_UNKNOWN_EVENT when
 * common_type names no known format; -PRISM_E_TRACEPOINT when the print fmt
 * needs a value that cannot be proven safe (a divisor that is 0 or not
 * understood, an ftrace bprint event); -ERANGE when @raw_size exceeds
 * INT32_MAX; -ENOMEM.
 */
PRISM_API int prism_tp__format(const struct prism_tp *tp, const void *raw, size_t raw_size,
			       struct prism_strbuf *out);

/**
 * prism_tp__format_fields - append a payload's fields, not its print fmt
 * @tp: the tracing data
 * @raw: the payload
 * @raw_size: its size in bytes
 * @out: where the text goes
 *
 * The event's own fields (not the common ones) as perf's --raw-trace shows
 * them (libtraceevent's tep_print_fields()): " name=value" each, numbers
 * in decimal (hex for pointers and longs), strings as they are, other
 * arrays as "ARRAY[00, 01, ...]".
 *
 * Return: 0; -PRISM_E_TRUNCATED when a field or a dynamic array lies
 * outside @raw_size; -PRISM_E_UNKNOWN_EVENT; -ERANGE; -ENOMEM.
 */
PRISM_API int prism_tp__format_fields(const struct prism_tp *tp, const void *raw, size_t raw_size,
				      struct prism_strbuf *out);

/**
 * prism_tp__comm - command name of a pid from the blob's saved_cmdlines
 * @tp: the tracing data
 * @pid: the pid
 *
 * Return: a string owned by @tp, or NULL when the pid is not listed (perf
 * writes saved_cmdlines only for blob version 0.6 and later).
 */
PRISM_API const char *prism_tp__comm(const struct prism_tp *tp, int pid);

/**
 * prism_tp_event__name - the event's name, e.g. "sched_switch"
 * @ev: the event format
 *
 * Return: a string owned by the tp.
 */
PRISM_API const char *prism_tp_event__name(const struct prism_tp_event *ev);

/**
 * prism_tp_event__system - the event's system (tracefs directory), e.g. "sched"
 * @ev: the event format
 *
 * Return: a string owned by the tp.
 */
PRISM_API const char *prism_tp_event__system(const struct prism_tp_event *ev);

/**
 * prism_tp_event__id - the tracepoint id (the format's "ID:" line)
 * @ev: the event format
 */
PRISM_API uint64_t prism_tp_event__id(const struct prism_tp_event *ev);

/**
 * prism_tp_event__field - look a field up by name
 * @ev: the event format
 * @name: field name, e.g. "prev_pid"; the common fields ("common_pid", ...)
 *	  are found too
 *
 * Always look fields up by name, never by position: kernels add and drop
 * fields between versions.
 *
 * Return: the field, or NULL when @ev has no such field.
 */
PRISM_API const struct prism_tp_field *prism_tp_event__field(const struct prism_tp_event *ev,
							     const char *name);

/**
 * prism_tp_event__nr_fields - number of fields, common fields included
 * @ev: the event format
 */
PRISM_API size_t prism_tp_event__nr_fields(const struct prism_tp_event *ev);

/**
 * prism_tp_event__field_at - iterate over the fields
 * @ev: the event format
 * @idx: 0 .. prism_tp_event__nr_fields() - 1; the common fields come first,
 *	 then the event's own, each in format-file order
 *
 * For listing only: look fields up by name to decode them.
 * Return: the field, or NULL when @idx is out of range.
 */
PRISM_API const struct prism_tp_field *prism_tp_event__field_at(const struct prism_tp_event *ev,
								size_t idx);

/**
 * prism_tp_field__name - the field's name, e.g. "prev_pid"
 * @f: the field
 *
 * Return: a string owned by the tp.
 */
PRISM_API const char *prism_tp_field__name(const struct prism_tp_field *f);

/**
 * prism_tp_field__type - the field's C type as the format file writes it
 * @f: the field
 *
 * Return: a string owned by the tp, e.g. "pid_t", "char[16]" (the array
 * length moves to the type, as libtraceevent reports it), "__data_loc char[]".
 */
PRISM_API const char *prism_tp_field__type(const struct prism_tp_field *f);

/**
 * prism_tp_field__offset - byte offset of the field in a payload
 * @f: the field
 */
PRISM_API size_t prism_tp_field__offset(const struct prism_tp_field *f);

/**
 * prism_tp_field__size - bytes the field takes in a payload
 * @f: the field
 *
 * Return: the size; 4 for a __data_loc / __rel_loc field (the word holding
 * the offset and length of its data).
 */
PRISM_API size_t prism_tp_field__size(const struct prism_tp_field *f);

/**
 * prism_tp_field__is_signed - whether the format declares the field signed
 * @f: the field
 */
PRISM_API bool prism_tp_field__is_signed(const struct prism_tp_field *f);

/**
 * prism_tp_field__is_string - whether prism_tp_field__str() can read @f
 * @f: the field
 *
 * Return: true for arrays of char, u8 or s8: char x[N], __data_loc char[]
 * and __rel_loc char[] fields.
 */
PRISM_API bool prism_tp_field__is_string(const struct prism_tp_field *f);

/**
 * prism_tp_field__is_dynamic - whether @f is a __data_loc / __rel_loc field
 * @f: the field
 *
 * Return: true when the field's data lies elsewhere in the payload, at an
 * offset read from the payload.
 */
PRISM_API bool prism_tp_field__is_dynamic(const struct prism_tp_field *f);

/**
 * prism_tp_field__nr_elems - elements of a fixed-size array field
 * @f: the field
 *
 * Return: N for x[N] with a known element size (args[6] gives 6), else 1.
 */
PRISM_API size_t prism_tp_field__nr_elems(const struct prism_tp_field *f);

/**
 * prism_tp_field__u64 - read a numeric field
 * @f: a scalar field of size 1, 2, 4 or 8
 * @raw: the payload
 * @raw_size: its size in bytes
 * @val: the value; a signed field is sign-extended into the u64 bit pattern
 *	 (cast to int64_t to use it)
 *
 * The value is converted from the byte order of the recording machine.
 *
 * Return: 0; -PRISM_E_TRUNCATED when the field lies outside @raw_size;
 * -EINVAL for array, dynamic and odd-sized fields.
 */
PRISM_API int prism_tp_field__u64(const struct prism_tp_field *f, const void *raw, size_t raw_size,
				  uint64_t *val);

/**
 * prism_tp_field__u64_at - read one element of a fixed-size numeric array
 * @f: the field (a scalar field has the single element 0)
 * @raw: the payload
 * @raw_size: its size in bytes
 * @idx: element index, below prism_tp_field__nr_elems()
 * @val: the value, converted and sign-extended as prism_tp_field__u64()
 *
 * Return: 0; -PRISM_E_TRUNCATED; -ERANGE when @idx is out of range; -EINVAL
 * for dynamic fields and element sizes other than 1, 2, 4 or 8.
 */
PRISM_API int prism_tp_field__u64_at(const struct prism_tp_field *f, const void *raw,
				     size_t raw_size, size_t idx, uint64_t *val);

/**
 * prism_tp_field__str - locate a string field in a payload
 * @f: a char x[N], __data_loc char[] or __rel_loc char[] field
 * @raw: the payload
 * @raw_size: its size in bytes
 * @str: set to the first character, inside @raw
 * @len: set to the length up to the first NUL, never past the field's bytes
 *
 * Note: *@str is not NUL-terminated when the string fills its field (a
 * 16-character comm in char[16]): always use *@len.
 *
 * Return: 0; -PRISM_E_TRUNCATED when the field or the bytes it points to lie
 * outside @raw_size; -EINVAL when @f is not a string field.
 */
PRISM_API int prism_tp_field__str(const struct prism_tp_field *f, const void *raw, size_t raw_size,
				  const char **str, size_t *len);

#endif /* PRISM_TP_H */
