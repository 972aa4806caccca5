// SPDX-License-Identifier: GPL-2.0
/*
 * tracebuf-record: capture kernel events with /dev/tracebuf_fdr.
 *
 * Configures and starts the recorder, runs a command (or waits for -d
 * seconds, or for SIGINT/SIGTERM), drains the device, orders each task's
 * blocks by time (llvm-xray account needs every thread in time order),
 * writes an XRay FDR file plus a names file, and prints a summary.
 *
 * The only parsing done here is splitting the stream into blocks and
 * counting records; the stream itself is written unchanged.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <poll.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <linux/tracebuf.h>

#include "name_map.h"
#include "tb_cli.h"
#include "xray_map.h"
#include "syscall_names.h"	/* generated from the UAPI headers */

#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))
#define DEFAULT_DEV	"/dev/tracebuf_fdr"
#define DEFAULT_OUT	"trace.fdr"
#define HDR_SIZE	32
#define BLOCK_HDR	80

/* volatile sig_atomic_t: what C requires for a flag set by a handler. */
static volatile sig_atomic_t got_signal;

static void on_signal(int sig)
{
	got_signal = sig;
}

static void print_help(FILE *f)
{
	fprintf(f,
"Usage: %s [OPTIONS] [--] [COMMAND [ARG...]]\n"
"\n"
"Record kernel events with /dev/tracebuf_fdr into an XRay FDR file.\n"
"Records while COMMAND runs, for -d seconds, or until SIGINT/SIGTERM.\n"
"Writes FILE, FILE.names (\"ID NAME\"), FILE.map (ELF instrumentation\n"
"map: llvm-xray account -m FILE.map) and FILE.tfile (GDB trace file, by\n"
"tbconv fdr-tfile).  Function ids in FILE are dense (1..N); FILE.names\n"
"gives each one's kernel id.\n"
"\n"
"Options:\n"
"  -o, --output FILE     trace file (default " DEFAULT_OUT ")\n"
"  -n, --names FILE      names file (default: FILE.names)\n"
"  -e, --events LIST     classes, comma separated: syscall, irq, softirq,\n"
"                        workqueue, fault, sched, marker, all\n"
"                        (default syscall,irq,softirq,sched)\n"
"  -m, --mode MODE       stream (default: drain while recording, drop\n"
"                        when full) or flight (keep the newest data,\n"
"                        snapshot at the end)\n"
"  -s, --size SIZE       per-CPU buffer, power of two, 64K..64M (default 1M)\n"
"  -a, --args N          syscall arguments to record, 0..6 (default 0)\n"
"  -d, --duration SECS   stop after SECS seconds\n"
"  -D, --device PATH     device (default " DEFAULT_DEV ")\n"
"  -r, --raw             write the device's blocks unchanged: kernel\n"
"                        function ids, and exits whose entry is not in\n"
"                        the capture (llvm-xray stack/account reject them)\n"
"  -N, --no-tfile        do not write FILE.tfile (GDB trace file)\n"
"  -q, --quiet           no summary\n"
"  -j, --stats-json FILE write the recorder's counters as one JSON line:\n"
"                        events, bytes, lost (dropped + overwritten),\n"
"                        dropped, overwritten, reader_ns (this tool's CPU\n"
"                        time while recording and draining)\n"
"      --start           only configure and start recording, then exit\n"
"                        (read later with cat " DEFAULT_DEV ")\n"
"      --stop            only stop recording and print the counters\n"
"  -h, --help            this text\n"
"  -V, --version         version\n"
"\n"
"Exit status: 0 recorded, 1 failure, 2 bad usage, 3 malformed data.\n",
		tb_prog());
}

static const struct {
	const char *name;
	uint32_t bit;
} class_names[] = {
	{ "syscall", TRACEBUF_FDR_SYSCALL },
	{ "irq", TRACEBUF_FDR_IRQ },
	{ "softirq", TRACEBUF_FDR_SOFTIRQ },
	{ "workqueue", TRACEBUF_FDR_WORKQUEUE },
	{ "fault", TRACEBUF_FDR_FAULT },
	{ "sched", TRACEBUF_FDR_SCHED },
	{ "marker", TRACEBUF_FDR_MARKER },
	{ "all", TRACEBUF_FDR_ALL },
};

