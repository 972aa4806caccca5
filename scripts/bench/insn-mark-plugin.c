// SPDX-License-Identifier: GPL-2.0
/*
 * insn_mark: a qemu TCG plugin that counts the guest instructions each
 * vCPU executes between two marks, for scripts/bench/insn-reader.
 *
 * Under TCG the guest has no PMU and its clocks charge a task with time
 * that is not its work (Documentation/performance.rst, "The reader in
 * instructions"), so a reader's cost is counted here instead, exactly: every
 * executed translation block adds its instruction count to its vCPU's
 * counter.  A string instruction with a rep prefix counts once per
 * iteration (qemu executes each iteration as a block of its own), which
 * weighs a copy far above what it costs a CPU with fast string
 * operations: those iterations are also counted apart ("rep"), so that a
 * reader's instructions can be given with and without them.
 *
 * The marks are two instructions that do nothing on any x86 CPU and that
 * compilers do not emit: "xchg %bx,%bx" (66 87 db) starts an interval and
 * "xchg %cx,%cx" (66 87 c9) ends it (tb-workload executes them around its
 * loop).  At the end mark the plugin prints, through qemu's log (-d
 * plugin), one line: "insn-mark N: vcpu0 COUNT rep0 COUNT vcpu1 ...",
 * the instructions of each vCPU since the start mark and how many of
 * them were rep string iterations.
 *
 * qemu (7.2) loads it with -plugin FILE; there is no header for the
 * plugin API in Debian's qemu packages, so the part of it used here is
 * declared below, as the API (version 1) defines it.
 */
#include <inttypes.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#define INSN_MARK_EXPORT __attribute__((visibility("default")))
#define INSN_MARK_VCPUS 64

/* The qemu plugin API, version 1: what this plugin calls. */
typedef uint64_t qemu_plugin_id_t;
typedef struct qemu_info_t {
	const char *target_name;
	struct {
		int min;
		int cur;
	} version;
	bool system_emulation;
	union {
		struct {
			int smp_vcpus;
			int max_vcpus;
		} system;
	};
} qemu_info_t;
struct qemu_plugin_tb;
struct qemu_plugin_insn;
enum qemu_plugin_cb_flags {
	QEMU_PLUGIN_CB_NO_REGS,
	QEMU_PLUGIN_CB_R_REGS,
	QEMU_PLUGIN_CB_RW_REGS,
};

typedef void (*qemu_plugin_vcpu_tb_trans_cb_t)(qemu_plugin_id_t id,
					       struct qemu_plugin_tb *tb);
typedef void (*qemu_plugin_vcpu_udata_cb_t)(unsigned int vcpu_index,
					    void *userdata);
void qemu_plugin_register_vcpu_tb_trans_cb(qemu_plugin_id_t id,
					   qemu_plugin_vcpu_tb_trans_cb_t cb);
void qemu_plugin_register_vcpu_tb_exec_cb(struct qemu_plugin_tb *tb,
					  qemu_plugin_vcpu_udata_cb_t cb,
					  enum qemu_plugin_cb_flags flags,
					  void *userdata);
void qemu_plugin_register_vcpu_insn_exec_cb(struct qemu_plugin_insn *insn,
					    qemu_plugin_vcpu_udata_cb_t cb,
					    enum qemu_plugin_cb_flags flags,
					    void *userdata);
size_t qemu_plugin_tb_n_insns(const struct qemu_plugin_tb *tb);
struct qemu_plugin_insn *qemu_plugin_tb_get_insn(const struct qemu_plugin_tb *tb,
						 size_t idx);
const void *qemu_plugin_insn_data(const struct qemu_plugin_insn *insn);
size_t qemu_plugin_insn_size(const struct qemu_plugin_insn *insn);
void qemu_plugin_outs(const char *string);

INSN_MARK_EXPORT int qemu_plugin_version = 1;

/* Written by the vCPU's own thread only; read at the marks. */
static uint64_t insn_count[INSN_MARK_VCPUS];
static uint64_t insn_start[INSN_MARK_VCPUS];
static uint64_t rep_count[INSN_MARK_VCPUS];
static uint64_t rep_start[INSN_MARK_VCPUS];
static unsigned int insn_vcpus = 1, insn_marks;

