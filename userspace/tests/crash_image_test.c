// SPDX-License-Identifier: GPL-2.0
/*
 * Recovery from a memory image (lib/format/crash_image.c) on hand-built ELF cores:
 * a crash descriptor as the module writes it (uapi/linux/tracebuf_crash.h),
 * frame tables, rings whose frames are scattered in physical memory, and
 * the damage a dying kernel or a partial dump can leave.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tb_harness.h"
#include "tb_test_util.h"

#include <linux/tracebuf.h>
#include <linux/tracebuf_crash.h>

#include "convert/crash_recover.h"
#include "format/crash_image.h"
#include "format/fdr_meta.h"
#include "format/fdr_reader.h"
#include "format/fdr_writer.h"
#include "util/bytes.h"

#define FRAME		4096U
#define NR_CPUS		2U
#define BUF		TRACEBUF_FDR_BUF_MIN		/* 16 frames per CPU */
#define PSIZE		(BUF / TRACEBUF_FDR_PAGES)	/* one frame */
#define FRAMES		(BUF / FRAME)
#define PHYS_BASE	0x100000ULL
/*
 * Physical pages: descriptor, one frame table per CPU, the rings, spare,
 * the names area.
 */
#define P_DESC		0
#define P_TABLE		1
#define P_RING		(P_TABLE + NR_CPUS)
#define P_SPARE		(P_RING + NR_CPUS * FRAMES)
#define P_NAMES		(P_SPARE + 1)
#define NR_PAGES	(P_NAMES + 1)
#define NAMES		"4000001 softirq TIMER\n2000004 irq ttyS0\n"
#define ELF_DATA	4096U
#define IMAGE_SIZE	(ELF_DATA + NR_PAGES * FRAME)

struct image {
	uint8_t b[IMAGE_SIZE];
	uint8_t ring[NR_CPUS][BUF];	/* logical view, scattered by seal() */
	struct tracebuf_crash_desc *d;
	struct tracebuf_crash_cpu *cpus;
	size_t len;			/* of the image; cut for truncation */
};

static uint8_t *phys_page(struct image *im, unsigned int p)
{
	return im->b + ELF_DATA + (size_t)p * FRAME;
}

/* Frame f of a CPU's buffer lives in physical page P_RING + ... reversed. */
static unsigned int frame_page(unsigned int cpu, unsigned int f)
{
	return P_RING + cpu * FRAMES + (FRAMES - 1 - f);
}

static void put_elf(struct image *im)
{
	uint8_t *e = im->b, *ph = im->b + 64;

	memcpy(e, "\177ELF", 4);
	e[4] = 2;			/* 64-bit */
	e[5] = 1;			/* little-endian */
	e[6] = 1;
	tb_bytes_put16(e + 16, 4);		/* ET_CORE */
	tb_bytes_put16(e + 18, 62);		/* x86-64 */
	tb_bytes_put32(e + 20, 1);
	tb_bytes_put64(e + 32, 64);		/* e_phoff */
	tb_bytes_put16(e + 52, 64);
	tb_bytes_put16(e + 54, 56);
	tb_bytes_put16(e + 56, 2);
	tb_bytes_put32(ph, 4);		/* PT_NOTE, as qemu's first header */
	ph += 56;
	tb_bytes_put32(ph, 1);		/* PT_LOAD */
	tb_bytes_put64(ph + 8, ELF_DATA);
	tb_bytes_put64(ph + 16, 0xffff888000000000ULL + PHYS_BASE);
	tb_bytes_put64(ph + 24, PHYS_BASE);
	tb_bytes_put64(ph + 32, (uint64_t)NR_PAGES * FRAME);
	tb_bytes_put64(ph + 40, (uint64_t)NR_PAGES * FRAME);
}

