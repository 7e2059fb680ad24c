#!/usr/bin/env node
// Some clients in the lab declare per-platform optional packages that the registry does not serve
// (opencode-ai 1.18.33 names opencode-darwin-arm64@1.18.33, which was never published; qwen-code's
// clipboard addon likewise). `npm install` leaves them out of package-lock.json, and `npm ci` then
// refuses the lock as out of sync ("Missing: opencode-darwin-arm64@ from lock file").
// This adds a lock entry with the platform (os/cpu/libc) read off the package name for each such
// package: npm ci skips it on every other platform, and on its own platform the optional install fails
// softly, as it would without the entry. Run it after any `npm install` that rewrites a lock (the
// repo's, or the client lab's test/clients/agents/package-lock.json):
//   node scripts/lock-platform-stubs.mjs [package-lock.json]
import { readFileSync, writeFileSync } from 'node:fs'

const file = process.argv[2] ?? 'package-lock.json'
const lock = JSON.parse(readFileSync(file, 'utf8'))
const packages = lock.packages

/** Platform fields from names like `opencode-linux-arm64-musl` or `@x/clipboard-win32-x64-msvc`. */
function platformOf(name) {
  const os = /darwin/.test(name) ? 'darwin' : /win(dows|32)/.test(name) ? 'win32' : 'linux'
  const cpu = /arm64/.test(name) ? 'arm64' : 'x64'
  const libc = /musl/.test(name) ? 'musl' : /gnu/.test(name) ? 'glibc' : undefined
  return { os: [os], cpu: [cpu], ...(libc ? { libc: [libc] } : {}) }
}

let added = 0
for (const [path, entry] of Object.entries(packages)) {
  for (const [dep, version] of Object.entries(entry.optionalDependencies ?? {})) {
    const nested = path ? `${path}/node_modules/${dep}` : `node_modules/${dep}`
    if (packages[`node_modules/${dep}`] || packages[nested]) continue
    packages[`node_modules/${dep}`] = { version, dev: entry.dev, optional: true, ...platformOf(dep) }
    added++
    console.log(`stub ${dep}@${version}`)
  }
}
// npm keeps the root first and the rest in name order.
lock.packages = Object.fromEntries(Object.entries(packages).sort(([a], [b]) => a === '' ? -1 : b === '' ? 1 : a.localeCompare(b)))
writeFileSync(file, `${JSON.stringify(lock, null, 2)}\n`)
console.log(`${added} unpublished optional package(s) stubbed in ${file}`)
