// SPDX-License-Identifier: GPL-2.0
/* Input kinds from their first bytes; see util/sniff.h. */
#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include <linux/tracebuf.h>

#include "util/sniff.h"

/* What each kind is, and the commands that read one (%s: the file). */
static const struct {
	const char *what;
	const char *reader;
} kinds[TB_SNIFF_NR_KINDS] = {
	[TB_SNIFF_UNKNOWN] = { "of no kind tracebuf knows", NULL },
	[TB_SNIFF_FDR] = { "an XRay FDR trace",
			   "tracebuf report %s or tracebuf convert fdr-text %s" },
	[TB_SNIFF_XSCALE] = { "an XScale trace buffer (record or chain)",
			      "tracebuf decode %s or tracebuf convert xscale-fdr %s" },
	[TB_SNIFF_TFILE] = { "a GDB trace file",
			     "tracebuf convert tfile-text %s or gdb -ex 'target tfile %s'" },
	[TB_SNIFF_ELF] = { "an ELF file (an instrumentation map, a program or a memory image)",
			   "llvm-xray -m %s, or tracebuf crash %s for a memory image" },
	[TB_SNIFF_JSON] = { "a trace_event JSON file",
			    "Perfetto (ui.perfetto.dev) or speedscope: %s%.0s" },
	[TB_SNIFF_NAMES] = { "an ID NAME names file",
			     "tracebuf convert map-elf %s (an ELF map for llvm-xray -m), or -m %s" },
};

/*
 * Lines of "ID NAME", "#" comments or blank: the whole lines of the @n
 * bytes, or all of them if there is no newline.
 */
static bool names_text(const uint8_t *p, size_t n)
{
	const uint8_t *nl = memrchr(p, '\n', n);
	size_t i = 0;

	if (nl)
		n = nl - p + 1;
	while (i < n) {
		size_t d = i;

		if (p[i] == '#' || p[i] == '\n') {
			while (i < n && p[i] != '\n')
				i++;
			i++;
			continue;
		}
		if (i + 1 < n && p[i] == '0' && p[i + 1] == 'x')
			d = i += 2;
		while (i < n && isxdigit(p[i]))
			i++;
		if (i == d || (i < n && p[i] != ' ' && p[i] != '\t'))
			return false;
		while (i < n && p[i] != '\n') {
			if (!isprint(p[i]) && p[i] != '\t' && p[i] != '\r')
				return false;
			i++;
		}
		i++;
	}
	return n > 0;
}

/*
 * JSON from its opening bracket at @i: text to the end of the @n bytes
 * (no control byte but tab, CR and LF; UTF-8 passes), and after '{' a
 * key or the end, after '[' an event (an object) or the end: the array
 * of the trace_event format holds objects, and '[' then a number is a
 * kernel log ("[    0.000000] Linux version").  One '[' or '{' alone
 * would take one binary file in 128 for JSON.
 */
static bool json_text(const uint8_t *p, size_t n, size_t i)
{
	size_t j;

	for (j = i; j < n; j++)
		if ((p[j] < 0x20 && p[j] != '\t' && p[j] != '\r' && p[j] != '\n') ||
		    p[j] == 0x7f)
			return false;
	for (j = i + 1; j < n && isspace(p[j]); j++)
		;
	if (j == n)
		return true;
	if (p[i] == '{')
		return p[j] == '"' || p[j] == '}';
	return p[j] == '{' || p[j] == ']';
}

enum tb_sniff_kind tb_sniff_bytes(const uint8_t *p, size_t n)
{
	size_t i;

	if (n >= 8 && !memcmp(p, "\x7fTRACE0\n", 8))
		return TB_SNIFF_TFILE;
	if (n >= 4 && p[0] == 0x7f && !memcmp(p + 1, "ELF", 3))
		return TB_SNIFF_ELF;
	if (n >= 4 && (p[0] | p[1] << 8 | p[2] << 16 | (uint32_t)p[3] << 24) ==
	    TRACEBUF_RECORD_MAGIC)
		return TB_SNIFF_XSCALE;
	/* FileHeader: version 1..5, type 1 (FDR), little-endian. */
	if (n >= 32 && p[0] >= 1 && p[0] <= 5 && !p[1] && p[2] == 1 && !p[3])
		return TB_SNIFF_FDR;
	/* A UTF-8 byte order mark, which RFC 8259 lets a reader ignore. */
	i = n >= 3 && !memcmp(p, "\xef\xbb\xbf", 3) ? 3 : 0;
	for (; i < n && isspace(p[i]); i++)
		;
	if (i < n && (p[i] == '{' || p[i] == '[') && json_text(p, n, i))
		return TB_SNIFF_JSON;
	if (names_text(p, n))
		return TB_SNIFF_NAMES;
	return TB_SNIFF_UNKNOWN;
}

enum tb_sniff_kind tb_sniff_path(const char *path)
{
	uint8_t buf[256];
	size_t n;
	FILE *f;

	if (!strcmp(path, "-"))
		return TB_SNIFF_UNKNOWN;
	f = fopen(path, "rb");
	if (!f)
		return TB_SNIFF_UNKNOWN;
	n = fread(buf, 1, sizeof(buf), f);
	fclose(f);
	return tb_sniff_bytes(buf, n);
}

/* "WHO is KIND, not EXPECTED: read it with ..." for a known other kind. */
static bool sniff_say(enum tb_sniff_kind k, const char *who, const char *path,
		      enum tb_sniff_kind expected, char *msg, size_t len)
{
	char how[200];

	if (k == TB_SNIFF_UNKNOWN || k == expected)
		return false;
	snprintf(how, sizeof(how), kinds[k].reader, path, path);
	snprintf(msg, len, "%s is %s, not %s: read it with %s", who,
		 kinds[k].what, kinds[expected].what, how);
	return true;
}

bool tb_sniff_mismatch(const char *path, enum tb_sniff_kind expected,
		       char *msg, size_t len)
{
	return sniff_say(tb_sniff_path(path), path, path, expected, msg, len);
}

enum tb_sniff_kind tb_sniff_file(FILE *f)
{
	uint8_t buf[256];
	long at = ftell(f);
	size_t n;
	int bad;

	/* A read error stays for the caller to see: clearerr() would hide it. */
	if (at < 0 || ferror(f) || fseek(f, 0, SEEK_SET))
		return TB_SNIFF_UNKNOWN;
	n = fread(buf, 1, sizeof(buf), f);
	bad = ferror(f);
	if (!bad)
		clearerr(f);	/* the end of a short file, nothing else */
	if (fseek(f, at, SEEK_SET) || bad)
		return TB_SNIFF_UNKNOWN;
	return tb_sniff_bytes(buf, n);
}

bool tb_sniff_mismatch_file(const char *path, FILE *f,
			    enum tb_sniff_kind expected, char *msg, size_t len)
{
	if (strcmp(path, "-") || !f)
		return tb_sniff_mismatch(path, expected, msg, len);
	return sniff_say(tb_sniff_file(f), "standard input", "-", expected,
			 msg, len);
}
