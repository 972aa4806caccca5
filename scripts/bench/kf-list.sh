#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# kf-list.sh N: runs in the guest (scripts/bench/bench-root.sh installs it as
# tb-kf-list) and prints N kernel functions, comma separated, for the
# kernel-function curves of scripts/bench/bench-curves-guest.sh and the
# kfunc512/fentry512 configurations of scripts/bench/insn-profile:
# __task_pid_nr_ns (once per getppid()) and the first N-1 of ACPICA's
# traceable functions (the interpreter's ut, ex, ps, ns, ds, tb and rs
# components, 459 in this kernel, and the event and hardware components
# ev and hw, 100 more), which only ACPI events (none here: no SCI, no GPE,
# idle is a plain halt) call: the cost per call of a larger selection, not
# of more calls.  The collectors' kfunc_calls shows it: one per getppid()
# at every count.  Names that occur once, not on the kprobe blacklist, and
# not the six that take more than six arguments (the guest kernel's BTF,
# FUNC_PROTO vlen), which a BPF trampoline cannot attach to (error 524).
# Needs tracefs and debugfs mounted.

n=$1
avail=/sys/kernel/tracing/available_filter_functions
black=/tmp/tb-kf-black
{
	awk '{ print $2 }' /sys/kernel/debug/kprobes/blacklist
	echo acpi_ns_check_package_elements; echo acpi_ns_lookup
	echo acpi_ns_walk_namespace; echo acpi_ds_init_aml_walk
	echo acpi_ns_search_and_enter; echo acpi_ev_create_gpe_block
} >$black
grep -E '^acpi_(ut|ex|ps|ns|ds|tb|rs|ev|hw)_[a-z_0-9]+$' $avail | sort | uniq -u |
	grep -vxF -f $black |
	head -n $((n - 1)) | { echo __task_pid_nr_ns; cat; } |
	awk 'NR > 1 { printf "," } { printf "%s", $0 } END { print "" }'
