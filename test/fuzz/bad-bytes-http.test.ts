import fc from 'fast-check'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { clientKey, familyModels, startFamilyProxy, type FamilyProxy } from '../helpers/family-proxy.ts'
import { offFormat, type ErrorFormat } from './error-formats.ts'
import { tolerantMock } from '../helpers/mock-openai-server.ts'
import { flawed, type FlawedBody } from './bad-bytes.ts'

/**
 * Bodies with one bad thing in a key or a value (invalid UTF-8, a raw control byte, an escaped NUL or
 * lone surrogate, an empty string, a value of the wrong type), sent to every client endpoint and the
 * partner's provider routes, toward every upstream family: the answer is a 2xx or a 4xx in the
 * endpoint's own error format, never a 5xx. Invalid UTF-8 is always a 400.
 */

const chat = (model: string) => ({ model, stream: false, max_tokens: 20, messages: [{ role: 'system', content: 's' }, { role: 'user', content: [{ type: 'text', text: 'hi' }] }, { role: 'assistant', content: null, tool_calls: [{ id: 'c1', type: 'function', function: { name: 'f', arguments: '{}' } }] }, { role: 'tool', tool_call_id: 'c1', content: 'ok' }], tools: [{ type: 'function', function: { name: 'f', parameters: { type: 'object', properties: {} } } }] })
const messages = (model: string) => ({ model, max_tokens: 20, system: [{ type: 'text', text: 's' }], messages: [{ role: 'user', content: 'hi' }, { role: 'assistant', content: [{ type: 'tool_use', id: 't1', name: 'f', input: {} }] }, { role: 'user', content: [{ type: 'tool_result', tool_use_id: 't1', content: 'ok' }] }], tools: [{ name: 'f', input_schema: { type: 'object' } }] })
const responses = (model: string) => ({ model, instructions: 's', input: [{ type: 'message', role: 'user', content: [{ type: 'input_text', text: 'hi' }] }, { type: 'function_call', call_id: 'c1', name: 'f', arguments: '{}' }, { type: 'function_call_output', call_id: 'c1', output: 'ok' }], tools: [{ type: 'function', name: 'f', parameters: { type: 'object' } }] })
const generate = () => ({ systemInstruction: { parts: [{ text: 's' }] }, contents: [{ role: 'user', parts: [{ text: 'hi' }] }, { role: 'model', parts: [{ functionCall: { name: 'f', args: {} } }] }, { role: 'user', parts: [{ functionResponse: { name: 'f', response: { ok: true } } }] }], generationConfig: { maxOutputTokens: 20 } })

interface Endpoint { path: (model: string) => string; format: ErrorFormat; body: (model: string) => unknown }
const endpoints: Record<string, Endpoint> = {
  chat: { path: () => '/v1/chat/completions', format: 'openai', body: chat },
  completions: { path: () => '/v1/completions', format: 'openai', body: model => ({ model, prompt: 'hi', max_tokens: 5 }) },
  responses: { path: () => '/v1/responses', format: 'openai', body: responses },
  compact: { path: () => '/v1/responses/compact', format: 'openai', body: responses },
  input_tokens: { path: () => '/v1/responses/input_tokens', format: 'openai', body: responses },
  messages: { path: () => '/v1/messages', format: 'messages', body: messages },
  count_tokens: { path: () => '/v1/messages/count_tokens', format: 'messages', body: messages },
  generateContent: { path: model => `/v1beta/models/${model}:generateContent`, format: 'generate', body: generate },
  streamGenerateContent: { path: model => `/v1beta/models/${model}:streamGenerateContent?alt=sse`, format: 'generate', body: generate },
  countTokens: { path: model => `/v1beta/models/${model}:countTokens`, format: 'generate', body: generate },
  'partner chat': { path: () => '/api/provider/compat/v1/chat/completions', format: 'openai', body: chat },
  'partner messages': { path: () => '/api/provider/beta/v1/messages', format: 'messages', body: messages },
  'partner generateContent': { path: model => `/api/provider/alpha/v1beta/models/${model}:generateContent`, format: 'generate', body: generate },
}

let running: FamilyProxy
beforeAll(async () => {
  running = await startFamilyProxy()
  // A vendor answers junk with its 400: the mocks are made to as well, instead of throwing (and hanging).
  for (const upstream of Object.values(running.upstreams)) upstream.handler = tolerantMock(upstream.handler)
})
afterAll(async () => { await running?.close() })

const statuses = new Map<string, number>()

async function probe(endpoint: Endpoint, model: string, { bytes, flaw, where }: FlawedBody): Promise<void> {
  const response = await fetch(`${running.proxy.url}${endpoint.path(model)}`, {
    method: 'POST', body: new Uint8Array(bytes), signal: AbortSignal.timeout(10_000),
    headers: { authorization: `Bearer ${clientKey}`, 'x-api-key': clientKey, 'x-goog-api-key': clientKey, 'content-type': 'application/json' },
  })
  const text = await response.text()
  const context = `${flaw} at ${where}: ${response.status} ${text.slice(0, 300)}`
  statuses.set(`${flaw} ${response.status}`, (statuses.get(`${flaw} ${response.status}`) ?? 0) + 1)
  expect(response.status, context).toBeLessThan(500)
  if (flaw === 'invalid-utf8') expect(response.status, context).toBe(400)
  if (response.status >= 300) expect(offFormat(endpoint.format, text), context).toBeUndefined()
}

describe.each(Object.entries(endpoints))('flawed bodies over HTTP: %s', (_, endpoint) => {
  it('to every upstream family: a 2xx, or a 4xx in the endpoint\'s format', async () => {
    const models = Object.values(familyModels)
    await fc.assert(fc.asyncProperty(fc.constantFrom(...models).chain(model => fc.tuple(fc.constant(model), flawed([endpoint.body(model)]))), ([model, body]) => probe(endpoint, model, body)), { numRuns: 150 })
  })
})

describe('flawed bodies reach', () => {
  it('both answers happened: refusals and upstream 200s', () => {
    const counts = [...statuses].map(([key, count]) => `${key}: ${count}`)
    expect(counts.some(line => line.startsWith('invalid-utf8 400')), counts.join(', ')).toBe(true)
    expect(counts.some(line => / 200:/.test(line)), counts.join(', ')).toBe(true)
  })
})
