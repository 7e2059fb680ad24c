import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import Anthropic from '@anthropic-ai/sdk'
import OpenAI from 'openai'
import { spawn } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { startMockUpstream, type MockUpstream } from '../helpers/mock-openai-server.ts'
import type { TestProxy } from '../helpers/proxy-server.ts'
import { messagesMock } from '../../playground/mock-upstream/messages.ts'
import { repoRoot } from '../clients/lab/clients.ts'
import { clientKey, failingToolTurns, manage, recorderProxy, toolTurn, upstreamKeys } from './helpers.ts'

let compat: MockUpstream
let beta: MockUpstream
let proxy: TestProxy
const dirs: string[] = []

beforeAll(async () => {
  compat = await startMockUpstream(failingToolTurns)
  beta = await startMockUpstream(messagesMock)
  proxy = await recorderProxy({ compat, beta }, { mode: 'all' })
})
afterAll(async () => {
  await proxy?.close()
  await Promise.all([compat?.close(), beta?.close()])
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true })
})

describe('a failed cross-format tool turn (messages client -> compat upstream)', () => {
  let id: string

  beforeAll(async () => {
    const client = new Anthropic({ apiKey: clientKey, baseURL: proxy.url, maxRetries: 0 })
    const failure = await client.messages.create({ model: 'via-compat', ...toolTurn }).catch(error => error)
    expect(failure).toBeInstanceOf(Anthropic.APIError)
    expect(failure.status).toBe(500)
    id = failure.headers.get('x-request-id')
  })

  it('is listed by key name, model and status, newest first', async () => {
    const { status, body } = await manage(proxy, '/requests?key=team-a&model=via-compat&status=5xx')
    expect(status).toBe(200)
    expect(body.mode).toBe('all')
    expect(body.requests.map((row: { id: string }) => row.id)).toEqual([id])
    expect(body.requests[0]).toMatchObject({ status: 500, keyName: 'team-a', format: 'messages', path: '/v1/messages', family: 'compat' })
    expect(body.requests[0].attemptCount).toBeGreaterThanOrEqual(2)
    expect((await manage(proxy, '/requests?model=via-beta')).body.requests.map((row: { id: string }) => row.id)).not.toContain(id)
    expect((await manage(proxy, '/requests?status=ok')).body.requests.map((row: { id: string }) => row.id)).not.toContain(id)
    expect((await manage(proxy, `/requests?from=${Date.now() + 60_000}`)).body.requests).toEqual([])
    expect((await manage(proxy, '/requests?status=teapot')).status).toBe(400)
  })

  it('is recorded with all four bodies, routing, both attempts and the cooldown', async () => {
    const { status, body: record } = await manage(proxy, `/requests/${id}`)
    expect(status).toBe(200)
    const client = JSON.parse(record.client.request.body.text)
    expect(client.messages[2].content[0].type).toBe('tool_result')
    expect(record.client.request.headers.authorization).toMatch(/\.\.\.|redacted/)
    expect(record.routing.candidates.map((c: { credential: string }) => c.credential)).toHaveLength(2)
    // Routing's quota rule may try the first credential again (its preview model) before it fails over.
    const [first, second] = [record.attempts[0], record.attempts.at(-1)]
    expect(first).toMatchObject({ number: 0, status: 429, action: 'retry', family: 'compat', upstreamModel: 'mock-gpt' })
    expect(first.cooldownUntil).toBeGreaterThan(record.time + first.startedAt)
    expect(second).toMatchObject({ status: 500, action: 'fail' })
    expect(second.credential).not.toBe(first.credential)
    expect(second.request.url).toMatch(/\/v1\/chat\/completions$/)
    const upstream = JSON.parse(second.request.body.text)
    expect(upstream.model).toBe('mock-gpt')
    expect(upstream.messages.find((m: { role: string }) => m.role === 'tool').content).toContain('snow')
    expect(second.response.status).toBe(500)
    expect(second.response.body.text).toContain('tool turn broke the upstream')
    const answer = JSON.parse(record.client.response.body.text)
    expect(answer).toMatchObject({ type: 'error', error: { message: expect.stringContaining('tool turn broke the upstream') } })
  })

  it('holds no secret: neither the client key nor any upstream key', async () => {
    const text = JSON.stringify((await manage(proxy, `/requests/${id}`)).body)
    for (const key of [clientKey, ...upstreamKeys, 'up-beta-secret-cccc-3333', 'recorder-admin']) expect(text).not.toContain(key)
  })

  it('replays to another family and another credential: a new record linked to the first', async () => {
    const replay = await manage(proxy, `/requests/${id}/replay`, { method: 'POST', body: { model: 'via-beta' } })
    expect(replay.status).toBe(200)
    expect(replay.body).toMatchObject({ replayOf: id, status: 200, request: { replayOf: id, family: 'beta', model: 'via-beta', status: 200 } })
    const record = (await manage(proxy, `/requests/${replay.body.id}`)).body
    expect(record.attempts[0].request.url).toMatch(/\/v1\/messages$/)
    expect(JSON.parse(record.client.request.body.text).messages[2].content[0].type).toBe('tool_result')
    expect(JSON.parse(record.client.response.body.text)).toMatchObject({ type: 'message', role: 'assistant' })
    expect((await manage(proxy, `/requests?replay-of=${id}`)).body.requests.map((row: { id: string }) => row.id)).toEqual([replay.body.id])

    const pinned = await manage(proxy, `/requests/${id}/replay`, { method: 'POST', body: { credential: 'nope' } })
    expect(pinned).toMatchObject({ status: 400, body: { error: 'unknown credential' } })
    const credential = record.attempts[0].credential
    expect(await manage(proxy, `/requests/${id}/replay`, { method: 'POST', body: { credential } })).toMatchObject({ status: 400, body: { error: 'credential does not serve the model' } })
    const same = await manage(proxy, `/requests/${replay.body.id}/replay`, { method: 'POST', body: { credential } })
    expect(same.body).toMatchObject({ status: 200, request: { credential, replayOf: replay.body.id } })
    expect((await manage(proxy, '/requests/missing-id')).status).toBe(404)
  })

  it('exports as a fixture the codec suite replays (test/conformance/client-fixtures.test.ts)', async () => {
    const { status, body, headers } = await manage(proxy, `/requests/${id}/fixture`)
    expect(status).toBe(200)
    expect(headers.get('content-disposition')).toContain(`recorder-${id}.json`)
    expect(body).toMatchObject({ client: 'recorder', case: id, method: 'POST', path: '/v1/messages', headers: { authorization: 'Bearer <client-key>' }, recorded: { status: 500, family: 'compat' } })
    expect(JSON.stringify(body)).not.toContain(clientKey)
    const dir = mkdtempSync(join(tmpdir(), 'recorded-fixtures-'))
    dirs.push(dir)
    writeFileSync(join(dir, `recorder-${id}.json`), JSON.stringify(body))
    // The suite's test names cut a long case short: the id's head picks this fixture.
    const run = await suite(dir, `recorder .* ${id.slice(0, 13)}`)
    const report = JSON.parse(run.stdout.slice(run.stdout.indexOf('{')))
    expect(report.numFailedTests, run.stderr.slice(-2000)).toBe(0)
    // The codec crossing, and over HTTP to both families.
    expect(report.numPassedTests).toBe(3)
  }, 150_000)
})

