// Preloaded (with --expose-gc) by test/bench/gc.ts with GC_FORCE_MAJOR=1 and by the slow-streams bench:
// a full collection on SIGUSR2.
process.on('SIGUSR2', () => { globalThis.gc() })