/* A block of task @tid at @off of @cpu's ring: header, @n syscalls, a marker. */
static uint32_t put_block(struct image *im, unsigned int cpu, uint32_t off,
			  int32_t tid, unsigned int n, const char *marker,
			  bool stale_extents)
{
	uint8_t *p = im->ring[cpu] + off, *start = p;
	uint32_t len;
	unsigned int i;

	tb_fdr_writer_put_meta(p, TB_FDR_BUFFER_EXTENTS);
	tb_fdr_writer_put_meta(p + 16, TB_FDR_NEW_BUFFER);
	tb_bytes_put32(p + 17, tid);
	tb_fdr_writer_put_meta(p + 32, TB_FDR_WALLCLOCK);
	tb_fdr_writer_put_meta(p + 48, TB_FDR_PID);
	tb_bytes_put32(p + 49, tid);
	tb_fdr_writer_put_meta(p + 64, TB_FDR_NEW_CPU);
	tb_bytes_put16(p + 65, cpu);
	tb_bytes_put64(p + 67, 1000 + off);
	p += 80;
	for (i = 0; i < n; i++) {
		tb_fdr_writer_put_func(p, TB_FDR_ENTER, 0x1000000 + i, 10);
		tb_fdr_writer_put_func(p + 8, TB_FDR_EXIT, 0x1000000 + i, 10);
		p += 16;
	}
	if (marker) {
		tb_fdr_writer_put_meta(p, TB_FDR_CUSTOM);
		tb_bytes_put32(p + 1, strlen(marker));
		tb_bytes_put32(p + 5, 5);
		memcpy(p + 16, marker, strlen(marker));
		p += 16 + strlen(marker);
	}
	len = p - start;
	/* An open block's extents are brought up to date only at its close. */
	tb_bytes_put64(start + 1, stale_extents ? 64 : len - 16);
	return len;
}

/*
 * Two CPUs frozen at a panic on CPU 1.  CPU 0: page 0 (closed, two
 * blocks), page 1 (closed, one block), page 2 (open, its block open with
 * markers "a", "b").  CPU 1: page 0 open, one block open ending with the
 * panic message.
 */
static void build(struct image *im)
{
	uint32_t o;

	memset(im, 0, sizeof(*im));
	put_elf(im);
	im->d = (struct tracebuf_crash_desc *)phys_page(im, P_DESC);
	im->cpus = (struct tracebuf_crash_cpu *)(im->d + 1);
	im->len = IMAGE_SIZE;
	/* The module's own copy of the magic (its .rodata) is in memory too. */
	memcpy(phys_page(im, P_SPARE), TRACEBUF_CRASH_MAGIC,
	       TRACEBUF_CRASH_MAGIC_SIZE);

	o = put_block(im, 0, 0, 10, 3, NULL, false);
	o += put_block(im, 0, o, 11, 2, NULL, false);
	im->cpus[0].page_len[0] = o;
	o = put_block(im, 0, PSIZE, 12, 4, NULL, false);
	im->cpus[0].page_len[1] = o;
	o = put_block(im, 0, 2 * PSIZE, 13, 1, "a", false);
	o += put_block(im, 0, 2 * PSIZE + o, 14, 2, "b", true);
	im->cpus[0].head = 2;
	im->cpus[0].len = o;
	im->cpus[0].block = o - (80 + 2 * 16 + 16 + 1);

	o = put_block(im, 1, 0, 20, 2, TRACEBUF_CRASH_PANIC_PREFIX "test", true);
	im->cpus[1].len = o;
	im->cpus[1].block = 0;
	im->cpus[1].flags = TRACEBUF_CRASH_CPU_PANIC;

	memcpy(phys_page(im, P_NAMES), NAMES, strlen(NAMES));
	im->d->names_paddr = PHYS_BASE + (uint64_t)P_NAMES * FRAME;
	im->d->names_size = FRAME;
	im->d->names_len = strlen(NAMES);
}

