// SPDX-License-Identifier: MIT
/*
 * Tracepoint decoding on libtraceevent: load the pieces of a perf
 * tracing-data blob into a tep_handle the way perf's trace_report() does,
 * give name-based access to payload fields, and print payloads with the
 * event's print fmt, which is what perf script shows.
 *
 * libtraceevent reads payload bytes at offsets taken from the format and
 * from the payload itself, mostly without checking them against the record
 * size.  Payloads come from perf.data files, so prism_tp__format() proves
 * every read in bounds first (tp_fields__check(), check_args()).
 */
#include <ctype.h>
#include <inttypes.h>

#include <traceevent/event-parse.h>
#include <traceevent/trace-seq.h>

#include <prism/strbuf.h>
#include <prism/tp.h>

#include "internal.h"
#include "tp/blob.h"
#include "tp/field.h"
#include "tp/tp-internal.h"

/*
 * libtraceevent prints char arrays it thinks printable with a bare "%s"
 * (tep_print_fields(), used for events whose print fmt failed to parse),
 * so an array with no NUL reads on past the payload.  Formatting works on a
 * copy followed by zero bytes: such a read stops at the payload's end.
 */
#define PAYLOAD_SLACK 16

/* ---- loading -------------------------------------------------------------------------------- */

/* NUL-terminated copy of a piece, for libtraceevent calls that take C strings */
static char *piece_dup(const struct tp_blob_piece *piece)
{
	char *s = malloc(piece->size + 1);

	if (s) {
		memcpy(s, piece->data, piece->size);
		s[piece->size] = '\0';
	}
	return s;
}

/*
 * Register every "addr : "format"" line of printk_formats.
 *
 * Note: tep_parse_printk_formats() reads past its copy on a last line
 * without ':' and tep_register_print_string() reads before its string when
 * that is shorter than three characters.  So the lines are split here, the
 * quotes and trailing "\n" are stripped as libtraceevent would, and the
 * result is re-wrapped as "<text>\n" so that libtraceevent's own stripping
 * always has three characters to look at and gives back <text>.
 */
static int load_printk(struct tep_handle *tep, const struct tp_blob_piece *piece)
{
	const char *p = piece->data, *end = p + piece->size, *nul;
	struct prism_strbuf sb = STRBUF_INIT;
	int err = 0;

	/* the section is text: it ends at a NUL, as for perf's C-string parser */
	nul = piece->size ? memchr(p, '\0', piece->size) : NULL;
	if (nul)
		end = nul;

	while (p < end && !err) {
		const char *eol = memchr(p, '\n', (size_t)(end - p));
		const char *line = p, *colon, *fmt;
		unsigned long long addr;
		size_t len;

		if (!eol)
			eol = end;
		p = eol + 1;
		colon = memchr(line, ':', (size_t)(eol - line));
		if (!colon || colon == line)
			continue;
		prism_strbuf_reset(&sb);
		prism_strbuf_add(&sb, line, (size_t)(colon - line));
		if (prism_strbuf_failed(&sb))
			break;
		addr = strtoull(sb.buf, NULL, 16);
		/* "addr : fmt": one space follows the colon */
		fmt = colon + 1 < eol ? colon + 2 : eol;
		len = fmt < eol ? (size_t)(eol - fmt) : 0;
		if (len && fmt[0] == '"') {
			fmt++;
			len--;
		}
		/* a "\n" goes only from inside closing quotes, as libtraceevent strips it */
		if (len && fmt[len - 1] == '"') {
			len--;
			if (len >= 2 && !memcmp(fmt + len - 2, "\\n", 2))
				len -= 2;
		}
		prism_strbuf_reset(&sb);
		prism_strbuf_addch(&sb, '"');
		prism_strbuf_add(&sb, fmt, len);
		prism_strbuf_addstr(&sb, "\\n\"");
		if (prism_strbuf_failed(&sb) || tep_register_print_string(tep, sb.buf, addr))
			err = -ENOMEM;
	}
	if (prism_strbuf_failed(&sb))
		err = -ENOMEM;
	prism_strbuf_release(&sb);
	return err;
}

