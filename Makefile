# SPDX-License-Identifier: GPL-2.0
#
# tracebuf: top-level build.  `make help` lists the targets.

# Kernel to build against and boot: newest with both headers and vmlinuz.
# Recursive (=) so it is evaluated after `setup` has installed them.
KVER = $(shell scripts/build/kver.sh)
KDIR = /lib/modules/$(KVER)/build

BUILD := $(CURDIR)/build
KSRC := $(BUILD)/ksrc
KSFT := $(KSRC)/tools/testing/selftests
VMROOT := $(BUILD)/vmroot
# The debug kernel (scripts/build/debug-kernel.sh, cached outside the tree), the
# module built against it from a copy of the sources, and its guest tree.
DEBUG_MOD := $(BUILD)/debug-module
DEBUG_VMROOT := $(BUILD)/vmroot-debug
# The selftests' test-only module (selftests/kmod: WARN and oops on
# request), built in a copy of its sources for each kernel; never packaged.
TEST_MOD := $(BUILD)/test-module
DEBUG_TEST_MOD := $(BUILD)/debug-test-module

PREFIX ?= /usr/local
DESTDIR ?=
MANDIR ?= $(PREFIX)/share/man
COMPLETIONDIR ?= $(PREFIX)/share/bash-completion/completions
DOCDIR ?= $(PREFIX)/share/doc/tracebuf-tools
# Local installs go to /etc; the Debian package passes /lib/... (debian/rules).
UDEVDIR ?= /etc/udev/rules.d
UNITDIR ?= /etc/systemd/system