/* Scatter the rings, write the frame tables and the descriptor. */
static void seal(struct image *im)
{
	struct tracebuf_crash_desc *d = im->d;
	uint64_t *tables = (uint64_t *)(im->cpus + NR_CPUS);
	struct tb_fdr_header h = {
		.version = 5, .type = TB_FDR_TYPE_FDR,
		.cycle_frequency = 1000000000ULL,
	};
	unsigned int cpu, f;
	uint32_t crc = 0;

	for (cpu = 0; cpu < NR_CPUS; cpu++) {
		uint8_t *t = phys_page(im, P_TABLE + cpu);

		tables[cpu] = PHYS_BASE + (uint64_t)(P_TABLE + cpu) * FRAME;
		for (f = 0; f < FRAMES; f++) {
			tb_bytes_put64(t + 8 * f, PHYS_BASE +
				       (uint64_t)frame_page(cpu, f) * FRAME);
			memcpy(phys_page(im, frame_page(cpu, f)),
			       im->ring[cpu] + f * FRAME, FRAME);
		}
		crc = tb_crash_recover_crc32(crc, t, FRAME);
	}
	memcpy(d->magic, TRACEBUF_CRASH_MAGIC, TRACEBUF_CRASH_MAGIC_SIZE);
	d->version = TRACEBUF_CRASH_VERSION;
	d->size = sizeof(*d) + NR_CPUS * (sizeof(*im->cpus) + 8);
	d->state = TRACEBUF_CRASH_FROZEN;
	d->nr_cpus = NR_CPUS;
	d->buf_size = BUF;
	d->page_size = PSIZE;
	d->frame_size = FRAME;
	d->tables_per_cpu = 1;
	d->panic_cpu = 1;
	d->tables_checksum = crc;
	d->capture = 3;
	tb_fdr_writer_put_header(d->fdr_header, &h);
	if (d->names_len <= FRAME)
		d->names_checksum = tb_crash_recover_crc32(0, phys_page(im, P_NAMES),
							   d->names_len);
	d->checksum = 0;
	d->checksum = tb_crash_recover_crc32(0, d, d->size);
}

/* Make the sealed descriptor a version-1 one: no names fields. */
static void to_version_1(struct image *im)
{
	uint8_t *d = (uint8_t *)im->d;
	size_t rest = im->d->size - sizeof(*im->d);

	memmove(d + TRACEBUF_CRASH_DESC_SIZE_VER1, d + sizeof(*im->d), rest);
	im->d->version = 1;
	im->d->size = TRACEBUF_CRASH_DESC_SIZE_VER1 + rest;
	im->d->checksum = 0;
	im->d->checksum = tb_crash_recover_crc32(0, d, im->d->size);
}

struct notes {
	unsigned int n;
	char last[256];
};

static void note(void *ctx, const char *msg)
{
	struct notes *ns = ctx;

	ns->n++;
	snprintf(ns->last, sizeof(ns->last), "%s", msg);
}

static int recover(struct image *im, struct tb_crash_result *res,
		   struct notes *ns, struct tb_error *err)
{
	struct tb_crash_image ci;
	struct tb_crash_src src;
	int ret;

	memset(ns, 0, sizeof(*ns));
	tb_crash_image_src_mem(&src, im->b, im->len);
	if (tb_crash_image_open(&ci, &src, err))
		return -2;
	ret = tb_crash_recover(&ci, res, note, ns, err);
	tb_crash_image_free(&ci);
	return ret;
}

struct seen {
	unsigned int blocks, customs, funcs;
	char text[512];		/* custom events, '|' separated */
};

static int visit(void *ctx, const struct tb_fdr_record *r)
{
	struct seen *s = ctx;
	size_t n = strlen(s->text);

	if (r->kind == TB_FDR_NEW_BUFFER)
		s->blocks++;
	if (r->kind == TB_FDR_FUNCTION)
		s->funcs++;
	if (r->kind == TB_FDR_CUSTOM) {
		s->customs++;
		snprintf(s->text + n, sizeof(s->text) - n, "%.*s|", r->size,
			 (const char *)r->data);
	}
	return 0;
}

