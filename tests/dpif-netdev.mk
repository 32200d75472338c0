# tests/dpif-netdev.mk: unit tests and benchmarks of the datapath's flow caches.
