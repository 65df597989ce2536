# SPDX-License-Identifier: MIT
#
# prism: one non-recursive Makefile.
#
#   make                 build out/prism and out/libprism.a
#   make run             install missing build dependencies, build, run prism's main job
#   make test            install missing dependencies, build with ASan+UBSan, run every test
#   make install PREFIX=/usr/local [DESTDIR=...]
#   make check-format    clang-format --dry-run --Werror over all C files
#   make format          reformat all C files in place
#   make fuzz            build the libFuzzer targets and run each for FUZZ_SECONDS
#   make bench           build and run the benchmarks under bench/
#
# Variables: V=1 (verbose), O=dir (output directory, default out), SAN=1
# (sanitizer build into $(O)/san), WERROR=1 (-Werror; on by default when
# CI=true), NO_<FEATURE>=1 to build without an optional library
# (NO_LIBBPF=1, NO_LIBDW=1, ...).

PRISM_VERSION := 0.1.0

O ?= out
PREFIX ?= /usr/local
DESTDIR ?=
FUZZ_SECONDS ?= 30

ifeq ($(V),1)
Q :=
msg :=
else
Q := @
msg = @printf '  %-7s %s\n' "$(1)" "$(2)";
endif

# ---------------------------------------------------------------------------
# Dependencies: 'make run' and 'make test' install what is missing first.
# This runs while the Makefile is read so that the feature probes below see
# the freshly installed libraries.
ifneq ($(filter run test deps,$(MAKECMDGOALS)),)
DEPS_STATUS := $(shell scripts/install-deps >&2; echo $$?)
ifneq ($(DEPS_STATUS),0)
$(error scripts/install-deps failed (exit $(DEPS_STATUS)); see the messages above)
endif
endif

CC ?= cc
CLANG ?= clang
BPFTOOL ?= bpftool
CLANG_FORMAT ?= clang-format

# ---------------------------------------------------------------------------
# Feature probes (build/feature/test-*.c).  Each sets HAVE_<X> to 1 or 0;
# NO_<X>=1 forces 0.  An absent feature compiles to its stub file.
probe = $(shell $(CC) -o /dev/null build/feature/test-$(1).c $(2) >/dev/null 2>&1 && echo 1 || echo 0)

ifneq ($(NO_LIBTRACEEVENT),1)
HAVE_LIBTRACEEVENT := $(call probe,libtraceevent,$(shell pkg-config --cflags --libs libtraceevent 2>/dev/null || echo -ltraceevent))
endif
ifneq ($(NO_LIBZSTD),1)
HAVE_LIBZSTD := $(call probe,libzstd,-lzstd)
endif
ifneq ($(NO_LIBELF),1)
HAVE_LIBELF := $(call probe,libelf,-lelf)
endif
ifneq ($(NO_LIBDW),1)
HAVE_LIBDW := $(call probe,libdw,-ldw -lelf)
endif
ifneq ($(NO_LIBBPF),1)
HAVE_LIBBPF := $(if $(shell command -v $(CLANG) && command -v $(BPFTOOL)),$(call probe,libbpf,-lbpf -lelf -lz),0)
endif
ifneq ($(NO_LIBIBERTY),1)
HAVE_LIBIBERTY := $(call probe,libiberty,-liberty)
endif
ifneq ($(NO_LIBSQLITE3),1)
HAVE_LIBSQLITE3 := $(call probe,libsqlite3,-lsqlite3)
endif
ifneq ($(NO_LIBIPT),1)
HAVE_LIBIPT := $(call probe,libipt,-lipt)
endif

FEATURES := LIBTRACEEVENT LIBZSTD LIBELF LIBDW LIBBPF LIBIBERTY LIBSQLITE3 LIBIPT
LIBS_LIBTRACEEVENT := $(shell pkg-config --libs libtraceevent 2>/dev/null || echo -ltraceevent)
LIBS_LIBZSTD := -lzstd
LIBS_LIBELF := -lelf
LIBS_LIBDW := -ldw -lelf
LIBS_LIBBPF := -lbpf -lelf -lz
LIBS_LIBIBERTY := -liberty
LIBS_LIBSQLITE3 := -lsqlite3
LIBS_LIBIPT := -lipt

