// Preloaded into a proxy by test/bench/heap.ts (--import): samples every JS heap allocation, including
// objects already collected (a --heap-prof profile only shows what is still alive at exit), and writes
// the profile to HEAP_PROFILE when the process gets SIGTERM.
import { Session } from 'node:inspector'
import { writeFileSync } from 'node:fs'

const session = new Session()
session.connect()
session.post('HeapProfiler.enable')
session.post('HeapProfiler.startSampling', { samplingInterval: 1024, includeObjectsCollectedByMajorGC: true, includeObjectsCollectedByMinorGC: true })
process.prependListener('SIGTERM', () => {
  session.post('HeapProfiler.stopSampling', (error, result) => {
    if (!error) writeFileSync(process.env.HEAP_PROFILE, JSON.stringify(result.profile))
    process.exit(0)
  })
})
