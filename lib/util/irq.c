// SPDX-License-Identifier: MIT
/*
 * Interrupt contexts of the utilization state machine: hard and soft
 * interrupts open and close on a CPU (nested), charged to the task they
 * interrupted (or to the idle CPU), and the names of IRQ handlers.
 */
#include "util/state-fast.h"

void util_irq_remember_name(struct prism_util *u, int64_t irq, const char *name, size_t len)
{
	size_t i, n = 0;
	struct irqname *e;

	if (!name || !len)
		return;
	for (i = 0; i < u->nr_irqnames; i++)
		if (u->irqnames[i].irq == irq)
			break;
	if (i == u->nr_irqnames) {
		if (prism_ensure_mem((void **)&u->irqnames, &u->cap_irqnames, sizeof(*u->irqnames),
				     u->nr_irqnames + 1))
			return;
		u->nr_irqnames++;
	}
	e = &u->irqnames[i];
	e->irq = irq;
	while (n < len && n < sizeof(e->name) - 1 && name[n])
		n++;
	memcpy(e->name, name, n);
	e->name[n] = '\0';
}

const char *util_irq_name(const struct prism_util *u, int64_t irq)
{
	size_t i;

	for (i = 0; i < u->nr_irqnames; i++)
		if (u->irqnames[i].irq == irq && u->irqnames[i].name[0])
			return u->irqnames[i].name;
	return NULL;
}

struct calltab *util_ctx_calls(struct prism_util *u, struct task *t)
{
	return t ? &t->calls : &u->idle_calls;
}

__wraps int util_irq_entry(struct prism_util *u, struct cpu *c, uint64_t now, uint8_t kind,
			   int64_t id)
{
	struct ictx *x;

	c->irq_seen = true;
	if (c->nr_ictx == MAX_ICTX) {
		/* exits were lost: forget the oldest context */
		memmove(&c->ictx[0], &c->ictx[1], (MAX_ICTX - 1) * sizeof(c->ictx[0]));
		c->nr_ictx--;
		u->an.unmatched_irq_exits++;
	}
	x = &c->ictx[c->nr_ictx++];
	x->kind = kind;
	x->id = id;
	x->start = now;
	x->task = c->cur;
	return 0;
}

__wraps int util_irq_exit(struct prism_util *u, struct cpu *c, uint64_t now, uint8_t kind,
			  int64_t id)
{
	int i;
	bool first = !c->irq_seen;
	struct ucall *call;

	c->irq_seen = true;
	for (i = c->nr_ictx - 1; i >= 0; i--)
		if (c->ictx[i].kind == kind && c->ictx[i].id == id)
			break;
	if (i < 0) {
		if (!first) {
			u->an.unmatched_irq_exits++;
			return 0;
		}
		call = calltab_get(util_ctx_calls(u, c->cur), kind, id, NULL);
		if (!call)
			return -ENOMEM;
		call->pub.pending += now - u->start;
		call->pub.nr_pending_start++;
		return 0;
	}
	call = calltab_get(util_ctx_calls(u, c->ictx[i].task), kind, id, NULL);
	if (!call)
		return -ENOMEM;
	call_complete(call, now - c->ictx[i].start);
	call_observe(u, kind, id, c->ictx[i].task, (uint32_t)(c - u->cpus), c->ictx[i].start, now);
	call->pub.oncpu += now - c->ictx[i].start;
	if (i != c->nr_ictx - 1)
		u->an.unmatched_irq_exits += (uint64_t)(c->nr_ictx - 1 - i);
	c->nr_ictx = i;
	return 0;
}
