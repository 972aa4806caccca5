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
# The debug kernel's guest tree (KERNELS below).
DEBUG_VMROOT := $(BUILD)/vmroot-debug
# The selftests' test-only module (selftests/kmod: WARN and oops on
# request), built in a copy of its sources for each kernel; never packaged.
TEST_MOD := $(BUILD)/test-module

# The kernels besides the host's, one row each:
#   NAME:ARCH:CROSS_COMPILE:DIR:GUEST  ("-" for none)
# scripts/build/NAME-kernel.sh builds it once, cached outside the tree,
# and with --print-dir names its tree, DIR its kbuild tree.  make
# NAME-kernel runs it, make NAME-module builds the module against it in
# $(BUILD)/NAME-module, and make stage-NAME lays out its guest in
# $(BUILD)/vmroot-NAME (`scripts/vm/vm-run --arch NAME` boots the cross
# ones), as GUEST says:
#   native  the host's tools and selftests, and the test-only module
#           built for it (make NAME-test-module)
#   cross   the tools and every selftest cross-built with CROSS_COMPILE,
#           static (make NAME-userspace; the guest has busybox alone)
#   own     a stage-NAME rule of its own, below
KERNELS := \
	debug:-:-:-:native \
	arm64:arm64:aarch64-linux-gnu-:kdir:cross \
	pxa:arm:arm-linux-gnueabi-:linux:own
kernel-names := $(foreach k,$(KERNELS),$(firstword $(subst :, ,$(k))))
# $(call kernel-field,NAME,N): field N of NAME's row, empty for "-"
kernel-field = $(filter-out -,$(word $(2),$(subst :, ,$(filter $(1):%,$(KERNELS)))))
# $(call kernel-dir,NAME): its kbuild tree, as a shell expansion
kernel-dir = $$(scripts/build/$(1)-kernel.sh --print-dir)$(addprefix /,$(call kernel-field,$(1),4))

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

# $(call cross-make,NAME): make with NAME's cross compiler (and NAME_CFLAGS)
cross-make = $(MAKE) CC=$(if $($(1)_CFLAGS),"$(call kernel-field,$(1),3)gcc $($(1)_CFLAGS)",$(call \
	kernel-field,$(1),3)gcc) AR=$(call kernel-field,$(1),3)ar KSFT=$(KSFT)
# The tools and the selftests for NAME, static.  The BPF programs are
# compiled against arm64's vmlinux.h (Debian's kernel, which has BTF).
cross-user = $(call cross-make,$(1)) -C userspace O=$(BUILD)/userspace-$(1) LDFLAGS=-static \
	LIBBPF_LIBS="-lbpf -lelf -lz" BPF_ARCH=$(call kernel-field,$(1),2) \
	BPF_VMLINUX=$$(scripts/build/arm64-kernel.sh --print-dir)/vmlinux.h
cross-selftests = $(call cross-make,$(1)) -C selftests O=$(BUILD)/selftests-$(1) LDLIBS="-static -pthread"

# The rules of each row of KERNELS.  The module's sources are copied to
# $(BUILD)/NAME-module (Kbuild of 6.1 builds an external module next to
# its sources), only the changed files, so that rebuilds stay incremental
# and ./tracebuf.ko is never touched.
define kernel-rules
$(1)-kernel: setup
	@scripts/build/$(1)-kernel.sh >/dev/null

$(1)-module: $(1)-kernel
	@for f in Kbuild $$$$(find driver uapi -name '*.[ch]'); do \
		mkdir -p $(BUILD)/$(1)-module/$$$$(dirname $$$$f); \
		cmp -s $$$$f $(BUILD)/$(1)-module/$$$$f || cp $$$$f $(BUILD)/$(1)-module/$$$$f || exit 1; \
	done
	@kdir=$$(call kernel-dir,$(1)) && \
		$$(MAKE) -C "$$$$kdir" $(addprefix ARCH=,$(call kernel-field,$(1),2)) \
		$(addprefix CROSS_COMPILE=,$(call kernel-field,$(1),3)) M=$(BUILD)/$(1)-module W=1 modules
endef

define native-guest-rules
$(1)-test-module: $(1)-kernel
	@kdir=$$(call kernel-dir,$(1)) && \
		$$(MAKE) test-module TEST_MOD=$(BUILD)/$(1)-test-module KDIR="$$$$kdir"

stage-$(1): all $(1)-module $(1)-test-module
	$$(call stage-root,$(BUILD)/vmroot-$(1),$(BUILD)/$(1)-module/tracebuf.ko,$(BUILD)/$(1)-test-module/tb_provoke.ko)
endef

define cross-guest-rules
$(1)-userspace: $(1)-kernel arm64-kernel ksrc
	$$(call cross-user,$(1)) tools
	$$(call cross-selftests,$(1))

