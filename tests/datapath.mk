# tests/datapath.mk: unit tests, fuzz targets and benchmarks of the datapath library.
