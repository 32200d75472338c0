# tests/perf/automake.mk: datapath benchmarks and the benchmark harness.
