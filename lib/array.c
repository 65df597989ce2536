// SPDX-License-Identifier: MIT
/*
 * The one overflow-checked array-growth helper.
 */
#include "internal.h"

void *prism_reallocarray(void *ptr, size_t nmemb, size_t size)
{
	size_t total;

	if (__builtin_mul_overflow(nmemb, size, &total)) {
		errno = ENOMEM;
		return NULL;
	}
	return realloc(ptr, total ? total : 1);
}

int prism_ensure_mem(void **data, size_t *cap, size_t elem_size, size_t need)
{
	size_t new_cap;
	void *p;

	if (need <= *cap)
		return 0;
	/* start at 256 bytes (2 elements at least): many arrays stay small */
	new_cap = elem_size && elem_size < 128 ? 256 / elem_size : 2;
	if (new_cap < *cap)
		new_cap = *cap;
	while (new_cap < need) {
		if (new_cap > SIZE_MAX / 2)
			return -ENOMEM;
		new_cap *= 2;
	}
	p = prism_reallocarray(*data, new_cap, elem_size);
	if (!p)
		return -ENOMEM;
	*data = p;
	*cap = new_cap;
	return 0;
}
