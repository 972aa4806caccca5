// SPDX-License-Identifier: GPL-2.0
/*
 * CTF metadata: see convert/fdr_ctf_meta.h.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>

#include "convert/fdr_ctf_meta.h"

/* A string of the env, escaped as TSDL wants. */
static void cm_string(FILE *out, const char *key, const char *s)
{
	fprintf(out, "\t%s = \"", key);
	for (; s && *s; s++) {
		unsigned char ch = (unsigned char)*s;

		if (ch == '"' || ch == '\\')
			fprintf(out, "\\%c", ch);
		else if (ch < 0x20 || ch >= 0x7f)
			fputc('?', out);
		else
			fputc(ch, out);
	}
	fprintf(out, "\";\n");
}

int tb_ctf_meta_write(FILE *out, const struct tb_ctf_meta *m,
		      const struct tb_ctf_classes *c)
{
	const uint8_t *u = m->uuid;
	char uuid[40];

	snprintf(uuid, sizeof(uuid),
		 "%02x%02x%02x%02x-%02x%02x-%02x%02x-%02x%02x-%02x%02x%02x%02x%02x%02x",
		 u[0], u[1], u[2], u[3], u[4], u[5], u[6], u[7], u[8], u[9],
		 u[10], u[11], u[12], u[13], u[14], u[15]);
	fprintf(out, "/* CTF 1.8 */\n\n"
		"/* Written by tracebuf convert fdr-ctf: every field byte-aligned. */\n"
		"typealias integer { size = 8; align = 8; signed = false; } := uint8_t;\n"
		"typealias integer { size = 32; align = 8; signed = false; } := uint32_t;\n"
		"typealias integer { size = 64; align = 8; signed = false; } := uint64_t;\n"
		"typealias integer { size = 32; align = 8; signed = true; } := tb_i32;\n"
		"typealias integer { size = 64; align = 8; signed = true; } := tb_i64;\n"
		"typealias integer { size = 32; align = 8; signed = false; } := tb_u32;\n"
		"typealias integer { size = 64; align = 8; signed = false; } := tb_u64;\n"
		"typealias integer { size = 64; align = 8; signed = false; base = 16; } := tb_x64;\n"
		"typealias integer { size = 8; align = 8; signed = false; encoding = UTF8; } := tb_char;\n\n"
		"trace {\n\tmajor = 1;\n\tminor = 8;\n\tuuid = \"%s\";\n"
		"\tbyte_order = le;\n"
		"\tpacket.header := struct {\n\t\tuint32_t magic;\n"
		"\t\tuint8_t uuid[16];\n\t\tuint32_t stream_id;\n"
		"\t\tuint64_t stream_instance_id;\n\t};\n};\n\n", uuid);
	fprintf(out, "env {\n");
	cm_string(out, "hostname", m->hostname ? m->hostname : "unknown");
	cm_string(out, "domain", "kernel");
	cm_string(out, "sysname", "Linux");
	cm_string(out, "kernel_release",
		  m->kernel_release ? m->kernel_release : "unknown");
	cm_string(out, "kernel_version", "unknown");
	cm_string(out, "tracer_name", "lttng-modules");
	fprintf(out, "\ttracer_major = %d;\n\ttracer_minor = %d;\n"
		"\ttracer_patchlevel = %d;\n", TB_CTF_TRACER_MAJOR,
		TB_CTF_TRACER_MINOR, TB_CTF_TRACER_PATCH);
	cm_string(out, "trace_buffering_scheme", "global");
	cm_string(out, "trace_name", m->trace_name ? m->trace_name : "tracebuf");
	cm_string(out, "tracebuf_converter", "tracebuf convert fdr-ctf");
	cm_string(out, "tracebuf_source", m->source ? m->source : "-");
	fprintf(out, "};\n\n");
	fprintf(out, "clock {\n\tname = \"monotonic\";\n\tuuid = \"%s\";\n"
		"\tdescription = \"tracebuf FDR clock: %s%s\";\n"
		"\tfreq = %" PRIu64 ";\n\toffset_s = %" PRId64 ";\n"
		"\toffset = %" PRIu64 ";\n\tabsolute = false;\n};\n\n",
		uuid, m->freq == 1000000000ULL ?
		"the kernel's local_clock() in ns, or a 1 GHz counter" :
		"the TSC, or arm64's virtual counter, at the header's cycle_frequency",
		m->has_wall ? "; zero from the first WallClockTime" :
		"; no WallClockTime: zero unknown", m->freq, m->offset_s,
		m->offset);
	fprintf(out,
		"typealias integer { size = 64; align = 8; signed = false;\n"
		"\tmap = clock.monotonic.value; } := uint64_clock_monotonic_t;\n\n"
		"struct packet_context {\n"
		"\tuint64_clock_monotonic_t timestamp_begin;\n"
		"\tuint64_clock_monotonic_t timestamp_end;\n"
		"\tuint64_t content_size;\n\tuint64_t packet_size;\n"
		"\tuint64_t packet_seq_num;\n\tuint64_t events_discarded;\n"
		"\tuint32_t cpu_id;\n};\n\n"
		"struct event_header {\n\tuint32_t id;\n"
		"\tuint64_clock_monotonic_t timestamp;\n};\n\n"
		"stream {\n\tid = 0;\n\tevent.header := struct event_header;\n"
		"\tpacket.context := struct packet_context;\n};\n\n");
	if (tb_ctf_class_print(c, out))
		return -EIO;
	return ferror(out) ? -EIO : 0;
}
