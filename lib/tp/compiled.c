// SPDX-License-Identifier: MIT
/*
 * Tracepoint print fmts compiled once into a list of operations (literals,
 * integer fields with their printf conversion, char arrays), so the common
 * events (sys_enter, sys_exit, sched_wakeup, ...) print without
 * libtraceevent's per-record parsing.  The output is byte for byte what
 * libtraceevent prints; anything not handled here (%p, *, precision, flags,
 * ?:, __get_str, expressions) stays on the checked slow path in tp.c.
 */
#include <prism/strbuf.h>
#include <prism/tp.h>

#include "internal.h"
#include "tp/field.h"
#include "tp/tp-internal.h"

enum fast_kind { FOP_LIT, FOP_INT, FOP_STR };

struct fast_op {
	enum fast_kind kind;
	char lit[48]; /* FOP_LIT */
	size_t lit_len;
	size_t off, size; /* the value's bytes in the payload */
	bool swap;
	int bits; /* FOP_INT: the C type printf sees: 8, 16, 32, 64 */
	char conv; /* d i u x X */
	unsigned int width;
	bool zero, left;
};

static int fast_add(struct prism_tp_event *ev, size_t *cap, const struct fast_op *op)
{
	if (prism_ensure_mem((void **)&ev->ops, cap, sizeof(*op), ev->nr_ops + 1))
		return -ENOMEM;
	ev->ops[ev->nr_ops++] = *op;
	if (op->kind != FOP_LIT && op->off + op->size > ev->need)
		ev->need = op->off + op->size;
	return 0;
}

/* the payload bytes a numeric arg reads, as libtraceevent's eval_num_arg() would */
static bool fast_num_arg(const struct prism_tp_event *ev, const struct tep_print_arg *arg,
			 struct fast_op *op)
{
	const struct prism_tp_field *f;
	uint64_t idx;

	if (arg->type == TEP_PRINT_FIELD) {
		f = prism_tp_event__field(ev, arg->field.name);
		if (!f || (f->flags & TP_FIELD_ARRAY) ||
		    (f->size != 1 && f->size != 2 && f->size != 4 && f->size != 8))
			return false;
		op->off = f->offset;
		op->size = f->size;
		op->swap = f->swap;
		return true;
	}
	if (arg->type == TEP_PRINT_OP && arg->op.op && !strcmp(arg->op.op, "[") && arg->op.left &&
	    arg->op.left->type == TEP_PRINT_FIELD && arg->op.right &&
	    arg->op.right->type == TEP_PRINT_ATOM) {
		f = prism_tp_event__field(ev, arg->op.left->field.name);
		idx = strtoull(arg->op.right->atom.atom, NULL, 0);
		if (!f || (f->flags & TP_FIELD_DYNAMIC) || !(f->flags & TP_FIELD_ARRAY) ||
		    idx >= f->nr_elems ||
		    (f->elem_size != 1 && f->elem_size != 2 && f->elem_size != 4 &&
		     f->elem_size != 8))
			return false;
		op->off = f->offset + idx * f->elem_size;
		op->size = f->elem_size;
		op->swap = f->swap;
		return true;
	}
	return false;
}

/* compile; false when the print fmt uses anything not handled here */
static bool fast_compile(struct prism_tp_event *ev)
{
	const struct tep_event *tev = ev->tev;
	const char *p = tev->print_fmt.format;
	const struct tep_print_arg *arg = tev->print_fmt.args;
	struct fast_op lit = { .kind = FOP_LIT };
	size_t cap = 0;

	if (!p || (tev->flags & (TEP_EVENT_FL_FAILED | TEP_EVENT_FL_ISBPRINT)) ||
	    tep_find_event(ev->tp->tep, tev->id) != tev)
		return false;
	while (*p) {
		struct fast_op op = { 0 };
		int ls = 0;

		if (*p != '%' || p[1] == '%') {
			char c = *p++;

			if (c == '%') {
				p++;
			} else if (c == '\\') {
				c = *p ? *p++ : '\\';
				c = c == 'n' ? '\n' : c == 't' ? '\t' : c == 'r' ? '\r' : c;
			}
			if (lit.lit_len == sizeof(lit.lit)) {
				if (fast_add(ev, &cap, &lit))
					return false;
				lit.lit_len = 0;
			}
			lit.lit[lit.lit_len++] = c;
			continue;
		}
		if (lit.lit_len) {
			if (fast_add(ev, &cap, &lit))
				return false;
			lit.lit_len = 0;
		}
		p++;
		for (;; p++) {
			if (*p == '-')
				op.left = true;
			else if (*p == '0' && !op.width)
				op.zero = true;
			else
				break;
		}
		while (*p >= '0' && *p <= '9')
			op.width = op.width * 10 + (unsigned int)(*p++ - '0');
		for (; *p == 'l' || *p == 'h' || *p == 'z' || *p == 'L'; p++)
			ls = *p == 'l' ? ls + 1 : *p == 'h' ? ls - 1 : *p == 'L' ? 2 : 1;
		if (!arg || op.width > 64)
			return false;
		switch (*p) {
		case 'd':
		case 'i':
		case 'u':
		case 'x':
		case 'X':
			if (ls < -2 || ls > 2 || !fast_num_arg(ev, arg, &op))
				return false;
			op.kind = FOP_INT;
			op.conv = *p;
			op.bits = ls == -2 ? 8 : ls == -1 ? 16 : ls == 0 ? 32 : 64;
			break;
		case 's': {
			const struct prism_tp_field *f;

			if (ls || op.width || arg->type != TEP_PRINT_FIELD)
				return false;
			f = prism_tp_event__field(ev, arg->field.name);
			/* libtraceevent prints a long-sized non-array as a pointer */
			if (!f || !(f->flags & TP_FIELD_ARRAY) || (f->flags & TP_FIELD_DYNAMIC) ||
			    !f->size)
				return false;
			op.kind = FOP_STR;
			op.off = f->offset;
			op.size = f->size;
			break;
		}
		default:
			return false;
		}
		p++;
		arg = arg->next;
		if (fast_add(ev, &cap, &op))
			return false;
	}
	if (lit.lit_len && fast_add(ev, &cap, &lit))
		return false;
	return true;
}

