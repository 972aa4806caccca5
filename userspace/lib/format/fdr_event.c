// SPDX-License-Identifier: GPL-2.0
/*
 * Decoding tracebuf's typed events.  Every check of a payload's size is
 * here, so that no tool reads past one.
 */
#include <string.h>

#include "format/fdr_event.h"

static uint16_t get16(const uint8_t *p)
{
	return (uint16_t)(p[0] | p[1] << 8);
}

static uint32_t get32(const uint8_t *p)
{
	return (uint32_t)get16(p) | (uint32_t)get16(p + 2) << 16;
}

static uint64_t get64(const uint8_t *p)
{
	return (uint64_t)get32(p) | (uint64_t)get32(p + 4) << 32;
}

/* The payload size each type needs, 0 for types that are not ours. */
static uint32_t tb_fdr_event_min_size(uint16_t type)
{
	switch (type) {
	case TRACEBUF_FDR_TYPED_SWITCH:
		return TRACEBUF_FDR_SWITCH_SIZE;
	case TRACEBUF_FDR_TYPED_WAKEUP:
		return TRACEBUF_FDR_WAKEUP_SIZE;
	case TRACEBUF_FDR_TYPED_RET:
		return TRACEBUF_FDR_RET_SIZE;
	case TRACEBUF_FDR_TYPED_META_CAPTURE:
	case TRACEBUF_FDR_TYPED_META_NAMES:
	case TRACEBUF_FDR_TYPED_META_TASKS:
		return 1;
	default:
		return 0;
	}
}

bool tb_fdr_event_malformed(const struct tb_fdr_record *r)
{
	uint32_t need;

	if (r->kind != TB_FDR_TYPED || r->ignored)
		return false;
	need = tb_fdr_event_min_size(r->event_type);
	return need && (r->size < 0 || (uint32_t)r->size < need || !r->data);
}

enum tb_fdr_event_kind tb_fdr_event_decode(const struct tb_fdr_record *r,
					   struct tb_fdr_event *ev)
{
	const uint8_t *p = r->data;

	memset(ev, 0, sizeof(*ev));
	if (r->kind != TB_FDR_TYPED || r->ignored ||
	    !tb_fdr_event_min_size(r->event_type) || tb_fdr_event_malformed(r))
		return ev->kind = TB_FDR_EV_NONE;
	switch (r->event_type) {
	case TRACEBUF_FDR_TYPED_SWITCH:
		ev->sw.prev_tid = (int32_t)get32(p + TRACEBUF_FDR_SWITCH_PREV_TID);
		ev->sw.next_tid = (int32_t)get32(p + TRACEBUF_FDR_SWITCH_NEXT_TID);
		ev->sw.prev_prio = (int16_t)get16(p + TRACEBUF_FDR_SWITCH_PREV_PRIO);
		ev->sw.next_prio = (int16_t)get16(p + TRACEBUF_FDR_SWITCH_NEXT_PRIO);
		ev->sw.prev_state = p[TRACEBUF_FDR_SWITCH_PREV_STATE];
		if (ev->sw.prev_state >= TRACEBUF_FDR_STATES)
			ev->sw.prev_state = TRACEBUF_FDR_STATE_OTHER;
		return ev->kind = TB_FDR_EV_SWITCH;
	case TRACEBUF_FDR_TYPED_WAKEUP:
		ev->wakeup.tid = (int32_t)get32(p + TRACEBUF_FDR_WAKEUP_TID);
		ev->wakeup.cpu = get16(p + TRACEBUF_FDR_WAKEUP_CPU);
		ev->wakeup.prio = (int16_t)get16(p + TRACEBUF_FDR_WAKEUP_PRIO);
		ev->wakeup.new_task = p[TRACEBUF_FDR_WAKEUP_FLAGS] &
				      TRACEBUF_FDR_WAKEUP_NEW;
		return ev->kind = TB_FDR_EV_WAKEUP;
	case TRACEBUF_FDR_TYPED_RET:
		ev->ret.func_id = get32(p + TRACEBUF_FDR_RET_ID);
		ev->ret.value = (int64_t)get64(p + TRACEBUF_FDR_RET_VALUE);
		return ev->kind = TB_FDR_EV_RET;
	default:
		ev->meta.type = r->event_type;
		ev->meta.text = (const char *)p;
		ev->meta.len = (uint32_t)r->size;
		return ev->kind = TB_FDR_EV_META;
	}
}

