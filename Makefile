# ioctl-rework: convert legacy .ioctl handlers to .unlocked_ioctl/.compat_ioctl.
#
# make demo        convert the bundled fixture drivers and show the result
# make check       unit tests and rule cases, no kernel (minutes); ends with "N passed, N failed"
# make test        check plus the kernel proofs (what .ci/run runs); same last line
# make adversarial  the adversarial measure: new drivers, every mode, run on a model VFS (minutes)
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
# The suites of `make check` build and boot no kernel (bench/check.md: how long).
CHECK_SUITES := semantic-patches/tests/run wrappers/tests/run \
	kernel-fixtures/userspace/check kernel-fixtures/userspace/host-exec-check
# `make test` adds the proofs on the fixture kernel and the stock kernels.
KERNEL_SUITES := kernel-fixtures/run-proof kernel-fixtures/run-stock

.PHONY: all deps check test demo cocci clean install adversarial
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

# Run the suites $(1) one after another, all of them whatever fails; the TAP
# goes to stdout and $(BUILD)/$(2).tap.  count_tap prints the last line.
define run_suites
	mkdir -p $(BUILD); : > $(BUILD)/$(2).tap; \
	for suite in $(1); do \
		./$$suite | tee $(BUILD)/$(2)-suite.tap; status=$${PIPESTATUS[0]}; \
		cat $(BUILD)/$(2)-suite.tap >> $(BUILD)/$(2).tap; \
		if [ $$status -ne 0 ] && ! grep -q '^not ok' $(BUILD)/$(2)-suite.tap; then \
			echo "not ok - $$suite exited with status $$status" | tee -a $(BUILD)/$(2).tap; \
		fi; \
	done
endef
# Run the suites $(1) side by side, each to its own file, then print their TAP
# in the order given, as run_suites does: on two cores the unit tests' tail
# and the userspace checks fill the cores the rule cases leave idle
# (bench/make_check.md).  A suite's progress shows when the ones before it end.
define run_suites_side_by_side
	mkdir -p $(BUILD); : > $(BUILD)/$(2).tap; pids=(); n=0; \
	for suite in $(1); do \
		n=$$((n + 1)); ./$$suite > $(BUILD)/$(2)-suite-$$n.tap & pids+=($$!); \
	done; \
	n=0; for suite in $(1); do \
		wait $${pids[$$n]}; status=$$?; n=$$((n + 1)); \
		cat $(BUILD)/$(2)-suite-$$n.tap | tee -a $(BUILD)/$(2).tap; \
		if [ $$status -ne 0 ] && ! grep -q '^not ok' $(BUILD)/$(2)-suite-$$n.tap; then \
			echo "not ok - $$suite exited with status $$status" | tee -a $(BUILD)/$(2).tap; \
		fi; \
	done
endef
count_tap = awk '/^ok /{p++} /^not ok /{f++} END {printf "%d passed, %d failed\n", p, f; exit (f > 0 || p == 0)}' $(1)

check: deps
	@$(call run_suites_side_by_side,$(CHECK_SUITES),check); $(call count_tap,$(BUILD)/check.tap)

# The kernel proofs run beside the check suites, not after them: they wait on
# qemu, the linker and sparse with a core idle, and the unit tests run one
# process at a time, so on two cores the two overlap (bench/make_check.md).
# Their TAP follows the check suites' TAP, their progress is in
# $(BUILD)/kernel.log, and the last line counts both.
# IOCTL_REWORK_TEST_FULL: the lock proof's unit tests prove every fixture
# variant here, a representative set in check (wrappers/tests/lockproof_fixture.py).
test: deps
	@mkdir -p $(BUILD); export IOCTL_REWORK_TEST_FULL=1; \
	{ $(call run_suites,$(KERNEL_SUITES),kernel); } > $(BUILD)/kernel.out 2> $(BUILD)/kernel.log & kernel=$$!; \
	$(call run_suites,$(CHECK_SUITES),check); \
	echo "test: the check suites are done; waiting for the kernel proofs ($(BUILD)/kernel.log)" >&2; \
	wait $$kernel; cat $(BUILD)/kernel.log >&2; cat $(BUILD)/kernel.out; \
	cat $(BUILD)/check.tap $(BUILD)/kernel.tap > $(BUILD)/test.tap; \
	$(call count_tap,$(BUILD)/test.tap)

# The adversarial measure (bench/adversarial/README.md): convert its drivers in
# every mode, build each result against the model VFS and run it beside the
# legacy build.  Kept out of check and test for its time (reports/adversarial-vfs.md);
# its harness's own test (wrappers/tests/test_adversarial_harness.py) is in check.
adversarial: deps
	@mkdir -p $(BUILD); nice $(PYTHON) bench/adversarial/measure.py --output $(BUILD)/adversarial.txt

# Convert a copy of the fixture drivers against their kernel's headers (the shimmed
# linux-source-6.1, extracted once: fixture/headers_tree.py), as an out-of-tree module is
# built: the summary, where the series is, one patch.
# A machine without a git identity gets a demo one, so the series can be made.
demo: deps
	@out=$$(mktemp -d /tmp/ioctl-rework-demo.XXXXXX); \
	cp -r kernel-fixtures/drivers $$out/drivers; \
	git var GIT_AUTHOR_IDENT >/dev/null 2>&1 || \
		export GIT_AUTHOR_NAME="ioctl-rework demo" GIT_AUTHOR_EMAIL="demo@example.invalid" \
			GIT_COMMITTER_NAME="ioctl-rework demo" GIT_COMMITTER_EMAIL="demo@example.invalid"; \
	headers=$$(PYTHONPATH=wrappers $(PYTHON) -m ioctl_rework.fixture.headers_tree) || exit 2; \
	wrappers/ioctl-rework convert --target 6.1 --kernel-headers $$headers --json $$out/summary.json \
		--series $$out/series $$out/drivers; status=$$?; \
	echo; echo "series: $$out/series   summary: $$out/summary.json"; \
	first=$$(ls $$out/series/*.patch | grep -v 0000-cover-letter | head -1); \
	[ -n "$$first" ] && { echo "--- $$first"; cat "$$first"; }; exit $$status

# As coccicheck does: the options are the ones the rule's header asks for,
# with the macro file the wrappers pass too (rules.spatch_options), and the
# rule's directory and wrappers/ on PYTHONPATH for its package and the C-text
# helpers it shares with the wrappers (rules.spatch_environment); spatch reads
# the copy of the rule that names its parts by absolute path (rule_parts.py).
cocci: deps
	@test -f $(MACROS) || { echo "cocci: $(MACROS) is missing" >&2; exit 2; }
	@PYTHONPATH=$(abspath $(dir $(COCCI))):$(abspath wrappers)$${PYTHONPATH:+:$$PYTHONPATH} \
	spatch --sp-file $$(PYTHONPATH=wrappers $(PYTHON) -m ioctl_rework.spatch.rule_parts $(COCCI)) \
		-D $(MODE) --very-quiet \
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
	@$(MAKE) --no-print-directory test CHECK_SUITES= KERNEL_SUITES=kernel-fixtures/run-proof

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