static int parse_classes(const char *s, uint32_t *out)
{
	char *copy = strdup(s), *tok, *save = NULL;
	uint32_t mask = 0;
	size_t i;

	if (!copy)
		return -1;
	for (tok = strtok_r(copy, ",", &save); tok;
	     tok = strtok_r(NULL, ",", &save)) {
		for (i = 0; i < ARRAY_SIZE(class_names); i++)
			if (!strcmp(tok, class_names[i].name))
				break;
		if (i == ARRAY_SIZE(class_names)) {
			free(copy);
			return -1;
		}
		mask |= class_names[i].bit;
	}
	free(copy);
	*out = mask;
	return mask ? 0 : -1;
}

/* ------------------------------------------------------------ buffer */

struct buf {
	uint8_t *p;
	size_t len, cap;
};

static void buf_reserve(struct buf *b, size_t more)
{
	if (b->cap - b->len >= more)
		return;
	while (b->cap - b->len < more)
		b->cap = b->cap ? b->cap * 2 : 1 << 20;
	b->p = realloc(b->p, b->cap);
	if (!b->p)
		tb_die(TB_EXIT_FAIL, "out of memory");
}

/* Read what the device has now; 0 at EOF, -1 if it would block. */
static int drain_once(int fd, struct buf *b)
{
	ssize_t n;

	buf_reserve(b, 256 << 10);
	n = read(fd, b->p + b->len, b->cap - b->len);
	if (n < 0) {
		if (errno == EAGAIN || errno == EINTR)
			return -1;
		tb_die_errno(TB_EXIT_FAIL, "read");
	}
	b->len += n;
	return n > 0;
}

/* ------------------------------------------------------------ blocks */

static uint64_t le64(const uint8_t *p)
{
	uint64_t v = 0;
	int i;

	for (i = 7; i >= 0; i--)
		v = v << 8 | p[i];
	return v;
}

static uint32_t le32(const uint8_t *p)
{
	return p[0] | p[1] << 8 | p[2] << 16 | (uint32_t)p[3] << 24;
}

struct block {
	size_t off, len;	/* in the raw stream, header included */
	int32_t tid, pid;
	uint64_t t;		/* NewCPUId time */
	size_t seq;		/* position in the stream, for a stable sort */
	uint64_t task_first;	/* earliest time of the block's task */
};

struct counts {
	uint64_t enters[16];
	uint64_t markers, lost_reports;
};

static void count_records(const uint8_t *p, size_t len, struct counts *c)
{
	size_t pos = BLOCK_HDR;

	while (pos < len) {
		if (!(p[pos] & 1)) {
			uint32_t w = le32(p + pos);
			uint32_t id = w >> 4, type = (w >> 1) & 7;

			if (type != 1)
				c->enters[TRACEBUF_FDR_ID_SPACE(id)]++;
			pos += 8;
		} else if ((p[pos] >> 1) == 5) {
			uint32_t size = le32(p + pos + 1);

			if (size > 15 && pos + 16 + 15 <= len &&
			    !memcmp(p + pos + 16, "tracebuf: lost ", 15))
				c->lost_reports++;
			else
				c->markers++;
			pos += 16 + size;
		} else {
			pos += 16;
		}
	}
}

