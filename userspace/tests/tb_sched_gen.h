/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A synthetic trace of the scheduler's typed events (SWITCH, WAKEUP,
 * RET: uapi/linux/tracebuf_fdr.h) with known numbers, for the tests of
 * the converters against the real readers (ctf_test, tracedat_test).
 * Clock 1 GHz: a cycle is a nanosecond.  CPU 0: ping (200) and pong
 * (201) wake each other through a pipe, ping opens a missing file three
 * times (ENOENT), forks child (202, woken new on CPU 1), then waits in
 * D state in fsync until an IRQ on the idle CPU wakes it.
 *
 *   wake-up latencies (wake-up to switched in): pong 250 ns, ping 250 ns,
 *   child 90 ns, ping 100 ns: 4, min 90, max 250, total 690 ns;
 *   switches: 7 recorded, the state prev left in: R (idle0 at 1000),
 *   S (ping at 1400), S (pong at 1800), R (idle1 at 2300), X (child at
 *   2400), D (ping at 2600), R (idle0 at 3100);
 *   errors: openat 3 calls, 3 ENOENT; every other call has no RET.
 *
 * A first block of the trace's own description (thread
 * TRACEBUF_FDR_META_TID) comes first, as the collectors write it: no
 * event, no task of it may reach a converted trace.
 */
#ifndef TB_SCHED_GEN_H
#define TB_SCHED_GEN_H

#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <linux/tracebuf.h>

#include "format/fdr_writer.h"
#include "util/bytes.h"

#define SG_KID(space, key) TRACEBUF_FDR_ID(TRACEBUF_FDR_SPACE_##space, key)
#define SG_READ		SG_KID(SYSCALL, 0)
#define SG_WRITE	SG_KID(SYSCALL, 1)
#define SG_FSYNC	SG_KID(SYSCALL, 74)
#define SG_OPENAT	SG_KID(SYSCALL, 257)
#define SG_IRQ		SG_KID(IRQ, 4)
#define SG_FORK		SG_KID(TASK, 0)
#define SG_EXIT		SG_KID(TASK, 1)
#define SG_IDLE0	TRACEBUF_FDR_IDLE_TID(0)
#define SG_IDLE1	TRACEBUF_FDR_IDLE_TID(1)

static inline void sg_switch(struct tb_fdr_writer *w, uint64_t tsc,
			     int32_t prev, int32_t next, int16_t prev_prio,
			     uint8_t state)
{
	uint8_t p[TRACEBUF_FDR_SWITCH_SIZE];

	tb_bytes_put32(p + TRACEBUF_FDR_SWITCH_PREV_TID, (uint32_t)prev);
	tb_bytes_put32(p + TRACEBUF_FDR_SWITCH_NEXT_TID, (uint32_t)next);
	tb_bytes_put16(p + TRACEBUF_FDR_SWITCH_PREV_PRIO, (uint16_t)prev_prio);
	tb_bytes_put16(p + TRACEBUF_FDR_SWITCH_NEXT_PRIO, 120);
	p[TRACEBUF_FDR_SWITCH_PREV_STATE] = state;
	tb_fdr_writer_typed(w, tsc, TRACEBUF_FDR_TYPED_SWITCH, p, sizeof(p));
}

static inline void sg_wakeup(struct tb_fdr_writer *w, uint64_t tsc,
			     int32_t tid, uint16_t cpu, int new_task)
{
	uint8_t p[TRACEBUF_FDR_WAKEUP_SIZE];

	tb_bytes_put32(p + TRACEBUF_FDR_WAKEUP_TID, (uint32_t)tid);
	tb_bytes_put16(p + TRACEBUF_FDR_WAKEUP_CPU, cpu);
	tb_bytes_put16(p + TRACEBUF_FDR_WAKEUP_PRIO, 120);
	p[TRACEBUF_FDR_WAKEUP_FLAGS] = new_task ? TRACEBUF_FDR_WAKEUP_NEW : 0;
	tb_fdr_writer_typed(w, tsc, TRACEBUF_FDR_TYPED_WAKEUP, p, sizeof(p));
}

static inline void sg_ret(struct tb_fdr_writer *w, uint64_t tsc, uint32_t id,
			  int64_t value)
{
	uint8_t p[TRACEBUF_FDR_RET_SIZE];

	tb_bytes_put32(p + TRACEBUF_FDR_RET_ID, id);
	tb_bytes_put64(p + TRACEBUF_FDR_RET_VALUE, (uint64_t)value);
	tb_fdr_writer_typed(w, tsc, TRACEBUF_FDR_TYPED_RET, p, sizeof(p));
}

