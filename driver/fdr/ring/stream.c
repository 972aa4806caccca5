// SPDX-License-Identifier: GPL-2.0
/*
 * Streaming: readers consume closed pages (copied by read(), or lent to a
 * file that mapped the rings), and free them for the writers.  Serialised,
 * except the lockless tests for poll().  The design is at
 * fdr_rings' definition.
 */
#include <linux/cpu.h>
#include <linux/percpu.h>
#include <linux/smp.h>
#include <linux/wait.h>

#include "ring_internal.h"

/*
 * Copy closed pages of @c to @buf + *@done, up to @count.  Returns 1 when
 * the copy stopped inside a page: @rd then owns the rest of it and must
 * read it before anything else, or blocks of two CPUs would be spliced.
 */
static int fdr_stream_copy(struct fdr_cpu *c, struct fdr_reader *rd,
			   char __user *buf, size_t count, size_t *done)
{
	/* Pairs with fdr_write_next_page()'s release of a closed page. */
	while (*done < count && c->tail != smp_load_acquire(&c->head)) {
		u32 len = c->pages[c->tail & FDR_PAGE_MASK].len;
		size_t n = min_t(size_t, len - c->rd_off, count - *done);

		if (fdr_ring_copy_out(buf + *done, c, c->tail, c->rd_off, n,
				      FDR_NO_BLOCK, NULL))
			return -EFAULT;
		*done += n;
		c->rd_off += n;
		if (c->rd_off < len) {
			c->rd_owner = rd;
			rd->cpu = c->cpu;
			return 1;
		}
		if (c->rd_owner) {
			/* Peers skipped this CPU while we owned the page. */
			c->rd_owner = NULL;
			rd->cpu = -1;
			wake_up_interruptible_all(&fdr_rings.wq);
		}
		c->rd_off = 0;
		/* Our copy is done before the writer reuses the page. */
		smp_store_release(&c->tail, c->tail + 1);
	}
	return 0;
}

ssize_t fdr_stream_read(struct fdr_reader *rd, char __user *buf, size_t count)
{
	size_t done = 0;
	int cpu, ret = 0;

	if (!fdr_rings.buf_size)
		return 0;
	/* A file that reads with read() is done with its mapped pages. */
	for_each_possible_cpu(cpu)
		fdr_stream_lend(rd, cpu, false, true, NULL);
	/* First the rest of the page this file is partway through. */
	if (rd->cpu >= 0) {
		struct fdr_cpu *c = per_cpu_ptr(fdr_rings.cpus, rd->cpu);

		if (c->rd_owner != rd)
			rd->cpu = -1;	/* fdr_stream_keep_rests() took it */
		else
			ret = fdr_stream_copy(c, rd, buf, count, &done);
	}
	for_each_possible_cpu(cpu) {
		struct fdr_cpu *c = per_cpu_ptr(fdr_rings.cpus, cpu);

		if (ret || done == count)
			break;
		if (c->rd_owner || c->lend_owner)
			continue;	/* a file is in the middle of it */
		ret = fdr_stream_copy(c, rd, buf, count, &done);
	}
	if (ret < 0 && !done)
		return ret;
	return done;
}

/*
 * The file that is partway through the oldest page of @c lets go of the
 * rest of it, and the page is free.
 */
static void fdr_stream_let_go(struct fdr_cpu *c)
{
	struct fdr_reader *rd = c->rd_owner;

	c->rd_off = 0;
	c->rd_owner = NULL;
	rd->cpu = -1;
	/* Pairs with fdr_write_next_page(): the page is free. */
	smp_store_release(&c->tail, c->tail + 1);
	/* Peers skipped this CPU while the file owned the page. */
	wake_up_interruptible_all(&fdr_rings.wq);
}

int fdr_stream_keep_rests(void)
{
	int cpu, ret;

	if (!fdr_rings.buf_size)
		return 0;
	for_each_possible_cpu(cpu) {
		struct fdr_cpu *c = per_cpu_ptr(fdr_rings.cpus, cpu);
		u32 len;

		if (!c->rd_owner)
			continue;
		len = c->pages[c->tail & FDR_PAGE_MASK].len;
		ret = fdr_rest_save(&c->rd_owner->rest, c, c->tail, c->rd_off,
				    len - c->rd_off, FDR_NO_BLOCK, NULL);
		if (ret) {
			fdr_stream_rests_kept(false);
			return ret;
		}
	}
	return 0;
}

void fdr_stream_rests_kept(bool go)
{
	int cpu;

	if (!fdr_rings.buf_size)
		return;
	for_each_possible_cpu(cpu) {
		struct fdr_cpu *c = per_cpu_ptr(fdr_rings.cpus, cpu);

		if (!c->rd_owner)
			continue;
		/* A file partway through a page has no other rest pending. */
		if (go)
			fdr_stream_let_go(c);
		else
			fdr_rest_free(&c->rd_owner->rest);
	}
}

/*
 * @rd is closed: it gives back what it borrowed, and the rest of the page
 * it was partway through is discarded (another file could not start in
 * the middle of a block).
 */
void fdr_stream_exit(struct fdr_reader *rd)
{
	int cpu;

	if (!fdr_rings.buf_size)
		return;
	for_each_possible_cpu(cpu) {
		fdr_stream_lend(rd, cpu, false, true, NULL);
		if (per_cpu_ptr(fdr_rings.cpus, cpu)->rd_owner == rd)
			fdr_stream_let_go(per_cpu_ptr(fdr_rings.cpus, cpu));
	}
}

static void fdr_flush_ipi(void *info)
{
	struct fdr_cpu *c = info;

	/*
	 * Interrupts off on c's CPU, so no writer is inside; an NMI writer
	 * could come in, so own the ring as a writer does.
	 */
	if (!c->w.len)
		return;
	c->w.gate.busy = 1;
	barrier();
	fdr_write_next_page(c);
	fdr_release(c);
}