static int cmp_block(const void *a, const void *b)
{
	const struct block *x = a, *y = b;

	if (x->task_first != y->task_first)
		return x->task_first < y->task_first ? -1 : 1;
	if (x->pid != y->pid)
		return x->pid < y->pid ? -1 : 1;
	if (x->tid != y->tid)
		return x->tid < y->tid ? -1 : 1;
	if (x->t != y->t)
		return x->t < y->t ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

static int cmp_task(const void *a, const void *b)
{
	const struct block *x = a, *y = b;

	if (x->pid != y->pid)
		return x->pid < y->pid ? -1 : 1;
	if (x->tid != y->tid)
		return x->tid < y->tid ? -1 : 1;
	return x->t < y->t ? -1 : x->t > y->t;
}

/*
 * Split the stream into blocks and order them: tasks by their first
 * event, each task's blocks by time.  Returns the block count.
 */
static size_t order_blocks(const struct buf *raw, struct block **out)
{
	struct block *v = NULL;
	size_t n = 0, cap = 0, pos = HDR_SIZE, i, j;

	if (raw->len < HDR_SIZE || le32(raw->p) != (1U << 16 | 5))
		tb_die(TB_EXIT_DATA, "device stream has no FDR v5 header");
	while (pos < raw->len) {
		const uint8_t *b = raw->p + pos;
		uint64_t ext;

		if (raw->len - pos < BLOCK_HDR || b[0] != 0x0f)
			tb_die(TB_EXIT_DATA, "malformed block at offset %zu", pos);
		ext = le64(b + 1);
		if (ext > raw->len - pos - 16)
			tb_die(TB_EXIT_DATA, "block at offset %zu overruns the stream", pos);
		if (n == cap) {
			cap = cap ? cap * 2 : 1024;
			v = realloc(v, cap * sizeof(*v));
			if (!v)
				tb_die(TB_EXIT_FAIL, "out of memory");
		}
		v[n].off = pos;
		v[n].len = 16 + ext;
		v[n].tid = (int32_t)le32(b + 17);
		v[n].pid = (int32_t)le32(b + 49);
		v[n].t = le64(b + 67);
		v[n].seq = n;
		n++;
		pos += 16 + ext;
	}
	if (!n) {
		*out = v;
		return 0;
	}
	/* Sorted by task and time: each task's first block is its earliest. */
	qsort(v, n, sizeof(*v), cmp_task);
	for (i = 0; i < n; i = j) {
		uint64_t first = v[i].t;

		for (j = i; j < n && v[j].pid == v[i].pid && v[j].tid == v[i].tid; j++)
			v[j].task_first = first;
	}
	qsort(v, n, sizeof(*v), cmp_block);
	*out = v;
	return n;
}

/* ------------------------------------------------------------ ids */

/*
 * The kernel's ids (space << 24 | key) are far above what an ELF
 * instrumentation map can name (llvm-xray numbers sled functions 1..N
 * without gaps), so the written trace numbers the functions it uses
 * densely, 1..N in kernel-id order.  The names file and the map say which
 * kernel id each one is.
 */
struct ids {
	uint32_t *v;		/* kernel ids, sorted, unique */
	size_t n, cap;
};

static void ids_collect(struct ids *ids, const uint8_t *p, size_t len)
{
	size_t pos = BLOCK_HDR;

	while (pos < len) {
		if (!(p[pos] & 1)) {
			if (ids->n == ids->cap) {
				ids->cap = ids->cap ? ids->cap * 2 : 256;
				ids->v = realloc(ids->v, ids->cap * sizeof(*ids->v));
				if (!ids->v)
					tb_die(TB_EXIT_FAIL, "out of memory");
			}
			ids->v[ids->n++] = le32(p + pos) >> 4;
			pos += 8;
		} else if ((p[pos] >> 1) == 5) {
			pos += 16 + le32(p + pos + 1);
		} else {
			pos += 16;
		}
	}
}

static int cmp_u32(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;

	return x < y ? -1 : x > y;
}

static void ids_finish(struct ids *ids)
{
	size_t i, j = 0;

	if (!ids->n)
		return;
	qsort(ids->v, ids->n, sizeof(*ids->v), cmp_u32);
	for (i = 1; i < ids->n; i++)
		if (ids->v[i] != ids->v[j])
			ids->v[++j] = ids->v[i];
	ids->n = j + 1;
}

/* Dense id (1..n) of a kernel id, or the kernel id itself if unknown. */
static uint32_t ids_dense(const struct ids *ids, uint32_t kid)
{
	const uint32_t *r;

	if (!ids)
		return kid;
	r = bsearch(&kid, ids->v, ids->n, sizeof(*ids->v), cmp_u32);
	return r ? (uint32_t)(r - ids->v) + 1 : kid;
}

/* ------------------------------------------------------------ tidy */

static void put_le32(uint8_t *p, uint32_t v)
{
	p[0] = v;
	p[1] = v >> 8;
	p[2] = v >> 16;
	p[3] = v >> 24;
}

static void put_le64(uint8_t *p, uint64_t v)
{
	put_le32(p, v);
	put_le32(p + 4, v >> 32);
}

#define STACK_MAX	256

struct task_stack {
	uint32_t id[STACK_MAX];
	int depth;
	int32_t pid, tid;
	int valid;
};

/*
 * Copy one block to @o, leaving out exits whose entry is not in the
 * capture (calls in progress when recording started, or whose entry was
 * lost): llvm-xray stack and account reject them.  A left-out record's
 * time delta is folded into the next record.  Returns records left out.
 */
static uint64_t tidy_block(const uint8_t *in, size_t len, struct task_stack *st,
			   const struct ids *ids, struct buf *o)
{
	uint64_t t, base, removed = 0;
	size_t start = o->len, pos = BLOCK_HDR;
	int32_t pid = (int32_t)le32(in + 49), tid = (int32_t)le32(in + 17);
	int keep_args = 0;

	if (!st->valid || st->pid != pid || st->tid != tid) {
		st->valid = 1;
		st->pid = pid;
		st->tid = tid;
		st->depth = 0;
	}
	buf_reserve(o, len + 64);
	memcpy(o->p + o->len, in, BLOCK_HDR);
	o->len += BLOCK_HDR;
	t = le64(in + 67);
	base = t;

#define EMIT_DELTA(rec, field) do {					\
		if (t - base > UINT32_MAX) {				\
			buf_reserve(o, 16);				\
			memset(o->p + o->len, 0, 16);			\
			o->p[o->len] = 3 << 1 | 1;			\
			put_le64(o->p + o->len + 1, t);			\
			o->len += 16;					\
			base = t;					\
		}							\
		put_le32((rec) + (field), (uint32_t)(t - base));	\
		base = t;						\
	} while (0)

	while (pos < len) {
		const uint8_t *r = in + pos;
		size_t rl;

		if (!(r[0] & 1)) {
			uint32_t w = le32(r), id = w >> 4, type = (w >> 1) & 7;
			int keep = 1, d;

			t += le32(r + 4);
			rl = 8;
			if (type == 0 || type == 3) {
				if (st->depth < STACK_MAX)
					st->id[st->depth] = id;
				st->depth++;
			} else {
				for (d = st->depth - 1; d >= 0 && d < STACK_MAX; d--)
					if (st->id[d] == id)
						break;
				if (d < 0 || st->depth > STACK_MAX) {
					keep = 0;
					removed++;
				} else {
					st->depth = d;
				}
			}
			keep_args = keep;
			if (keep) {
				buf_reserve(o, 8);
				put_le32(o->p + o->len,
					 ids_dense(ids, id) << 4 | (w & 0xf));
				EMIT_DELTA(o->p + o->len, 4);
				o->len += 8;
			}
		} else {
			switch (r[0] >> 1) {
			case 5:	/* CustomEventMarker: size, delta, payload */
				rl = 16 + le32(r + 1);
				t += le32(r + 5);
				buf_reserve(o, rl + 16);
				memcpy(o->p + o->len, r, rl);
				EMIT_DELTA(o->p + o->len, 5);
				o->len += rl;
				keep_args = 0;
				break;
			case 3:	/* TSCWrap */
			case 2:	/* NewCPUId */
				rl = 16;
				t = le64(r + ((r[0] >> 1) == 3 ? 1 : 3));
				base = t;
				buf_reserve(o, rl);
				memcpy(o->p + o->len, r, rl);
				o->len += rl;
				break;
			case 6:	/* CallArgument */
				rl = 16;
				if (keep_args) {
					buf_reserve(o, rl);
					memcpy(o->p + o->len, r, rl);
					o->len += rl;
				}
				break;
			default:
				rl = 16;
				buf_reserve(o, rl);
				memcpy(o->p + o->len, r, rl);
				o->len += rl;
				break;
			}
		}
		if (rl > len - pos)
			tb_die(TB_EXIT_DATA, "record crosses its block");
		pos += rl;
	}
#undef EMIT_DELTA
	put_le64(o->p + start + 1, o->len - start - 16);
	return removed;
}

