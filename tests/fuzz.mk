# tests/fuzz.mk: running the libFuzzer targets.  Included last, so that
# FUZZ_TARGETS holds every fragment's targets (tests/datapath.mk,
# tests/ovsdb.mk, ...) when the rule's prerequisites are read.

# The JSON-RPC receive path: the stream parser and message validation.
FUZZ_TARGETS += jsonrpc
check_PROGRAMS += tests/fuzz/fuzz-jsonrpc
TESTS += tests/fuzz/fuzz-jsonrpc
tests_fuzz_fuzz_jsonrpc_SOURCES = tests/fuzz/fuzz-jsonrpc.c \
	tests/fuzz/replay.c tests/fuzz/fuzz.h
tests_fuzz_fuzz_jsonrpc_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/tests \
	-DFUZZ_TARGET='"jsonrpc"'
tests_fuzz_fuzz_jsonrpc_LDADD = $(GENERIC_LIBS)

if FUZZING
check_PROGRAMS += tests/fuzz/jsonrpc-fuzzer
tests_fuzz_jsonrpc_fuzzer_SOURCES = tests/fuzz/fuzz-jsonrpc.c tests/fuzz/fuzz.h
tests_fuzz_jsonrpc_fuzzer_CPPFLAGS = $(tests_fuzz_fuzz_jsonrpc_CPPFLAGS)
tests_fuzz_jsonrpc_fuzzer_CFLAGS = $(AM_CFLAGS) -fsanitize=fuzzer
tests_fuzz_jsonrpc_fuzzer_LDFLAGS = $(AM_LDFLAGS) -fsanitize=fuzzer
tests_fuzz_jsonrpc_fuzzer_LDADD = $(GENERIC_LIBS)

# "make fuzz-run" fuzzes each target for FUZZ_SECONDS, starting from its
# regression corpus, in a scratch directory; CI runs it.  A failing input is
# left as tests/fuzz/TARGET-crash-*: add it to the corpus with the fix.
FUZZ_SECONDS = 60
fuzz-run: $(FUZZ_TARGETS:%=tests/fuzz/%-fuzzer)
	@for t in $(FUZZ_TARGETS); do \
	  dir=$${TMPDIR:-/tmp}/dps-fuzz-$$t.$$$$; \
	  mkdir -p $$dir && cp $(srcdir)/tests/fuzz/corpus/$$t/* $$dir/ && \
	  echo "fuzzing $$t for $(FUZZ_SECONDS) seconds" && \
	  tests/fuzz/$$t-fuzzer -max_total_time=$(FUZZ_SECONDS) \
	    -max_len=1500 -artifact_prefix=tests/fuzz/$$t- $$dir; \
	  status=$$?; rm -rf $$dir; test $$status = 0 || exit 1; \
	done
.PHONY: fuzz-run
endif