/* optional text sections: a parse failure is worth a warning, not the blob */
static int load_text(struct tep_handle *tep, const struct tp_blob_piece *piece,
		     int (*parse)(struct tep_handle *, const char *), const char *what)
{
	char *s;

	if (!piece->size)
		return 0;
	s = piece_dup(piece);
	if (!s)
		return -ENOMEM;
	if (parse(tep, s))
		pr_warn("tp: tracing data: cannot parse all of %s", what);
	free(s);
	return 0;
}

static int load_tep(struct tep_handle *tep, const struct tp_blob *b)
{
	bool host_be = __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__;
	char *hp, msg[128];
	size_t i;
	int err;

	tep_set_file_bigendian(tep, b->big_endian ? TEP_BIG_ENDIAN : TEP_LITTLE_ENDIAN);
	tep_set_local_bigendian(tep, host_be ? TEP_BIG_ENDIAN : TEP_LITTLE_ENDIAN);
	tep_set_long_size(tep, b->long_size);
	tep_set_page_size(tep, (int)b->page_size);

	hp = piece_dup(&b->header_page);
	if (!hp)
		return -ENOMEM;
	/* as perf: the commit field of the page header is a kernel long */
	if (tep_parse_header_page(tep, hp, b->header_page.size, b->long_size))
		tep_set_long_size(tep, tep_get_header_page_size(tep));
	free(hp);

	for (i = 0; i < b->nr_formats; i++) {
		const struct tp_blob_format *f = &b->formats[i];
		enum tep_errno ret;

		err = tp_format__lint(f->text.data, f->text.size, i < b->nr_ftrace);
		if (err == -ENOMEM)
			return err;
		if (err) {
			pr_warn("tp: tracing data: skipping a malformed %s event format",
				f->system);
			continue;
		}
		ret = tep_parse_event(tep, f->text.data, f->text.size, f->system);
		if (ret == TEP_ERRNO__MEM_ALLOC_FAILED)
			return -ENOMEM;
		if (ret) {
			tep_strerror(tep, ret, msg, sizeof(msg));
			pr_warn("tp: tracing data: skipping a %s event format: %s", f->system, msg);
		}
	}

	err = load_text(tep, &b->kallsyms, tep_parse_kallsyms, "kallsyms");
	if (!err)
		err = load_printk(tep, &b->printk);
	if (!err)
		err = load_text(tep, &b->cmdlines, tep_parse_saved_cmdlines, "saved_cmdlines");
	return err;
}

static unsigned int field_flags(unsigned long tep_flags)
{
	return (tep_flags & TEP_FIELD_IS_SIGNED ? TP_FIELD_SIGNED : 0) |
	       (tep_flags & TEP_FIELD_IS_ARRAY ? TP_FIELD_ARRAY : 0) |
	       (tep_flags & TEP_FIELD_IS_STRING ? TP_FIELD_STRING : 0) |
	       (tep_flags & TEP_FIELD_IS_DYNAMIC ? TP_FIELD_DYNAMIC | TP_FIELD_ARRAY : 0) |
	       (tep_flags & TEP_FIELD_IS_RELATIVE ? TP_FIELD_RELATIVE : 0);
}

static int add_fields(struct prism_tp_event *ev, const struct tep_format_field *f, size_t *cap)
{
	for (; f; f = f->next) {
		struct prism_tp_field *pf;
		int err;

		/* a format is untrusted text: no negative offsets, no 2 GiB fields */
		if (f->offset < 0 || f->size < 0 || f->offset > 0xffff || f->size > 0xffff) {
			pr_warn("tp: %s:%s: field '%s' has offset %d size %d, dropping the event",
				ev->tev->system, ev->tev->name, f->name, f->offset, f->size);
			return -PRISM_E_TRACEPOINT;
		}
		err = prism_ensure_mem((void **)&ev->fields, cap, sizeof(*ev->fields),
				       ev->nr_fields + 1);
		if (err)
			return err;
		pf = &ev->fields[ev->nr_fields++];
		pf->name = f->name;
		pf->type = f->type;
		pf->offset = (size_t)f->offset;
		pf->size = (size_t)f->size;
		pf->swap = ev->tp->swap;
		pf->flags = field_flags(f->flags);
		pf->elem_size = pf->size;
		pf->nr_elems = 1;
		if ((f->flags & TEP_FIELD_IS_ARRAY) && !(f->flags & TEP_FIELD_IS_DYNAMIC) &&
		    f->arraylen && f->elementsize &&
		    (uint64_t)f->arraylen * f->elementsize == pf->size) {
			pf->elem_size = f->elementsize;
			pf->nr_elems = f->arraylen;
		}
	}
	return 0;
}