static int read_back(const struct tb_crash_result *res, struct seen *s)
{
	struct tb_error err;

	memset(s, 0, sizeof(*s));
	return tb_fdr_reader_read_mem(res->stream, res->len, NULL, visit, s, NULL,
				      &err);
}

static struct image im;

TEST(recovers_every_block_in_order)
{
	struct tb_crash_result res;
	struct notes ns;
	struct tb_error err;
	struct seen s;

	build(&im);
	seal(&im);
	ASSERT_EQ(0, recover(&im, &res, &ns, &err)) TH_LOG("%s", err.msg);
	EXPECT_EQ(0, ns.n) TH_LOG("%s", ns.last);
	EXPECT_EQ(2, res.nr_cpus);
	EXPECT_EQ(1, res.panic_cpu);
	EXPECT_EQ(3, res.capture);
	EXPECT_EQ(5, res.cpus[0].blocks);
	EXPECT_EQ(1, res.cpus[1].blocks);
	EXPECT_EQ(0, res.dropped);
	ASSERT_EQ(0, read_back(&res, &s));
	EXPECT_EQ(6, s.blocks);
	EXPECT_EQ(2 * (3 + 2 + 4 + 1 + 2 + 2), s.funcs);
	EXPECT_STREQ("a|b|tracebuf: panic: test|", s.text);
	/* And the names the panic wrote. */
	ASSERT_NE(NULL, res.names);
	EXPECT_EQ(strlen(NAMES), res.names_len);
	EXPECT_STREQ(NAMES, res.names);
	tb_crash_recover_free(&res);
}

/*
 * tracebuf crash writes the collectors' META block: the trace recovered
 * from a dump reads alone, with the names the panic saved, and says what
 * it is (collector crash, the capture, the CPU that panicked), not this
 * machine's name.
 */
TEST(crash_trace_names_itself)
{
	char *dir = tu_tmpdir(), path[400], trace[300], v[64], *out, *names;
	char name[64], *first;
	struct tb_fdr_meta_block m;
	FILE *f;
	int st;

	build(&im);
	seal(&im);
	snprintf(path, sizeof(path), "%s/vmcore", dir);
	snprintf(trace, sizeof(trace), "%s/c.fdr", dir);
	ASSERT_EQ(0, tu_write(path, im.b, im.len));
	out = tu_run(&st, "%s crash -q -o %s %s", tu_tool("tracebuf"), trace,
		     path);
	ASSERT_EQ(0, st) TH_LOG("%s", out);
	free(out);
	f = fopen(trace, "rb");
	ASSERT_NE(NULL, f);
	ASSERT_EQ(0, tb_fdr_meta_read(f, &m));
	fclose(f);
	ASSERT_TRUE(m.present);
	EXPECT_TRUE(m.has_id);
	EXPECT_STREQ("crash", tb_fdr_meta_value(&m, "collector", v, sizeof(v)));
	EXPECT_STREQ("3", tb_fdr_meta_value(&m, "kernel_capture", v, sizeof(v)));
	EXPECT_STREQ("1", tb_fdr_meta_value(&m, "panic_cpu", v, sizeof(v)));
	EXPECT_EQ(NULL, tb_fdr_meta_value(&m, "hostname", v, sizeof(v)));
	snprintf(path, sizeof(path), "%s.names", trace);
	names = tu_slurp(path);
	ASSERT_NE(NULL, names);
	EXPECT_STREQ(names, m.names);
	/*
	 * A syscall's name, whichever this build's table gives it (the
	 * image's numbers are x86-64's: 2 is open there, fork on arm).
	 */
	first = strstr(m.names, " sys_");
	ASSERT_NE(NULL, first);
	ASSERT_EQ(1, sscanf(first, " %63s", name));
	free(names);
	tb_fdr_meta_free(&m);
	/*
	 * Every dump of one panic is one capture: the same bytes, id and
	 * names from another copy of the image, under another name.
	 */
	out = tu_run(&st, "cd %s && cp vmcore vmcore.2 && %s crash -q -o %s.2 vmcore.2 && cmp %s %s.2 && cmp %s.names %s.2.names",
		     dir, tu_tool("tracebuf"), trace, trace, trace, trace, trace);
	EXPECT_EQ(0, st) TH_LOG("%s", out);
	free(out);
	/* Alone, its names are its own. */
	snprintf(path, sizeof(path), "%s.names", trace);
	unlink(path);
	out = tu_run(&st, "%s report %s", tu_tool("tracebuf"), trace);
	EXPECT_EQ(0, st);
	EXPECT_NE(NULL, strstr(out, name)) TH_LOG("%s: %s", name, out);
	EXPECT_NE(NULL, strstr(out, "names: the trace's own"));
	free(out);
	tu_rmdir(dir);
}