char tb_fdr_event_state_letter(unsigned int state)
{
	static const char letters[] = TRACEBUF_FDR_STATE_LETTERS;

	return letters[state < TRACEBUF_FDR_STATES ? state :
		       TRACEBUF_FDR_STATE_OTHER];
}

const char *tb_fdr_event_state_name(unsigned int state)
{
	static const char *const names[TRACEBUF_FDR_STATES] = {
		"running", "sleeping", "uninterruptible", "idle", "stopped",
		"dead", "other",
	};

	return names[state < TRACEBUF_FDR_STATES ? state :
		     TRACEBUF_FDR_STATE_OTHER];
}

int tb_fdr_event_errno(int64_t value)
{
	if (value < 0 && value >= -TRACEBUF_FDR_RET_ERRNO_MAX)
		return (int)-value;
	return 0;
}

/*
 * The errno numbers of every architecture tracebuf runs on (x86, arm,
 * arm64: asm-generic/errno-base.h and errno.h), not the reading host's,
 * and the kernel's own that a system call's exit can show
 * (include/linux/errno.h: ERESTARTSYS when a signal interrupts a call).
 */
static const char *const tb_errno_names[] = {
	[1] = "EPERM",
	[2] = "ENOENT",
	[3] = "ESRCH",
	[4] = "EINTR",
	[5] = "EIO",
	[6] = "ENXIO",
	[7] = "E2BIG",
	[8] = "ENOEXEC",
	[9] = "EBADF",
	[10] = "ECHILD",
	[11] = "EAGAIN",
	[12] = "ENOMEM",
	[13] = "EACCES",
	[14] = "EFAULT",
	[15] = "ENOTBLK",
	[16] = "EBUSY",
	[17] = "EEXIST",
	[18] = "EXDEV",
	[19] = "ENODEV",
	[20] = "ENOTDIR",
	[21] = "EISDIR",
	[22] = "EINVAL",
	[23] = "ENFILE",
	[24] = "EMFILE",
	[25] = "ENOTTY",
	[26] = "ETXTBSY",
	[27] = "EFBIG",
	[28] = "ENOSPC",
	[29] = "ESPIPE",
	[30] = "EROFS",
	[31] = "EMLINK",
	[32] = "EPIPE",
	[33] = "EDOM",
	[34] = "ERANGE",
	[35] = "EDEADLK",
	[36] = "ENAMETOOLONG",
	[37] = "ENOLCK",
	[38] = "ENOSYS",
	[39] = "ENOTEMPTY",
	[40] = "ELOOP",
	[42] = "ENOMSG",
	[43] = "EIDRM",
	[44] = "ECHRNG",
	[45] = "EL2NSYNC",
	[46] = "EL3HLT",
	[47] = "EL3RST",
	[48] = "ELNRNG",
	[49] = "EUNATCH",
	[50] = "ENOCSI",
	[51] = "EL2HLT",
	[52] = "EBADE",
	[53] = "EBADR",
	[54] = "EXFULL",
	[55] = "ENOANO",
	[56] = "EBADRQC",
	[57] = "EBADSLT",
	[59] = "EBFONT",
	[60] = "ENOSTR",
	[61] = "ENODATA",
	[62] = "ETIME",
	[63] = "ENOSR",
	[64] = "ENONET",
	[65] = "ENOPKG",
	[66] = "EREMOTE",
	[67] = "ENOLINK",
	[68] = "EADV",
	[69] = "ESRMNT",
	[70] = "ECOMM",
	[71] = "EPROTO",
	[72] = "EMULTIHOP",
	[73] = "EDOTDOT",
	[74] = "EBADMSG",
	[75] = "EOVERFLOW",
	[76] = "ENOTUNIQ",
	[77] = "EBADFD",
	[78] = "EREMCHG",
	[79] = "ELIBACC",
	[80] = "ELIBBAD",
	[81] = "ELIBSCN",
	[82] = "ELIBMAX",
	[83] = "ELIBEXEC",
	[84] = "EILSEQ",
	[85] = "ERESTART",
	[86] = "ESTRPIPE",
	[87] = "EUSERS",
	[88] = "ENOTSOCK",
	[89] = "EDESTADDRREQ",
	[90] = "EMSGSIZE",
	[91] = "EPROTOTYPE",
	[92] = "ENOPROTOOPT",
	[93] = "EPROTONOSUPPORT",
	[94] = "ESOCKTNOSUPPORT",
	[95] = "EOPNOTSUPP",
	[96] = "EPFNOSUPPORT",
	[97] = "EAFNOSUPPORT",
	[98] = "EADDRINUSE",
	[99] = "EADDRNOTAVAIL",
	[100] = "ENETDOWN",
	[101] = "ENETUNREACH",
	[102] = "ENETRESET",
	[103] = "ECONNABORTED",
	[104] = "ECONNRESET",
	[105] = "ENOBUFS",
	[106] = "EISCONN",
	[107] = "ENOTCONN",
	[108] = "ESHUTDOWN",
	[109] = "ETOOMANYREFS",
	[110] = "ETIMEDOUT",
	[111] = "ECONNREFUSED",
	[112] = "EHOSTDOWN",
	[113] = "EHOSTUNREACH",
	[114] = "EALREADY",
	[115] = "EINPROGRESS",
	[116] = "ESTALE",
	[117] = "EUCLEAN",
	[118] = "ENOTNAM",
	[119] = "ENAVAIL",
	[120] = "EISNAM",
	[121] = "EREMOTEIO",
	[122] = "EDQUOT",
	[123] = "ENOMEDIUM",
	[124] = "EMEDIUMTYPE",
	[125] = "ECANCELED",
	[126] = "ENOKEY",
	[127] = "EKEYEXPIRED",
	[128] = "EKEYREVOKED",
	[129] = "EKEYREJECTED",
	[130] = "EOWNERDEAD",
	[131] = "ENOTRECOVERABLE",
	[132] = "ERFKILL",
	[133] = "EHWPOISON",
};

