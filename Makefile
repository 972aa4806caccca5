# SPDX-License-Identifier: GPL-2.0
#
# tracebuf: top-level build.  `make help` lists the targets.

# Kernel to build against and boot: newest with both headers and vmlinuz.
# Recursive (=) so it is evaluated after `setup` has installed them.
KVER = $(shell scripts/kver.sh)
KDIR = /lib/modules/$(KVER)/build

BUILD := $(CURDIR)/build
KSRC := $(BUILD)/ksrc
KSFT := $(KSRC)/tools/testing/selftests
VMROOT := $(BUILD)/vmroot

PREFIX ?= /usr/local
DESTDIR ?=

# make vm CMD='...' VMFLAGS='...'
CMD ?=
VMFLAGS ?=

MAKEFLAGS += --no-print-directory

.PHONY: all setup ksrc module userspace selftests stage vm check check-host \
	check-vm demo bench checkpatch xscale-check install uninstall clean help

all: module userspace selftests

help:
	@echo "Targets:"
	@echo "  all (default)  tracebuf.ko (W=1), userspace tools, selftests"
	@echo "  setup          install the Debian packages we need (root)"
	@echo "  check          host unit tests + selftests in a qemu VM; ends"
	@echo "                 with one 'N passed, N failed' line"
	@echo "  check-host     host unit tests only"
	@echo "  check-vm       VM selftests only"
	@echo "  vm CMD='...'   run a command in the VM with the module loaded"
	@echo "                 (VMFLAGS='--help' lists the runner's options)"
	@echo "  demo           capture and convert traces in the VM"
	@echo "  bench          benchmarks (see Documentation/performance.rst)"
	@echo "  checkpatch     checkpatch.pl --strict on driver/ and uapi/"
	@echo "  xscale-check   compile the module for ARM XScale (pxa_defconfig);"
	@echo "                 about 1 min the first time, seconds after"
	@echo "  install        module, tools and udev rule (DESTDIR, PREFIX)"
	@echo "  clean"
	@echo "Variables: KVER=<release> to pick the kernel, CMD, VMFLAGS."

setup:
	@scripts/setup.sh

ksrc: setup
	@scripts/kernel-src-extract.sh $(KSRC)

module: setup
	$(MAKE) -C $(KDIR) M=$(CURDIR) W=1 modules

userspace: ksrc
	$(MAKE) -C userspace O=$(BUILD)/userspace KSFT=$(KSFT)

selftests: ksrc
	$(MAKE) -C selftests O=$(BUILD)/selftests KSFT=$(KSFT)

# Everything the VM needs, laid out as it appears in the guest.
stage: all
	@rm -rf $(VMROOT)
	@mkdir -p $(VMROOT)/lib/tracebuf $(VMROOT)/usr/bin $(VMROOT)/selftests
	@cp tracebuf.ko $(VMROOT)/lib/tracebuf/
	@$(MAKE) -C userspace O=$(BUILD)/userspace install-bin DESTDIR=$(VMROOT) BINDIR=/usr/bin
	@$(MAKE) -C selftests O=$(BUILD)/selftests install INSTALL_DIR=$(VMROOT)/selftests

vm: stage
	@scripts/vm-run $(VMFLAGS) -- $(if $(CMD),sh -c '$(CMD)',)

check: stage ksrc
	@scripts/check.sh

check-host: all ksrc
	@scripts/check.sh --host-only

check-vm: stage
	@scripts/check.sh --vm-only

demo: stage
	@scripts/demo.sh

bench: stage
	@scripts/bench.sh

checkpatch: ksrc
	@scripts/checkpatch.sh

xscale-check: setup
	@scripts/xscale-compile-check.sh

install: all
	$(MAKE) -C $(KDIR) M=$(CURDIR) INSTALL_MOD_PATH=$(DESTDIR) CONFIG_MODULE_SIG_ALL= modules_install
	$(MAKE) -C userspace O=$(BUILD)/userspace install-bin DESTDIR=$(DESTDIR) BINDIR=$(PREFIX)/bin
	install -D -m 0644 scripts/60-tracebuf.rules $(DESTDIR)/etc/udev/rules.d/60-tracebuf.rules
	install -D -m 0644 uapi/linux/tracebuf.h $(DESTDIR)$(PREFIX)/include/linux/tracebuf.h
	@if [ -z "$(DESTDIR)" ]; then depmod -a $(KVER); fi

uninstall:
	rm -f /lib/modules/$(KVER)/updates/tracebuf.ko /lib/modules/$(KVER)/extra/tracebuf.ko
	rm -f /etc/udev/rules.d/60-tracebuf.rules $(PREFIX)/include/linux/tracebuf.h
	$(MAKE) -C userspace O=$(BUILD)/userspace uninstall-bin BINDIR=$(PREFIX)/bin
	depmod -a $(KVER)

clean:
	@if [ -d "$(KDIR)" ]; then $(MAKE) -C $(KDIR) M=$(CURDIR) clean; fi
	rm -rf $(BUILD)
