"""The pieces of bench/bench_load.py: checkouts, servers and stores, the workload, probes, the report."""
