// SPDX-License-Identifier: GPL-2.0
/* FDR record text printer; see convert/fdr_print.h. */
#include <inttypes.h>
#include <string.h>

#include "convert/fdr_print.h"

/* Decimal digits of @v ending at @end; returns the first digit. */
static char *utoa_end(char *end, uint64_t v)
{
	do {
		*--end = (char)('0' + v % 10);
		v /= 10;
	} while (v);
	return end;
}

/*
 * Function records are nearly all of a trace: format them by hand, which
 * is several times faster than fprintf.
 */
static void print_function(FILE *out, const struct tb_fdr_record *r,
			   const char *name)
{
	static const char *const ftype[] = {
		[TB_FDR_ENTER] = "<Function Enter: #",
		[TB_FDR_EXIT] = "<Function Exit: #",
		[TB_FDR_TAIL_EXIT] = "<Function Tail Exit: #",
		[TB_FDR_ENTER_ARGS] = "<Function Enter With Arg: #",
	};
	char line[96], num[24], *p = line, *d;
	const char *t = ftype[r->func_type & 3];
	size_t n = strlen(t);

	memcpy(p, t, n);
	p += n;
	d = utoa_end(num + sizeof(num), r->func_id);
	n = (size_t)(num + sizeof(num) - d);
	memcpy(p, d, n);
	p += n;
	memcpy(p, " delta = +", 10);
	p += 10;
	d = utoa_end(num + sizeof(num), r->delta);
	n = (size_t)(num + sizeof(num) - d);
	memcpy(p, d, n);
	p += n;
	*p++ = '>';
	if (name) {
		*p++ = ' ';
		fwrite_unlocked(line, 1, (size_t)(p - line), out);
		fputs(name, out);
		p = line;
	}
	*p++ = '\n';
	fwrite_unlocked(line, 1, (size_t)(p - line), out);
}

static void payload(FILE *out, const struct tb_fdr_record *r)
{
	/* llvm-xray prints the payload bytes as they are. */
	fwrite(r->data, 1, (size_t)r->size, out);
}

void tb_fdr_print(FILE *out, const struct tb_fdr_record *r)
{
	switch (r->kind) {
	case TB_FDR_FUNCTION:
		print_function(out, r, NULL);
		return;
	case TB_FDR_BUFFER_EXTENTS:
		fprintf(out, "<Buffer: size = %" PRIu64 " bytes>\n", r->value);
		return;
	case TB_FDR_WALLCLOCK:
		fprintf(out, "<Wall Time: seconds = %" PRIu64 ".%06" PRIu32 ">\n",
			r->value, r->micros);
		return;
	case TB_FDR_NEW_CPU:
		fprintf(out, "<CPU: id = %u, tsc = %" PRIu64 ">\n", r->cpu,
			r->value);
		return;
	case TB_FDR_TSC_WRAP:
		fprintf(out, "<TSC Wrap: base = %" PRIu64 ">\n", r->value);
		return;
	case TB_FDR_CUSTOM:
		if (r->version >= 5)
			fprintf(out, "<Custom Event: delta = +%" PRId32
				", size = %" PRId32 ", data = '",
				r->event_delta, r->size);
		else
			fprintf(out, "<Custom Event: tsc = %" PRIu64
				", cpu = %u, size = %" PRId32 ", data = '",
				r->value, r->event_cpu, r->size);
		payload(out, r);
		fputs("'>\n", out);
		return;
	case TB_FDR_CALL_ARG:
		fprintf(out, "<Call Argument: data = %" PRIu64
			" (hex = 0x%" PRIx64 ")>\n", r->value, r->value);
		return;
	case TB_FDR_PID:
		fprintf(out, "<PID: %" PRId32 ">\n", r->pid);
		return;
	case TB_FDR_NEW_BUFFER:
		fprintf(out, "<Thread ID: %" PRId32 ">\n", r->tid);
		return;
	case TB_FDR_END_OF_BUFFER:
		fputs("<End of Buffer>\n", out);
		return;
	case TB_FDR_TYPED:
		fprintf(out, "<Typed Event: delta = +%" PRId32
			", type = %u, size = %" PRId32 ", data = '",
			r->event_delta, r->event_type, r->size);
		payload(out, r);
		/* sic: llvm-xray prints no closing '>' here */
		fputs("'\n", out);
		return;
	}
}

void tb_fdr_print_named(FILE *out, const struct tb_fdr_record *r,
			const char *name)
{
	if (r->kind == TB_FDR_FUNCTION && name)
		print_function(out, r, name);
	else
		tb_fdr_print(out, r);
}