/* print args whose reads libtraceevent does not bound (see check_args()) */
static bool args_need_check(const struct tep_print_arg *arg)
{
	for (; arg; arg = arg->next) {
		switch (arg->type) {
		case TEP_PRINT_HEX:
		case TEP_PRINT_HEX_STR:
		case TEP_PRINT_INT_ARRAY:
			return true;
		case TEP_PRINT_OP:
			if (!arg->op.op || !strcmp(arg->op.op, "[") || !strcmp(arg->op.op, "/") ||
			    !strcmp(arg->op.op, "%") || args_need_check(arg->op.left) ||
			    args_need_check(arg->op.right))
				return true;
			break;
		case TEP_PRINT_TYPE:
			if (args_need_check(arg->typecast.item))
				return true;
			break;
		case TEP_PRINT_FLAGS:
			if (args_need_check(arg->flags.field))
				return true;
			break;
		case TEP_PRINT_SYMBOL:
			if (args_need_check(arg->symbol.field))
				return true;
			break;
		case TEP_PRINT_FUNC:
			if (args_need_check(arg->func.args))
				return true;
			break;
		default:
			break;
		}
	}
	return false;
}

static int cmp_event(const void *a, const void *b)
{
	const struct prism_tp_event *x = a, *y = b;

	return (x->tev->id > y->tev->id) - (x->tev->id < y->tev->id);
}

static void release_event(struct prism_tp_event *ev)
{
	zfree(&ev->ops);
	zfree(&ev->fields);
	ev->nr_fields = 0;
}

static int build_events(struct prism_tp *tp)
{
	int i, n = tep_get_events_count(tp->tep);
	size_t k;

	tp->events = calloc(n > 0 ? (size_t)n : 1, sizeof(*tp->events));
	if (!tp->events)
		return -ENOMEM;
	for (i = 0; i < n; i++) {
		struct prism_tp_event *ev = &tp->events[tp->nr_events];
		size_t cap = 0;
		int err;

		ev->tp = tp;
		ev->tev = tep_get_event(tp->tep, i);
		if (!ev->tev || ev->tev->id < 0)
			continue;
		if (ev->tev->flags & TEP_EVENT_FL_FAILED)
			pr_warn("tp: %s:%s: print format not understood, printing raw fields",
				ev->tev->system, ev->tev->name);
		err = add_fields(ev, ev->tev->format.common_fields, &cap);
		if (!err)
			err = add_fields(ev, ev->tev->format.fields, &cap);
		if (err == -ENOMEM)
			return err;
		if (err) {
			release_event(ev);
			continue;
		}
		ev->check_args = !(ev->tev->flags & TEP_EVENT_FL_FAILED) &&
				 args_need_check(ev->tev->print_fmt.args);
		tp->nr_events++;
	}
	qsort(tp->events, tp->nr_events, sizeof(*tp->events), cmp_event);
	/* the same id twice: keep the first, as a lookup could only find one */
	for (k = 1; k < tp->nr_events; k++) {
		if (tp->events[k].tev->id != tp->events[k - 1].tev->id)
			continue;
		pr_warn("tp: two event formats with id %d, ignoring %s:%s", tp->events[k].tev->id,
			tp->events[k].tev->system, tp->events[k].tev->name);
		release_event(&tp->events[k]);
		memmove(&tp->events[k], &tp->events[k + 1],
			(tp->nr_events - k - 1) * sizeof(*tp->events));
		tp->nr_events--;
		k--;
	}
	/*
	 * libtraceevent finds every payload's event through the common_type
	 * of its lowest-id event: check exactly that field before printing.
	 */
	if (n > 0) {
		const struct tep_event *first = tep_get_event(tp->tep, 0);
		const struct prism_tp_event *ev = first ? prism_tp__event(tp, (uint64_t)first->id) :
							  NULL;
		const struct prism_tp_field *f = NULL;

		if (ev && ev->tev == first)
			f = prism_tp_event__field(ev, "common_type");
		if (f && !(f->flags & TP_FIELD_ARRAY) &&
		    (f->size == 1 || f->size == 2 || f->size == 4 || f->size == 8))
			tp->type_field = f;
	}
	return 0;
}

