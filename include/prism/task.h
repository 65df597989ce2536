/* SPDX-License-Identifier: MIT */
/*
 * The task model: pid/tid -> comm over time, from COMM, FORK and EXIT
 * records delivered in time order.  Analyses feed it the records and ask it
 * for the current name of a thread.
 */
#ifndef PRISM_TASK_H
#define PRISM_TASK_H

#include <prism/core.h>
#include <prism/event.h>

struct prism_tasks;

PRISM_API struct prism_tasks *prism_tasks__new(void); /* NULL + errno */
PRISM_API void prism_tasks__free(struct prism_tasks *t); /* accepts NULL */

/* feed a COMM, FORK or EXIT record (others are ignored); 0 or -ENOMEM */
PRISM_API int prism_tasks__event(struct prism_tasks *t, const struct prism_event *ev);

/* the thread's current comm, or NULL when no record named it ("swapper" for tid 0) */
PRISM_API const char *prism_tasks__comm(const struct prism_tasks *t, uint32_t tid);
/* the thread's process id, or -1 when unknown */
PRISM_API int64_t prism_tasks__pid(const struct prism_tasks *t, uint32_t tid);
/* whether an EXIT record was seen for the thread */
PRISM_API bool prism_tasks__exited(const struct prism_tasks *t, uint32_t tid);
/* number of exec()s seen for the thread (COMM records with the exec bit) */
PRISM_API unsigned int prism_tasks__nr_execs(const struct prism_tasks *t, uint32_t tid);

#endif /* PRISM_TASK_H */