/*
 * A damaged or missing names area costs the names, never the trace: each
 * case recovers every block, says why on the note callback, and gives no
 * names.
 */
TEST(names_damage_falls_back_to_numeric_names)
{
	static const struct {
		const char *what, *note;
	} cases[] = {
		{ "flipped byte", "names area damaged (checksum" },
		{ "length past the area", "names area damaged (" },
		{ "huge length", "names area damaged (" },
		{ "area outside the image", "not in the image" },
		{ "no area", "no names in the crash descriptor" },
		{ "empty", "the names area is empty" },
	};
	struct tb_crash_result res;
	struct notes ns;
	struct tb_error err;
	struct seen s;
	unsigned int i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		build(&im);
		switch (i) {
		case 1:
			im.d->names_len = FRAME + 1;
			break;
		case 2:
			im.d->names_len = 0xffffffffU;
			im.d->names_size = 0xffffffffU;
			break;
		case 3:
			im.d->names_paddr = 0xfff00000ULL;
			break;
		case 4:
			im.d->names_paddr = 0;
			break;
		case 5:
			im.d->names_len = 0;
			break;
		}
		seal(&im);
		if (i == 0)
			phys_page(&im, P_NAMES)[3] ^= 1;
		ASSERT_EQ(0, recover(&im, &res, &ns, &err))
			TH_LOG("%s: %s", cases[i].what, err.msg);
		EXPECT_EQ(1, ns.n) TH_LOG("%s", cases[i].what);
		EXPECT_NE(NULL, strstr(ns.last, cases[i].note))
			TH_LOG("%s: %s", cases[i].what, ns.last);
		EXPECT_EQ(NULL, res.names) TH_LOG("%s", cases[i].what);
		EXPECT_EQ(6, res.blocks);
		ASSERT_EQ(0, read_back(&res, &s));
		EXPECT_STREQ("a|b|tracebuf: panic: test|", s.text);
		tb_crash_recover_free(&res);
	}
}

/* Names that did not all fit: kept, and said. */
TEST(names_truncated_kept_and_noted)
{
	struct tb_crash_result res;
	struct notes ns;
	struct tb_error err;

	build(&im);
	im.d->names_flags = TRACEBUF_CRASH_NAMES_TRUNCATED;
	seal(&im);
	ASSERT_EQ(0, recover(&im, &res, &ns, &err)) TH_LOG("%s", err.msg);
	EXPECT_EQ(1, ns.n);
	EXPECT_NE(NULL, strstr(ns.last, "did not all fit")) TH_LOG("%s", ns.last);
	EXPECT_STREQ(NAMES, res.names);
	tb_crash_recover_free(&res);
}

