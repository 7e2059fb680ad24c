// Preloaded by test/bench/open-streams.ts (with --expose-gc): on SIGUSR2, two full collections, then what
// is still held, printed as `heap <heapUsed> <external> <arrayBuffers> <rss>` (bytes).
process.on('SIGUSR2', () => {
  globalThis.gc()
  globalThis.gc()
  const m = process.memoryUsage()
  console.log(`heap ${m.heapUsed} ${m.external} ${m.arrayBuffers} ${m.rss}`)
})