/* ------------------------------------------------------------ names */

/*
 * The names file: "<id hex> <name>" per line, syscall names from the
 * build-time table and the driver's list for everything else.
 */
/* Append the kernel's id list ("hex space name" lines) to @m by kernel id. */
static void kernel_names(int fd, struct tb_name_map *m)
{
	struct tracebuf_fdr_names n;
	char *text, *line, *save = NULL;

	memset(&n, 0, sizeof(n));
	if (ioctl(fd, TRACEBUF_FDR_IOC_NAMES, &n) || !n.size) {
		tb_warn_errno("names ioctl");
		return;
	}
	text = calloc(1, n.size + 1);
	if (!text)
		tb_die(TB_EXIT_FAIL, "out of memory");
	n.buf = (uintptr_t)text;
	n.len = n.size;
	if (ioctl(fd, TRACEBUF_FDR_IOC_NAMES, &n)) {
		tb_warn_errno("names ioctl");
		free(text);
		return;
	}
	text[n.len < n.size ? n.len : n.size] = 0;
	for (line = strtok_r(text, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		char space[16], name[256], sym[300], *c;
		unsigned int id;

		if (sscanf(line, "%x %15s %255[^\n]", &id, space, name) != 3)
			continue;
		for (c = name; *c; c++)
			if (*c == ' ' || *c == '\t')
				*c = '_';
		snprintf(sym, sizeof(sym), "%s_%s", space, name);
		if (!strcmp(space, "irq"))
			snprintf(sym, sizeof(sym), "irq_%u_%s",
				 TRACEBUF_FDR_ID_KEY(id), name);
		if (tb_name_map_add(m, id, sym))
			tb_die(TB_EXIT_FAIL, "out of memory");
	}
	free(text);
}

/* Name of kernel id @kid: from @known, the syscall table, or generic. */
static void id_name(const struct tb_name_map *known, uint32_t kid, char *out,
		    size_t size)
{
	uint32_t space = TRACEBUF_FDR_ID_SPACE(kid), key = TRACEBUF_FDR_ID_KEY(kid);
	const char *n = tb_name_map_find(known, kid);

	if (n)
		snprintf(out, size, "%s", n);
	else if (space == TRACEBUF_FDR_SPACE_SYSCALL &&
		 key < ARRAY_SIZE(syscall_names) &&
		 syscall_names[key])
		snprintf(out, size, "sys_%s", syscall_names[key]);
	else if (space == TRACEBUF_FDR_SPACE_SYSCALL)
		snprintf(out, size, "sys_%s%u", key & 0x800000 ? "compat_" : "",
			 key & 0x7fffff);
	else
		snprintf(out, size, "fdr_%#x", kid);
}

/*
 * The names file ("ID NAME", the format tbconv --map reads) and the ELF
 * instrumentation map for llvm-xray -m, both by the ids in the trace.
 */
static void write_names(int fd, const char *path, const char *map_path,
			const struct ids *ids)
{
	struct tb_name_map known = { 0 }, dense = { 0 };
	struct tb_error err;
	char name[320];
	size_t i;
	FILE *f;

	kernel_names(fd, &known);
	if (tb_name_map_finish(&known, &err))
		tb_die(TB_EXIT_FAIL, "kernel names: duplicate id");
	f = tb_open_output(path);
	fprintf(f, "# tracebuf-record: function ids of the trace (dense, 1..N)\n");
	fprintf(f, "# ID NAME, then the kernel id (space << 24 | key) as a comment\n");
	for (i = 0; ids && i < ids->n; i++) {
		id_name(&known, ids->v[i], name, sizeof(name));
		fprintf(f, "%zu %s\n# kernel id %#x\n", i + 1, name, ids->v[i]);
		if (tb_name_map_add(&dense, i + 1, name))
			tb_die(TB_EXIT_FAIL, "out of memory");
	}
	tb_close_output(f, path);
	if (ids && map_path) {
		if (tb_name_map_finish(&dense, &err))
			tb_die(TB_EXIT_FAIL, "names: duplicate id");
		f = tb_open_output(map_path);
		if (tb_xray_map_write(f, &dense))
			tb_die(TB_EXIT_FAIL, "%s: cannot write the map", map_path);
		tb_close_output(f, map_path);
	}
	tb_name_map_free(&known);
	tb_name_map_free(&dense);
}

/* A GDB trace file through tbconv fdr-tfile, if tbconv is installed. */
static int write_tfile(const char *argv0, const char *trace, const char *names,
		       const char *out)
{
	char tbconv[4096];
	const char *slash = strrchr(argv0, '/');
	int status;
	pid_t pid;

	if (slash)
		snprintf(tbconv, sizeof(tbconv), "%.*stbconv",
			 (int)(slash - argv0 + 1), argv0);
	else
		snprintf(tbconv, sizeof(tbconv), "tbconv");
	pid = fork();
	if (pid < 0)
		return -1;
	if (pid == 0) {
		execlp(tbconv, "tbconv", "-m", names, "fdr-tfile", trace, out,
		       (char *)NULL);
		_exit(127);
	}
	if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status) ||
	    WEXITSTATUS(status))
		return -1;
	return 0;
}

