/* An empty shared library: preloaded, it shows what loading any library costs. */
int sysshim_bench_empty;
