# ioctl-rework: convert legacy .ioctl handlers to .unlocked_ioctl/.compat_ioctl.
#
# make demo        convert the bundled fixture drivers and show the result
# make test        run every test suite; ends with "N passed, N failed"
# make cocci MODE=patch|report|context|org DIR=path   run the rules alone
# make deps        install missing Debian packages (sudo when not root)
# make install PREFIX=/usr/local   the CLI, its rules and fixtures, without pip

SHELL := /bin/bash
PYTHON ?= /usr/bin/python3
MODE ?= report
DIR ?= kernel-fixtures/drivers
COCCI ?= semantic-patches/ioctl_to_unlocked_ioctl.cocci
# Hints for spatch's parser about kernel macros; every run passes them.
MACROS ?= semantic-patches/macros.h
SPFLAGS ?=
BUILD ?= $(CURDIR)/build
PREFIX ?= /usr/local

# Debian packages every stage needs; one list so a new machine gets all of it.
# (dwarves: pahole, which reads the compat layout probe's DWARF.)
DEBIAN_PACKAGES := coccinelle sparse gcc gcc-multilib make python3 \
	linux-source-6.1 linux-source-6.12 qemu-system-x86 busybox-static cpio flex bison bc \
	libelf-dev libssl-dev xz-utils ccache git patch python3-matplotlib \
	python3-unidiff chromium strace python3-pip python3-setuptools python3-wheel \
	dwarves parallel

# Each suite prints TAP ("ok N - ..." / "not ok N - ...") on stdout.
TEST_SUITES := semantic-patches/tests/run wrappers/tests/run \
	kernel-fixtures/userspace/check kernel-fixtures/userspace/host-exec-check \
	kernel-fixtures/run-proof kernel-fixtures/run-stock

.PHONY: all deps test demo cocci clean install
all: test

deps:
	@missing=$$(for p in $(DEBIAN_PACKAGES); do \
		dpkg-query -W -f='$${Status}\n' $$p 2>/dev/null | grep -q '^install ok installed' || echo $$p; \
	done); \
	if [ -n "$$missing" ]; then \
		sudo=; [ "$$(id -u)" = 0 ] || sudo=sudo; \
		echo "deps: installing $$missing"; \
		$$sudo apt-get update -qq && \
		DEBIAN_FRONTEND=noninteractive $$sudo apt-get install -y -qq --no-install-recommends $$missing >/dev/null; \
	fi

test: deps
	@mkdir -p $(BUILD); : > $(BUILD)/test.tap; \
	for suite in $(TEST_SUITES); do \
		./$$suite | tee $(BUILD)/suite.tap; status=$${PIPESTATUS[0]}; \
		cat $(BUILD)/suite.tap >> $(BUILD)/test.tap; \
		if [ $$status -ne 0 ] && ! grep -q '^not ok' $(BUILD)/suite.tap; then \
			echo "not ok - $$suite exited with status $$status" | tee -a $(BUILD)/test.tap; \
		fi; \
	done; \
	awk '/^ok /{p++} /^not ok /{f++} END {printf "%d passed, %d failed\n", p, f; exit (f > 0 || p == 0)}' $(BUILD)/test.tap

# Convert a copy of the fixture drivers: the summary, where the series is, one patch.
demo: deps
	@out=$$(mktemp -d /tmp/ioctl-rework-demo.XXXXXX); \
	cp -r kernel-fixtures/drivers $$out/drivers; \
	wrappers/ioctl-rework convert --target 6.1 --json $$out/summary.json \
		--series $$out/series $$out/drivers; status=$$?; \
	echo; echo "series: $$out/series   summary: $$out/summary.json"; \
	first=$$(ls $$out/series/*.patch | grep -v 0000-cover-letter | head -1); \
	[ -n "$$first" ] && { echo "--- $$first"; cat "$$first"; }; exit $$status

# As coccicheck does: the options are the ones the rule's header asks for,
# with the macro file the wrappers pass too (rules.spatch_options), and the
# rule's directory and wrappers/ on PYTHONPATH for its package and the C-text
# helpers it shares with the wrappers (rules.spatch_environment).
cocci: deps
	@test -f $(MACROS) || { echo "cocci: $(MACROS) is missing" >&2; exit 2; }
	@PYTHONPATH=$(abspath $(dir $(COCCI))):$(abspath wrappers)$${PYTHONPATH:+:$$PYTHONPATH} \
	spatch --sp-file $(COCCI) -D $(MODE) --very-quiet \
		$$(sed -n 's#^// Options:##p' $(COCCI)) --macro-file $(MACROS) \
		$$(builtins=$$(PYTHONPATH=wrappers $(PYTHON) -m ioctl_rework.spatch.macro_builtins $(MACROS)) && \
		   test -n "$$builtins" && echo --macro-file-builtins "$$builtins") \
		$(SPFLAGS) --dir $(DIR)

# The fixture kernel (kernel-fixtures/): build it, boot it, or run the proof.
# FIXTURE_CACHE keeps the unpacked source, objects and boots between runs.
FIXTURE_CACHE ?= $(BUILD)/fixture
VARIANT ?= legacy
export IOCTL_REWORK_FIXTURE_CACHE = $(abspath $(FIXTURE_CACHE))
# Stock kernels the stock proof boots (kernel-fixtures/run-stock), comma-separated;
# together they add bench/stock.md's minutes to a clean CI run.
STOCK_VERSIONS ?= 6.1,6.12
export STOCK_VERSIONS
.PHONY: fixture-build fixture-boot fixture-test
fixture-build: deps
	@wrappers/ioctl-rework fixture build --variant $(VARIANT)
fixture-boot: deps
	@wrappers/ioctl-rework fixture boot --variant $(VARIANT)
fixture-test:
	@$(MAKE) --no-print-directory test TEST_SUITES=kernel-fixtures/run-proof

# PREFIX/share/ioctl-rework holds the package, its entry script, the rules
# and kernel-fixtures/ side by side (ioctl_rework/paths.py: "make install");
# PREFIX/bin/ioctl-rework links to the script.  Output goes to $XDG_CACHE_HOME.
install:
	@dest=$(DESTDIR)$(PREFIX)/share/ioctl-rework; \
	rm -rf "$$dest.new" && mkdir -p "$$dest.new/semantic-patches" "$(DESTDIR)$(PREFIX)/bin" && \
	find semantic-patches -maxdepth 1 -type f -exec cp {} "$$dest.new/semantic-patches/" ';' && \
	tar -c -C semantic-patches --exclude=__pycache__ ioctl_rule | tar -x -C "$$dest.new/semantic-patches" && \
	tar -c --exclude=__pycache__ kernel-fixtures | tar -x -C "$$dest.new" && \
	tar -c -C wrappers --exclude=__pycache__ --exclude='*.egg-info' ioctl-rework ioctl_rework | \
		tar -x -C "$$dest.new" && \
	rm -rf "$$dest" && mv "$$dest.new" "$$dest" && \
	ln -sfn ../share/ioctl-rework/ioctl-rework "$(DESTDIR)$(PREFIX)/bin/ioctl-rework" && \
	echo "installed $(DESTDIR)$(PREFIX)/bin/ioctl-rework"

clean:
	rm -rf $(BUILD)
