// SPDX-License-Identifier: GPL-2.0
/* "ID NAME" function name maps; see format/name_map.h. */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "format/fdr_records.h"
#include "format/name_map.h"
#include "util/buf.h"
#include "util/parse.h"

int tb_name_map_add(struct tb_name_map *m, uint32_t id, const char *name)
{
	if (tb_buf_array_grow(&m->v, &m->cap, m->n + 1, sizeof(*m->v)))
		return -1;
	m->v[m->n].id = id;
	m->v[m->n].kid = 0;	/* no "# kernel id" line yet */
	m->v[m->n].name = strdup(name);
	if (!m->v[m->n].name)
		return -1;
	m->n++;
	return 0;
}

static int cmp(const void *a, const void *b)
{
	const struct tb_name *x = a, *y = b;

	return x->id < y->id ? -1 : x->id > y->id;
}

int tb_name_map_finish(struct tb_name_map *m, struct tb_error *err)
{
	size_t i;

	if (m->n)
		qsort(m->v, m->n, sizeof(*m->v), cmp);
	for (i = 1; i < m->n; i++) {
		if (m->v[i].id == m->v[i - 1].id) {
			tb_error_set(err, 0, "function id %u named twice",
				     m->v[i].id);
			return -1;
		}
	}
	return 0;
}

int tb_name_map_load(struct tb_name_map *m, FILE *f, struct tb_error *err)
{
	char line[1024];
	uint64_t off = 0;
	unsigned int lineno = 0;

	memset(m, 0, sizeof(*m));
	while (fgets(line, sizeof(line), f)) {
		char *p = line, *id, *name, *end;
		uint32_t v;
		size_t len = strlen(line);

		lineno++;
		if (len == sizeof(line) - 1 && line[len - 1] != '\n') {
			tb_error_set(err, off, "line %u: too long", lineno);
			return -1;
		}
		off += len;
		while (isspace((unsigned char)*p))
			p++;
		if (*p == '#' && m->n && !m->v[m->n - 1].kid &&
		    sscanf(p, "# kernel id 0x%x", &v) == 1)
			m->v[m->n - 1].kid = v;
		if (!*p || *p == '#')
			continue;
		id = p;
		while (*p && !isspace((unsigned char)*p))
			p++;
		if (*p)
			*p++ = 0;
		while (isspace((unsigned char)*p))
			p++;
		name = p;
		end = name + strlen(name);
		while (end > name && isspace((unsigned char)end[-1]))
			*--end = 0;
		if (tb_parse_u32(id, 1, TB_FDR_FUNC_ID_MAX, &v) || !*name) {
			tb_error_set(err, off - len,
				     "line %u: expected \"ID NAME\" with ID 1..0x%x",
				     lineno, TB_FDR_FUNC_ID_MAX);
			return -1;
		}
		if (tb_name_map_add(m, v, name)) {
			tb_error_set(err, off, "out of memory");
			return -1;
		}
	}
	return tb_name_map_finish(m, err);
}

const char *tb_name_map_find(const struct tb_name_map *m, uint32_t id)
{
	struct tb_name key = { .id = id };
	const struct tb_name *r;

	if (!m || !m->n)
		return NULL;
	r = bsearch(&key, m->v, m->n, sizeof(*m->v), cmp);
	return r ? r->name : NULL;
}

uint32_t tb_name_map_kernel_id(const struct tb_name_map *m, uint32_t id)
{
	struct tb_name key = { .id = id };
	const struct tb_name *r = NULL;

	if (m && m->n)
		r = bsearch(&key, m->v, m->n, sizeof(*m->v), cmp);
	if (r && r->kid)
		return r->kid;
	return id >> 24 ? id : 0;
}

void tb_name_map_free(struct tb_name_map *m)
{
	size_t i;

	for (i = 0; i < m->n; i++)
		free(m->v[i].name);
	free(m->v);
	memset(m, 0, sizeof(*m));
}