/* A version-1 descriptor (an older module) still recovers, without names. */
TEST(version_1_descriptor)
{
	struct tb_crash_result res;
	struct notes ns;
	struct tb_error err;
	struct seen s;

	build(&im);
	seal(&im);
	to_version_1(&im);
	ASSERT_EQ(0, recover(&im, &res, &ns, &err)) TH_LOG("%s", err.msg);
	EXPECT_EQ(1, ns.n);
	EXPECT_NE(NULL, strstr(ns.last, "an older module")) TH_LOG("%s", ns.last);
	EXPECT_EQ(NULL, res.names);
	EXPECT_EQ(6, res.blocks);
	ASSERT_EQ(0, read_back(&res, &s));
	EXPECT_STREQ("a|b|tracebuf: panic: test|", s.text);
	/* Version 3 is not known. */
	build(&im);
	seal(&im);
	im.d->version = 3;
	im.d->checksum = 0;
	im.d->checksum = tb_crash_recover_crc32(0, im.d, im.d->size);
	tb_crash_recover_free(&res);
	EXPECT_EQ(-1, recover(&im, &res, &ns, &err));
	tb_crash_recover_free(&res);
}

TEST(flight_ring_that_wrapped)
{
	struct tb_crash_result res;
	struct notes ns;
	struct tb_error err;
	struct seen s;

	/* CPU 0's pages are 16..18 now: the same slots, later sequence. */
	build(&im);
	im.cpus[0].tail = 16;
	im.cpus[0].head = 18;
	seal(&im);
	ASSERT_EQ(0, recover(&im, &res, &ns, &err)) TH_LOG("%s", err.msg);
	EXPECT_EQ(5, res.cpus[0].blocks);
	ASSERT_EQ(0, read_back(&res, &s));
	EXPECT_STREQ("a|b|tracebuf: panic: test|", s.text);
	tb_crash_recover_free(&res);
}

TEST(damaged_block_dropped_rest_kept)
{
	struct tb_crash_result res;
	struct notes ns;
	struct tb_error err;
	struct seen s;

	build(&im);
	/* The second block of page 0: a NewBuffer that is not one. */
	im.ring[0][im.cpus[0].page_len[0] - (80 + 2 * 16) + 16] = 0xff;
	seal(&im);
	ASSERT_EQ(0, recover(&im, &res, &ns, &err)) TH_LOG("%s", err.msg);
	EXPECT_EQ(1, ns.n);
	EXPECT_NE(NULL, strstr(ns.last, "damaged block")) TH_LOG("%s", ns.last);
	EXPECT_EQ(4, res.cpus[0].blocks);
	EXPECT_EQ(1, res.cpus[0].dropped);
	ASSERT_EQ(0, read_back(&res, &s));
	EXPECT_STREQ("a|b|tracebuf: panic: test|", s.text);
	tb_crash_recover_free(&res);
}

TEST(torn_last_record_dropped)
{
	struct tb_crash_result res;
	struct notes ns;
	struct tb_error err;
	struct seen s;

	build(&im);
	im.cpus[0].flags = TRACEBUF_CRASH_CPU_TORN;
	seal(&im);
	ASSERT_EQ(0, recover(&im, &res, &ns, &err)) TH_LOG("%s", err.msg);
	EXPECT_NE(NULL, strstr(ns.last, "last record dropped")) TH_LOG("%s", ns.last);
	EXPECT_EQ(5, res.cpus[0].blocks);
	ASSERT_EQ(0, read_back(&res, &s));
	/* "b" was the record being written when the CPU was stopped. */
	EXPECT_STREQ("a|tracebuf: panic: test|", s.text);
	tb_crash_recover_free(&res);
}

TEST(record_cut_by_the_freeze_is_dropped_with_its_block)
{
	struct tb_crash_result res;
	struct notes ns;
	struct tb_error err;
	struct seen s;

	/* CPU 1's length ends inside its last record: the block is dropped. */
	build(&im);
	im.cpus[1].len -= 3;
	seal(&im);
	ASSERT_EQ(0, recover(&im, &res, &ns, &err)) TH_LOG("%s", err.msg);
	EXPECT_EQ(1, res.cpus[1].dropped);
	ASSERT_EQ(0, read_back(&res, &s));
	EXPECT_STREQ("a|b|", s.text);
	tb_crash_recover_free(&res);
}

