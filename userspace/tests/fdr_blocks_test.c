// SPDX-License-Identifier: GPL-2.0
/*
 * lib/fdr_blocks: per-CPU events in, per-task FDR blocks out, read back
 * with the library's reader.  Blocks are cut at every change of task,
 * come in the order they ended (and in order of their first event once
 * through lib/fdr_post, the one place that orders), start at the switch
 * that named their task, clamp events that go back in time, and carry
 * arguments, instants and loss markers.  (fdr_bpf_test drives the
 * same code with tracebuf bpf's records, through lib/fdr_bpf.)
 */
#include <stdlib.h>
#include <string.h>

#include "tb_harness.h"
#include "collect/fdr_blocks.h"
#include "convert/fdr_post.h"
#include "format/fdr_reader.h"

#define ID(n)	(0x1000000U + (n))

/* The file as one line per record: "B tid cpu tsc", "E id", "X id" ... */
struct dump {
	char *text;
	size_t len;
	FILE *f;
	uint64_t tsc;
};

static int dump_rec(void *ctx, const struct tb_fdr_record *r)
{
	struct dump *d = ctx;

	switch (r->kind) {
	case TB_FDR_NEW_CPU:
		d->tsc = r->value;
		fprintf(d->f, "B %d/%d cpu %u at %llu\n", r->pid, r->tid, r->cpu,
			(unsigned long long)r->value);
		break;
	case TB_FDR_TSC_WRAP:
		d->tsc = r->value;
		break;
	case TB_FDR_FUNCTION:
		d->tsc += r->delta;
		fprintf(d->f, "%c %x at %llu\n",
			r->func_type == TB_FDR_EXIT ? 'X' :
			r->func_type == TB_FDR_ENTER_ARGS ? 'A' : 'E',
			r->func_id, (unsigned long long)d->tsc);
		break;
	case TB_FDR_CALL_ARG:
		fprintf(d->f, "  arg %llu\n", (unsigned long long)r->value);
		break;
	case TB_FDR_CUSTOM:
		d->tsc += r->event_delta;
		fprintf(d->f, "C %.*s\n", (int)r->size, (const char *)r->data);
		break;
	}
	return 0;
}

static int init(struct tb_fdr_blocks *b, unsigned int nr_cpus)
{
	struct tb_fdr_header h = {
		.version = 5, .type = TB_FDR_TYPE_FDR,
		.cycle_frequency = 1000000000ULL,
	};

	return tb_fdr_blocks_init(b, nr_cpus, &h);
}

/* Records of an FDR stream as text (free it). */
static char *dump(const void *file, size_t len)
{
	struct dump d = { 0 };
	struct tb_error err;

	d.f = open_memstream(&d.text, &d.len);
	if (!d.f || tb_fdr_reader_read_mem(file, len, NULL, dump_rec, &d, NULL, &err))
		return NULL;
	fclose(d.f);
	return d.text;
}

/* Finish @b and return its stream as text. */
static char *finish_and_dump(struct tb_fdr_blocks *b)
{
	if (tb_fdr_blocks_finish(b))
		return NULL;
	return dump(b->fdr, b->fdr_len);
}

/* The same after the post-processing, in raw mode (blocks kept). */
static char *ordered_dump(struct tb_fdr_blocks *b)
{
	struct tb_fdr_post p = { .raw = true };
	struct tb_error err;
	char *file = NULL, *text = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&file, &len);

	if (m && !tb_fdr_post_run(&p, b->fdr, b->fdr_len, m, &err) &&
	    !fclose(m))
		text = dump(file, len);
	else if (m)
		fclose(m);
	free(file);
	tb_fdr_post_free(&p);
	return text;
}

