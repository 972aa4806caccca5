/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Function-id names: a text file with one "ID NAME" per line (ID decimal
 * or 0x hex, '#' starts a comment).  It is the map the converters take
 * (--map) and the input of the ELF instrumentation-map writer.
 */
#ifndef TB_NAME_MAP_H
#define TB_NAME_MAP_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "util/error.h"

struct tb_name {
	uint32_t id;
	/*
	 * The kernel's id (space << 24 | key) when a "# kernel id 0x..."
	 * comment follows the line, as in the collectors' names files
	 * (convert/fdr_post.h), else 0.
	 */
	uint32_t kid;
	char *name;
};

struct tb_name_map {
	struct tb_name *v;	/* sorted by id, ids unique */
	size_t n, cap;
};

int tb_name_map_load(struct tb_name_map *m, FILE *f, struct tb_error *err);
int tb_name_map_add(struct tb_name_map *m, uint32_t id, const char *name);
/* Sort and check for duplicates; -1 with err on a duplicate id. */
int tb_name_map_finish(struct tb_name_map *m, struct tb_error *err);
const char *tb_name_map_find(const struct tb_name_map *m, uint32_t id);
/* The kernel id of @id: as the file said, else @id if it has a space. */
uint32_t tb_name_map_kernel_id(const struct tb_name_map *m, uint32_t id);
void tb_name_map_free(struct tb_name_map *m);

#endif /* TB_NAME_MAP_H */