/* ------------------------------------------------------------ main */

static int print_stats(int fd)
{
	struct tracebuf_fdr_stats st;

	memset(&st, 0, sizeof(st));
	if (ioctl(fd, TRACEBUF_FDR_IOC_STATS, &st))
		tb_die_errno(TB_EXIT_FAIL, "stats");
	printf("recorder: written %llu, dropped %llu, overwritten %llu, %llu bytes committed\n",
	       (unsigned long long)st.written, (unsigned long long)st.dropped,
	       (unsigned long long)st.overwritten, (unsigned long long)st.bytes);
	return TB_EXIT_OK;
}

static pid_t start_command(char **argv, int *go_fd)
{
	int pfd[2];
	pid_t pid;

	if (pipe(pfd))
		tb_die_errno(TB_EXIT_FAIL, "pipe");
	pid = fork();
	if (pid < 0)
		tb_die_errno(TB_EXIT_FAIL, "fork");
	if (pid == 0) {
		char c;

		close(pfd[1]);
		/* Wait until capture runs, so the command is recorded whole. */
		if (read(pfd[0], &c, 1) != 1)
			_exit(127);
		close(pfd[0]);
		execvp(argv[0], argv);
		fprintf(stderr, "%s: %s: %s\n", tb_prog(), argv[0], strerror(errno));
		_exit(127);
	}
	close(pfd[0]);
	*go_fd = pfd[1];
	return pid;
}

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static uint64_t rusage_ns(const struct rusage *ru)
{
	return (uint64_t)(ru->ru_utime.tv_sec + ru->ru_stime.tv_sec) * 1000000000ULL +
	       (uint64_t)(ru->ru_utime.tv_usec + ru->ru_stime.tv_usec) * 1000ULL;
}