# Sources that need a feature; each has a <name>-stub.c used without it.
FEATURE_SRCS_LIBTRACEEVENT := lib/tp/tp.c
FEATURE_SRCS_LIBZSTD := lib/data/zstd.c
FEATURE_SRCS_LIBELF :=
FEATURE_SRCS_LIBDW :=
FEATURE_SRCS_LIBBPF :=
FEATURE_SRCS_LIBIBERTY :=
FEATURE_SRCS_LIBSQLITE3 :=
FEATURE_SRCS_LIBIPT :=

have = $(filter 1,$(HAVE_$(1)))
FEATURE_DEFS := $(foreach f,$(FEATURES),-DHAVE_$(f)=$(if $(call have,$(f)),1,0))
FEATURE_LIBS := $(foreach f,$(FEATURES),$(if $(call have,$(f)),$(LIBS_$(f))))
FEATURE_LIBS := $(shell printf '%s\n' $(FEATURE_LIBS) | awk '!seen[$$0]++')
ALL_FEATURE_SRCS := $(foreach f,$(FEATURES),$(FEATURE_SRCS_$(f)))
CHOSEN_FEATURE_SRCS := $(foreach f,$(FEATURES),\
	$(if $(call have,$(f)),$(FEATURE_SRCS_$(f)),$(FEATURE_SRCS_$(f):.c=-stub.c)))

# ---------------------------------------------------------------------------
# Flags
CFLAGS ?= -O2 -g
WARNINGS := -Wall -Wextra -Wshadow -Wformat=2 -Wmissing-prototypes -Wstrict-prototypes \
	-Wno-unused-parameter -Wno-sign-compare -Wno-missing-field-initializers
ifeq ($(CI),true)
WERROR ?= 1
endif
ifeq ($(WERROR),1)
WARNINGS += -Werror
endif

ifeq ($(SAN),1)
BUILD := $(O)/san
SAN_FLAGS := -fsanitize=address,undefined -fno-sanitize-recover=undefined -fno-omit-frame-pointer
else
BUILD := $(O)
SAN_FLAGS :=
endif

BASE_CFLAGS := -std=gnu11 -D_GNU_SOURCE -D_FILE_OFFSET_BITS=64 -fvisibility=hidden \
	-DPRISM_VERSION='"$(PRISM_VERSION)"' $(WARNINGS) $(SAN_FLAGS) -MMD -MP
LIB_CFLAGS := $(BASE_CFLAGS) $(FEATURE_DEFS) -Iinclude -Ilib \
	$(shell pkg-config --cflags libtraceevent 2>/dev/null)
CMD_CFLAGS := $(BASE_CFLAGS) -Iinclude
TEST_CFLAGS := $(BASE_CFLAGS) $(FEATURE_DEFS) -Iinclude -Ilib -Itests/unit
LDLIBS := $(FEATURE_LIBS) -lm
ALL_LDFLAGS := $(LDFLAGS) $(SAN_FLAGS)

