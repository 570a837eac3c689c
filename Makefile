# trace_analyze - build, test, demo, install.
#
#   make            build ./trace_analyze (-O2, warnings are errors in CI)
#   make check      every test: unit (cmocka), CLI (bats), corpus, and the
#                   same suite again under AddressSanitizer/UBSan
#   make check-fast the unit tests and the CLI stories without tracefs (a minute)
#   make demo       run the main job on data shipped in data/
#   make examples   examples/: the files README.md's examples name, to run them there
#   make install    PREFIX=/usr/local by default: the binary, the man page,
#                   the bash completion
#   make completion data/completion/trace_analyze made again from the tables
#   make bench LOG=file   scripts/bench.sh on a log
#   make fuzz       the libFuzzer targets (tests/fuzz/fuzz_*.c), FUZZ_SECONDS
#                   each (clang); make fuzz-NAME: one of them

# `make clean all -j2`: clean would race the build and delete what it made.
# When clean comes first among several goals, it runs first, then each
# other goal in a make of its own (which keeps -j).
ifeq ($(firstword $(MAKECMDGOALS)),clean)
ifneq ($(filter-out clean,$(MAKECMDGOALS)),)
CLEAN_FIRST := 1
endif
endif
ifdef CLEAN_FIRST
.NOTPARALLEL:
.PHONY: $(MAKECMDGOALS)
$(filter-out clean,$(MAKECMDGOALS)): clean
	@$(MAKE) --no-print-directory $@
clean:
	rm -rf build trace_analyze
else

PREFIX  ?= /usr/local
BINDIR  ?= $(PREFIX)/bin
MANDIR  ?= $(PREFIX)/share/man/man1
COMPLETIONDIR ?= $(PREFIX)/share/bash-completion/completions
SCHEMADIR ?= $(PREFIX)/share/trace_analyze/schema
VERSION := 0.1

CC      ?= cc
HAVE_CLANG := $(shell command -v clang 2> /dev/null)
PKGS    := libxxhash libelf cairo zlib liblzma libzstd libtracefs libtraceevent libtracecmd \
	   ncursesw libprotobuf-c
CFLAGS  ?= -O2 -g
WARN    := -Wall -Wextra -Wshadow -Wstrict-prototypes -Wmissing-prototypes
PKG_CFLAGS := $(shell pkg-config --cflags libelf cairo zlib liblzma libzstd libtracefs \
		libtraceevent libtracecmd ncursesw libprotobuf-c 2>/dev/null)
# Only libprotobuf-c and libxxhash are linked: cairo, libelf, ncurses, the
# trace libraries and the decompressors are opened when first needed
# (src/base/lazylib.c), so that a run maps only what it uses.
PKG_LIBS   := $(shell pkg-config --libs libprotobuf-c 2>/dev/null || echo -lprotobuf-c)
# tracedat.c's tep_parse_event and tep_parse_kallsyms must come before
# libtraceevent's own when the loaded libtracecmd calls them (tracelib.c).
EXPORTED := -Wl,--export-dynamic-symbol=tep_parse_event \
	    -Wl,--export-dynamic-symbol=tep_parse_kallsyms
CPPFLAGS += -D_GNU_SOURCE -DTA_VERSION='"$(VERSION)"' -Iinclude -I$(BUILD)/gen $(PKG_CFLAGS)
LDLIBS  += $(EXPORTED) -lxxhash $(PKG_LIBS) -lm -lpthread