struct prism_tp *prism_tp__new(const void *blob, size_t size)
{
	struct prism_tp *tp = NULL;
	struct tp_blob b;
	int err;

	err = tp_blob__parse(&b, blob, size);
	if (err)
		goto out;
	tp = calloc(1, sizeof(*tp));
	if (tp)
		tp->tep = tep_alloc();
	if (!tp || !tp->tep) {
		err = -ENOMEM;
		goto out;
	}
	tp->swap = b.big_endian != (__BYTE_ORDER__ == __ORDER_BIG_ENDIAN__);
	err = load_tep(tp->tep, &b);
	if (!err)
		err = build_events(tp);
	if (!err)
		pr_debug("tp: tracing data version %s: %zu event formats", b.version,
			 tp->nr_events);
out:
	tp_blob__release(&b);
	if (err) {
		prism_tp__free(tp);
		errno = -err;
		return NULL;
	}
	return tp;
}

void prism_tp__free(struct prism_tp *tp)
{
	size_t i;

	if (!tp)
		return;
	for (i = 0; i < tp->nr_events; i++)
		release_event(&tp->events[i]);
	free(tp->events);
	free(tp->copy);
	if (tp->seq_init)
		trace_seq_destroy(&tp->seq);
	if (tp->tep)
		tep_free(tp->tep);
	free(tp);
}

/* ---- lookup --------------------------------------------------------------------------------- */

size_t prism_tp__nr_events(const struct prism_tp *tp)
{
	return tp ? tp->nr_events : 0;
}

const struct prism_tp_event *prism_tp__event_at(const struct prism_tp *tp, size_t idx)
{
	return tp && idx < tp->nr_events ? &tp->events[idx] : NULL;
}

const struct prism_tp_event *prism_tp__event(const struct prism_tp *tp, uint64_t id)
{
	size_t lo = 0, hi = tp ? tp->nr_events : 0;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		uint64_t mid_id = (uint64_t)tp->events[mid].tev->id;

		if (mid_id == id)
			return &tp->events[mid];
		if (mid_id < id)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}

const char *prism_tp__comm(const struct prism_tp *tp, int pid)
{
	if (!tp || !tep_is_pid_registered(tp->tep, pid))
		return NULL;
	return tep_data_comm_from_pid(tp->tep, pid);
}

const char *prism_tp_event__name(const struct prism_tp_event *ev)
{
	return ev->tev->name;
}

const char *prism_tp_event__system(const struct prism_tp_event *ev)
{
	return ev->tev->system;
}

uint64_t prism_tp_event__id(const struct prism_tp_event *ev)
{
	return (uint64_t)ev->tev->id;
}

size_t prism_tp_event__nr_fields(const struct prism_tp_event *ev)
{
	return ev->nr_fields;
}

const struct prism_tp_field *prism_tp_event__field_at(const struct prism_tp_event *ev, size_t idx)
{
	return idx < ev->nr_fields ? &ev->fields[idx] : NULL;
}

const struct prism_tp_field *prism_tp_event__field(const struct prism_tp_event *ev,
						   const char *name)
{
	size_t i;

	for (i = 0; ev && name && i < ev->nr_fields; i++) {
		if (!strcmp(ev->fields[i].name, name))
			return &ev->fields[i];
	}
	return NULL;
}

/* ---- formatting ----------------------------------------------------------------------------- */

const struct prism_tp_event *prism_tp__event_of(const struct prism_tp *tp, const void *raw,
						size_t raw_size)
{
	const struct prism_tp_event *ev;
	uint64_t type;

	if (!tp->type_field) {
		errno = PRISM_E_UNKNOWN_EVENT;
		return NULL;
	}
	if (prism_tp_field__u64(tp->type_field, raw, raw_size, &type)) {
		errno = PRISM_E_TRUNCATED;
		return NULL;
	}
	ev = prism_tp__event(tp, type);
	if (!ev)
		errno = PRISM_E_UNKNOWN_EVENT;
	return ev;
}

