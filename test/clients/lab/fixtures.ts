import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { clientVersion, repoRoot, type ClientId } from './clients.ts'
import type { LabCall } from './agent-lab.ts'
import type { FixtureRequest } from '../../../plugins/recorder/fixture.ts'

/**
 * Real client requests, recorded by the lab (`RECORD_CLIENT_FIXTURES=1 npx vitest run test/clients`)
 * and replayed by test/conformance/client-fixtures.test.ts. Shape kept, prose left out: every string
 * longer than `keepChars` (system prompts, tool descriptions: the clients' own text) becomes a
 * `<N chars>` placeholder, the client key a marker, the run's temp paths `$HOME`. One word (a `$schema`
 * URL, an id, a path) is no prose: kept up to `keepWordChars`, as codecs may read it.
 */
export interface ClientFixture extends FixtureRequest {
  client: ClientId
}

export const fixturesDir = join(repoRoot, 'test/fixtures/clients')
export const recording = process.env.RECORD_CLIENT_FIXTURES === '1' && !process.env.CLIENTS_DIR
export const keyMarker = '<client-key>'
const keepChars = 40
const keepWordChars = 200
/** Transport and framing headers say nothing about the client; auth headers carry the key. */
const dropHeaders = new Set(['host', 'content-length', 'connection', 'accept-encoding', 'transfer-encoding'])
const keyHeaders = new Set(['authorization', 'x-api-key', 'x-goog-api-key'])

function redact(value: unknown, swap: (text: string) => string): unknown {
  if (typeof value === 'string') {
    const text = swap(value)
    if (text.length <= keepChars || (text.length <= keepWordChars && !/\s/.test(text))) return text
    // Tool-call arguments are JSON text: keep them whole, so a replay sends a real call.
    try { if (typeof JSON.parse(text) === 'object') return text } catch {}
    return `<${text.length} chars>`
  }
  if (Array.isArray(value)) return value.map(item => redact(item, swap))
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, redact(item, swap)]))
  return value
}

/** Writes one recorded call as `<client>-<case>.json` (only when recording, never in the latest-clients lab). */
export function saveFixture(client: ClientId, name: string, call: LabCall | undefined, run: { home?: string; key: string; nonce: string }): void {
  if (!recording || !call) return
  const swap = (text: string) => (run.home ? text.replaceAll(run.home, '$HOME') : text).replaceAll(run.key, keyMarker).replaceAll(run.nonce, '<nonce>')
  const headers = Object.fromEntries(Object.entries(call.headers)
    .filter(([name]) => !dropHeaders.has(name))
    .map(([name, value]) => [name, keyHeaders.has(name) ? value.replace(run.key, keyMarker) : swap(value)]))
  const fixture: ClientFixture = { client, version: clientVersion(client), case: name, method: call.method, path: swap(call.path), headers, body: redact(JSON.parse(call.body || '{}'), swap) }
  mkdirSync(fixturesDir, { recursive: true })
  writeFileSync(join(fixturesDir, `${client}-${name}.json`), `${JSON.stringify(fixture, null, 1)}\n`)
}

/**
 * Requests the flight recorder exported (`GET /v0/management/requests/{id}/fixture`, docs/recorder.md),
 * replayed by the same suite; `RECORDED_FIXTURES_DIR` points it at another folder.
 */
export const recordedFixturesDir = process.env.RECORDED_FIXTURES_DIR ?? join(repoRoot, 'test/fixtures/recorded')

export function loadFixtures(dir = fixturesDir): ClientFixture[] {
  if (!existsSync(dir)) return []
  return readdirSync(dir).filter(file => file.endsWith('.json')).sort().map(file => JSON.parse(readFileSync(join(dir, file), 'utf8')) as ClientFixture)
}
