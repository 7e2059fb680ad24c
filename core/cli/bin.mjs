#!/usr/bin/env -S node --no-memory-reducer
// The flag keeps V8 from shrinking the idle server's heap (core/cli/heap-flags.ts says why).
// The CLI is TypeScript: jiti runs it directly, no build step.
import { createJiti } from 'jiti'

// interopDefault off: jiti otherwise hands every module out behind a Proxy, and every call across
// modules pays its get trap (~5-10% of a proxied request's CPU). Babel's own interop still covers static
// default imports; a dynamic import of a CommonJS package may return `module.exports` itself (core/storage.ts).
const jiti = createJiti(import.meta.url, { interopDefault: false })
await jiti.import('./main.ts')