/*
 * Close the page being filled so a reader can take it: on every CPU once
 * capture stopped (@all), else where it holds at least the wake-up amount.
 */
static void fdr_stream_flush_cpu(struct fdr_cpu *c, bool all)
{
	u32 len = READ_ONCE(c->w.len);

	if (!len || (!all && len < fdr_rings.wakeup))
		return;
	if (READ_ONCE(c->w.gate.on) && cpu_online(c->cpu))
		smp_call_function_single(c->cpu, fdr_flush_ipi, c, 1);
	else
		fdr_flush_ipi(c);
}

void fdr_stream_flush(bool all)
{
	int cpu;

	if (!fdr_rings.buf_size)
		return;
	cpus_read_lock();
	for_each_possible_cpu(cpu)
		fdr_stream_flush_cpu(per_cpu_ptr(fdr_rings.cpus, cpu), all);
	cpus_read_unlock();
}

/* Give back the pages of @c lent to a file. */
static void fdr_lend_return(struct fdr_cpu *c)
{
	c->lend_owner = NULL;
	/* Pairs with fdr_write_next_page(): the file is done with them. */
	smp_store_release(&c->tail, c->lend_end);
	/* Peers skipped this CPU while they were lent. */
	wake_up_interruptible_all(&fdr_rings.wq);
}

int fdr_stream_lend(struct fdr_reader *rd, unsigned int cpu, bool lend,
		    bool running, struct fdr_lend *out)
{
	struct fdr_cpu *c = per_cpu_ptr(fdr_rings.cpus, cpu);
	unsigned long head, s;

	if (out) {
		out->first = 0;
		out->count = 0;
		out->eof = false;
	}
	if (!fdr_rings.buf_size)
		return 0;
	if (c->lend_owner == rd)
		fdr_lend_return(c);
	/* Another file is in the middle of this CPU: nothing for us now. */
	if (!lend || c->lend_owner || c->rd_owner)
		return 0;
	/* Pairs with fdr_write_next_page()'s release of a closed page. */
	if (c->tail == smp_load_acquire(&c->head)) {
		cpus_read_lock();
		fdr_stream_flush_cpu(c, !running);
		cpus_read_unlock();
	}
	/* The lent pages' bytes and lengths are final (fdr_write_next_page()). */
	head = smp_load_acquire(&c->head);
	out->first = c->tail;
	out->count = head - c->tail;
	for (s = c->tail; s != head; s++)
		out->len[s & FDR_PAGE_MASK] = c->pages[s & FDR_PAGE_MASK].len;
	if (out->count) {
		c->lend_owner = rd;
		c->lend_end = head;
	} else {
		out->eof = !running && !READ_ONCE(c->w.len);
	}
	return out->count;
}

bool fdr_stream_lent(const struct fdr_reader *rd)
{
	int cpu;

	if (!fdr_rings.buf_size)
		return false;
	for_each_possible_cpu(cpu) {
		const struct fdr_reader *lender;

		lender = READ_ONCE(per_cpu_ptr(fdr_rings.cpus, cpu)->lend_owner);
		if (lender && (!rd || lender == rd))
			return true;
	}
	return false;
}

bool fdr_stream_ready(const struct fdr_reader *rd, bool all)
{
	/*
	 * Stopped (@all), a page left open counts at any length: the
	 * reader closes it (fdr_stream_flush(true)), and no writer will
	 * reach the wake-up amount.  A flush finds no free page while the
	 * ring is full, so the open page outlives the pages before it.
	 */
	u32 enough = all ? 1 : fdr_rings.wakeup;
	int cpu;

	if (!fdr_rings.buf_size)
		return false;
	for_each_possible_cpu(cpu) {
		struct fdr_cpu *c = per_cpu_ptr(fdr_rings.cpus, cpu);
		const struct fdr_reader *owner = READ_ONCE(c->rd_owner);
		const struct fdr_reader *lender = READ_ONCE(c->lend_owner);

		/* The rest of our own page is ready; another file's is not. */
		if (owner == rd)
			return true;
		if (owner || (lender && lender != rd))
			continue;
		/* Pages lent to us are not news: pages after them are. */
		if (lender) {
			/* Pairs with fdr_write_next_page()'s release, as below. */
			if (READ_ONCE(c->lend_end) != smp_load_acquire(&c->head) ||
			    READ_ONCE(c->w.len) >= enough)
				return true;
			continue;
		}
		/* Pairs with fdr_write_next_page()'s release of a closed page. */
		if (READ_ONCE(c->tail) != smp_load_acquire(&c->head) ||
		    READ_ONCE(c->w.len) >= enough)
			return true;
	}
	return false;
}

/*
 * Nothing left to read on any CPU, whoever would read it, once @rd gave
 * back what it borrowed.  With capture stopped this is the end of the
 * stream; until then a file that finds only pages another file owns
 * waits for that file.
 */
bool fdr_stream_empty(const struct fdr_reader *rd)
{
	int cpu;

	if (!fdr_rings.buf_size)
		return true;
	for_each_possible_cpu(cpu) {
		struct fdr_cpu *c = per_cpu_ptr(fdr_rings.cpus, cpu);
		unsigned long tail = READ_ONCE(c->tail);

		if (rd && READ_ONCE(c->lend_owner) == rd)
			tail = READ_ONCE(c->lend_end);
		/* Pairs with fdr_write_next_page()'s release of a closed page. */
		if (tail != smp_load_acquire(&c->head) || READ_ONCE(c->w.len))
			return false;
	}
	return true;
}
