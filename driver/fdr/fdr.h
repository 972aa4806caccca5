/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The kernel flight data recorder (/dev/tracebuf_fdr), as the module's
 * core sees it: started and stopped with the module.
 *
 * Its files, lowest first: a file calls only files above it in this list
 * (Documentation/design.rst, "The flight recorder's layers"), and what
 * a lower one must tell a higher one it is given as a callback.
 *
 *   clock.[ch] the capture's clock: the CPU's cycle counter or local_clock()
 *   text.[ch]  text built line by line in a fixed buffer
 *   ring/      the ring, a library that knows none of its users:
 *     record.h   FDR v5 record encoders (uapi/linux/tracebuf_fdr.h: the format)
 *     frontend_api.h  the write API and its inline common case, for writers
 *     frontend.h the rings' set-up, state and reading side, for their owner
 *     ring_internal.h  a CPU's ring inside, for the ring's own files
 *     ring.c     the rings' state, set-up, on/off, stats, windows, positions
 *     write.c    the write path and the block protocol (any context, no lock)
 *     rest.c     the rest of a page a file had begun, kept when the capture goes
 *     snap.c     flight-recorder snapshots that hold pages
 *     stream.c   streaming readers and page lending
 *     reader.c   a reading file's snapshot and place in the stream
 *     peek.c     looks at closed pages that take no part in the capture
 *   names.[ch] function id -> name (IRQs, work functions, fixed spaces)
 *   kfunc.[ch] kernel functions as XRay functions (kretprobes)
 *   events.[ch] the probe-layer consumer: kernel events -> records
 *   cond.[ch]  trigger conditions: what an armed trigger watches
 *   trigger.[ch] the trigger's state machine, the post-trigger window
 *   crash.[ch] the crash descriptor and the panic notifier
 *   mmap.[ch]  zero-copy reading: a CPU's ring mapped read-only
 *   capture.[ch] the capture: configuration, START, STOP, the NAMES text
 *   dev.c      the misc device: ioctls, read, write (markers), poll
 */
#ifndef _FDR_H
#define _FDR_H

int fdr_dev_init(void);
void fdr_dev_exit(void);

#endif /* _FDR_H */
