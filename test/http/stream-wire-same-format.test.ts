import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTestProxy, type TestProxy } from '../helpers/proxy-server.ts'
import { clientCall, clientHeaders, parseSseFrames } from '../helpers/client-formats.ts'
import { eventually } from '../recorder/helpers.ts'
import { managementReader } from '../client-keys/settlement-prices.ts'

/**
 * Same-format streams whose upstream writes what SSE and JSON allow but the usual upstream does not,
 * through the proxy: the request is recorded with the usage the upstream reported, the client gets no
 * usage chunk it did not ask for, and a stream cut mid-event fails in the words the translating path
 * uses. Each case failed before its fix (core/pipeline/usage-tap-wire.test.ts has them unit by unit).
 */
const secret = 'stream-wire-admin'
const chunk = (usage: string, choices = '[{"index":0,"delta":{"content":"Hello"},"finish_reason":null}]') => `data: {"id":"c","object":"chat.completion.chunk","created":1,"model":"up","choices":${choices},"usage":${usage}}\n\n`
const usage = (n: number) => `{"prompt_tokens":${n},"completion_tokens":${n + 1},"total_tokens":${2 * n + 1}}`
const stop = '[{"index":0,"delta":{},"finish_reason":"stop"}]'
const messageStart = 'event: message_start\ndata: {"type":"message_start","message":{"id":"m","type":"message","role":"assistant","model":"up","content":[],"usage":{"input_tokens":37,"output_tokens":1}}}\n\n'
const text = 'event: content_block_start\ndata: {"type":"content_block_start","index":0,"content_block":{"type":"text","text":""}}\n\nevent: content_block_delta\ndata: {"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"Hello"}}\n\n'

/** Per model: what the upstream writes (each string one write), and the usage the request must be recorded with. */
const cases: Record<string, { format: 'chat' | 'messages'; writes: string[]; input?: number; output?: number; asks?: boolean }> = {
  // `"usage" : {`: JSON whitespace before the colon (the client asks for usage: the chunk is read where it stands).
  'chat-spaced': { format: 'chat', writes: [chunk('null'), chunk('null', stop), chunk(usage(7), '[]').replace('"usage":', '"usage" : '), 'data: [DONE]\n\n'], input: 7, output: 8, asks: true },
  // A running total in every chunk, then the usage-only chunk (vLLM's continuous usage stats).
  'chat-running': { format: 'chat', writes: [chunk(usage(3)), chunk(usage(4), stop), chunk(usage(9), '[]'), 'data: [DONE]\n\n'], input: 9, output: 10 },
  // Keep-alive comments around [DONE], in the read that has the usage-only chunk.
  'chat-keepalive': { format: 'chat', writes: [chunk('null', stop) + chunk(usage(5), '[]') + ': keep-alive\n\ndata: [DONE]\n\n: keep-alive\n\n: keep-alive\n\n'], input: 5, output: 6 },
  // The usage chunk after five text chunks (past the head) with nine after it (beyond the last eight events), then the finish.
  'chat-gap': { format: 'chat', writes: [...Array.from({ length: 5 }, () => chunk('null')), chunk(usage(8)), ...Array.from({ length: 9 }, () => chunk('null')), chunk('null', stop), 'data: [DONE]\n\n'], input: 8, output: 9 },
  // `"\u0075sage"`: a key spelled with an escape, as JSON.parse reads it (the client asks: the chunk stays where it is).
  'chat-escaped': { format: 'chat', writes: [chunk('null', stop), chunk(usage(4), '[]').replace('"usage"', '"\\u0075sage"'), 'data: [DONE]\n\n'], input: 4, output: 5, asks: true },
  // The usage-only chunk first, then [DONE] (the client did not ask): it opens the answer, as on the plain path.
  'chat-usage-first': { format: 'chat', writes: [chunk(usage(6), '[]'), 'data: [DONE]\n\n'], input: 6, output: 7 },
  // Cut in the middle of an event, before message_stop: read by the same-format and the translating path.
  'messages-half': { format: 'messages', writes: [messageStart, text, 'event: content_block_delta\ndata: {"type":"content_block_delta","ind'] },
  // An error event after message_start (an overloaded upstream): the prompt it reported counts on both paths.
  // A bare error message (as some chat servers send), then [DONE]: the answer failed.
  'chat-error': { format: 'chat', writes: [chunk('null'), 'data: {"error":"Input validation error","error_type":"validation"}\n\ndata: [DONE]\n\n'] },
  // Pings, and the upstream ends before message_start: no answer began.
  'messages-pings': { format: 'messages', writes: ['event: ping\ndata: {"type": "ping"}\n\n', 'event: ping\ndata: {"type": "ping"}\n\n'] },
  'messages-error': { format: 'messages', writes: [messageStart, text, 'event: error\ndata: {"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}\n\n'] },
  // Thirty text deltas of 20 characters, one write each, then cut mid-event: 600 characters delivered.
  'messages-long-half': { format: 'messages', writes: [messageStart, 'event: content_block_start\ndata: {"type":"content_block_start","index":0,"content_block":{"type":"text","text":""}}\n\n', ...Array.from({ length: 30 }, () => 'event: content_block_delta\ndata: {"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"abcdefghijklmnopqrst"}}\n\n'), 'event: content_block_delta\ndata: {"type":"content_block_delta","ind'] },
}
const whole = Object.keys(cases).filter(name => cases[name]!.input !== undefined)