# Man pages: written once in reStructuredText (Documentation/man/NAME.S.rst),
# generated with rst2man.  The old tool names that are not also a page's
# name get a page that sources their subcommand's (tracebuf-record and
# tracebuf-bpf already are pages).
MAN_SRCS := $(sort $(wildcard Documentation/man/*.rst))
MAN_PAGES := $(MAN_SRCS:Documentation/man/%.rst=$(BUILD)/man/%)
MAN_ALIASES := tracebufctl=ctl tbconv=convert tbdecode=decode tb-workload=workload
# The tools' old names (userspace/Makefile's ALIASES), for their completion.
TOOL_ALIASES := $(shell sed -n 's/^ALIASES := //p' userspace/Makefile)
# The documentation as HTML (scripts/build/rst2html.py, Debian's docutils),
# installed in DOCDIR, where the man pages cite it.
DOC_SRCS := $(sort $(wildcard Documentation/*.rst))
DOC_HTML := $(DOC_SRCS:Documentation/%.rst=$(BUILD)/html/%.html)
# Units of daemons that ship with the tools (none enabled by default).
UNITS := $(wildcard scripts/ship/*.service)

# make vm CMD='...' VMFLAGS='...'
CMD ?=
VMFLAGS ?=

MAKEFLAGS += --no-print-directory
# One line a file, as kbuild prints; V=1 prints the commands.
include scripts/build/quiet.mk

.PHONY: all setup ksrc module userspace selftests stage vm check check-host \
	check-vm demo bench checkpatch xscale-check install uninstall clean help \
	debug-kernel debug-module stage-debug check-debug fuzz-long soak \
	kfunc-random arm64-kernel arm64-module arm64-userspace stage-arm64 check-arm64 \
	pxa-kernel pxa-module pxa-userspace pxa-cp14 stage-pxa stage-pxa-host check-pxa \
	test-module debug-test-module \
	tools man html install-module install-tools deb deb-check

all: module userspace selftests test-module

help:
	@echo "Targets:"
	@echo "  all (default)  tracebuf.ko (W=1), userspace tools, selftests (and"
	@echo "                 their test-only module, selftests/kmod)"
	@echo "  setup          install the Debian packages we need (root)"
	@echo "  check          host unit tests + selftests in a qemu VM; ends"
	@echo "                 with one 'N passed, N failed' line"
	@echo "  check-host     host unit tests only"
	@echo "  check-vm       VM selftests only (x86_64 and arm64 guests)"
	@echo "  check-arm64    the selftests in Debian's arm64 kernel under"
	@echo "                 qemu-system-aarch64 only (stage-arm64 builds"
	@echo "                 the module, tools and selftests for it)"
	@echo "  check-pxa      the XScale hardware backend over the CP14 model"
	@echo "                 and the host tests for 32-bit ARM, in the PXA270"
	@echo "                 guest only (builds its kernel once)"
	@echo "  check-debug    every selftest in a debug kernel (KASAN, UBSAN,"
	@echo "                 lockdep, kmemleak, lockup detectors); builds it"
	@echo "                 the first time (6-9 min on 2 cores, then cached);"
	@echo "                 'make check check-debug' gives one summary (CI)"
	@echo "  debug-kernel   only build the debug kernel (scripts/build/debug-kernel.sh)"
	@echo "  fuzz-long      every libFuzzer target for FUZZ_RUNS runs or"
	@echo "                 FUZZ_SECS s (10M or 600 s each); grows the corpus"
	@echo "  kfunc-random   SEED (1), COUNT (512) random kernel functions"
	@echo "                 recorded with -f under both clocks; DEBUG=1 in"
	@echo "                 the debug kernel (scripts/check/kfunc-random.sh)"
	@echo "  soak           SOAK_SECS (600) of mixed tracing in the VM; fails"
	@echo "                 if module memory or tool RSS grows"
	@echo "  vm CMD='...'   run a command in the VM with the module loaded"
	@echo "                 (VMFLAGS='--help' lists the runner's options)"
	@echo "  demo           capture and convert traces in the VM"
	@echo "  bench          benchmarks (see Documentation/performance.rst)"
	@echo "  checkpatch     checkpatch.pl --strict on driver/, uapi/ and the"
	@echo "                 userspace sources (part of check and check-host)"
	@echo "  xscale-check   compile the module for ARM XScale (pxa_defconfig);"
	@echo "                 about 1 min the first time, seconds after"
	@echo "  install        module, tools, man pages, completion, udev rule,"
	@echo "                 uapi header (DESTDIR, PREFIX); install-module and"
	@echo "                 install-tools do one half"
	@echo "  tools          only the tracebuf command (no tests, no module)"
	@echo "  man            man pages from Documentation/man (rst2man)"
	@echo "  html           Documentation/*.rst as HTML in build/html (rst2html)"
	@echo "  deb            tracebuf-dkms, tracebuf-tools, tracebuf-dev .debs"
	@echo "                 in build/deb, checked by lintian"
	@echo "  deb-check      deb, then installed with dpkg in a throwaway"
	@echo "                 Debian chroot (dkms, man -w, completion, purge),"
	@echo "                 and the VM boots the module dkms built there"
	@echo "                 (Documentation/packaging.rst)"
	@echo "  clean"
	@echo "Variables: KVER=<release> to pick the kernel, CMD, VMFLAGS,"
	@echo "  FUZZ_RUNS, FUZZ_SECS, SOAK_SECS; TB_DEBUG_KERNEL_REBUILD=1"
	@echo "  rebuilds the debug kernel; V=1 prints the build's commands"
	@echo "  (one line a file by default, nothing with make -s)."

setup:
	@scripts/setup.sh

ksrc: setup
	@scripts/build/kernel-src-extract.sh $(KSRC)

module: setup
	$(Q)$(MAKE) -C $(KDIR) M=$(CURDIR) W=1 modules

userspace: ksrc
	$(Q)$(MAKE) -C userspace O=$(BUILD)/userspace KSFT=$(KSFT)

selftests: ksrc
	$(Q)$(MAKE) -C selftests O=$(BUILD)/selftests KSFT=$(KSFT)

# $(call build-test-module,DIR,KDIR): selftests/kmod built in DIR (Kbuild of
# 6.1 builds an external module next to its sources).
define build-test-module
	@mkdir -p $(1)
	@for f in selftests/kmod/*; do \
		cmp -s $$f $(1)/$$(basename $$f) || cp $$f $(1)/ || exit 1; \
	done
	$(Q)$(MAKE) -C $(2) M=$(1) W=1 modules
endef

test-module: setup
	$(call build-test-module,$(TEST_MOD),$(KDIR))

# Everything the VM needs, laid out as it appears in the guest:
# $(call stage-root,DIR,MODULE,TEST-MODULE)
define stage-root
	@rm -rf $(1)
	@mkdir -p $(1)/lib/tracebuf $(1)/lib/tracebuf-test $(1)/usr/bin $(1)/selftests
	@cp $(2) $(1)/lib/tracebuf/
	$(if $(3),@cp $(3) $(1)/lib/tracebuf-test/)
	@$(MAKE) -C userspace O=$(BUILD)/userspace install-bin DESTDIR=$(1) BINDIR=/usr/bin
	@$(MAKE) -C selftests O=$(BUILD)/selftests install INSTALL_DIR=$(1)/selftests
endef

stage: all test-module
	$(call stage-root,$(VMROOT),tracebuf.ko,$(TEST_MOD)/tb_provoke.ko)

debug-kernel: setup
	@scripts/build/debug-kernel.sh >/dev/null

# Kbuild of 6.1 builds an external module next to its sources, so the
# debug build works on a copy of them and never touches ./tracebuf.ko.
# Only changed files are copied, so that rebuilds stay incremental.
debug-module: debug-kernel
	@for f in Kbuild $$(find driver uapi -name '*.[ch]'); do \
		mkdir -p $(DEBUG_MOD)/$$(dirname $$f); \
		cmp -s $$f $(DEBUG_MOD)/$$f || cp $$f $(DEBUG_MOD)/$$f || exit 1; \
	done
	@kdir=$$(scripts/build/debug-kernel.sh --print-dir) && \
		$(MAKE) -C "$$kdir" M=$(DEBUG_MOD) W=1 modules

debug-test-module: debug-kernel
	@kdir=$$(scripts/build/debug-kernel.sh --print-dir) && \
		$(MAKE) test-module TEST_MOD=$(DEBUG_TEST_MOD) KDIR="$$kdir"

stage-debug: all debug-module debug-test-module
	$(call stage-root,$(DEBUG_VMROOT),$(DEBUG_MOD)/tracebuf.ko,$(DEBUG_TEST_MOD)/tb_provoke.ko)

# $(call copy-module-sources,DIR): the module's sources into DIR, for a
# build against another kernel (Kbuild of 6.1 builds an external module
# next to its sources); only changed files, so that rebuilds stay
# incremental.
define copy-module-sources
	@for f in Kbuild $$(find driver uapi -name '*.[ch]'); do \
		mkdir -p $(1)/$$(dirname $$f); \
		cmp -s $$f $(1)/$$f || cp $$f $(1)/$$f || exit 1; \
	done
endef

# arm64: Debian's own arm64 kernel (scripts/build/arm64-kernel.sh, cached outside
# the tree), the module cross-built against its headers in a copy of the
# sources (as the debug module), the tools and selftests linked statically
# (the guest has busybox and nothing else), and the tree that
# `scripts/vm/vm-run --arch arm64` boots.
ARM64_CROSS := aarch64-linux-gnu-
ARM64_MOD := $(BUILD)/arm64-module
ARM64_VMROOT := $(BUILD)/vmroot-arm64
ARM64_MAKE = $(MAKE) CC=$(ARM64_CROSS)gcc AR=$(ARM64_CROSS)ar KSFT=$(KSFT)
ARM64_USER = $(ARM64_MAKE) -C userspace O=$(BUILD)/userspace-arm64 LDFLAGS=-static \
	LIBBPF_LIBS="-lbpf -lelf -lz" BPF_ARCH=arm64 \
	BPF_VMLINUX=$$(scripts/build/arm64-kernel.sh --print-dir)/vmlinux.h
ARM64_SELFTESTS = $(ARM64_MAKE) -C selftests O=$(BUILD)/selftests-arm64 LDLIBS="-static -pthread"

arm64-kernel: setup
	@scripts/build/arm64-kernel.sh >/dev/null

arm64-module: arm64-kernel
	$(call copy-module-sources,$(ARM64_MOD))
	@kdir=$$(scripts/build/arm64-kernel.sh --print-dir)/kdir && \
		$(MAKE) -C "$$kdir" ARCH=arm64 CROSS_COMPILE=$(ARM64_CROSS) M=$(ARM64_MOD) W=1 modules

arm64-userspace: arm64-kernel ksrc
	$(ARM64_USER) tools
	$(ARM64_SELFTESTS)

stage-arm64: arm64-module arm64-userspace
	@rm -rf $(ARM64_VMROOT)
	@mkdir -p $(ARM64_VMROOT)/lib/tracebuf $(ARM64_VMROOT)/usr/bin $(ARM64_VMROOT)/selftests
	@cp $(ARM64_MOD)/tracebuf.ko $(ARM64_VMROOT)/lib/tracebuf/
	@$(ARM64_USER) install-bin DESTDIR=$(ARM64_VMROOT) BINDIR=/usr/bin
	@$(ARM64_SELFTESTS) install INSTALL_DIR=$(ARM64_VMROOT)/selftests

# 32-bit ARM, XScale: the PXA270 kernel of scripts/build/pxa-kernel.sh (built
# once, cached outside the tree), the module cross-built against it, the
# tools, their host tests and the selftests static for armel, and the tree
# `scripts/vm/vm-run --arch pxa` boots.  The Mainstone has 64 MiB: only the
# tests that apply there are staged (PXA_TESTS).
PXA_CROSS := arm-linux-gnueabi-
PXA_MOD := $(BUILD)/pxa-module
PXA_VMROOT := $(BUILD)/vmroot-pxa
PXA_TESTS := module_test fdr_test fdr_read_test fdr_review_test fdr_mmap_test \
	tracebuf_test tracebuf_api_test tracebufctl_test
PXA_SYSROOT = $$(scripts/build/pxa-kernel.sh --print-dir)/sysroot
PXA_MAKE = $(MAKE) CC="$(PXA_CROSS)gcc -isystem $(PXA_SYSROOT)/usr/include \
	-L$(PXA_SYSROOT)/usr/lib/arm-linux-gnueabi" AR=$(PXA_CROSS)ar KSFT=$(KSFT)
PXA_USER = $(PXA_MAKE) -C userspace O=$(BUILD)/userspace-pxa LDFLAGS=-static \
	LIBBPF_LIBS="-lbpf -lelf -lz" BPF_ARCH=arm \
	BPF_VMLINUX=$$(scripts/build/arm64-kernel.sh --print-dir)/vmlinux.h
PXA_SELFTESTS = $(PXA_MAKE) -C selftests O=$(BUILD)/selftests-pxa LDLIBS="-static -pthread"

pxa-kernel: setup
	@scripts/build/pxa-kernel.sh >/dev/null

pxa-module: pxa-kernel
	$(call copy-module-sources,$(PXA_MOD))
	@kdir=$$(scripts/build/pxa-kernel.sh --print-dir)/linux && \
		$(MAKE) -C "$$kdir" ARCH=arm CROSS_COMPILE=$(PXA_CROSS) M=$(PXA_MOD) W=1 modules

pxa-userspace: pxa-kernel arm64-kernel ksrc
	$(PXA_USER) tools tests
	$(PXA_SELFTESTS) $(PXA_TESTS:%=$(BUILD)/selftests-pxa/%) $(BUILD)/selftests-pxa/fdr_workload

# Test only: the CP14 trace-buffer model and the hardware backend's test
# (selftests/pxa), for `scripts/vm/vm-run --arch pxa -n -- /selftests/run-hw.sh`.
PXA_CP14 := $(BUILD)/pxa-cp14
pxa-cp14: pxa-kernel ksrc
	@kdir=$$(scripts/build/pxa-kernel.sh --print-dir)/linux && \
		$(MAKE) -C selftests/pxa module KDIR="$$kdir" OUT=$(PXA_CP14) \
		ARCH=arm CROSS_COMPILE=$(PXA_CROSS)
	$(PXA_MAKE) -C selftests/pxa test OUT=$(PXA_CP14)

stage-pxa: pxa-module pxa-userspace pxa-cp14 stage-pxa-host
	@rm -rf $(PXA_VMROOT)
	@mkdir -p $(PXA_VMROOT)/lib/tracebuf $(PXA_VMROOT)/usr/bin $(PXA_VMROOT)/selftests
	@cp $(PXA_MOD)/tracebuf.ko $(PXA_VMROOT)/lib/tracebuf/
	@$(PXA_USER) install-bin DESTDIR=$(PXA_VMROOT) BINDIR=/usr/bin
	@cp $(PXA_TESTS:%=$(BUILD)/selftests-pxa/%) $(BUILD)/selftests-pxa/fdr_workload \
		selftests/run.sh $(PXA_VMROOT)/selftests/
	@cp $(PXA_CP14)/cp14_model.ko $(PXA_VMROOT)/lib/tracebuf/
	@cp $(PXA_CP14)/xscale_hw_test selftests/pxa/run-hw.sh $(PXA_VMROOT)/selftests/

# The host tests for the PXA guest (selftests/pxa/run-host.sh), in a tree
# of their own: they need no module, and the board's 64 MiB hold the
# guest's files as well as what runs (the initramfs did not unpack with
# the tests merely stripped, 20 MB).  /tb is laid out as the checkout (the
# tests take their data, the tools and the documents they check relative
# to userspace/tests); the tools are stripped and each test is stripped
# and compressed (xz: 7 MB), unpacked by run-host.sh just before it runs.
PXA_HOSTROOT := $(BUILD)/vmroot-pxa-host
PXA_HOSTDOCS := Documentation/*.rst Documentation/man/*.rst \
	scripts/ship/tracebuf-completion.bash dkms.conf debian/changelog
stage-pxa-host: pxa-userspace
	@rm -rf $(PXA_HOSTROOT)
	@mkdir -p $(PXA_HOSTROOT)/tb/build/userspace/tests \
		$(PXA_HOSTROOT)/tb/userspace/tests $(PXA_HOSTROOT)/selftests
	@$(PXA_USER) install-bin DESTDIR=$(PXA_HOSTROOT)/tb BINDIR=/build/userspace
	@$(PXA_CROSS)strip $(PXA_HOSTROOT)/tb/build/userspace/tracebuf
	@for t in $(BUILD)/userspace-pxa/tests/*; do \
		n=$$(basename $$t); \
		[ -f userspace/tests/$$n.c ] || continue; \
		$(PXA_CROSS)strip -o $(PXA_HOSTROOT)/tb/build/userspace/tests/$$n $$t && \
			xz -6 $(PXA_HOSTROOT)/tb/build/userspace/tests/$$n || exit 1; \
	done
	@cp -r userspace/tests/data $(PXA_HOSTROOT)/tb/userspace/tests/
	@cp --parents $(PXA_HOSTDOCS) $(PXA_HOSTROOT)/tb/
	@cp selftests/pxa/run-host.sh $(PXA_HOSTROOT)/selftests/

vm: stage
	@scripts/vm/vm-run $(VMFLAGS) -- $(if $(CMD),sh -c '$(CMD)',)

# A debug kernel or module that does not build must not cost the summary
# line: the stale guest tree goes first, and check.sh counts the missing
# debug run as failed.
define stage-debug-or-fail
	@rm -rf $(DEBUG_VMROOT)
	@$(MAKE) stage-debug || echo "# the debug kernel or module did not build (above): its run counts as failed"
endef

# `make check check-debug` (the CI command) runs both in one
# scripts/check.sh, so that one summary line covers everything; the
# arm64, PXA270 and debug builds and the host tests run there, beside the
# guests, each done before the guest that needs it (--debug-build).
ifneq ($(filter check,$(MAKECMDGOALS)),)
ifneq ($(filter check-debug,$(MAKECMDGOALS)),)
check: stage ksrc
	@scripts/check.sh --debug-build
else
check: stage stage-arm64 stage-pxa ksrc
	@scripts/check.sh
endif
# A recipe of its own, so that make says nothing after the summary line.
check-debug: check
	@:
else
check: stage stage-arm64 stage-pxa ksrc
	@scripts/check.sh

check-debug: all ksrc
	$(stage-debug-or-fail)
	@scripts/check.sh --debug-only
endif

check-host: all ksrc
	@scripts/check.sh --host-only

check-vm: stage stage-arm64 stage-pxa
	@scripts/check.sh --vm-only

# The arm64 guest alone (it is part of check and check-vm).
check-arm64: stage-arm64 ksrc
	@scripts/check.sh --arm64-only

# The PXA270 guests alone (part of check): the XScale hardware backend
# over the CP14 model, and the host tests built for 32-bit ARM.
check-pxa: stage-pxa ksrc
	@scripts/check.sh --pxa-only

demo: stage
	@scripts/vm/demo.sh

bench: stage
	@scripts/bench/bench.sh

# Cost as the work grows (Documentation/perf-data/): one boot, minutes.
.PHONY: bench-curves
bench-curves: stage
	@scripts/bench/bench-curves.sh

fuzz-long: setup
	@scripts/check/fuzz-long.sh

soak: stage
	@scripts/check/soak.sh

# Outside CI: minutes per round.  SEED, COUNT, ROUNDS, DEBUG=1.
kfunc-random: $(if $(DEBUG),stage-debug,stage)
	@scripts/check/kfunc-random.sh $(if $(DEBUG),--debug) --seed $(or $(SEED),1) \
		--count $(or $(COUNT),512) --rounds $(or $(ROUNDS),2)

checkpatch: ksrc
	@scripts/check/checkpatch.sh

xscale-check: setup
	@scripts/build/xscale-compile-check.sh

# The tools alone, without the kselftest harness (the package builds this).
tools:
	$(Q)$(MAKE) -C userspace O=$(BUILD)/userspace tools

man: $(MAN_PAGES)

$(BUILD)/man/%: Documentation/man/%.rst
	@mkdir -p $(dir $@)
	$(call quiet,RST2MAN,$(@F))rst2man --strict $< >$@.tmp && mv $@.tmp $@

install: install-module install-tools
	@if [ -z "$(DESTDIR)" ]; then depmod -a $(KVER); fi
	@if [ -z "$(DESTDIR)" ] && ! getent group tracing >/dev/null; then \
		groupadd --system tracing; fi

install-module: module
	$(MAKE) -C $(KDIR) M=$(CURDIR) INSTALL_MOD_PATH=$(DESTDIR) CONFIG_MODULE_SIG_ALL= modules_install

html: $(DOC_HTML)

$(BUILD)/html/%.html: Documentation/%.rst scripts/build/rst2html.py
	@mkdir -p $(dir $@)
	$(call quiet,RST2HTML,$(@F))scripts/build/rst2html.py $< $@.tmp && mv $@.tmp $@

install-tools: tools man html
	$(MAKE) -C userspace O=$(BUILD)/userspace install-bin DESTDIR=$(DESTDIR) BINDIR=$(PREFIX)/bin
	install -d $(DESTDIR)$(MANDIR)/man1 $(DESTDIR)$(MANDIR)/man4
	@for p in $(MAN_PAGES); do \
		s=$${p##*.}; install -m 0644 $$p $(DESTDIR)$(MANDIR)/man$$s/ || exit 1; \
	done
	@for a in $(MAN_ALIASES); do \
		echo ".so man1/tracebuf-$${a#*=}.1" >$(DESTDIR)$(MANDIR)/man1/$${a%=*}.1 || exit 1; \
	done
	install -D -m 0644 scripts/ship/tracebuf-completion.bash $(DESTDIR)$(COMPLETIONDIR)/tracebuf
	@for a in $(TOOL_ALIASES); do \
		ln -sf tracebuf $(DESTDIR)$(COMPLETIONDIR)/$$a || exit 1; \
	done
	install -d $(DESTDIR)$(DOCDIR)
	install -m 0644 $(DOC_HTML) README.md $(DESTDIR)$(DOCDIR)/
	install -D -m 0644 scripts/ship/60-tracebuf.rules $(DESTDIR)$(UDEVDIR)/60-tracebuf.rules
	install -D -m 0644 uapi/linux/tracebuf.h $(DESTDIR)$(PREFIX)/include/linux/tracebuf.h
	install -D -m 0644 uapi/linux/tracebuf_fdr.h $(DESTDIR)$(PREFIX)/include/linux/tracebuf_fdr.h
	@for u in $(UNITS); do \
		install -D -m 0644 $$u $(DESTDIR)$(UNITDIR)/$${u##*/} || exit 1; \
	done

uninstall:
	rm -f /lib/modules/$(KVER)/updates/tracebuf.ko /lib/modules/$(KVER)/extra/tracebuf.ko
	rm -f $(UDEVDIR)/60-tracebuf.rules $(PREFIX)/include/linux/tracebuf.h \
		$(PREFIX)/include/linux/tracebuf_fdr.h
	rm -f $(COMPLETIONDIR)/tracebuf $(TOOL_ALIASES:%=$(COMPLETIONDIR)/%)
	rm -f $(UNITS:scripts/ship/%=$(UNITDIR)/%)
	rm -f $(DOC_HTML:$(BUILD)/html/%=$(DOCDIR)/%) $(DOCDIR)/README.md
	rm -f $(MAN_PAGES:$(BUILD)/man/%=$(MANDIR)/man1/%) $(MAN_PAGES:$(BUILD)/man/%=$(MANDIR)/man4/%)
	rm -f $(foreach a,$(MAN_ALIASES),$(MANDIR)/man1/$(firstword $(subst =, ,$(a))).1)
	$(MAKE) -C userspace O=$(BUILD)/userspace uninstall-bin BINDIR=$(PREFIX)/bin
	depmod -a $(KVER)

# Debian packages (debian/, Documentation/packaging.rst).
deb:
	@scripts/pkg/deb.sh $(BUILD)/deb

# Installs the packages in a throwaway chroot, never on this machine
# (scripts/pkg/deb-check.sh), then boots the VM with the module dkms built
# there and runs the selftests that load and open it.
deb-check: deb all
	@scripts/pkg/deb-check.sh $(BUILD)/deb $(KVER)
	$(call stage-root,$(BUILD)/vmroot-dkms,$(BUILD)/deb/dkms/tracebuf.ko)
	@sum=$$(sha256sum $(BUILD)/deb/dkms/tracebuf.ko | cut -d' ' -f1) && \
	scripts/vm/vm-run -q -r $(BUILD)/vmroot-dkms -w $(BUILD)/vm-dkms -t 900 -- sh -c \
		"[ \$$(sha256sum /lib/tracebuf/tracebuf.ko | cut -d' ' -f1) = $$sum ] && \
		 echo '# the guest runs the module dkms built in the chroot' && \
		 cd /selftests && ./module_test && ./privilege_test" \
		>$(BUILD)/deb/vm.log 2>&1; rc=$$?; \
	grep -E '^(ok|not ok|# the guest|# Totals)' $(BUILD)/vm-dkms/output.log; \
	echo "# deb-check VM: exit $$rc, guest output in $(BUILD)/vm-dkms/output.log"; \
	test $$rc = 0

clean:
	@if [ -d "$(KDIR)" ]; then $(MAKE) -C $(KDIR) M=$(CURDIR) clean; fi
	rm -rf $(BUILD)