static inline char *fast_field(char *p, const char *str, size_t len, const struct fast_op *op)
{
	size_t fill = len < op->width ? op->width - len : 0;

	if (!op->left) {
		memset(p, ' ', fill);
		p += fill;
	}
	memcpy(p, str, len);
	p += len;
	if (op->left) {
		memset(p, ' ', fill);
		p += fill;
	}
	return p;
}

static char *fast_int(char *p, const struct fast_op *op, uint64_t v)
{
	const char *dig = op->conv == 'X' ? "0123456789ABCDEF" : "0123456789abcdef";
	bool neg = false, hex = op->conv == 'x' || op->conv == 'X';
	size_t n, len, fill;
	char *end;

	if (op->bits < 64)
		v &= (1ull << op->bits) - 1;
	if (op->conv == 'd' || op->conv == 'i') {
		if (op->bits < 64 && (v >> (op->bits - 1)) & 1)
			v |= ~0ull << op->bits; /* sign-extend */
		neg = (int64_t)v < 0;
		if (neg)
			v = ~v + 1; /* the magnitude: ~v < 2^63 here, so nothing wraps */
	}
	if (hex) {
		n = v ? (size_t)(67 - __builtin_clzll(v)) / 4 : 1;
	} else {
		uint64_t t = v;

		for (n = 1; t >= 10; t /= 10)
			n++;
	}
	len = n + neg;
	fill = len < op->width ? op->width - len : 0;
	if (!op->left && !op->zero) {
		memset(p, ' ', fill);
		p += fill;
	}
	if (neg)
		*p++ = '-';
	if (!op->left && op->zero) {
		memset(p, '0', fill);
		p += fill;
	}
	end = p + n;
	if (hex) {
		for (char *q = end; q > p; v >>= 4)
			*--q = dig[v & 15];
	} else {
		for (char *q = end; q > p; v /= 10)
			*--q = (char)('0' + v % 10);
	}
	p = end;
	if (op->left) {
		memset(p, ' ', fill);
		p += fill;
	}
	return p;
}

int tp_compiled__format(struct prism_tp_event *ev, const uint8_t *raw, size_t raw_size,
			struct prism_strbuf *out)
{
	size_t i, max = 0;
	char *p, *start;

	if (ev->fast_state == 0)
		ev->fast_state = fast_compile(ev) ? 1 : 2;
	if (ev->fast_state != 1 || ev->need > raw_size)
		return 0;
	for (i = 0; i < ev->nr_ops; i++)
		max += ev->ops[i].kind == FOP_LIT ? ev->ops[i].lit_len :
		       ev->ops[i].kind == FOP_STR ? ev->ops[i].size :
						    24 + ev->ops[i].width;
	if (prism_strbuf_grow(out, max))
		return 0;
	start = p = out->buf + out->len;
	for (i = 0; i < ev->nr_ops; i++) {
		const struct fast_op *op = &ev->ops[i];

		switch (op->kind) {
		case FOP_LIT:
			memcpy(p, op->lit, op->lit_len);
			p += op->lit_len;
			break;
		case FOP_INT:
			p = fast_int(p, op, tp_read_num(raw + op->off, op->size, false, op->swap));
			break;
		case FOP_STR: {
			const char *s = (const char *)raw + op->off;
			const char *nul = memchr(s, '\0', op->size);
			size_t len = nul ? (size_t)(nul - s) : op->size;

			memcpy(p, s, len);
			p += len;
			break;
		}
		}
	}
	out->len += (size_t)(p - start);
	out->buf[out->len] = '\0';
	return 1;
}