static inline void sg_call(struct tb_fdr_writer *w, uint32_t id,
			   uint64_t enter, uint64_t exit)
{
	tb_fdr_writer_function(w, TB_FDR_ENTER, id, enter, NULL, 0);
	tb_fdr_writer_function(w, TB_FDR_EXIT, id, exit, NULL, 0);
}

static inline void sg_comm(struct tb_fdr_writer *w, uint64_t tsc,
			   const char *comm)
{
	char text[64];

	snprintf(text, sizeof(text), TRACEBUF_FDR_COMM_PREFIX "%s", comm);
	tb_fdr_writer_custom(w, tsc, text, (int32_t)strlen(text));
}

/* The trace in @fdr, its names in @fdr.names. */
static inline int sg_write(const char *fdr)
{
	static const char capture[] = "capture 1\nclock tsc\n";
	struct tb_fdr_header h = {
		.version = 5, .type = TB_FDR_TYPE_FDR,
		.cycle_frequency = 1000000000ULL,
	};
	struct tb_fdr_writer w;
	uint64_t a = 202, t;
	char path[4200];
	FILE *f = fopen(fdr, "wb");
	int i;

	if (!f)
		return -1;
	tb_fdr_writer_init(&w, f, &h, 0);
	/* The trace's own description: never an event. */
	tb_fdr_writer_begin(&w, TRACEBUF_FDR_META_TID, TRACEBUF_FDR_META_TID,
			    0, 900, 1700000000, 0);
	tb_fdr_writer_typed(&w, 900, TRACEBUF_FDR_TYPED_META_CAPTURE, capture,
			    sizeof(capture) - 1);
	/* ping, CPU 0 */
	tb_fdr_writer_begin(&w, 200, 200, 0, 1000, 1700000000, 0);
	sg_comm(&w, 1000, "ping");
	sg_switch(&w, 1000, SG_IDLE0, 200, 120, TRACEBUF_FDR_STATE_RUNNING);
	tb_fdr_writer_function(&w, TB_FDR_ENTER, SG_WRITE, 1100, NULL, 0);
	sg_wakeup(&w, 1150, 201, 0, 0);
	tb_fdr_writer_function(&w, TB_FDR_EXIT, SG_WRITE, 1200, NULL, 0);
	tb_fdr_writer_function(&w, TB_FDR_ENTER, SG_READ, 1300, NULL, 0);
	sg_switch(&w, 1800, 201, 200, 120, TRACEBUF_FDR_STATE_SLEEPING);
	tb_fdr_writer_function(&w, TB_FDR_EXIT, SG_READ, 1850, NULL, 0);
	for (i = 0, t = 1900; i < 3; i++, t += 100) {
		sg_call(&w, SG_OPENAT, t, t + 50);
		sg_ret(&w, t + 50, SG_OPENAT, -2);
	}
	tb_fdr_writer_function(&w, TB_FDR_ENTER_ARGS, SG_FORK, 2200, &a, 1);
	tb_fdr_writer_function(&w, TB_FDR_EXIT, SG_FORK, 2200, NULL, 0);
	sg_wakeup(&w, 2210, 202, 1, 1);
	tb_fdr_writer_function(&w, TB_FDR_ENTER, SG_FSYNC, 2500, NULL, 0);
	sg_switch(&w, 3100, SG_IDLE0, 200, 120, TRACEBUF_FDR_STATE_RUNNING);
	tb_fdr_writer_function(&w, TB_FDR_EXIT, SG_FSYNC, 3200, NULL, 0);
	/* pong, CPU 0: blocked in read when the capture began */
	tb_fdr_writer_begin(&w, 201, 201, 0, 1400, 1700000000, 0);
	sg_comm(&w, 1400, "pong");
	sg_switch(&w, 1400, 200, 201, 120, TRACEBUF_FDR_STATE_SLEEPING);
	tb_fdr_writer_function(&w, TB_FDR_EXIT, SG_READ, 1450, NULL, 0);
	tb_fdr_writer_function(&w, TB_FDR_ENTER, SG_WRITE, 1500, NULL, 0);
	sg_wakeup(&w, 1550, 200, 0, 0);
	tb_fdr_writer_function(&w, TB_FDR_EXIT, SG_WRITE, 1600, NULL, 0);
	tb_fdr_writer_function(&w, TB_FDR_ENTER, SG_READ, 1700, NULL, 0);
	/* child, CPU 1 */
	tb_fdr_writer_begin(&w, 202, 202, 1, 2300, 1700000000, 0);
	sg_comm(&w, 2300, "child");
	sg_switch(&w, 2300, SG_IDLE1, 202, 120, TRACEBUF_FDR_STATE_RUNNING);
	a = 202;
	tb_fdr_writer_function(&w, TB_FDR_ENTER_ARGS, SG_EXIT, 2350, &a, 1);
	tb_fdr_writer_function(&w, TB_FDR_EXIT, SG_EXIT, 2350, NULL, 0);
	/* the idle tasks: child's last switch, ping's D sleep, the IRQ */
	tb_fdr_writer_begin(&w, 0, SG_IDLE1, 1, 2400, 1700000000, 0);
	sg_switch(&w, 2400, 202, SG_IDLE1, 120, TRACEBUF_FDR_STATE_DEAD);
	tb_fdr_writer_begin(&w, 0, SG_IDLE0, 0, 2600, 1700000000, 0);
	sg_switch(&w, 2600, 200, SG_IDLE0, 120,
		  TRACEBUF_FDR_STATE_UNINTERRUPTIBLE);
	tb_fdr_writer_function(&w, TB_FDR_ENTER, SG_IRQ, 2990, NULL, 0);
	sg_wakeup(&w, 3000, 200, 0, 0);
	tb_fdr_writer_function(&w, TB_FDR_EXIT, SG_IRQ, 3010, NULL, 0);
	tb_fdr_writer_finish(&w);
	if (fclose(f))
		return -1;
	snprintf(path, sizeof(path), "%s.names", fdr);
	f = fopen(path, "w");
	if (!f)
		return -1;
	fprintf(f, "%u sys_read\n%u sys_write\n%u sys_fsync\n%u sys_openat\n"
		"%u irq_4_ttyS0\n%u task_fork\n%u task_exit\n", SG_READ,
		SG_WRITE, SG_FSYNC, SG_OPENAT, SG_IRQ, SG_FORK, SG_EXIT);
	return fclose(f) ? -1 : 0;
}