static const char *const tb_errno_kernel_names[] = {
	[512 - 512] = "ERESTARTSYS",
	[513 - 512] = "ERESTARTNOINTR",
	[514 - 512] = "ERESTARTNOHAND",
	[515 - 512] = "ENOIOCTLCMD",
	[516 - 512] = "ERESTART_RESTARTBLOCK",
	[517 - 512] = "EPROBE_DEFER",
	[518 - 512] = "EOPENSTALE",
	[519 - 512] = "ENOPARAM",
	[521 - 512] = "EBADHANDLE",
	[522 - 512] = "ENOTSYNC",
	[523 - 512] = "EBADCOOKIE",
	[524 - 512] = "ENOTSUPP",
	[525 - 512] = "ETOOSMALL",
	[526 - 512] = "ESERVERFAULT",
	[527 - 512] = "EBADTYPE",
	[528 - 512] = "EJUKEBOX",
	[529 - 512] = "EIOCBQUEUED",
	[530 - 512] = "ERECALLCONFLICT",
};

#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))

const char *tb_fdr_event_errno_name(int err)
{
	if (err > 0 && err < (int)ARRAY_SIZE(tb_errno_names))
		return tb_errno_names[err];
	if (err >= 512 && err - 512 < (int)ARRAY_SIZE(tb_errno_kernel_names))
		return tb_errno_kernel_names[err - 512];
	return NULL;
}
