// SPDX-License-Identifier: GPL-2.0
/* Companion file names; see util/companion.h. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "util/companion.h"

char *tb_companion_path(const char *input, const char *suffix)
{
	size_t a, b;
	char *p;

	if (!input || !strcmp(input, "-"))
		return NULL;
	a = strlen(input);
	b = strlen(suffix);
	p = malloc(a + b + 1);
	if (!p) {
		errno = ENOMEM;
		return NULL;
	}
	memcpy(p, input, a);
	memcpy(p + a, suffix, b + 1);
	return p;
}
