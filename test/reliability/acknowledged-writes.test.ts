import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { parse } from 'yaml'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { runCli, type CliProcess } from '../helpers/spawn-cli.ts'

/**
 * Issue 18, items 7 and 8: a management write answered 200 is in the file, whatever ran beside it
 * (concurrent writes to other fields) and whatever happened after (SIGKILL).
 */
const secret = 'ack-test-secret'
let dir: string
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'proxy-ack-'))
})
afterAll(() => rmSync(dir, { recursive: true, force: true }))

const configText = `# operator comment, kept
host: 127.0.0.1
api-keys: [k]
request-retry: 0
`

/** Six fields, each with its own endpoint and a value per step (all distinct from the defaults above). */
const fields: Array<{ route: string; path: string[]; value: (n: number) => unknown }> = [
  { route: '/request-retry', path: ['request-retry'], value: n => 100 + n },
  { route: '/max-retry-interval', path: ['max-retry-interval'], value: n => 200 + n },
  { route: '/logs-max-total-size-mb', path: ['logs-max-total-size-mb'], value: n => 300 + n },
  { route: '/error-logs-max-files', path: ['error-logs-max-files'], value: n => 400 + n },
  { route: '/routing/strategy', path: ['routing', 'strategy'], value: n => n % 2 ? 'fill-first' : 'round-robin' },
  { route: '/proxy-url', path: ['proxy-url'], value: n => `http://127.0.0.1:${1000 + n}` },
]

const start = (): CliProcess => runCli(['start', '--config', join(dir, 'config.yaml'), '--port', '0', '--project', join(dir, 'none.mjs')], dir, { MANAGEMENT_PASSWORD: secret })
const put = (url: string, route: string, value: unknown) => fetch(`${url}/v0/management${route}`, {
  method: 'PUT', headers: { authorization: `Bearer ${secret}`, 'content-type': 'application/json' }, body: JSON.stringify({ value }),
})
const fileValue = (path: string[]) => path.reduce<any>((node, key) => node?.[key], parse(readFileSync(join(dir, 'config.yaml'), 'utf8')))

describe('acknowledged management writes', () => {
  it('six concurrent writes to different fields all land in the file (30 rounds)', async () => {
    writeFileSync(join(dir, 'config.yaml'), configText)
    const cli = start()
    try {
      const url = await cli.url
      for (let round = 0; round < 30; round++) {
        const statuses = await Promise.all(fields.map(field => put(url, field.route, field.value(round)).then(r => r.status)))
        expect(statuses).toEqual(fields.map(() => 200))
        const missing = fields.filter(field => fileValue(field.path) !== field.value(round)).map(field => field.route)
        expect(missing, `round ${round}: acknowledged but not in the file`).toEqual([])
      }
      expect(readFileSync(join(dir, 'config.yaml'), 'utf8')).toContain('# operator comment, kept')
    } finally {
      await cli.kill('SIGKILL')
    }
  }, 60_000)

  it('a write answered 200 survives SIGKILL right after it (8 kills)', async () => {
    writeFileSync(join(dir, 'config.yaml'), configText)
    for (let round = 0; round < 8; round++) {
      const cli = start()
      const url = await cli.url
      // One writer per field, each sending its next value once the previous one was acknowledged.
      const acked = new Map<string, number>()
      let stop = false
      const writers = fields.map(async (field) => {
        for (let n = round * 1000; !stop; n++) {
          const response = await put(url, field.route, field.value(n)).catch(() => undefined)
          if (response?.status !== 200) return
          acked.set(field.route, n)
        }
      })
      // The kill lands somewhere in the writes, not before the first answer (a loaded machine can be slow to give it).
      for (const deadline = Date.now() + 10_000; acked.size === 0 && Date.now() < deadline;) await new Promise(resolve => setTimeout(resolve, 10))
      await new Promise(resolve => setTimeout(resolve, Math.random() * 600))
      cli.child.kill('SIGKILL')
      stop = true
      await cli.exit
      await Promise.all(writers)
      expect(acked.size, `round ${round}: the writers got answers before the kill`).toBeGreaterThan(0)
      for (const field of fields) {
        const n = acked.get(field.route)
        if (n === undefined) continue
        // The acknowledged value, or the next one (written but killed before its answer went out).
        expect([field.value(n), field.value(n + 1)], `round ${round}: ${field.route}`).toContain(fileValue(field.path))
      }
    }
  }, 90_000)
})