static const struct prism_tp_field *arg_field(const struct prism_tp_event *ev,
					      const struct tep_print_arg *arg)
{
	if (arg && arg->type == TEP_PRINT_FIELD)
		return prism_tp_event__field(ev, arg->field.name);
	if (arg &&
	    (arg->type == TEP_PRINT_DYNAMIC_ARRAY || arg->type == TEP_PRINT_DYNAMIC_ARRAY_LEN))
		return arg->dynarray.field ? prism_tp_event__field(ev, arg->dynarray.field->name) :
					     NULL;
	return NULL;
}

/*
 * The bits a cast keeps, as libtraceevent's eval_type_str() applies it;
 * for a type it does not know, assume the narrowest (a divisor must not be
 * found nonzero here and become zero there).
 */
static uint64_t cast_mask(const struct prism_tp_event *ev, const char *type)
{
	size_t len = strlen(type);

	if (len && type[len - 1] == '*')
		return UINT64_MAX;
	if (!strncmp(type, "unsigned ", 9))
		type += 9;
	else if (!strncmp(type, "signed ", 7))
		type += 7;
	if (!strcmp(type, "u64") || !strcmp(type, "s64") || !strcmp(type, "long long") ||
	    !strncmp(type, "struct", 6))
		return UINT64_MAX;
	if (!strcmp(type, "long"))
		return tep_get_long_size(ev->tp->tep) == 8 ? UINT64_MAX : 0xffffffff;
	if (!strcmp(type, "u32") || !strcmp(type, "s32") || !strcmp(type, "int"))
		return 0xffffffff;
	if (!strcmp(type, "u16") || !strcmp(type, "s16") || !strcmp(type, "short"))
		return 0xffff;
	return 0xff;
}

/*
 * Evaluate a length, index or divisor expression of a print fmt the way
 * libtraceevent's eval_num_arg() will.  Only the shapes seen in kernel
 * formats are understood: numbers, fields, __get_dynamic_array_len(),
 * casts and + - * & | << >>.  Anything else, and any overflow, is
 * -PRISM_E_TRACEPOINT.
 */
static int eval_arg(const struct prism_tp_event *ev, const struct tep_print_arg *arg,
		    const void *raw, size_t raw_size, uint64_t *val)
{
	const struct prism_tp_field *f = arg_field(ev, arg);
	const char *op;
	size_t off, len;
	uint64_t l, r;
	int err;

	if (!arg)
		return -PRISM_E_TRACEPOINT;
	switch (arg->type) {
	case TEP_PRINT_ATOM:
		*val = strtoull(arg->atom.atom, NULL, 0);
		return 0;
	case TEP_PRINT_FIELD:
		if (!f || (f->flags & TP_FIELD_ARRAY) || f->nr_elems != 1)
			return -PRISM_E_TRACEPOINT;
		if (!range_ok(f->offset, f->size, raw_size))
			return -PRISM_E_TRUNCATED;
		/* libtraceevent reads fields unsigned */
		*val = tp_read_num((const uint8_t *)raw + f->offset, f->size, false, f->swap);
		return 0;
	case TEP_PRINT_DYNAMIC_ARRAY_LEN:
		if (!f || !(f->flags & TP_FIELD_DYNAMIC))
			return -PRISM_E_TRACEPOINT;
		err = tp_field__dynamic_loc(f, raw, raw_size, &off, &len);
		*val = len;
		return err;
	case TEP_PRINT_TYPE:
		err = eval_arg(ev, arg->typecast.item, raw, raw_size, val);
		if (!err)
			*val &= cast_mask(ev, arg->typecast.type);
		return err;
	case TEP_PRINT_OP:
		op = arg->op.op;
		if (!op || !op[0] ||
		    (op[1] && (op[1] != op[0] || op[2] || (op[0] != '<' && op[0] != '>'))))
			return -PRISM_E_TRACEPOINT;
		err = eval_arg(ev, arg->op.left, raw, raw_size, &l);
		if (!err)
			err = eval_arg(ev, arg->op.right, raw, raw_size, &r);
		if (err)
			return err;
		switch (op[0]) {
		case '+':
			return __builtin_add_overflow(l, r, val) ? -PRISM_E_TRACEPOINT : 0;
		case '-':
			return __builtin_sub_overflow(l, r, val) ? -PRISM_E_TRACEPOINT : 0;
		case '*':
			return __builtin_mul_overflow(l, r, val) ? -PRISM_E_TRACEPOINT : 0;
		case '&':
			*val = l & r;
			return 0;
		case '|':
			*val = l | r;
			return 0;
		case '<':
		case '>':
			if (r >= 64)
				return -PRISM_E_TRACEPOINT;
			*val = op[0] == '<' ? l << r : l >> r;
			return 0;
		default:
			return -PRISM_E_TRACEPOINT;
		}
	default:
		return -PRISM_E_TRACEPOINT;
	}
}

