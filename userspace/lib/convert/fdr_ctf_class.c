// SPDX-License-Identifier: GPL-2.0
/*
 * Event classes and event bytes of the CTF output: see
 * convert/fdr_ctf_class.h.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "convert/fdr_ctf_class.h"
#include "util/bytes.h"

int64_t tb_ctf_class_find(const struct tb_ctf_classes *c, uint64_t key)
{
	uint32_t v = tb_hash_get(&c->by_key, key);

	return v ? (int64_t)v - 1 : -1;
}

int64_t tb_ctf_class_new(struct tb_ctf_classes *c, uint64_t key,
			 const char *name)
{
	struct tb_ctf_class *k;

	if (tb_buf_array_grow(&c->v, &c->cap, c->n + 1, sizeof(*c->v)))
		return -ENOMEM;
	k = &c->v[c->n];
	memset(k, 0, sizeof(*k));
	k->name = strdup(name);
	if (!k->name || tb_hash_put(&c->by_key, key, (uint32_t)c->n + 1)) {
		free(k->name);
		return -ENOMEM;
	}
	return (int64_t)c->n++;
}

/* The CTF declaration of each type, byte-aligned (the types are the metadata's). */
static const char *const cc_decl[] = {
	[TB_CTF_I32] = "tb_i32",
	[TB_CTF_I64] = "tb_i64",
	[TB_CTF_U32] = "tb_u32",
	[TB_CTF_X64] = "tb_x64",
	[TB_CTF_STR] = "string",
	[TB_CTF_COMM] = "tb_char",
	[TB_CTF_SEQ] = "tb_char",
};

int tb_ctf_class_field(struct tb_ctf_classes *c, uint32_t id,
		       enum tb_ctf_type type, const char *name)
{
	struct tb_buf *f = &c->v[id].fields;
	char line[256];
	int n;

	if (type == TB_CTF_COMM)
		n = snprintf(line, sizeof(line), "\t\t%s %s[%d];\n",
			     cc_decl[type], name, TB_CTF_COMM_LEN);
	else if (type == TB_CTF_SEQ)
		n = snprintf(line, sizeof(line),
			     "\t\ttb_u64 _%s_length;\n\t\t%s %s[_%s_length];\n",
			     name, cc_decl[type], name, name);
	else
		n = snprintf(line, sizeof(line), "\t\t%s %s;\n", cc_decl[type],
			     name);
	if (n < 0 || (size_t)n >= sizeof(line))
		return -EINVAL;
	return tb_buf_append(f, line, (size_t)n);
}

int tb_ctf_class_print(const struct tb_ctf_classes *c, FILE *out)
{
	size_t i;

	for (i = 0; i < c->n; i++) {
		fprintf(out, "event {\n\tname = \"%s\";\n\tid = %zu;\n"
			"\tstream_id = 0;\n\tfields := struct {\n", c->v[i].name, i);
		/* A class without fields has no buffer yet. */
		if (c->v[i].fields.len)
			fwrite(c->v[i].fields.data, 1, c->v[i].fields.len, out);
		fprintf(out, "\t};\n};\n\n");
	}
	return ferror(out) ? -EIO : 0;
}

void tb_ctf_class_free(struct tb_ctf_classes *c)
{
	size_t i;

	for (i = 0; i < c->n; i++) {
		free(c->v[i].name);
		tb_buf_free(&c->v[i].fields);
	}
	free(c->v);
	tb_hash_free(&c->by_key);
	memset(c, 0, sizeof(*c));
}

int tb_ctf_ev_begin(struct tb_buf *b, uint32_t id, uint64_t tsc)
{
	b->len = 0;
	if (tb_ctf_ev_u32(b, id))
		return -ENOMEM;
	return tb_ctf_ev_64(b, tsc);
}

int tb_ctf_ev_u32(struct tb_buf *b, uint32_t v)
{
	uint8_t *p = tb_buf_add(b, 4);

	if (!p)
		return -ENOMEM;
	tb_bytes_put32(p, v);
	return 0;
}

int tb_ctf_ev_i32(struct tb_buf *b, int32_t v)
{
	return tb_ctf_ev_u32(b, (uint32_t)v);
}

int tb_ctf_ev_64(struct tb_buf *b, uint64_t v)
{
	uint8_t *p = tb_buf_add(b, 8);

	if (!p)
		return -ENOMEM;
	tb_bytes_put64(p, v);
	return 0;
}

int tb_ctf_ev_str(struct tb_buf *b, const char *s)
{
	return tb_buf_append(b, s, strlen(s) + 1);
}

int tb_ctf_ev_comm(struct tb_buf *b, const char *s)
{
	uint8_t *p = tb_buf_add(b, TB_CTF_COMM_LEN);
	size_t n = strnlen(s, TB_CTF_COMM_LEN - 1);

	if (!p)
		return -ENOMEM;
	memset(p, 0, TB_CTF_COMM_LEN);
	memcpy(p, s, n);
	return 0;
}

int tb_ctf_ev_seq(struct tb_buf *b, const void *p, size_t n)
{
	if (tb_ctf_ev_64(b, n))
		return -ENOMEM;
	return tb_buf_append(b, p, n);
}