TEST(ring_page_missing_from_the_image)
{
	struct tb_crash_result res;
	struct notes ns;
	struct tb_error err;

	/* The image ends before CPU 1's frames 0..: makedumpfile left them out. */
	build(&im);
	seal(&im);
	im.len = ELF_DATA + (size_t)frame_page(1, 0) * FRAME;
	ASSERT_EQ(0, recover(&im, &res, &ns, &err)) TH_LOG("%s", err.msg);
	EXPECT_EQ(5, res.cpus[0].blocks);
	EXPECT_EQ(0, res.cpus[1].blocks);
	EXPECT_EQ(1, res.cpus[1].dropped);
	EXPECT_NE(NULL, strstr(ns.last, "not in the image")) TH_LOG("%s", ns.last);
	tb_crash_recover_free(&res);
}

static void expect_refused(struct __test_metadata *_metadata, struct image *i,
			   int want, const char *why)
{
	struct tb_crash_result res;
	struct notes ns;
	struct tb_error err;

	memset(&err, 0, sizeof(err));
	EXPECT_EQ(want, recover(i, &res, &ns, &err));
	EXPECT_NE(NULL, strstr(err.msg, why)) TH_LOG("got '%s'", err.msg);
	if (want == -1)
		tb_crash_recover_free(&res);
}

TEST(recorder_states_that_hold_no_crash_trace)
{
	static const struct {
		uint32_t state;
		const char *why;
	} cases[] = {
		{ TRACEBUF_CRASH_IDLE, "never started" },
		{ TRACEBUF_CRASH_STOPPED, "stopped before the crash" },
		{ TRACEBUF_CRASH_RECORDING, "crash_kexec_post_notifiers" },
		{ 77, "unknown recorder state" },
	};
	unsigned int i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		build(&im);
		seal(&im);
		im.d->state = cases[i].state;
		im.d->checksum = 0;
		im.d->checksum = tb_crash_recover_crc32(0, im.d, im.d->size);
		expect_refused(_metadata, &im, -1, cases[i].why);
	}
}

TEST(descriptor_damage)
{
	build(&im);
	seal(&im);
	im.d->capture++;		/* checksum no longer matches */
	expect_refused(_metadata, &im, -1, "no valid tracebuf crash descriptor");

	build(&im);
	seal(&im);
	tb_bytes_put64(phys_page(&im, P_TABLE) + 8, 0);	/* a frame table changed */
	expect_refused(_metadata, &im, -1, "frame tables damaged");

	build(&im);
	seal(&im);
	im.d->version = 99;
	expect_refused(_metadata, &im, -1, "no valid tracebuf crash descriptor");

	build(&im);
	seal(&im);
	memset(im.d, 0, FRAME);		/* a kernel without the module */
	memset(phys_page(&im, P_SPARE), 0, FRAME);
	expect_refused(_metadata, &im, -1, "did not run tracebuf.ko");

	build(&im);
	seal(&im);
	im.len = ELF_DATA + 100;	/* truncated inside the descriptor */
	expect_refused(_metadata, &im, -1, "no valid tracebuf crash descriptor");
}

TEST(not_an_image)
{
	build(&im);
	seal(&im);
	im.len = 40;
	expect_refused(_metadata, &im, -2, "too short");
	im.len = 100;			/* program headers cut */
	expect_refused(_metadata, &im, -2, "truncated");
	im.len = IMAGE_SIZE;
	im.b[16] = 2;			/* an executable */
	expect_refused(_metadata, &im, -2, "not a core dump");
	memcpy(im.b, "KDUMP   ", 8);
	expect_refused(_metadata, &im, -2, "kdump: bad geometry");
	memcpy(im.b, "makedumpfile", 12);
	expect_refused(_metadata, &im, -2, "flattened dump: bad record");
	memset(im.b, 'x', 64);
	expect_refused(_metadata, &im, -2, "no ELF magic");
}

TEST(crc32_is_zlibs)
{
	/* The check value of CRC-32/ISO-HDLC, zlib's crc32(). */
	EXPECT_EQ(0xcbf43926U, tb_crash_recover_crc32(0, "123456789", 9));
	EXPECT_EQ(0xcbf43926U, tb_crash_recover_crc32(tb_crash_recover_crc32(0, "1234", 4), "56789", 5));
}