stage-$(1): $(1)-module $(1)-userspace
	@rm -rf $(BUILD)/vmroot-$(1)
	@mkdir -p $(BUILD)/vmroot-$(1)/lib/tracebuf $(BUILD)/vmroot-$(1)/usr/bin $(BUILD)/vmroot-$(1)/selftests
	@cp $(BUILD)/$(1)-module/tracebuf.ko $(BUILD)/vmroot-$(1)/lib/tracebuf/
	@$$(call cross-user,$(1)) install-bin DESTDIR=$(BUILD)/vmroot-$(1) BINDIR=/usr/bin
	@$$(call cross-selftests,$(1)) install INSTALL_DIR=$(BUILD)/vmroot-$(1)/selftests
endef

$(foreach k,$(kernel-names),$(eval $(call kernel-rules,$(k))))
# The guest trees of make check besides the x86 guest's and the debug one's
GUEST_STAGES := $(foreach k,$(kernel-names),$(if $(filter cross own,$(call \
	kernel-field,$(k),5)),stage-$(k)))
$(foreach k,$(kernel-names),$(if $(filter native cross,$(call kernel-field,$(k),5)),\
	$(eval $(call $(call kernel-field,$(k),5)-guest-rules,$(k)))))

# 32-bit ARM, XScale: the PXA270 kernel of scripts/build/pxa-kernel.sh (built
# once, cached outside the tree), the module cross-built against it, the
# tools, their host tests and the selftests static for armel, and the tree
# `scripts/vm/vm-run --arch pxa` boots.  The Mainstone has 64 MiB: only the
# tests that apply there are staged (PXA_TESTS).
PXA_CROSS := $(call kernel-field,pxa,3)
PXA_VMROOT := $(BUILD)/vmroot-pxa
PXA_TESTS := module_test fdr_test fdr_read_test fdr_review_test fdr_mmap_test \
	tracebuf_test tracebuf_api_test tracebufctl_test
PXA_SYSROOT = $$(scripts/build/pxa-kernel.sh --print-dir)/sysroot
pxa_CFLAGS = -isystem $(PXA_SYSROOT)/usr/include -L$(PXA_SYSROOT)/usr/lib/arm-linux-gnueabi
PXA_MAKE = $(call cross-make,pxa)
PXA_USER = $(call cross-user,pxa)
PXA_SELFTESTS = $(call cross-selftests,pxa)

pxa-userspace: pxa-kernel arm64-kernel ksrc
	$(PXA_USER) tools tests
	$(PXA_SELFTESTS) $(PXA_TESTS:%=$(BUILD)/selftests-pxa/%) $(BUILD)/selftests-pxa/fdr_workload

# Test only: the CP14 trace-buffer model and the hardware backend's test
# (selftests/pxa), for `scripts/vm/vm-run --arch pxa -n -- /selftests/run-hw.sh`.
PXA_CP14 := $(BUILD)/pxa-cp14
pxa-cp14: pxa-kernel ksrc
	@kdir=$(call kernel-dir,pxa) && \
		$(MAKE) -C selftests/pxa module KDIR="$$kdir" OUT=$(PXA_CP14) \
		ARCH=arm CROSS_COMPILE=$(PXA_CROSS)
	$(PXA_MAKE) -C selftests/pxa test OUT=$(PXA_CP14)

stage-pxa: pxa-module pxa-userspace pxa-cp14 stage-pxa-host
	@rm -rf $(PXA_VMROOT)
	@mkdir -p $(PXA_VMROOT)/lib/tracebuf $(PXA_VMROOT)/usr/bin $(PXA_VMROOT)/selftests
	@cp $(BUILD)/pxa-module/tracebuf.ko $(PXA_VMROOT)/lib/tracebuf/
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
check: stage $(GUEST_STAGES) ksrc
	@scripts/check.sh
endif
# A recipe of its own, so that make says nothing after the summary line.
check-debug: check
	@:
else
check: stage $(GUEST_STAGES) ksrc
	@scripts/check.sh

check-debug: all ksrc
	$(stage-debug-or-fail)
	@scripts/check.sh --debug-only
endif

check-host: all ksrc
	@scripts/check.sh --host-only

check-vm: stage $(GUEST_STAGES)
	@scripts/check.sh --vm-only

# check-NAME: the guests of a cross or own row of KERNELS alone (part of
# check and check-vm): check-arm64 runs the selftests in the arm64 guest,
# check-pxa the XScale hardware backend over the CP14 model and the host
# tests built for 32-bit ARM, in the PXA270 guest.
define guest-check-rule
check-$(1): stage-$(1) ksrc
	@scripts/check.sh --$(1)-only
endef
$(foreach s,$(GUEST_STAGES),$(eval $(call guest-check-rule,$(s:stage-%=%))))

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
