#!/usr/bin/env node
// No Node flags here: `env -S` is missing from BusyBox (Alpine) and the BSDs, and the bin must start everywhere.
// The server's flags (core/cli/heap-flags.ts) come from npm start / npm run dev, or a log line asks for them.
// The CLI is TypeScript: jiti runs it directly, no build step.
import { cpSync, existsSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createJiti } from 'jiti'
import { transform } from '../plugin-host/transpile.mjs'

// interopDefault off: jiti otherwise hands every module out behind a Proxy, and every call across
// modules pays its get trap (~5-10% of a proxied request's CPU). Babel's own interop still covers static
// default imports; a dynamic import of a CommonJS package may return `module.exports` itself (core/storage/storage.ts).
// No colour codes in piped or redirected output (help text, errors): citty and consola read NO_COLOR.
if (!(process.stdout.isTTY && process.stderr.isTTY) && !process.env.FORCE_COLOR) process.env.NO_COLOR = '1'

// The container image ships jiti's cache of its TypeScript (PROXY_JITI_CACHE_SEED), made at build time:
// copied to where jiti keeps it when that is empty (a new container; Kubernetes mounts an empty /tmp over
// a read-only root), so a start reads it instead of transpiling every file (docs/deploy.md).
const seed = process.env.PROXY_JITI_CACHE_SEED
const jitiCache = join(tmpdir(), 'jiti')
if (seed && !existsSync(jitiCache)) try { cpSync(seed, jitiCache, { recursive: true }) } catch {}

const jiti = createJiti(import.meta.url, { interopDefault: false, transform })
await jiti.import('./main.ts')