/*
 * The smallest image that recovers, the fuzzer's seed (userspace/fuzz/
 * crash_image_fuzz.c, corpus data/corpus/crash/): three pages mapped at
 * physical address 0, the ELF headers, the descriptor of one CPU, and its
 * frame table, whose tail holds the ring's one open block (every frame of
 * the ring is there) and the names.  TB_CRASH_SEED=FILE writes it out.
 */
#define SMALL_SIZE	(3 * FRAME)

static size_t small_image(uint8_t *b)
{
	struct tracebuf_crash_desc *d = (void *)(b + FRAME);
	struct tracebuf_crash_cpu *c = (void *)(d + 1);
	uint8_t *table = b + 2 * FRAME, *ph = b + 64;
	struct tb_fdr_header h = {
		.version = 5, .type = TB_FDR_TYPE_FDR,
		.cycle_frequency = 1000000000ULL,
	};
	unsigned int f;

	memset(b, 0, SMALL_SIZE);
	memcpy(b, "\177ELF", 4);
	b[4] = 2;
	b[5] = 1;
	tb_bytes_put16(b + 16, 4);
	tb_bytes_put64(b + 32, 64);
	tb_bytes_put16(b + 54, 56);
	tb_bytes_put16(b + 56, 1);
	tb_bytes_put32(ph, 1);
	tb_bytes_put64(ph + 32, SMALL_SIZE);
	/* Every frame is the tail of the table page: any address will do. */
	for (f = 0; f < FRAMES; f++)
		tb_bytes_put64(table + 8 * f, 2 * FRAME + 256);
	memset(&im, 0, sizeof(im));
	c->len = put_block(&im, 0, 0, 7, 2, "seed", true);
	memcpy(table + 256, im.ring[0], c->len);
	c->block = 0;
	memcpy(d->magic, TRACEBUF_CRASH_MAGIC, TRACEBUF_CRASH_MAGIC_SIZE);
	d->version = TRACEBUF_CRASH_VERSION;
	d->size = sizeof(*d) + sizeof(*c) + 8;
	d->state = TRACEBUF_CRASH_FROZEN;
	d->nr_cpus = 1;
	d->buf_size = BUF;
	d->page_size = PSIZE;
	d->frame_size = FRAME;
	d->tables_per_cpu = 1;
	tb_bytes_put64((uint8_t *)(c + 1), 2 * FRAME);
	memcpy(table + 2048, NAMES, strlen(NAMES));
	d->names_paddr = 2 * FRAME + 2048;
	d->names_size = 2048;
	d->names_len = strlen(NAMES);
	d->names_checksum = tb_crash_recover_crc32(0, NAMES, strlen(NAMES));
	d->tables_checksum = tb_crash_recover_crc32(0, table, FRAME);
	tb_fdr_writer_put_header(d->fdr_header, &h);
	d->checksum = tb_crash_recover_crc32(0, d, d->size);
	return SMALL_SIZE;
}

TEST(smallest_image)
{
	struct tb_crash_result res;
	struct notes ns;
	struct tb_error err;
	struct seen s;
	static struct image small;
	const char *seed = getenv("TB_CRASH_SEED");

	small.len = small_image(small.b);
	if (seed) {
		FILE *f = fopen(seed, "w");

		ASSERT_NE(NULL, f);
		ASSERT_EQ(1, fwrite(small.b, small.len, 1, f));
		fclose(f);
	}
	ASSERT_EQ(0, recover(&small, &res, &ns, &err)) TH_LOG("%s", err.msg);
	ASSERT_EQ(0, read_back(&res, &s));
	EXPECT_STREQ("seed|", s.text);
	EXPECT_STREQ(NAMES, res.names);
	tb_crash_recover_free(&res);
}

TEST_HARNESS_MAIN