/* @base[0 .. count * el_size) must lie in the payload */
static int check_span(const struct prism_tp_event *ev, const struct tep_print_arg *base,
		      uint64_t count, uint64_t el_size, const void *raw, size_t raw_size)
{
	const struct prism_tp_field *f = arg_field(ev, base);
	uint64_t bytes;
	size_t off, len;
	int err;

	if (!f)
		return -PRISM_E_TRACEPOINT;
	off = f->offset;
	if (base->type == TEP_PRINT_DYNAMIC_ARRAY) {
		err = tp_field__dynamic_loc(f, raw, raw_size, &off, &len);
		if (err)
			return err;
	} else if (base->type != TEP_PRINT_FIELD) {
		return -PRISM_E_TRACEPOINT;
	}
	if (__builtin_mul_overflow(count, el_size, &bytes) || bytes > SIZE_MAX ||
	    !range_ok(off, (size_t)bytes, raw_size))
		return -PRISM_E_TRUNCATED;
	return 0;
}

/*
 * "x[i]": libtraceevent reads element i at the field's offset, or at the
 * __data_loc offset (without the __rel_loc adjustment) of a dynamic array,
 * with the element size of the tep field or else a kernel long.
 */
static int check_index(const struct prism_tp_event *ev, const struct tep_print_arg *op,
		       const void *raw, size_t raw_size)
{
	const struct tep_print_arg *base = op->op.left;
	const struct tep_format_field *tf = NULL;
	const struct prism_tp_field *f;
	uint64_t idx, es, off, end;
	int err;

	while (base && base->type == TEP_PRINT_TYPE)
		base = base->typecast.item;
	f = arg_field(ev, base);
	if (f)
		tf = tep_find_any_field(ev->tev, f->name);
	if (!f || !tf || (base->type != TEP_PRINT_FIELD && base->type != TEP_PRINT_DYNAMIC_ARRAY))
		return -PRISM_E_TRACEPOINT;
	err = eval_arg(ev, op->op.right, raw, raw_size, &idx);
	if (err)
		return err;
	es = (uint64_t)tf->elementsize;
	off = f->offset;
	if (base->type == TEP_PRINT_DYNAMIC_ARRAY) {
		if (!es)
			es = (uint64_t)tep_get_long_size(ev->tp->tep);
		if (!range_ok(f->offset, f->size, raw_size) || (f->size != 2 && f->size != 4))
			return -PRISM_E_TRUNCATED;
		off = tp_read_num((const uint8_t *)raw + f->offset, f->size, false, f->swap) &
		      0xffff;
	}
	if (__builtin_mul_overflow(idx, es, &end) || __builtin_add_overflow(end, off, &end) ||
	    __builtin_add_overflow(end, es, &end) || end > raw_size)
		return -PRISM_E_TRUNCATED;
	return 0;
}

/*
 * libtraceevent bounds field and __data_loc reads itself (and
 * tp_fields__check() ran first), but not these: __print_hex() and
 * __print_array() read as many bytes as an expression says, "x[i]" reads
 * element i of a field, and "a / b" traps when b is 0.  Walk the print
 * args and prove each such read in bounds and each divisor nonzero for
 * this payload.
 */
