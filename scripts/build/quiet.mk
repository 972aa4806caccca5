# SPDX-License-Identifier: GPL-2.0
#
# kbuild-style build output, shared by the Makefiles: one line a file
# ("  CC      lib/cli/opt.c"), the commands themselves with V=1, nothing
# with make -s, as the kernel's own build does (V passes on to kbuild).
#
#   $(call quiet,TAG,WHAT)COMMAND     in a recipe line, instead of COMMAND
#   $(Q)COMMAND                       a command with no line of its own

ifeq ($(V),1)
Q :=
quiet =
else ifneq ($(findstring s,$(firstword -$(MAKEFLAGS))),)
# make -s: nothing at all, as kbuild.
Q := @
quiet = @
else
Q := @
quiet = @printf '  %-7s %s\n' '$(1)' '$(2)';
endif
