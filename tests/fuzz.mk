# tests/fuzz.mk: running the libFuzzer targets.  Included last, so that
# FUZZ_TARGETS holds every fragment's targets (tests/datapath.mk,
# tests/ovsdb.mk, ...) when the rule's prerequisites are read.

# Each target is a program that replays its corpus in "make check": the
# target's source, replay.c and fuzz-check.c (FUZZ_REPLAY_SOURCES).
FUZZ_REPLAY_SOURCES = tests/fuzz/replay.c tests/fuzz/fuzz-check.c \
	tests/fuzz/fuzz.h
EXTRA_DIST += tests/fuzz/fuzz-long-check.sh

# The JSON-RPC receive path: the stream parser and message validation.
FUZZ_TARGETS += jsonrpc
check_PROGRAMS += tests/fuzz/fuzz-jsonrpc
TESTS += tests/fuzz/fuzz-jsonrpc
tests_fuzz_fuzz_jsonrpc_SOURCES = tests/fuzz/fuzz-jsonrpc.c \
	$(FUZZ_REPLAY_SOURCES)
tests_fuzz_fuzz_jsonrpc_CPPFLAGS = $(FUZZ_CPPFLAGS) -DFUZZ_TARGET='"jsonrpc"'
tests_fuzz_fuzz_jsonrpc_LDADD = $(GENERIC_LIBS)

# OVSDB schema parsing, as ovsdb-tool, ovsdb-server and clients read one.
FUZZ_TARGETS += ovsdb-schema
check_PROGRAMS += tests/fuzz/fuzz-ovsdb-schema
TESTS += tests/fuzz/fuzz-ovsdb-schema
tests_fuzz_fuzz_ovsdb_schema_SOURCES = tests/fuzz/fuzz-ovsdb-schema.c \
	$(FUZZ_REPLAY_SOURCES)
tests_fuzz_fuzz_ovsdb_schema_CPPFLAGS = $(FUZZ_CPPFLAGS) \
	-DFUZZ_TARGET='"ovsdb-schema"'
tests_fuzz_fuzz_ovsdb_schema_LDADD = ovsdb/libovsdb.a $(GENERIC_LIBS)

# ovs-vsctl's parser of column values, for vswitch.ovsschema's column types.
FUZZ_TARGETS += vsctl-value
check_PROGRAMS += tests/fuzz/fuzz-vsctl-value
TESTS += tests/fuzz/fuzz-vsctl-value
tests_fuzz_fuzz_vsctl_value_SOURCES = tests/fuzz/fuzz-vsctl-value.c \
	$(FUZZ_REPLAY_SOURCES)
tests_fuzz_fuzz_vsctl_value_CPPFLAGS = $(FUZZ_CPPFLAGS) \
	-DFUZZ_TARGET='"vsctl-value"'
tests_fuzz_fuzz_vsctl_value_LDADD = $(OVSDB_IDL_LIBS)

# The client IDL's handling of "update", "update2" and "update3".
FUZZ_TARGETS += idl-update
check_PROGRAMS += tests/fuzz/fuzz-idl-update
TESTS += tests/fuzz/fuzz-idl-update
tests_fuzz_fuzz_idl_update_SOURCES = tests/fuzz/fuzz-idl-update.c \
	$(FUZZ_REPLAY_SOURCES)
tests_fuzz_fuzz_idl_update_CPPFLAGS = $(FUZZ_CPPFLAGS) -I$(top_srcdir)/lib \
	-DFUZZ_TARGET='"idl-update"'
tests_fuzz_fuzz_idl_update_LDADD = ovsdb/libovsdb.a $(GENERIC_LIBS)

# OpenFlow message decoding and printing, as a switch or ovs-ofctl meets a
# peer's messages.
FUZZ_TARGETS += ofp-msg
check_PROGRAMS += tests/fuzz/fuzz-ofp-msg
TESTS += tests/fuzz/fuzz-ofp-msg
tests_fuzz_fuzz_ofp_msg_SOURCES = tests/fuzz/fuzz-ofp-msg.c \
	$(FUZZ_REPLAY_SOURCES)
tests_fuzz_fuzz_ofp_msg_CPPFLAGS = $(FUZZ_CPPFLAGS) -DFUZZ_TARGET='"ofp-msg"'
tests_fuzz_fuzz_ofp_msg_LDADD = $(GENERIC_LIBS)