BUILD   := build
# src/ is grouped by stage (docs/HACKING.md): base kernel input analysis store
# capture engine report cmd, a stage's parts in folders of their own (src/input/
# by format); include/ holds every module's interface.
SRCS    := $(wildcard src/*/*.c src/*/*/*.c)
LIB_SRCS := $(filter-out src/cmd/main.c src/cmd/analyse.c src/cmd/diff.c src/cmd/check.c \
		src/cmd/record.c src/cmd/top.c src/cmd/snapshot.c,$(SRCS))
# generated C, linked into every build: pprof's profile.proto and the
# messages of a Perfetto trace (perfetto.proto) through protoc-c
PROTOS  := profile perfetto
GEN_SRCS := $(PROTOS:%=$(BUILD)/gen/%.pb-c.c)
OBJS    := $(SRCS:src/%.c=$(BUILD)/obj/%.o) $(PROTOS:%=$(BUILD)/obj/gen/%.pb-c.o)
LIB_OBJS := $(LIB_SRCS:src/%.c=$(BUILD)/obj/%.o) $(PROTOS:%=$(BUILD)/obj/gen/%.pb-c.o)

# Headers that must be present to build; name the fix when one is missing.
REQUIRED_HEADERS := /usr/include/xxhash.h /usr/include/gelf.h /usr/include/libelf.h \
		    /usr/include/cairo/cairo.h /usr/include/zlib.h /usr/include/lzma.h \
		    /usr/include/zstd.h /usr/include/tracefs/tracefs.h \
		    /usr/include/trace-cmd/trace-cmd.h \
		    /usr/include/traceevent/kbuffer.h /usr/include/ncursesw/curses.h \
		    /usr/include/protobuf-c/protobuf-c.h /usr/bin/protoc-c

all: check-deps trace_analyze

check-deps:
	@for h in $(REQUIRED_HEADERS); do \
	  if [ ! -f $$h ]; then \
	    echo "trace_analyze: missing $$h: run 'sudo scripts/deps.sh' to install the build dependencies" >&2; \
	    exit 1; \
	  fi; \
	done

trace_analyze: $(OBJS)
	$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $(OBJS) $(LDLIBS)

# Each object lists the headers it included in its .d file (-MMD): a header
# change rebuilds only what includes it, and never leaves a stale object.
DEPFLAGS = -MMD -MP

$(BUILD)/obj/%.o: src/%.c
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(DEPFLAGS) $(CFLAGS) $(WARN) -c -o $@ $<

$(BUILD)/obj $(BUILD)/san $(BUILD)/tests $(BUILD)/gen:
	mkdir -p $@

# data/wrappers.txt, data/allocators.txt and data/reclaimable.txt, built in: one C string a name
# or glob, comments and blanks dropped
GEN := $(BUILD)/gen/wrappers.inc $(BUILD)/gen/allocators.inc $(BUILD)/gen/reclaimable.inc
$(BUILD)/gen/%.inc: data/%.txt | $(BUILD)/gen
	sed -e 's/#.*//' -e 's/[[:space:]]//g' -e '/^$$/d' -e 's/.*/"&",/' $< > $@

$(BUILD)/obj/analysis/callchain.o $(BUILD)/san/analysis/callchain.o: $(GEN)
$(BUILD)/obj/analysis/reclaim.o $(BUILD)/san/analysis/reclaim.o $(BUILD)/fuzz/obj/analysis/reclaim.o: $(GEN)

# data/report.css and data/report.js, built into --html pages: one C string a line
HTML_GEN := $(BUILD)/gen/report_css.inc $(BUILD)/gen/report_js.inc
$(BUILD)/gen/report_%.inc: data/report.% | $(BUILD)/gen
	sed -e 's/\\/\\\\/g' -e 's/"/\\"/g' -e 's/.*/"&\\n"/' $< > $@

$(BUILD)/obj/report/html.o $(BUILD)/san/report/html.o: $(HTML_GEN)

# src/report/profile.proto (pprof's format) as C for libprotobuf-c
# one run of protoc-c makes both (a grouped target: two runs could rewrite the
# header after an object was built from it, which would then be rebuilt every time)
$(BUILD)/gen/profile.pb-c.c $(BUILD)/gen/profile.pb-c.h &: src/report/profile.proto | $(BUILD)/gen
	protoc-c --c_out=$(BUILD)/gen --proto_path=src/report profile.proto
$(BUILD)/gen/perfetto.pb-c.c $(BUILD)/gen/perfetto.pb-c.h &: src/report/perfetto.proto | $(BUILD)/gen
	protoc-c --c_out=$(BUILD)/gen --proto_path=src/report perfetto.proto

$(BUILD)/obj/report/pprof.o $(BUILD)/san/report/pprof.o \
$(BUILD)/fuzz/obj/report/pprof.o: $(BUILD)/gen/profile.pb-c.h
$(BUILD)/obj/report/perfetto.o $(BUILD)/san/report/perfetto.o \
$(BUILD)/fuzz/obj/report/perfetto.o: $(BUILD)/gen/perfetto.pb-c.h

# generated code: compiled without our warnings, which it was not written for
$(BUILD)/obj/gen/%.o: $(BUILD)/gen/%.c
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(CFLAGS) -c -o $@ $<
$(BUILD)/san/gen/%.o: $(BUILD)/gen/%.c
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(SAN_FLAGS) -c -o $@ $<
$(BUILD)/fuzz/obj/gen/%.o: $(BUILD)/gen/%.c
	@mkdir -p $(dir $@)
	clang $(CPPFLAGS) $(FUZZ_DEFS) $(FUZZ_SAN) -fsanitize=fuzzer-no-link -c -o $@ $<

# ---- tests ------------------------------------------------------------------
UNIT_SRCS := $(wildcard tests/unit/test_*.c)
UNIT_BINS := $(UNIT_SRCS:tests/unit/%.c=$(BUILD)/tests/%)

$(BUILD)/tests/%: tests/unit/%.c $(LIB_OBJS) | $(BUILD)/tests
	$(CC) $(CPPFLAGS) $(DEPFLAGS) $(CFLAGS) $(WARN) -o $@ $< $(LIB_OBJS) $(LDLIBS) -lcmocka

# Sanitizer build: the same binary and unit tests with ASan + UBSan.
SAN_FLAGS := -O1 -g -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all
SAN_OBJS := $(SRCS:src/%.c=$(BUILD)/san/%.o) $(PROTOS:%=$(BUILD)/san/gen/%.pb-c.o)
SAN_LIB_OBJS := $(LIB_SRCS:src/%.c=$(BUILD)/san/%.o) $(PROTOS:%=$(BUILD)/san/gen/%.pb-c.o)

$(BUILD)/san/%.o: src/%.c
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(DEPFLAGS) $(SAN_FLAGS) $(WARN) -c -o $@ $<

$(BUILD)/san/trace_analyze: $(SAN_OBJS)
	$(CC) $(SAN_FLAGS) -o $@ $(SAN_OBJS) $(LDLIBS)

$(BUILD)/san/tests/%: tests/unit/%.c $(SAN_LIB_OBJS)
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(DEPFLAGS) $(SAN_FLAGS) $(WARN) -o $@ $< $(SAN_LIB_OBJS) $(LDLIBS) -lcmocka

SAN_UNIT_BINS := $(UNIT_SRCS:tests/unit/%.c=$(BUILD)/san/tests/%)

# ---- fuzzing ----------------------------------------------------------------
# libFuzzer targets, one tests/fuzz/fuzz_NAME.c each: db (the DB reader,
# built with checksums taken as good so that mutations reach the checks
# behind them), text (any bytes as a log through pipeline_run, every report
# on), compressed (gzip/xz/zstd streams through the input layer), tracedat
# and perfdata (the binary decoders, whole files: fuzz_binary.h), tepkmem
# (raw records through the decoder they share, formats parsed once) and
# datlayout (a trace.dat's layout walk, no libtracecmd). The
# library is compiled once with clang for them all (build/fuzz/obj).
# `make fuzz` runs each for FUZZ_SECONDS; `make fuzz-NAME` one of them.
# `make check` builds every target and runs it a fixed number of runs from
# a fixed seed over its seeds (deterministic), and runs the seeds and
# regression inputs once through a gcc-built driver as well.
# Seeds: tests/fuzz/corpus/NAME (committed), and build/fuzz/seeds/NAME
# made at build time with the current writer (DB seeds are --save-db of the
# text seeds, compressed seeds the text seeds compressed), so that no seed
# goes stale when a format changes.
FUZZ_TARGETS := db text compressed tracedat perfdata tepkmem datlayout ksnapshot taskcgroups pageowner kmemleak
FUZZ_SECONDS ?= 600
FUZZ_DEFS  := -DFUZZING_BUILD_MODE_UNSAFE_FOR_PRODUCTION
FUZZ_SAN   := -O1 -g -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer
FUZZ_KIDX  := $(BUILD)/fuzz/linux-6.1-tiny.kidx
FUZZ_OBJS  := $(LIB_SRCS:src/%.c=$(BUILD)/fuzz/obj/%.o) $(PROTOS:%=$(BUILD)/fuzz/obj/gen/%.pb-c.o)
FUZZ_BINS  := $(FUZZ_TARGETS:%=$(BUILD)/fuzz/fuzz_%)
SEED_BINS  := $(FUZZ_TARGETS:%=$(BUILD)/fuzz/seeds_%)
TEXT_SEEDS := $(wildcard tests/fuzz/corpus/text/*)

$(BUILD)/fuzz/obj/%.o: src/%.c | $(GEN) $(HTML_GEN) $(GEN_SRCS)
	@mkdir -p $(dir $@)
	clang $(CPPFLAGS) $(DEPFLAGS) $(FUZZ_DEFS) $(FUZZ_SAN) -fsanitize=fuzzer-no-link $(WARN) -c -o $@ $<

$(BUILD)/fuzz/fuzz_%: tests/fuzz/fuzz_%.c $(wildcard tests/fuzz/*.h) $(FUZZ_OBJS)
	@mkdir -p $(dir $@)
	clang $(CPPFLAGS) $(FUZZ_DEFS) $(FUZZ_SAN) $(WARN) -fsanitize=fuzzer -o $@ $< \
		$(FUZZ_OBJS) $(LDLIBS)

# the gcc driver: the sanitizer build's objects, binfile.c with FUZZ_DEFS
SEED_OBJS := $(filter-out $(BUILD)/san/base/binfile.o,$(SAN_LIB_OBJS)) $(BUILD)/fuzz/binfile.o

$(BUILD)/fuzz/binfile.o: src/base/binfile.c
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(DEPFLAGS) $(FUZZ_DEFS) $(SAN_FLAGS) $(WARN) -c -o $@ $<

$(BUILD)/fuzz/seeds_%: tests/fuzz/run_seeds.c tests/fuzz/fuzz_%.c $(wildcard tests/fuzz/*.h) \
		$(SEED_OBJS)
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(FUZZ_DEFS) $(SAN_FLAGS) $(WARN) -Wno-unused-function -o $@ \
		tests/fuzz/run_seeds.c \
		tests/fuzz/fuzz_$*.c $(SEED_OBJS) $(LDLIBS)

$(FUZZ_KIDX): data/linux-6.1-tiny.kidx.xz
	@mkdir -p $(dir $@)
	xz -dc $< > $@

# seeds made by the current build from the committed text seeds
$(BUILD)/fuzz/seeds/.made: tests/fuzz/make-built-seeds.sh trace_analyze $(TEXT_SEEDS) \
		tests/fixtures/small-stacks.dat tests/fixtures/small-callchain.perf.data tests/fixtures/pipe-mode.perf.data \
		tests/tools/cut_perfdata.py tests/fuzz/make-tepkmem-seeds.py \
		$(wildcard tests/fuzz/formats/*) $(wildcard tests/fixtures/ksnapshot-6.12-B/*) \
		$(wildcard tests/fixtures/cgroups-6.12/*) $(wildcard tests/fixtures/page_owner-6.12/*) \
		$(wildcard tests/fixtures/kmemleak-6.12/*)
	tests/fuzz/make-built-seeds.sh ./trace_analyze $(BUILD)/fuzz/seeds
	@touch $@

fuzz: $(FUZZ_TARGETS:%=fuzz-%)

# The longest input each target is given: a text log, a DB or a compressed
# stream up to 256 KiB; the binary files' seeds are small (a run reads the
# whole input, so a smaller one is more runs a second); records 4 KiB.
FUZZ_MAXLEN_tracedat := 81920
FUZZ_MAXLEN_datlayout := 81920
FUZZ_MAXLEN_perfdata := 65536
FUZZ_MAXLEN_tepkmem := 4096
fuzz_maxlen = $(or $(FUZZ_MAXLEN_$(1)),262144)

# ASan's and LSan's settings as `make check` has them: the libraries'
# known leaks (tests/lsan.supp) are no finding.
FUZZ_ENV = TA_FUZZ_KIDX=$(FUZZ_KIDX) TA_FUZZ_FORMATS=tests/fuzz/formats \
	LSAN_OPTIONS=suppressions=$(CURDIR)/tests/lsan.supp:print_suppressions=0

fuzz-%: $(BUILD)/fuzz/fuzz_% $(BUILD)/fuzz/seeds/.made $(FUZZ_KIDX)
	@mkdir -p $(BUILD)/fuzz/corpus-$* $(BUILD)/fuzz/seeds/$*
	$(FUZZ_ENV) $(BUILD)/fuzz/fuzz_$* -max_total_time=$(FUZZ_SECONDS) \
		-max_len=$(call fuzz_maxlen,$*) -close_fd_mask=2 $(BUILD)/fuzz/corpus-$* \
		$(wildcard tests/fuzz/corpus/$*) $(BUILD)/fuzz/seeds/$*

# What the tests need besides the build: name the fix when it is missing.
check-test-deps:
	@if [ ! -f /usr/include/cmocka.h ]; then \
	  echo "trace_analyze: missing /usr/include/cmocka.h: run 'sudo scripts/deps.sh' to install the test dependencies" >&2; \
	  exit 1; \
	fi
	@for c in bats python3; do \
	  if ! command -v $$c > /dev/null; then \
	    echo "trace_analyze: missing '$$c': run 'sudo scripts/deps.sh' to install the test dependencies" >&2; \
	    exit 1; \
	  fi; \
	done

# scripts/bench.sh's timer
$(BUILD)/tools/walltime: scripts/walltime.c
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(WARN) -o $@ $<

# a known kernel workload for the record tests
$(BUILD)/tools/open_pipes: tests/tools/open_pipes.c
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) $(WARN) -o $@ $<

# The README's two commands install what is missing first (scripts/deps.sh,
# as root or through sudo without a password); otherwise they say what to run.
deps:
	@if [ "$$(id -u)" -eq 0 ] || sudo -n true 2> /dev/null; then scripts/deps.sh; fi

# What the tests need is built on every CPU even when make was called without
# -j (the sanitized build and the fuzz targets are most of a fresh clone's
# check); a -j of the caller's is kept (its jobserver).
NPROC := $(shell nproc 2> /dev/null || echo 2)
SUBMAKE_JOBS = $(if $(findstring jobserver,$(MAKEFLAGS)),,-j$(NPROC))

check: deps
	@start=$$(date +%s); $(MAKE) --no-print-directory $(SUBMAKE_JOBS) check-build && \
	  echo "# the tests' builds took $$(( $$(date +%s) - start )) s"
	@scripts/run-tests.sh

# the one-minute loop: the unit tests and the CLI stories that need no tracefs,
# on the normal build only (make check runs everything)
check-fast: check-deps check-test-deps
	@$(MAKE) --no-print-directory $(SUBMAKE_JOBS) trace_analyze $(UNIT_BINS)
	@scripts/run-tests.sh --fast

check-build: check-deps check-test-deps trace_analyze $(UNIT_BINS) $(BUILD)/san/trace_analyze \
	$(SAN_UNIT_BINS) $(BUILD)/tools/open_pipes \
	$(SEED_BINS) $(FUZZ_KIDX) $(BUILD)/fuzz/seeds/.made $(if $(HAVE_CLANG),$(FUZZ_BINS))

demo: deps
	@$(MAKE) --no-print-directory check-deps trace_analyze $(BUILD)/tools/open_pipes
	@scripts/demo.sh

# examples/: the files README.md's examples name (kmem.log, linux, trace.dat...),
# linked to the corpus beside the tree, and ./trace_analyze: they run there as printed
examples: deps
	@$(MAKE) --no-print-directory check-deps trace_analyze $(BUILD)/tools/open_pipes
	@scripts/example-files.sh examples
	@echo "make examples: the README's examples run as printed in examples/ (cd examples)"

bench: trace_analyze $(BUILD)/tools/walltime
	@scripts/bench.sh $(LOG)

# every report of the corpus by REV's build and this one, compared byte for byte
REV ?= HEAD
same-outputs: trace_analyze
	@scripts/same-outputs.sh $(REV) ./trace_analyze

install: trace_analyze
	install -d $(DESTDIR)$(BINDIR) $(DESTDIR)$(MANDIR) $(DESTDIR)$(COMPLETIONDIR)
	install -m 755 trace_analyze $(DESTDIR)$(BINDIR)/trace_analyze
	install -m 644 man/trace_analyze.1 $(DESTDIR)$(MANDIR)/trace_analyze.1
	install -m 644 data/completion/trace_analyze $(DESTDIR)$(COMPLETIONDIR)/trace_analyze
	install -d $(DESTDIR)$(SCHEMADIR)
	install -m 644 data/schema/*.schema.json $(DESTDIR)$(SCHEMADIR)

# data/completion/trace_analyze, made again from the option tables (committed)
completion: trace_analyze
	scripts/make-completion.sh ./trace_analyze > data/completion/trace_analyze

clean:
	rm -rf $(BUILD) trace_analyze

# the headers each object and test was built from (absent before a first build)
-include $(shell find $(BUILD) -name '*.d' 2> /dev/null)

.PHONY: all deps check-deps check-test-deps check check-fast check-build demo examples bench same-outputs install completion clean fuzz
.SECONDARY:

endif
