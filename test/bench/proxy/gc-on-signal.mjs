// Preloaded by test/bench/gc.ts with GC_FORCE_MAJOR=1 (and --expose-gc): a full collection on SIGUSR2.
process.on('SIGUSR2', () => { globalThis.gc() })