/*
 * What a hostile or damaged trace holds, in @fdr (names in @fdr.names):
 * task 300 on CPU 0 with no switch into it (a derived one), a RET with
 * another call's id after read's exit, a RET after write's entry, write's
 * own RET (-9, EBADF) then a second one, a SWITCH cut to 5 bytes and a
 * RET cut to 4, and a switch to 301 with a state no version knows (99:
 * "other").  Expected: one derived and one recorded sched_switch
 * (prev_state 0), write's ret -9, read's 0, 3 RETs left out, 2
 * malformed typed events, kept as typed events.
 */
static inline int sg_write_hostile(const char *fdr)
{
	static const uint8_t cut[5] = { 1, 2, 3, 4, 5 };
	struct tb_fdr_header h = {
		.version = 5, .type = TB_FDR_TYPE_FDR,
		.cycle_frequency = 1000000000ULL,
	};
	struct tb_fdr_writer w;
	char path[4200];
	FILE *f = fopen(fdr, "wb");

	if (!f)
		return -1;
	tb_fdr_writer_init(&w, f, &h, 0);
	tb_fdr_writer_begin(&w, 300, 300, 0, 1000, 1700000000, 0);
	sg_comm(&w, 1000, "hostile");
	sg_call(&w, SG_READ, 1000, 1100);
	sg_ret(&w, 1100, SG_WRITE, -5);
	tb_fdr_writer_function(&w, TB_FDR_ENTER, SG_WRITE, 1200, NULL, 0);
	sg_ret(&w, 1200, SG_WRITE, -9);
	tb_fdr_writer_function(&w, TB_FDR_EXIT, SG_WRITE, 1300, NULL, 0);
	sg_ret(&w, 1300, SG_WRITE, -9);
	sg_ret(&w, 1300, SG_WRITE, -4);
	tb_fdr_writer_typed(&w, 1400, TRACEBUF_FDR_TYPED_SWITCH, cut,
			    sizeof(cut));
	tb_fdr_writer_typed(&w, 1410, TRACEBUF_FDR_TYPED_RET, cut, 4);
	tb_fdr_writer_begin(&w, 301, 301, 0, 1500, 1700000000, 0);
	sg_comm(&w, 1500, "other");
	sg_switch(&w, 1500, 300, 301, 120, 99);
	sg_call(&w, SG_READ, 1600, 1700);
	tb_fdr_writer_finish(&w);
	if (fclose(f))
		return -1;
	snprintf(path, sizeof(path), "%s.names", fdr);
	f = fopen(path, "w");
	if (!f)
		return -1;
	fprintf(f, "%u sys_read\n%u sys_write\n", SG_READ, SG_WRITE);
	return fclose(f) ? -1 : 0;
}

#endif /* TB_SCHED_GEN_H */
