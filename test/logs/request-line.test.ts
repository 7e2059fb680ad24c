import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTestProxy, type TestProxy } from '../helpers/proxy-server.ts'
import { startUsageUpstream, type UsageUpstream } from '../helpers/usage-upstream.ts'
import { clientCall, clientHeaders } from '../helpers/client-formats.ts'

/**
 * main.log's line for a request says the status every other view counts: a stream that broke after its
 * 200 is a 499 (a WARN), as in the access log, `/usage` and `/metrics`; it used to say `status=200` (INFO).
 */
let upstream: UsageUpstream
let proxy: TestProxy
let dir: string
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'proxy-request-line-'))
  upstream = await startUsageUpstream()
  proxy = await startTestProxy({
    'api-keys': ['k'],
    'logging-to-file': true,
    'logs-dir': dir,
    'beta-api-key': [{ 'api-key': 'up', 'base-url': upstream.url, models: [{ name: 'up-beta', alias: 'm' }, { name: 'up-beta-cut', alias: 'm-cut' }] }],
  })
})
afterAll(async () => {
  await proxy?.close()
  await upstream?.close()
  rmSync(dir, { recursive: true, force: true })
})

async function lineOf(model: string): Promise<string | undefined> {
  const { path, body } = clientCall('messages', model, true)
  const response = await fetch(`${proxy.url}${path}`, { method: 'POST', headers: clientHeaders('k'), body: JSON.stringify(body) })
  await response.text()
  const id = response.headers.get('x-request-id')!
  return readFileSync(join(dir, 'main.log'), 'utf8').split('\n').find(line => line.includes(` ${id} model=`))
}

describe('main.log request lines', () => {
  it('a whole stream: status=200, INFO', async () => {
    expect(await lineOf('m')).toMatch(/\] INFO: .* status=200 /)
  })

  it('a stream the upstream cut after its 200: status=499, WARN, with the error', async () => {
    expect(await lineOf('m-cut')).toMatch(/\] WARN: .* status=499 [\d.]+ms error=upstream stream/)
  })
})