/** The codec suite in a process of its own, on the fixtures of `dir` (this process keeps serving meanwhile). */
function suite(dir: string, filter: string): Promise<{ stdout: string; stderr: string }> {
  // Not this run's vitest worker settings: the child is a run of its own.
  const env = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('VITEST') && name !== 'NODE_OPTIONS'))
  const child = spawn(process.execPath, ['node_modules/vitest/vitest.mjs', 'run', 'test/conformance/client-fixtures.test.ts', '-t', filter, '--reporter=json'], {
    cwd: repoRoot, env: { ...env, RECORDED_FIXTURES_DIR: dir, MATRIX_FAMILIES: 'compat,beta' }, stdio: ['ignore', 'pipe', 'pipe'],
  })
  let stdout = ''
  let stderr = ''
  child.stdout.on('data', (chunk) => { stdout += chunk })
  child.stderr.on('data', (chunk) => { stderr += chunk })
  return new Promise(resolve => child.once('close', () => resolve({ stdout, stderr })))
}

describe('a streamed turn (chat client -> messages upstream)', () => {
  it('keeps both streams as timelines of events, usage and the dropped fields', async () => {
    const client = new OpenAI({ apiKey: clientKey, baseURL: `${proxy.url}/v1`, maxRetries: 0 })
    const { data: stream, response } = await client.chat.completions.create({ model: 'via-beta', stream: true, seed: 7, messages: [{ role: 'user', content: 'stream me' }] }).withResponse()
    let text = ''
    for await (const chunk of stream) text += chunk.choices[0]?.delta.content ?? ''
    expect(text).toContain('stream me')
    const record = (await manage(proxy, `/requests/${response.headers.get('x-request-id')}`)).body
    expect(record).toMatchObject({ status: 200, stream: true, family: 'beta', dropped: ['seed'], usage: { inputTokens: expect.any(Number) } })
    const upstream = record.attempts[0].response.stream.events
    expect(upstream[0].data).toContain('message_start')
    expect(upstream.at(-1).data).toContain('message_stop')
    const client_ = record.client.response.stream.events
    expect(client_.at(-1).data).toBe('data: [DONE]')
    const times = client_.map((event: { at: number }) => event.at)
    expect(times).toEqual([...times].sort((a, b) => a - b))
    expect(record.client.response.headers['x-proxy-dropped']).toBe('seed')
  })
})

