// Preloaded into a proxy by test/bench/heap.ts (--import): samples every JS heap allocation, including
// objects already collected (a --heap-prof profile only shows what is still alive at exit), from SIGUSR2
// (sent after a warm-up: start-up and first compiles would otherwise dominate) until SIGTERM, when it
// writes the profile to HEAP_PROFILE.
import { Session } from 'node:inspector'
import { writeFileSync } from 'node:fs'

const session = new Session()
session.connect()
session.post('HeapProfiler.enable')
// HEAP_LIVE=1: only what is still alive when the profile is taken (what a leak or a ring holds);
// HEAP_LIVE=promoted: what outlived a young-generation collection (promoted, dead or not: what makes scavenges slow).
const live = process.env.HEAP_LIVE
process.on('SIGUSR2', () => {
  session.post('HeapProfiler.startSampling', { samplingInterval: 1024, includeObjectsCollectedByMajorGC: !live || live === 'promoted', includeObjectsCollectedByMinorGC: !live }, () => console.log('heap sampling started'))
})
process.prependListener('SIGTERM', () => {
  session.post('HeapProfiler.stopSampling', (error, result) => {
    if (!error) writeFileSync(process.env.HEAP_PROFILE, JSON.stringify(result.profile))
    process.exit(0)
  })
})