static int check_args(const struct prism_tp_event *ev, const struct tep_print_arg *arg,
		      const void *raw, size_t raw_size)
{
	uint64_t n, es;
	int err = 0;

	for (; arg && !err; arg = arg->next) {
		switch (arg->type) {
		case TEP_PRINT_HEX:
		case TEP_PRINT_HEX_STR:
			err = eval_arg(ev, arg->hex.size, raw, raw_size, &n);
			if (!err)
				err = check_span(ev, arg->hex.field, n, 1, raw, raw_size);
			break;
		case TEP_PRINT_INT_ARRAY:
			err = eval_arg(ev, arg->int_array.count, raw, raw_size, &n);
			if (!err)
				err = eval_arg(ev, arg->int_array.el_size, raw, raw_size, &es);
			/* libtraceevent prints "BAD SIZE" and reads one byte for odd sizes */
			if (!err && es != 1 && es != 2 && es != 4 && es != 8)
				es = 1;
			if (!err)
				err = check_span(ev, arg->int_array.field, n, es, raw, raw_size);
			break;
		case TEP_PRINT_OP:
			if (arg->op.op && !strcmp(arg->op.op, "["))
				err = check_index(ev, arg, raw, raw_size);
			/* x / 0 is SIGFPE: the divisor must be known and nonzero */
			if (arg->op.op && (!strcmp(arg->op.op, "/") || !strcmp(arg->op.op, "%"))) {
				err = eval_arg(ev, arg->op.right, raw, raw_size, &n);
				if (!err && !n)
					err = -PRISM_E_TRACEPOINT;
			}
			if (!err)
				err = check_args(ev, arg->op.left, raw, raw_size);
			if (!err)
				err = check_args(ev, arg->op.right, raw, raw_size);
			break;
		case TEP_PRINT_TYPE:
			err = check_args(ev, arg->typecast.item, raw, raw_size);
			break;
		case TEP_PRINT_FLAGS:
			err = check_args(ev, arg->flags.field, raw, raw_size);
			break;
		case TEP_PRINT_SYMBOL:
			err = check_args(ev, arg->symbol.field, raw, raw_size);
			break;
		case TEP_PRINT_FUNC:
			err = check_args(ev, arg->func.args, raw, raw_size);
			break;
		default:
			break;
		}
	}
	return err;
}

/* @raw's event (its size below 2 GiB); NULL with errno set */
static const struct prism_tp_event *event_at(const struct prism_tp *tp, const void *raw,
					     size_t raw_size)
{
	if (raw_size > INT32_MAX) {
		errno = ERANGE;
		return NULL;
	}
	return prism_tp__event_of(tp, raw, raw_size);
}

int prism_tp__format(const struct prism_tp *tp, const void *raw, size_t raw_size,
		     struct prism_strbuf *out)
{
	struct prism_tp *mtp = (struct prism_tp *)tp; /* scratch buffers only */
	struct tep_record record;
	const struct prism_tp_event *ev = event_at(tp, raw, raw_size);
	int err;

	if (!ev)
		return -errno;
	/*
	 * ftrace's binary printk decodes its arguments from the payload with
	 * no bounds check at all; perf cannot record it anyway.
	 */
	if (ev->tev->flags & TEP_EVENT_FL_ISBPRINT)
		return -PRISM_E_TRACEPOINT;
	if (tp_compiled__format((struct prism_tp_event *)ev, raw, raw_size, out))
		return 0;
	/* two formats with one id: libtraceevent must print the one checked here */
	if (tep_find_event(tp->tep, ev->tev->id) != ev->tev)
		return -PRISM_E_TRACEPOINT;
	err = tp_fields__check(ev->fields, ev->nr_fields, raw, raw_size);
	if (!err && ev->check_args)
		err = check_args(ev, ev->tev->print_fmt.args, raw, raw_size);
	if (err)
		return err;

