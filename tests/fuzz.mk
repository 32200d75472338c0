# tests/fuzz.mk: running the libFuzzer targets.  Included last, so that
# FUZZ_TARGETS holds every fragment's targets (tests/datapath.mk,
# tests/ovsdb.mk, ...) when the rule's prerequisites are read.

if FUZZING
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