# ---------------------------------------------------------------------------
# Sources
LIB_ALL_SRCS := $(wildcard lib/*.c lib/*/*.c)
LIB_SRCS := $(filter-out %-stub.c $(ALL_FEATURE_SRCS),$(LIB_ALL_SRCS)) $(CHOSEN_FEATURE_SRCS)
CMD_SRCS := $(wildcard cmd/*.c)
UNIT_SRCS := $(wildcard tests/unit/test-*.c)
UNIT_HELPER_SRCS := $(filter-out $(UNIT_SRCS),$(wildcard tests/unit/*.c))
WORKLOAD_SRCS := $(wildcard tests/workloads/*.c)
HELPER_SRCS := $(wildcard tests/helper/*.c)

LIB_OBJS := $(LIB_SRCS:%.c=$(BUILD)/%.o)
CMD_OBJS := $(CMD_SRCS:%.c=$(BUILD)/%.o)
UNIT_HELPER_OBJS := $(UNIT_HELPER_SRCS:%.c=$(BUILD)/%.o)
UNIT_BINS := $(UNIT_SRCS:%.c=$(BUILD)/%)
WORKLOAD_BINS := $(WORKLOAD_SRCS:%.c=$(O)/%)
HELPER_BINS := $(HELPER_SRCS:%.c=$(BUILD)/%)

LIBPRISM := $(BUILD)/libprism.a
PRISM := $(BUILD)/prism

.PHONY: all run test deps check check-format format install clean fuzz bench unit-bins \
	test-bins FORCE
.DEFAULT_GOAL := all

all: $(PRISM) $(LIBPRISM)

deps:
	@:

$(BUILD)/lib/%.o: lib/%.c $(BUILD)/CFLAGS
	@mkdir -p $(dir $@)
	$(call msg,CC,$@)
	$(Q)$(CC) $(CFLAGS) $(LIB_CFLAGS) -c -o $@ $<

$(BUILD)/cmd/%.o: cmd/%.c $(BUILD)/CFLAGS
	@mkdir -p $(dir $@)
	$(call msg,CC,$@)
	$(Q)$(CC) $(CFLAGS) $(CMD_CFLAGS) -c -o $@ $<

$(BUILD)/tests/%.o: tests/%.c $(BUILD)/CFLAGS
	@mkdir -p $(dir $@)
	$(call msg,CC,$@)
	$(Q)$(CC) $(CFLAGS) $(TEST_CFLAGS) -c -o $@ $<

$(LIBPRISM): $(LIB_OBJS)
	$(call msg,AR,$@)
	$(Q)rm -f $@ && ar rcs $@ $^

$(PRISM): $(CMD_OBJS) $(LIBPRISM)
	$(call msg,LINK,$@)
	$(Q)$(CC) $(ALL_LDFLAGS) -o $@ $(CMD_OBJS) $(LIBPRISM) $(LDLIBS)

$(BUILD)/tests/unit/test-%: $(BUILD)/tests/unit/test-%.o $(UNIT_HELPER_OBJS) $(LIBPRISM)
	$(call msg,LINK,$@)
	$(Q)$(CC) $(ALL_LDFLAGS) -o $@ $< $(UNIT_HELPER_OBJS) $(LIBPRISM) $(LDLIBS)

$(BUILD)/tests/helper/%: $(BUILD)/tests/helper/%.o $(LIBPRISM)
	$(call msg,LINK,$@)
	$(Q)$(CC) $(ALL_LDFLAGS) -o $@ $< $(LIBPRISM) $(LDLIBS)

# Workloads are always built without sanitizers and with frame pointers:
# tests profile them and compare with perf.
$(O)/tests/workloads/%: tests/workloads/%.c
	@mkdir -p $(dir $@)
	$(call msg,CC,$@)
	$(Q)$(CC) -O1 -g -fno-omit-frame-pointer -fno-inline -pthread -o $@ $<

# Rebuild everything when the flags change.
$(BUILD)/CFLAGS: FORCE
	@mkdir -p $(BUILD)
	@echo '$(CC) $(CFLAGS) $(LIB_CFLAGS) $(ALL_LDFLAGS) $(LDLIBS)' | cmp -s - $@ || \
		echo '$(CC) $(CFLAGS) $(LIB_CFLAGS) $(ALL_LDFLAGS) $(LDLIBS)' > $@

test-bins: $(PRISM) $(UNIT_BINS) $(HELPER_BINS) $(WORKLOAD_BINS)

# ---------------------------------------------------------------------------
# make test: build the sanitizer variant (and the release build, so both
# compile cleanly), then run unit and end-to-end tests.
test: all
	$(Q)$(MAKE) --no-print-directory SAN=1 test-bins
	$(Q)PRISM_BUILD=$(O)/san PRISM_OUT=$(O) PRISM_SRC=$(CURDIR) tests/run-tests.sh

check: test

run: all
	$(O)/prism --help

check-format:
	$(Q)$(CLANG_FORMAT) --dry-run --Werror $$(git ls-files '*.c' '*.h' 2>/dev/null || \
		find include lib cmd tests bench -name '*.[ch]')

format:
	$(Q)$(CLANG_FORMAT) -i $$(git ls-files '*.c' '*.h')

install: all
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/lib $(DESTDIR)$(PREFIX)/include/prism
	install -m 755 $(PRISM) $(DESTDIR)$(PREFIX)/bin/prism
	install -m 644 $(LIBPRISM) $(DESTDIR)$(PREFIX)/lib/libprism.a
	install -m 644 include/prism/*.h $(DESTDIR)$(PREFIX)/include/prism/

clean:
	rm -rf $(O)

-include $(LIB_OBJS:.o=.d) $(CMD_OBJS:.o=.d) $(UNIT_HELPER_OBJS:.o=.d) $(UNIT_BINS:=.d) $(HELPER_BINS:=.d)
