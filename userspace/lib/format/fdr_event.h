/* SPDX-License-Identifier: GPL-2.0 */
/*
 * tracebuf's typed events (uapi/linux/tracebuf_fdr.h, "typed events"),
 * decoded from a TypedEventMarker record: the one reader of their
 * payloads, for every tool that shows them.  Records as types, as LLVM's
 * lib/XRay has them: a typed record becomes one of the structs below.
 */
#ifndef TB_FDR_EVENT_H
#define TB_FDR_EVENT_H

#include <stdbool.h>
#include <stdint.h>

#include "format/fdr_records.h"

enum tb_fdr_event_kind {
	TB_FDR_EV_NONE,		/* not one of ours, or malformed */
	TB_FDR_EV_SWITCH,
	TB_FDR_EV_WAKEUP,
	TB_FDR_EV_RET,
	TB_FDR_EV_META,		/* capture, names or tasks text */
};

struct tb_fdr_switch {
	int32_t prev_tid, next_tid;
	int16_t prev_prio, next_prio;
	uint8_t prev_state;	/* TRACEBUF_FDR_STATE_*, < TRACEBUF_FDR_STATES */
};

struct tb_fdr_wakeup {
	int32_t tid;
	uint16_t cpu;		/* the target CPU */
	int16_t prio;
	bool new_task;		/* sched_wakeup_new */
};

struct tb_fdr_ret {
	uint32_t func_id;	/* the exit's id, as the file numbers them */
	int64_t value;
};

struct tb_fdr_meta {
	uint16_t type;		/* TRACEBUF_FDR_TYPED_META_* */
	const char *text;	/* not NUL-terminated */
	uint32_t len;
};

struct tb_fdr_event {
	enum tb_fdr_event_kind kind;
	union {
		struct tb_fdr_switch sw;
		struct tb_fdr_wakeup wakeup;
		struct tb_fdr_ret ret;
		struct tb_fdr_meta meta;
	};
};

/*
 * Decode @r.  Returns the kind (also in @ev->kind): TB_FDR_EV_NONE for
 * a record that is not a typed event, a type this version does not know,
 * or a payload too short for its type (tb_fdr_event_malformed() tells
 * the last apart).  A state beyond the known ones reads as OTHER.
 */
enum tb_fdr_event_kind tb_fdr_event_decode(const struct tb_fdr_record *r,
					   struct tb_fdr_event *ev);

/* Whether @r is one of our typed events with a payload too short. */
bool tb_fdr_event_malformed(const struct tb_fdr_record *r);

/* "R", "S", "D", "I", "T", "X" or "?" for a TRACEBUF_FDR_STATE_*. */
char tb_fdr_event_state_letter(unsigned int state);

/* "running", "sleeping", "uninterruptible", "idle", "stopped", "dead", "other". */
const char *tb_fdr_event_state_name(unsigned int state);

/*
 * The errno of a return value (-4095..-1 gives 1..4095), else 0; and
 * its symbolic name ("ENOENT"), or NULL for a number without one.
 */
int tb_fdr_event_errno(int64_t value);
const char *tb_fdr_event_errno_name(int err);

#endif /* TB_FDR_EVENT_H */