TEST(blocks_as_they_end_then_by_first_event)
{
	struct tb_fdr_blocks b;
	char *out;

	ASSERT_EQ(0, init(&b, 2));
	/* CPU 1's task starts first but its block is finished last. */
	tb_fdr_blocks_event(&b, 1, 20, 20, 100, TB_FDR_EV_ENTER, ID(1), NULL, 0);
	tb_fdr_blocks_event(&b, 0, 10, 10, 150, TB_FDR_EV_ENTER, ID(2), NULL, 0);
	tb_fdr_blocks_event(&b, 0, 10, 10, 160, TB_FDR_EV_EXIT, ID(2), NULL, 0);
	/* A change of task on CPU 0 cuts a block without a switch. */
	tb_fdr_blocks_event(&b, 0, 11, 10, 170, TB_FDR_EV_POINT, ID(3), NULL, 0);
	tb_fdr_blocks_event(&b, 1, 20, 20, 200, TB_FDR_EV_EXIT, ID(1), NULL, 0);
	out = finish_and_dump(&b);
	ASSERT_NE(NULL, out);
	/* As they ended: CPU 0's first, then the rest CPU by CPU. */
	EXPECT_STREQ("B 10/10 cpu 0 at 150\nE 1000002 at 150\nX 1000002 at 160\n"
		     "B 10/11 cpu 0 at 170\nE 1000003 at 170\nX 1000003 at 170\n"
		     "B 20/20 cpu 1 at 100\nE 1000001 at 100\nX 1000001 at 200\n",
		     out);
	free(out);
	/* Ordered once, by the post-processing: by their first event. */
	out = ordered_dump(&b);
	ASSERT_NE(NULL, out);
	EXPECT_STREQ("B 20/20 cpu 1 at 100\nE 1000001 at 100\nX 1000001 at 200\n"
		     "B 10/10 cpu 0 at 150\nE 1000002 at 150\nX 1000002 at 160\n"
		     "B 10/11 cpu 0 at 170\nE 1000003 at 170\nX 1000003 at 170\n",
		     out);
	EXPECT_EQ(3, b.nr_blocks);
	EXPECT_EQ(0, b.clamped);
	free(out);
	tb_fdr_blocks_free(&b);
}

TEST(switch_starts_the_block)
{
	struct tb_fdr_blocks b;
	char *out;

	ASSERT_EQ(0, init(&b, 1));
	/* Not opened at the switch: the block starts at the switch's time. */
	tb_fdr_blocks_switch(&b, 0, 5, 5, 50, false);
	tb_fdr_blocks_event(&b, 0, 5, 5, 70, TB_FDR_EV_ENTER, ID(1), NULL, 0);
	/* Opened at the switch: a block even without events. */
	tb_fdr_blocks_switch(&b, 0, 6, 6, 80, true);
	/* Named task 7, but task 8 runs: its block starts at its event. */
	tb_fdr_blocks_switch(&b, 0, 7, 7, 90, false);
	tb_fdr_blocks_event(&b, 0, 8, 8, 95, TB_FDR_EV_EXIT, ID(1), NULL, 0);
	out = finish_and_dump(&b);
	ASSERT_NE(NULL, out);
	EXPECT_STREQ("B 5/5 cpu 0 at 50\nE 1000001 at 70\n"
		     "B 6/6 cpu 0 at 80\n"
		     "B 8/8 cpu 0 at 95\nX 1000001 at 95\n", out);
	free(out);
	tb_fdr_blocks_free(&b);
}

TEST(clamp_args_and_losses)
{
	static const uint64_t args[] = { 3, 4 }, lost[] = { 12 };
	struct tb_fdr_blocks b;
	char *out;

	ASSERT_EQ(0, init(&b, 1));
	tb_fdr_blocks_event(&b, 0, 1, 1, 1000, TB_FDR_EV_ENTER, ID(1), args, 2);
	/* Older than its predecessor: clamped to 1000. */
	tb_fdr_blocks_event(&b, 0, 1, 1, 990, TB_FDR_EV_LOST, 0, lost, 1);
	/* 2^32 ns later: the writer adds a TSCWrap. */
	tb_fdr_blocks_event(&b, 0, 1, 1, 1000 + (1ULL << 32), TB_FDR_EV_EXIT,
			    ID(1), NULL, 0);
	out = finish_and_dump(&b);
	ASSERT_NE(NULL, out);
	EXPECT_STREQ("B 1/1 cpu 0 at 1000\nA 1000001 at 1000\n  arg 3\n  arg 4\n"
		     "C tracebuf: lost 12 events\nX 1000001 at 4294968296\n", out);
	EXPECT_EQ(1, b.clamped);
	free(out);
	tb_fdr_blocks_free(&b);
}

/*
 * A tid that comes back in another process (the task exited, its tid
 * was reused, the switches between were lost with the ring buffer's
 * overflow): another task, another block, never the first process's.
 */
TEST(same_tid_other_process_is_another_block)
{
	struct tb_fdr_blocks b;
	char *out;

	ASSERT_EQ(0, init(&b, 1));
	tb_fdr_blocks_event(&b, 0, 5, 5, 100, TB_FDR_EV_ENTER, ID(1), NULL, 0);
	tb_fdr_blocks_event(&b, 0, 5, 9, 200, TB_FDR_EV_ENTER, ID(2), NULL, 0);
	out = finish_and_dump(&b);
	ASSERT_NE(NULL, out);
	EXPECT_STREQ("B 5/5 cpu 0 at 100\nE 1000001 at 100\n"
		     "B 9/5 cpu 0 at 200\nE 1000002 at 200\n", out);
	free(out);
	tb_fdr_blocks_free(&b);
}

TEST_HARNESS_MAIN
