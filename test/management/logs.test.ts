import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { existsSync, readdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { startMockOpenAI, type MockUpstream } from '../helpers/mock-openai-server.ts'
import { startManagedProxy, managementSecret, baseYaml, type ManagedProxy } from './helpers.ts'

let upstream: MockUpstream
let managed: ManagedProxy
let logsDir: string
beforeAll(async () => {
  upstream = await startMockOpenAI()
  const yaml = baseYaml.replace('http://127.0.0.1:9/v1', `${upstream.url}/v1`) + 'logging-to-file: true\nerror-logs-max-files: 2\n'
  managed = await startManagedProxy(yaml)
  logsDir = join(managed.dir, 'logs')
  await managed.proxy.proxy.kernel.applyConfig({ ...managed.proxy.proxy.kernel.config, 'logs-dir': logsDir } as never)
})
afterAll(async () => {
  await managed.close()
  await upstream.close()
})

const chat = (body: Record<string, unknown>) => fetch(`${managed.proxy.url}/v1/chat/completions`, {
  method: 'POST', headers: { authorization: 'Bearer client-one', 'content-type': 'application/json' }, body: JSON.stringify(body),
})
const call = (method: string, path: string) => fetch(`${managed.proxy.url}/v0/management${path}`, { method, headers: { authorization: `Bearer ${managementSecret}` } })

describe('file logs', () => {
  it('writes main.log lines in the spec format, one per request, secrets redacted', async () => {
    await chat({ model: 'fast', messages: [{ role: 'user', content: 'hi' }] })
    const { lines, 'line-count': count, 'latest-timestamp': latest } = await (await call('GET', '/logs')).json()
    expect(count).toBeGreaterThan(0)
    expect(lines.at(-1)).toMatch(/^\[\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}\] INFO: \[[\w.-]+\] POST \/v1\/chat\/completions \S+ model=fast -> mock-gpt via compat:mock:0.0 status=200 \d+ms$/)
    expect(latest).toBeGreaterThan(1_700_000_000)
    const newer = await (await call('GET', `/logs?after=${latest}`)).json()
    expect(newer.lines).toEqual([])
    expect((await (await call('GET', '/logs?limit=1')).json()).lines).toHaveLength(1)
  })

  it('failed requests leave error-<timestamp>-<id>.log files, capped, downloadable, without secrets', async () => {
    for (let i = 0; i < 3; i++) await chat({ model: 'missing', messages: [{ role: 'user', content: `secret client-one in body ${i}` }] })
    const { files } = await (await call('GET', '/request-error-logs')).json()
    expect(files).toHaveLength(2)
    expect(files[0]).toMatchObject({ name: expect.stringMatching(/^error-\w+-[\w-]+\.log$/), size: expect.any(Number), modified: expect.any(Number) })
    const download = await call('GET', `/request-error-logs/${files[0].name}`)
    expect(download.headers.get('content-disposition')).toContain('attachment')
    const text = await download.text()
    expect(text).toContain('status: 404')
    expect(text).not.toContain('client-one')
    const id = files[0].name.match(/-([0-9a-f-]{36})\.log$/)[1]
    expect((await call('GET', `/request-log-by-id/${id}`)).status).toBe(200)
  })

  it('the spec error bodies', async () => {
    expect(await (await call('GET', '/request-error-logs/error-nope.log')).json()).toEqual({ error: 'log file not found' })
    expect(await (await call('GET', '/request-log-by-id/nope')).json()).toEqual({ error: 'log file not found for the given request ID' })
    const invalid = await call('GET', '/request-log-by-id/..%2Fconfig')
    expect(invalid.status).toBe(400)
    expect(await invalid.json()).toEqual({ error: 'invalid request ID' })
  })

  it('DELETE /logs truncates main.log and removes rotated files', async () => {
    writeFileSync(join(logsDir, 'main.log.1'), 'old\n')
    writeFileSync(join(logsDir, 'main.log.2'), 'older\n')
    expect(await (await call('DELETE', '/logs')).json()).toEqual({ success: true, message: 'logs cleared', removed: 2 })
    expect(readdirSync(logsDir).filter(name => name.startsWith('main.log.'))).toEqual([])
    expect(existsSync(join(logsDir, 'main.log'))).toBe(true)
  })

  it('with logging-to-file off the log endpoints say so; request-log true empties the error list', async () => {
    const kernel = managed.proxy.proxy.kernel
    await kernel.applyConfig({ ...kernel.config, 'logging-to-file': false })
    expect(await (await call('GET', '/logs')).json()).toEqual({ error: 'logging to file disabled' })
    await kernel.applyConfig({ ...kernel.config, 'request-log': true })
    expect(await (await call('GET', '/request-error-logs')).json()).toEqual({ files: [] })
    await kernel.applyConfig({ ...kernel.config, 'logging-to-file': true, 'request-log': false })
  })
})