describe('secrets a client pastes into a body', () => {
  it('leave through no read: the client key is masked when recorded, the others when read, streams too', async () => {
    const client = new OpenAI({ apiKey: clientKey, baseURL: `${proxy.url}/v1`, maxRetries: 0 })
    const pasted = `my keys: ${clientKey} and ${upstreamKeys[1]} and up-beta-secret-cccc-3333`
    for (const stream of [false, true]) {
      const { data, response } = await client.chat.completions.create({ model: 'via-beta', stream, messages: [{ role: 'user', content: pasted }] } as never).withResponse()
      if (stream) for await (const _ of data as unknown as AsyncIterable<unknown>) { /* drained */ }
      const record = (await manage(proxy, `/requests/${response.headers.get('x-request-id')}`)).body
      const text = JSON.stringify(record)
      // The mock echoes the prompt: the secrets are in the client body, the upstream body and the answer.
      expect(text).toContain('my keys:')
      for (const key of [clientKey, ...upstreamKeys, 'up-beta-secret-cccc-3333']) expect(text).not.toContain(key)
    }
  })
})

/**
 * The bytes the upstream got, byte for byte, when the body was written anew (translated), let go once sent
 * (16 KB or more) and its client's parse released by the stream answer: the client's long strings, copied
 * in its spelling when sent, were written again for the record in JSON.stringify's.
 */
describe('a translated stream with a long system prompt the client spelled with escapes', () => {
  it('is recorded as the bytes the upstream got', async () => {
    // 24 KB of text, 36 KB as the client spelled it (`\u00e9`, `\/`): a string the writer copies from the client's bytes.
    // A system prompt goes as the top-level `system`, no part the turn cache keeps (which would hand the same bytes back).
    const content = `${'caf\\u00e9 \\/ '.repeat(3000)}end`
    const text = `{"model":"via-beta","stream":true,"max_tokens":50,"messages":[{"role":"system","content":"${content}"},{"role":"user","content":"hi"}]}`
    const response = await fetch(`${proxy.url}/v1/chat/completions`, { method: 'POST', headers: { authorization: `Bearer ${clientKey}`, 'content-type': 'application/json' }, body: text })
    expect(response.status).toBe(200)
    await response.text()
    const sent = beta.requests.at(-1)!.body
    expect(sent).toContain('caf\\u00e9 \\/ ')
    const record = (await manage(proxy, `/requests/${response.headers.get('x-request-id')}`)).body
    expect(record.attempts[0].request.body.text).toBe(sent)
  })
})