/* For scripts and make bench: the same keys as tracebuf-bpf's. */
static void write_stats_json(const char *path,
			     const struct tracebuf_fdr_stats *st,
			     const struct rusage *ru0, const struct rusage *ru1)
{
	FILE *j = tb_open_output(path);

	fprintf(j, "{\"events\": %llu, \"bytes\": %llu, \"lost\": %llu, ",
		(unsigned long long)st->written, (unsigned long long)st->bytes,
		(unsigned long long)(st->dropped + st->overwritten));
	fprintf(j, "\"dropped\": %llu, \"overwritten\": %llu, \"reader_ns\": %llu}\n",
		(unsigned long long)st->dropped,
		(unsigned long long)st->overwritten,
		(unsigned long long)(rusage_ns(ru1) - rusage_ns(ru0)));
	tb_close_output(j, path);
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "output", required_argument, NULL, 'o' },
		{ "names", required_argument, NULL, 'n' },
		{ "events", required_argument, NULL, 'e' },
		{ "mode", required_argument, NULL, 'm' },
		{ "size", required_argument, NULL, 's' },
		{ "args", required_argument, NULL, 'a' },
		{ "duration", required_argument, NULL, 'd' },
		{ "device", required_argument, NULL, 'D' },
		{ "raw", no_argument, NULL, 'r' },
		{ "no-tfile", no_argument, NULL, 'N' },
		{ "quiet", no_argument, NULL, 'q' },
		{ "stats-json", required_argument, NULL, 'j' },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ "start", no_argument, NULL, 'S' },
		{ "stop", no_argument, NULL, 'T' },
		{ NULL, 0, NULL, 0 },
	};
	struct tracebuf_fdr_config cfg = {
		.classes = TRACEBUF_FDR_SYSCALL | TRACEBUF_FDR_IRQ |
			   TRACEBUF_FDR_SOFTIRQ | TRACEBUF_FDR_SCHED,
		.mode = TRACEBUF_FDR_MODE_STREAM,
		.buf_size = TRACEBUF_FDR_BUF_DEFAULT,
	};
	const char *out = DEFAULT_OUT, *names = NULL, *dev = DEFAULT_DEV;
	const char *stats_json = NULL;
	struct rusage ru0, ru1;
	struct tracebuf_fdr_stats st;
	struct counts counts;
	struct block *blocks;
	struct buf raw = { 0 }, tidy = { 0 };
	struct task_stack *stack;
	struct ids ids = { 0 };
	uint64_t removed = 0;
	int keep_raw = 0, control = 0;
	uint64_t v, bytes_out;
	double duration = 0, t0;
	int opt, fd, go_fd = -1, status = 0, quiet = 0;
	size_t nblocks, i;
	char *names_buf = NULL, *map_path = NULL, *tfile_path = NULL;
	int no_tfile = 0;
	pid_t child = 0;
	FILE *f;

	tb_cli_init(argv[0]);
	while ((opt = getopt_long(argc, argv, "+o:n:e:m:s:a:d:D:j:rNqhV", opts, NULL)) != -1) {
		switch (opt) {
		case 'o':
			out = optarg;
			break;
		case 'n':
			names = optarg;
			break;
		case 'e':
			if (parse_classes(optarg, &cfg.classes))
				tb_die(TB_EXIT_USAGE, "bad event list '%s'", optarg);
			break;
		case 'm':
			if (!strcmp(optarg, "stream"))
				cfg.mode = TRACEBUF_FDR_MODE_STREAM;
			else if (!strcmp(optarg, "flight"))
				cfg.mode = TRACEBUF_FDR_MODE_FLIGHT;
			else
				tb_die(TB_EXIT_USAGE, "bad mode '%s'", optarg);
			break;
		case 's':
			if (tb_parse_size(optarg, TRACEBUF_FDR_BUF_MIN,
					  TRACEBUF_FDR_BUF_MAX, &v) ||
			    (v & (v - 1)))
				tb_die(TB_EXIT_USAGE, "bad size '%s'", optarg);
			cfg.buf_size = v;
			break;
		case 'a':
			if (tb_parse_u32(optarg, 0, TRACEBUF_FDR_ARGS_MAX, &cfg.nr_args))
				tb_die(TB_EXIT_USAGE, "bad argument count '%s'", optarg);
			break;
		case 'd':
			if (tb_parse_u64(optarg, 1, 86400 * 365, &v))
				tb_die(TB_EXIT_USAGE, "bad duration '%s'", optarg);
			duration = v;
			break;
		case 'D':
			dev = optarg;
			break;
		case 'r':
			keep_raw = 1;
			break;
		case 'N':
			no_tfile = 1;
			break;
		case 'q':
			quiet = 1;
			break;
		case 'j':
			stats_json = optarg;
			break;
		case 'h':
			print_help(stdout);
			return TB_EXIT_OK;
		case 'V':
			tb_print_version();
			return TB_EXIT_OK;
		case 'S':
			control = 'S';
			break;
		case 'T':
			control = 'T';
			break;
		default:
			print_help(stderr);
			return TB_EXIT_USAGE;
		}
	}
	names_buf = malloc(strlen(out) + 7);
	map_path = malloc(strlen(out) + 5);
	tfile_path = malloc(strlen(out) + 7);
	if (!names_buf || !map_path || !tfile_path)
		tb_die(TB_EXIT_FAIL, "out of memory");
	sprintf(names_buf, "%s.names", out);
	sprintf(map_path, "%s.map", out);
	sprintf(tfile_path, "%s.tfile", out);
	if (!names)
		names = names_buf;

	fd = open(dev, O_RDWR | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0)
		tb_die_errno(TB_EXIT_FAIL, "%s", dev);
	if (ioctl(fd, TRACEBUF_FDR_IOC_STOP))
		tb_die_errno(TB_EXIT_FAIL, "stop");
	if (control == 'T')
		return print_stats(fd);
	if (ioctl(fd, TRACEBUF_FDR_IOC_CONFIG, &cfg))
		tb_die_errno(TB_EXIT_FAIL, "configure");
	if (control == 'S') {
		if (ioctl(fd, TRACEBUF_FDR_IOC_START))
			tb_die_errno(TB_EXIT_FAIL, "start");
		return TB_EXIT_OK;
	}

	signal(SIGINT, on_signal);
	signal(SIGTERM, on_signal);
	if (optind < argc)
		child = start_command(argv + optind, &go_fd);
	getrusage(RUSAGE_SELF, &ru0);
	if (ioctl(fd, TRACEBUF_FDR_IOC_START))
		tb_die_errno(TB_EXIT_FAIL, "start");
	t0 = now_s();
	if (child) {
		if (write(go_fd, "g", 1) != 1)
			tb_die_errno(TB_EXIT_FAIL, "starting the command");
		close(go_fd);
	}

	for (;;) {
		struct pollfd p = { .fd = fd, .events = POLLIN };

		if (got_signal)
			break;
		if (child && waitpid(child, &status, WNOHANG) == child) {
			child = 0;
			break;
		}
		if (!child && optind < argc)
			break;
		if (duration && now_s() - t0 >= duration)
			break;
		if (cfg.mode == TRACEBUF_FDR_MODE_STREAM &&
		    poll(&p, 1, 100) > 0)
			drain_once(fd, &raw);
		else if (cfg.mode != TRACEBUF_FDR_MODE_STREAM)
			usleep(50000);
	}
	if (ioctl(fd, TRACEBUF_FDR_IOC_STOP))
		tb_die_errno(TB_EXIT_FAIL, "stop");
	if (child) {
		kill(child, SIGTERM);
		waitpid(child, &status, 0);
	}
	if (cfg.mode == TRACEBUF_FDR_MODE_FLIGHT) {
		raw.len = 0;
		if (ioctl(fd, TRACEBUF_FDR_IOC_SNAPSHOT))
			tb_die_errno(TB_EXIT_FAIL, "snapshot");
	}
	while (drain_once(fd, &raw))
		;
	getrusage(RUSAGE_SELF, &ru1);
	memset(&st, 0, sizeof(st));
	if (ioctl(fd, TRACEBUF_FDR_IOC_STATS, &st))
		tb_die_errno(TB_EXIT_FAIL, "stats");
	if (stats_json)
		write_stats_json(stats_json, &st, &ru0, &ru1);

	nblocks = order_blocks(&raw, &blocks);
	memset(&counts, 0, sizeof(counts));
	for (i = 0; i < nblocks; i++)
		ids_collect(&ids, raw.p + blocks[i].off, blocks[i].len);
	ids_finish(&ids);
	stack = calloc(1, sizeof(*stack));
	if (!stack)
		tb_die(TB_EXIT_FAIL, "out of memory");
	buf_reserve(&tidy, HDR_SIZE);
	memcpy(tidy.p, raw.p, HDR_SIZE);
	tidy.len = HDR_SIZE;
	for (i = 0; i < nblocks; i++) {
		const uint8_t *b = raw.p + blocks[i].off;

		count_records(b, blocks[i].len, &counts);
		if (keep_raw) {
			buf_reserve(&tidy, blocks[i].len);
			memcpy(tidy.p + tidy.len, b, blocks[i].len);
			tidy.len += blocks[i].len;
		} else {
			removed += tidy_block(b, blocks[i].len, stack, &ids, &tidy);
		}
	}
	f = tb_open_output(out);
	if (fwrite(tidy.p, 1, tidy.len, f) != tidy.len)
		tb_die_errno(TB_EXIT_FAIL, "%s", out);
	tb_close_output(f, out);
	bytes_out = tidy.len;
	write_names(fd, names, keep_raw ? NULL : map_path, keep_raw ? NULL : &ids);
	if (!keep_raw && !no_tfile &&
	    write_tfile(argv[0], out, names, tfile_path))
		tb_warn("%s: not written (tbconv fdr-tfile failed)", tfile_path);
	close(fd);

	if (!quiet) {
		printf("%s: %zu blocks, %llu bytes\n", out, nblocks,
		       (unsigned long long)bytes_out);
		printf("events: syscall %llu, irq %llu, softirq %llu, work %llu, fault %llu, task %llu, marker %llu\n",
		       (unsigned long long)counts.enters[TRACEBUF_FDR_SPACE_SYSCALL],
		       (unsigned long long)counts.enters[TRACEBUF_FDR_SPACE_IRQ],
		       (unsigned long long)counts.enters[TRACEBUF_FDR_SPACE_SOFTIRQ],
		       (unsigned long long)counts.enters[TRACEBUF_FDR_SPACE_WORK],
		       (unsigned long long)counts.enters[TRACEBUF_FDR_SPACE_FAULT],
		       (unsigned long long)counts.enters[TRACEBUF_FDR_SPACE_TASK],
		       (unsigned long long)counts.markers);
		printf("recorder: written %llu, dropped %llu, overwritten %llu, %llu bytes committed\n",
		       (unsigned long long)st.written,
		       (unsigned long long)st.dropped,
		       (unsigned long long)st.overwritten,
		       (unsigned long long)st.bytes);
		if (removed)
			printf("left out %llu exits whose entry precedes the capture or was lost (-r keeps them)\n",
			       (unsigned long long)removed);
		if (keep_raw)
			printf("names: %s (kernel ids; no map or tfile with -r)\n", names);
		else
			printf("names: %s, map: %s (llvm-xray -m), tfile: %s\n",
			       names, map_path, no_tfile ? "-" : tfile_path);
		if (optind < argc && WIFEXITED(status) && WEXITSTATUS(status))
			printf("command exited with status %d\n",
			       WEXITSTATUS(status));
	}
	free(blocks);
	free(raw.p);
	free(tidy.p);
	free(stack);
	free(names_buf);
	free(map_path);
	free(tfile_path);
	free(ids.v);
	return TB_EXIT_OK;
}