let upstream: Server
let proxy: TestProxy
beforeAll(async () => {
  upstream = createServer((req, res) => {
    let body = ''
    req.on('data', (piece: Buffer) => { body += piece })
    req.on('end', async () => {
      const model = String(JSON.parse(body).model)
      const found = cases[model.replace(/^up-/, '')]
      if (!found) return void res.writeHead(404).end()
      res.writeHead(200, { 'content-type': 'text/event-stream' })
      for (const write of found.writes) {
        res.write(write)
        await new Promise(resolve => setTimeout(resolve, 5))
      }
      res.end()
    })
  })
  await new Promise<void>(resolve => upstream.listen(0, '127.0.0.1', resolve))
  const url = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`
  const models = (format: string) => Object.keys(cases).filter(name => cases[name]!.format === format).map(name => ({ name: `up-${name}`, alias: name }))
  proxy = await startTestProxy({
    'remote-management': { 'secret-key': secret },
    'usage-statistics-enabled': true,
    'compat-provider': [{ name: 'wire', 'base-url': `${url}/v1`, 'api-key-entries': [{ 'api-key': 'up' }], models: models('chat') }],
    'beta-api-key': [{ 'api-key': 'up', 'base-url': url, models: models('messages') }],
    recorder: { mode: 'all' },
    'client-keys': [...Object.keys(cases), 'messages-half-other', 'messages-error-other', 'chat-error-other', 'messages-long-half-other'].map(name => ({ key: `ck-${name}`, name })),
  })
})
afterAll(async () => {
  await proxy?.close()
  await new Promise(resolve => upstream?.close(resolve))
})

const admin = managementReader(() => proxy.url, secret)

describe('same format, upstream bytes as SSE and JSON allow them', () => {
  it.each(whole)('%s: a success, recorded with the upstream\'s usage; no usage chunk the client did not ask for', async (name) => {
    const { format, input, output, asks } = cases[name]!
    // Unless it asks, the client gets no usage chunk: the proxy asks the upstream, and keeps the chunk for itself.
    const { path, body } = clientCall(format, name, true)
    if (asks) body.stream_options = { include_usage: true }
    const response = await fetch(`${proxy.url}${path}`, { method: 'POST', headers: clientHeaders(`ck-${name}`), body: JSON.stringify(body), signal: AbortSignal.timeout(10_000) })
    const sent = await response.text()
    expect(response.status, sent).toBe(200)
    const frames = parseSseFrames(sent)
    expect(frames.some(frame => frame.event === 'error' || frame.data.includes('"error"')), sent).toBe(false)
    if (!asks) expect(frames.filter(frame => /"choices"\s*:\s*\[\s*\]/.test(frame.data)), sent).toEqual([])
    const view = await eventually(async () => { const view = await admin(`/client-keys/${name}`); return view.recent.length ? view : undefined })
    expect(view.recent[0], sent).toMatchObject({ status: 200, inputTokens: input, outputTokens: output })
    expect(view.recent[0].estimated).toBeUndefined()
  })
})

describe('same format or translated, a stream that fails', () => {
  it.each([['messages-half', /mid-event/, 37], ['messages-error', /Overloaded/, 37], ['chat-error', /upstream stream error/, undefined]] as const)('%s: the same error recorded on both paths, the prompt message_start reported charged', async (model, error, input) => {
    const records: Array<{ error: string; input: number }> = []
    const formats = cases[model]!.format === 'chat' ? ['chat', 'messages'] as const : ['messages', 'chat'] as const
    for (const [format, key] of [[formats[0], model], [formats[1], `${model}-other`]] as const) {
      const { path, body } = clientCall(format, model, true)
      const response = await fetch(`${proxy.url}${path}`, { method: 'POST', headers: clientHeaders(`ck-${key}`), body: JSON.stringify(body), signal: AbortSignal.timeout(10_000) })
      await response.text()
      const record = await eventually(async () => (await admin('/requests?limit=50')).requests.find((item: { keyName?: string }) => item.keyName === key))
      records.push({ error: record.error, input: record.usage?.inputTokens })
    }
    expect(records[0]!.error).toMatch(error)
    expect(records[1]!.error).toBe(records[0]!.error)
    // The prompt reported, else each client's request estimated (their bodies differ).
    if (input) expect([records[0]!.input, records[1]!.input]).toEqual([input, input])
  })
})

describe('same format or translated, a stream cut after much text', () => {
  it('charges the same output on both paths: the characters delivered, four to a token', async () => {
    const outputs: unknown[] = []
    for (const [format, key] of [['messages', 'messages-long-half'], ['chat', 'messages-long-half-other']] as const) {
      const { path, body } = clientCall(format, 'messages-long-half', true)
      const response = await fetch(`${proxy.url}${path}`, { method: 'POST', headers: clientHeaders(`ck-${key}`), body: JSON.stringify(body), signal: AbortSignal.timeout(10_000) })
      await response.text()
      const record = await eventually(async () => (await admin('/requests?limit=50')).requests.find((item: { keyName?: string }) => item.keyName === key))
      outputs.push({ output: record.usage?.outputTokens, estimated: record.usage?.estimated, input: record.usage?.inputTokens })
    }
    // 600 characters: 150 tokens, more than the 1 message_start reported. The same-format stream was
    // charged one token per upstream read (32) before it decoded its events.
    expect(outputs).toEqual([{ output: 150, estimated: true, input: 37 }, { output: 150, estimated: true, input: 37 }])
  })
})

describe('same format or translated, pings and then the end', () => {
  it('fails before the first byte on both paths (the same status), never a committed answer with an error', async () => {
    const statuses: number[] = []
    for (const format of ['messages', 'chat'] as const) {
      const { path, body } = clientCall(format, 'messages-pings', true)
      const response = await fetch(`${proxy.url}${path}`, { method: 'POST', headers: clientHeaders('ck-messages-pings'), body: JSON.stringify(body), signal: AbortSignal.timeout(10_000) })
      await response.text()
      statuses.push(response.status)
    }
    expect(statuses[0]).toBe(502)
    expect(statuses[1]).toBe(statuses[0])
  })
})
