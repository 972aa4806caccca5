/* SPDX-License-Identifier: GPL-2.0 */
/* JSON text the library writes (trace_event JSON, report -J). */
#ifndef TB_JSON_H
#define TB_JSON_H

#include <stddef.h>
#include <stdio.h>

/*
 * The @len bytes of @s escaped for the inside of a JSON string (no quotes):
 * '"' and '\\' escaped, control and non-ASCII bytes as \u00XX, so that
 * any bytes (a task's name, a marker's text) give valid JSON.
 */
void tb_json_string(FILE *out, const char *s, size_t len);

#endif /* TB_JSON_H */