	if (prism_ensure_mem((void **)&mtp->copy, &mtp->copy_cap, 1, raw_size + PAYLOAD_SLACK))
		return -ENOMEM;
	memcpy(mtp->copy, raw, raw_size);
	memset(mtp->copy + raw_size, 0, PAYLOAD_SLACK);
	if (!mtp->seq_init) {
		trace_seq_init(&mtp->seq);
		mtp->seq_init = true;
	}
	trace_seq_reset(&mtp->seq);
	memset(&record, 0, sizeof(record));
	record.data = mtp->copy;
	record.size = (int)raw_size;
	record.cpu = -1;
	/* perf 6.1 event_format__fprintf() */
	tep_print_event(tp->tep, &mtp->seq, &record, "%s", TEP_PRINT_INFO);
	if (mtp->seq.state != TRACE_SEQ__GOOD)
		return -ENOMEM;
	prism_strbuf_add(out, mtp->seq.buffer, mtp->seq.len);
	return prism_strbuf_failed(out) ? -ENOMEM : 0;
}

/* libtraceevent's is_printable_array(): printable up to the first NUL */
static bool printable(const uint8_t *p, size_t len)
{
	size_t i;

	for (i = 0; i < len && p[i]; i++)
		if (!isprint(p[i]) && !isspace(p[i]))
			return false;
	return true;
}

/* one field's value as perf 6.1's libtraceevent prints it (tep_print_field()) */
static void raw_field(const struct prism_tp *tp, const struct prism_tp_field *f,
		      struct tep_format_field *tf, const uint8_t *raw, size_t raw_size,
		      struct prism_strbuf *out)
{
	size_t off = f->offset, len = f->size, i;
	uint64_t v;

	if (tf->flags & TEP_FIELD_IS_ARRAY) {
		if ((tf->flags & TEP_FIELD_IS_DYNAMIC) &&
		    tp_field__dynamic_loc(f, raw, raw_size, &off, &len))
			return;
		if ((tf->flags & TEP_FIELD_IS_STRING) && printable(raw + off, len)) {
			prism_strbuf_add(out, raw + off, strnlen((const char *)raw + off, len));
			return;
		}
		prism_strbuf_addstr(out, "ARRAY[");
		for (i = 0; i < len; i++)
			prism_strbuf_addf(out, "%s%02x", i ? ", " : "", raw[off + i]);
		prism_strbuf_addch(out, ']');
		tf->flags &= ~TEP_FIELD_IS_STRING; /* libtraceevent's, from then on */
		return;
	}
	v = tp_read_num(raw + off, f->size, false, tp->swap);
	if (tf->flags & TEP_FIELD_IS_POINTER)
		prism_strbuf_addf(out, "0x%" PRIx64, v);
	else if ((tf->flags & TEP_FIELD_IS_SIGNED) && f->size == 4)
		prism_strbuf_addf(out, tf->flags & TEP_FIELD_IS_LONG ? "0x%x" : "%d", (int32_t)v);
	else if ((tf->flags & TEP_FIELD_IS_SIGNED) && f->size == 2)
		prism_strbuf_addf(out, "%2d", (int16_t)v);
	else if ((tf->flags & TEP_FIELD_IS_SIGNED) && f->size == 1)
		prism_strbuf_addf(out, "%1d", (int8_t)v);
	else if (tf->flags & TEP_FIELD_IS_SIGNED)
		prism_strbuf_addf(out, "%" PRId64, (int64_t)v);
	else
		prism_strbuf_addf(out, tf->flags & TEP_FIELD_IS_LONG ? "0x%" PRIx64 : "%" PRIu64,
				  v);
}

int prism_tp__format_fields(const struct prism_tp *tp, const void *raw, size_t raw_size,
			    struct prism_strbuf *out)
{
	const struct prism_tp_event *ev = event_at(tp, raw, raw_size);
	struct tep_format_field *tf;
	size_t i;
	int err;

	if (!ev)
		return -errno;
	err = tp_fields__check(ev->fields, ev->nr_fields, raw, raw_size);
	if (err)
		return err;
	/* perf 6.1's get_trace_output() with --raw-trace: the event's own fields */
	for (tf = ev->tev->format.fields; tf; tf = tf->next) {
		for (i = 0; i < ev->nr_fields && strcmp(ev->fields[i].name, tf->name); i++)
			;
		if (i == ev->nr_fields)
			continue;
		prism_strbuf_addf(out, " %s=", tf->name);
		raw_field(tp, &ev->fields[i], tf, raw, raw_size, out);
	}
	return prism_strbuf_failed(out) ? -ENOMEM : 0;
}