static const uint8_t mark_start[] = { 0x66, 0x87, 0xdb };
static const uint8_t mark_end[] = { 0x66, 0x87, 0xc9 };

static void on_tb_exec(unsigned int vcpu, void *n)
{
	if (vcpu < INSN_MARK_VCPUS)
		insn_count[vcpu] += (uintptr_t)n;
}

static void on_rep_exec(unsigned int vcpu, void *unused)
{
	if (vcpu < INSN_MARK_VCPUS)
		rep_count[vcpu]++;
}

static void on_start(unsigned int vcpu, void *unused)
{
	memcpy(insn_start, insn_count, sizeof(insn_start));
	memcpy(rep_start, rep_count, sizeof(rep_start));
}

static void on_end(unsigned int vcpu, void *unused)
{
	char line[64 + 64 * INSN_MARK_VCPUS];
	size_t len;
	unsigned int i;

	len = snprintf(line, sizeof(line), "insn-mark %u:", ++insn_marks);
	for (i = 0; i < insn_vcpus && i < INSN_MARK_VCPUS; i++)
		len += snprintf(line + len, sizeof(line) - len,
				" vcpu%u %" PRIu64 " rep%u %" PRIu64,
				i, insn_count[i] - insn_start[i],
				i, rep_count[i] - rep_start[i]);
	snprintf(line + len, sizeof(line) - len, "\n");
	qemu_plugin_outs(line);
}

static bool insn_is(const struct qemu_plugin_insn *insn, const uint8_t *m)
{
	return qemu_plugin_insn_size(insn) == 3 &&
	       !memcmp(qemu_plugin_insn_data(insn), m, 3);
}

/* A string instruction (movs, cmps, stos, lods, scas, ins, outs) with rep. */
static bool insn_is_rep_string(const struct qemu_plugin_insn *insn)
{
	static const uint8_t legacy[] = {
		0xf0, 0xf2, 0xf3, 0x2e, 0x36, 0x3e, 0x26, 0x64, 0x65, 0x66, 0x67
	};
	const uint8_t *b = qemu_plugin_insn_data(insn);
	size_t i = 0, n = qemu_plugin_insn_size(insn);
	bool rep = false;

	while (i < n && memchr(legacy, b[i], sizeof(legacy))) {
		rep |= b[i] == 0xf2 || b[i] == 0xf3;
		i++;
	}
	if (i < n && (b[i] & 0xf0) == 0x40)	/* REX */
		i++;
	return rep && i < n &&
	       ((b[i] >= 0xa4 && b[i] <= 0xaf && b[i] != 0xa8 && b[i] != 0xa9) ||
		(b[i] >= 0x6c && b[i] <= 0x6f));
}

static void on_tb_trans(qemu_plugin_id_t id, struct qemu_plugin_tb *tb)
{
	size_t i, n = qemu_plugin_tb_n_insns(tb);

	qemu_plugin_register_vcpu_tb_exec_cb(tb, on_tb_exec,
					     QEMU_PLUGIN_CB_NO_REGS,
					     (void *)(uintptr_t)n);
	for (i = 0; i < n; i++) {
		struct qemu_plugin_insn *insn = qemu_plugin_tb_get_insn(tb, i);

		if (insn_is_rep_string(insn))
			qemu_plugin_register_vcpu_insn_exec_cb(insn, on_rep_exec,
							       QEMU_PLUGIN_CB_NO_REGS,
							       NULL);
		else if (insn_is(insn, mark_start))
			qemu_plugin_register_vcpu_insn_exec_cb(insn, on_start,
							       QEMU_PLUGIN_CB_NO_REGS,
							       NULL);
		else if (insn_is(insn, mark_end))
			qemu_plugin_register_vcpu_insn_exec_cb(insn, on_end,
							       QEMU_PLUGIN_CB_NO_REGS,
							       NULL);
	}
}

INSN_MARK_EXPORT int qemu_plugin_install(qemu_plugin_id_t id,
					 const qemu_info_t *info, int argc,
					 char **argv)
{
	if (info->system_emulation)
		insn_vcpus = info->system.max_vcpus;
	qemu_plugin_register_vcpu_tb_trans_cb(id, on_tb_trans);
	return 0;
}