if FUZZING
# With --enable-fuzzing, one rule makes every libFuzzer binary,
# tests/fuzz/TARGET-fuzzer, from what its replay program
# tests/fuzz/fuzz-TARGET is built of (its variables, found by name), less
# replay.c: the C sources compiled again with -fsanitize=fuzzer, linked
# with the same libraries.  Built by "make fuzz-run" and "make fuzz-long".
fuzz_var = tests_fuzz_fuzz_$(subst -,_,$*)_$(1)
tests/fuzz/%-fuzzer: tests/fuzz/fuzz-%$(EXEEXT)
	$(AM_V_CCLD)$(CC) $(DEFS) $(DEFAULT_INCLUDES) \
	  $(or $($(call fuzz_var,CPPFLAGS)),$(AM_CPPFLAGS)) $(CPPFLAGS) \
	  $(or $($(call fuzz_var,CFLAGS)),$(AM_CFLAGS)) $(CFLAGS) \
	  -fsanitize=fuzzer -o $@ \
	  $(addprefix $(srcdir)/,$(filter-out %/replay.c,$(filter %.c,$($(call fuzz_var,SOURCES))))) \
	  $(AM_LDFLAGS) $(LDFLAGS) $($(call fuzz_var,LDADD)) $(LIBS)
CLEANFILES += $(FUZZ_TARGETS:%=tests/fuzz/%-fuzzer)

# "make fuzz-run" fuzzes each target for FUZZ_SECONDS, starting from its
# regression corpus, in a scratch directory; CI runs it.  A failing input is
# left as tests/fuzz/TARGET-crash-*: add it to the corpus with the fix.
# FUZZ_SEED fixes libFuzzer's random seed, so that a run goes the same way
# each time it is made (as far as its time lets it); FUZZ_SEED=0 picks a
# new one.
FUZZ_SECONDS = 60
FUZZ_SEED = 1
fuzz-run: $(FUZZ_TARGETS:%=tests/fuzz/%-fuzzer)
	@for t in $(FUZZ_TARGETS); do \
	  dir=$${TMPDIR:-/tmp}/dps-fuzz-$$t.$$$$; \
	  mkdir -p $$dir && cp $(srcdir)/tests/fuzz/corpus/$$t/* $$dir/ && \
	  echo "fuzzing $$t for $(FUZZ_SECONDS) seconds" && \
	  tests/fuzz/$$t-fuzzer -max_total_time=$(FUZZ_SECONDS) \
	    -seed=$(FUZZ_SEED) -max_len=1500 \
	    -artifact_prefix=tests/fuzz/$$t- $$dir; \
	  status=$$?; rm -rf $$dir; test $$status = 0 || exit 1; \
	done
.PHONY: fuzz-run

# "make fuzz-long" fuzzes each target (or those of FUZZ_LONG_TARGETS) for
# FUZZ_LONG_SECONDS (an hour), keeping what it finds in
# FUZZ_LONG_DIR/TARGET/ (tests/fuzz/long/ of the build directory), so that
# another run goes on from there.  Then it merges that into a copy of the
# regression corpus, FUZZ_CORPUS_DIR/TARGET/ (libFuzzer's -merge=1, which
# keeps every input of its first directory and adds from the others only
# those that bring coverage the first lacks), and copies the inputs that the
# merge added into the corpus: commit them.  A failing input is left as
# tests/fuzz/TARGET-crash-*, and the run stops.  FUZZ_LONG_FLAGS adds
# libFuzzer options to the fuzzing run (-runs=0 only replays; see
# fuzz-long-check).
FUZZ_LONG_SECONDS = 3600
FUZZ_LONG_TARGETS = $(FUZZ_TARGETS)
FUZZ_LONG_DIR = tests/fuzz/long
FUZZ_LONG_FLAGS =
FUZZ_CORPUS_DIR = $(srcdir)/tests/fuzz/corpus
fuzz-long: $(FUZZ_LONG_TARGETS:%=tests/fuzz/%-fuzzer)
	@for t in $(FUZZ_LONG_TARGETS); do \
	  work=$(FUZZ_LONG_DIR)/$$t; min=$(FUZZ_LONG_DIR)/$$t.min; \
	  corpus=$(FUZZ_CORPUS_DIR)/$$t; \
	  mkdir -p $$work && rm -rf $$min && mkdir -p $$min && \
	  cp $$corpus/* $$min/ && \
	  echo "fuzzing $$t for $(FUZZ_LONG_SECONDS) seconds" && \
	  tests/fuzz/$$t-fuzzer -max_total_time=$(FUZZ_LONG_SECONDS) \
	    -max_len=1500 $(FUZZ_LONG_FLAGS) \
	    -artifact_prefix=tests/fuzz/$$t- $$work $$corpus || exit 1; \
	  tests/fuzz/$$t-fuzzer -merge=1 $$min $$work || exit 1; \
	  n=0; for f in $$min/*; do \
	    test -e $$corpus/`basename $$f` && continue; \
	    cp $$f $$corpus/ && n=`expr $$n + 1`; \
	  done; \
	  echo "$$t: $$n new inputs in $$corpus"; \
	done
.PHONY: fuzz-long

# "make fuzz-long-check" checks fuzz-long's merge on the jsonrpc target,
# with a scratch corpus and findings of known coverage (CI runs it).
fuzz-long-check: tests/fuzz/jsonrpc-fuzzer
	$(SHELL) $(srcdir)/tests/fuzz/fuzz-long-check.sh '$(MAKE)' \
	  $(srcdir)/tests/fuzz/corpus/jsonrpc
.PHONY: fuzz-long-check
endif
