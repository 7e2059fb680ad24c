import fc from 'fast-check'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createProxy, type Proxy } from '../../core/app.ts'
import { listen, type RunningServer } from '../../core/runtime/server.ts'
import { validateConfig } from '../../core/config/validate.ts'
import { startMockUpstream, type MockUpstream } from '../helpers/mock-openai-server.ts'
import { openaiMock } from '../../playground/mock-upstream/openai.ts'
import { messagesMock } from '../../playground/mock-upstream/messages.ts'
import { responsesMock } from '../../playground/mock-upstream/responses.ts'
import { generateMock } from '../../playground/mock-upstream/generate.ts'
import { familyModels } from '../helpers/family-proxy.ts'
import { chatCodec } from '../../providers/compat/codec/index.ts'
import { decodeCompletionsRequest } from '../../providers/compat/codec/completions.ts'
import { decodeCountTokens, messagesCodec } from '../../providers/beta/codec/index.ts'
import { decodeCompact, responsesCodec } from '../../providers/gamma/codec/index.ts'
import { generateCodec } from '../../providers/alpha/codec/index.ts'
import { unwrapCliRequest } from '../../providers/alpha/codec/cli-envelope.ts'
import { validateChatRequest } from '../../providers/compat/validate-chat.ts'

/**
 * Fuzzing every client endpoint over HTTP and every request decoder directly: bad input is the client's
 * 4xx in the endpoint's own error format, never a 5xx of ours, a hang or an exception past the handler.
 */

type Shape = 'chat' | 'messages' | 'generate'
interface Endpoint { name: string; path: string; shape: Shape; body: 'chat' | 'completions' | 'messages' | 'responses' | 'generate' }
const endpoints: Endpoint[] = [
  { name: 'chat', path: '/v1/chat/completions', shape: 'chat', body: 'chat' },
  { name: 'completions', path: '/v1/completions', shape: 'chat', body: 'completions' },
  { name: 'messages', path: '/v1/messages', shape: 'messages', body: 'messages' },
  { name: 'count_tokens', path: '/v1/messages/count_tokens', shape: 'messages', body: 'messages' },
  { name: 'responses', path: '/v1/responses', shape: 'chat', body: 'responses' },
  { name: 'responses/compact', path: '/v1/responses/compact', shape: 'chat', body: 'responses' },
  { name: 'generateContent', path: `/v1beta/models/${familyModels.beta}:generateContent`, shape: 'generate', body: 'generate' },
  { name: 'streamGenerateContent (sse)', path: `/v1beta/models/${familyModels.compat}:streamGenerateContent?alt=sse`, shape: 'generate', body: 'generate' },
  { name: 'streamGenerateContent (array)', path: `/v1beta/models/${familyModels.gamma}:streamGenerateContent`, shape: 'generate', body: 'generate' },
  { name: 'countTokens', path: `/v1beta/models/${familyModels.alpha}:countTokens`, shape: 'generate', body: 'generate' },
]

// Arbitraries: plain JSON, raw bytes, and bodies shaped like each format with junk in every field.
const junk = fc.jsonValue({ maxDepth: 3 })
/** Mostly a plausible value, sometimes junk: deep enough to reach the upstream now and then. */
const mostly = <T>(valid: fc.Arbitrary<T>) => fc.oneof({ arbitrary: valid, weight: 4 }, { arbitrary: junk as fc.Arbitrary<unknown>, weight: 1 })
/** Usually absent (undefined is dropped by JSON.stringify), sometimes junk. */
const maybe = fc.oneof({ arbitrary: fc.constant(undefined), weight: 4 }, { arbitrary: junk, weight: 1 })
const model = fc.oneof({ arbitrary: fc.constantFrom(...Object.values(familyModels)), weight: 6 }, { arbitrary: fc.string({ maxLength: 8 }), weight: 1 }, { arbitrary: junk, weight: 1 })
const role = mostly(fc.constantFrom('user', 'assistant', 'system', 'developer', 'tool', 'model', 'function'))
const text = mostly(fc.string({ maxLength: 20 }))
const block = mostly(fc.record({ type: fc.constantFrom('text', 'image', 'image_url', 'tool_use', 'tool_result', 'thinking', 'input_text', 'input_image', 'function_call', 'function_call_output', 'document', 'x'), text, id: text, name: text, input: maybe, content: maybe, source: maybe, image_url: maybe, call_id: text, arguments: text, output: maybe, thinking: text, signature: text }, { requiredKeys: ['type'] }))
const content = fc.oneof({ arbitrary: fc.string({ maxLength: 20 }), weight: 4 }, { arbitrary: fc.array(block, { maxLength: 3 }), weight: 2 }, { arbitrary: junk, weight: 1 })
const tools = mostly(fc.array(fc.record({ type: fc.constantFrom('function', 'custom', 'web_search'), name: text, function: fc.record({ name: text, parameters: maybe }, { requiredKeys: [] }), input_schema: maybe, parameters: maybe, functionDeclarations: maybe }, { requiredKeys: [] }), { maxLength: 2 }))
const common = { model, stream: mostly(fc.boolean()), tools, tool_choice: maybe, temperature: mostly(fc.double({ min: 0, max: 2, noNaN: true })), top_p: maybe, stop: maybe, max_tokens: mostly(fc.integer({ min: 1, max: 4096 })) }
const optional = { requiredKeys: ['model', 'stream', 'max_tokens'] as never[] }
const messageList = <T>(message: fc.Arbitrary<T>) => mostly(fc.array(message, { minLength: 1, maxLength: 3 }))
const shaped: Record<Endpoint['body'], fc.Arbitrary<unknown>> = {
  chat: fc.record({ ...common, messages: messageList(fc.record({ role, content, tool_calls: maybe, tool_call_id: text, name: text, reasoning_content: text }, { requiredKeys: ['role', 'content'] })), input: maybe, reasoning_effort: maybe, response_format: maybe, n: maybe, stream_options: maybe }, optional),
  completions: fc.record({ ...common, prompt: fc.oneof(fc.string(), fc.array(fc.string()), junk), suffix: maybe, echo: maybe, logprobs: maybe }, optional),
  messages: fc.record({ ...common, messages: messageList(fc.record({ role, content }, { requiredKeys: ['role', 'content'] })), system: content, thinking: fc.oneof(fc.record({ type: fc.constantFrom('enabled', 'disabled', 'adaptive'), budget_tokens: maybe }, { requiredKeys: [] }), junk), metadata: maybe, stop_sequences: maybe, top_k: maybe }, optional),
  responses: fc.record({ ...common, input: fc.oneof(fc.string(), fc.array(fc.record({ type: fc.constantFrom('message', 'function_call', 'function_call_output', 'reasoning', 'x'), role, content, call_id: text, name: text, arguments: text, output: maybe, summary: maybe, encrypted_content: maybe }, { requiredKeys: ['type'] }), { maxLength: 3 }), junk), instructions: text, reasoning: maybe, text: maybe, max_output_tokens: maybe, previous_response_id: maybe }, optional),
  generate: fc.record({ contents: messageList(fc.record({ role, parts: mostly(fc.array(fc.record({ text, inlineData: maybe, fileData: maybe, functionCall: maybe, functionResponse: maybe, thought: maybe, thoughtSignature: text }, { requiredKeys: [] }), { minLength: 1, maxLength: 3 })) }, { requiredKeys: ['parts'] })), systemInstruction: maybe, generationConfig: fc.oneof(fc.record({ temperature: maybe, maxOutputTokens: maybe, thinkingConfig: maybe, stopSequences: maybe, responseMimeType: maybe, responseSchema: maybe }, { requiredKeys: [] }), junk), tools: maybe, toolConfig: maybe, generateContentRequest: maybe }, { requiredKeys: ['contents'] }),
}
const bytes = fc.oneof(fc.uint8Array({ maxLength: 200 }), fc.string({ maxLength: 200, unit: 'binary' }).map(s => new TextEncoder().encode(s)))

/** Never let a mock upstream throw on odd input: an upstream 400 is a fine answer for the fuzzer. */
const tolerant = (handler: (request: Request) => Promise<Response> | Response) => async (request: Request) => {
  try {
    return await handler(request)
  } catch {
    return new Response(JSON.stringify({ error: { message: 'mock could not read the request', type: 'invalid_request_error', code: 400, status: 'INVALID_ARGUMENT' }, type: 'error' }), { status: 400, headers: { 'content-type': 'application/json' } })
  }
}

let upstreams: MockUpstream[]
let proxy: Proxy
let server: RunningServer
const logged: unknown[][] = []
const statuses = new Map<number, number>()
const noop = () => {}
const recordingLogger = { info: noop, warn: noop, debug: noop, log: noop, success: noop, error: (...args: unknown[]) => { logged.push(args) }, withTag: () => recordingLogger } as never

beforeAll(async () => {
  upstreams = await Promise.all([openaiMock, messagesMock, responsesMock, generateMock].map(mock => startMockUpstream(tolerant(mock))))
  const [compat, beta, gamma, alpha] = upstreams
  const config = validateConfig({
    'auth-dir': '/nonexistent-auth-dir',
    'api-keys': ['sk-fuzz'],
    timeouts: { 'first-byte-seconds': 5, 'stream-idle-seconds': 5 },
    'compat-provider': [{ name: 'mock-compat', 'base-url': `${compat!.url}/v1`, 'api-key-entries': [{ 'api-key': 'up' }], models: [{ name: 'mock-gpt', alias: familyModels.compat }] }],
    'beta-api-key': [{ 'api-key': 'up', 'base-url': beta!.url, models: [{ name: 'mock-claude', alias: familyModels.beta }] }],
    'gamma-api-key': [{ 'api-key': 'up', 'base-url': `${gamma!.url}/v1`, models: [{ name: 'mock-codex', alias: familyModels.gamma }] }],
    'alpha-api-key': [{ 'api-key': 'up', 'base-url': alpha!.url, models: [{ name: 'mock-gemini', alias: familyModels.alpha }] }],
  })
  proxy = await createProxy({ config, logger: recordingLogger })
  server = await listen(() => proxy, config, { port: 0, host: '127.0.0.1' })
})
afterAll(async () => {
  await server.close()
  await proxy.close()
  await Promise.all(upstreams.map(upstream => upstream.close()))
})

/** The endpoint's own error body. */
function expectErrorBody(shape: Shape, body: any, status: number): void {
  if (shape === 'messages') expect(body).toMatchObject({ type: 'error', error: { type: expect.any(String), message: expect.any(String) } })
  else if (shape === 'generate') expect(body).toMatchObject({ error: { code: status, message: expect.any(String), status: expect.any(String) } })
  else expect(body).toMatchObject({ error: { message: expect.any(String), type: expect.any(String) } })
}

/** POST, read the whole answer within 10 s (a hang fails the test), and check status and body shape. */
async function probe(endpoint: Endpoint, body: BodyInit, contentType = 'application/json'): Promise<void> {
  const response = await fetch(`${server.url}${endpoint.path}`, {
    method: 'POST', body, headers: { 'x-api-key': 'sk-fuzz', authorization: 'Bearer sk-fuzz', 'x-goog-api-key': 'sk-fuzz', 'content-type': contentType },
    signal: AbortSignal.timeout(10_000),
  })
  const text = await response.text()
  statuses.set(response.status, (statuses.get(response.status) ?? 0) + 1)
  const context = `${endpoint.name} ${response.status}: ${text.slice(0, 300)}`
  expect(response.status, context).toBeLessThan(500)
  if (response.status >= 300) {
    expect(response.status, context).toBeGreaterThanOrEqual(400)
    expectErrorBody(endpoint.shape, JSON.parse(text), response.status)
  }
}

describe.each(endpoints)('fuzz over HTTP: $name', (endpoint) => {
  it('arbitrary JSON values', async () => {
    await fc.assert(fc.asyncProperty(junk, value => probe(endpoint, JSON.stringify(value))), { numRuns: 60 })
  })

  it('arbitrary bytes, sent as JSON and as something else', async () => {
    await fc.assert(fc.asyncProperty(bytes, fc.constantFrom('application/json', 'text/plain', 'application/octet-stream'), (value, type) => probe(endpoint, value, type)), { numRuns: 60 })
  })

  it('model names every object inherits (toString, constructor, __proto__) are unknown models, not our 500', async () => {
    for (const name of [...Object.getOwnPropertyNames(Object.prototype), 'prototype']) {
      if (endpoint.shape === 'generate') {
        const path = endpoint.path.replace(/models\/[^:]+:/, `models/${encodeURIComponent(name)}:`)
        await probe({ ...endpoint, path }, JSON.stringify({ contents: [{ role: 'user', parts: [{ text: 'hi' }] }] }))
      } else {
        const body = endpoint.body === 'completions' ? { prompt: 'hi' } : endpoint.body === 'responses' ? { input: 'hi' } : { messages: [{ role: 'user', content: 'hi' }] }
        await probe(endpoint, JSON.stringify({ model: name, max_tokens: 1, stream: false, ...body }))
      }
    }
  })

  it('bodies shaped like the format with junk in every field', async () => {
    await fc.assert(fc.asyncProperty(shaped[endpoint.body], value => probe(endpoint, JSON.stringify(value))), { numRuns: 120 })
  })

  it('logged no server error', () => {
    // Taken out as they are checked: one endpoint's error does not fail every endpoint after it.
    expect(logged.splice(0)).toEqual([])
  })
})

describe('fuzz reach', () => {
  it('valid-enough bodies got through to an upstream and back (200s), the rest were 4xx', () => {
    expect(statuses.get(200)).toBeGreaterThan(0)
    expect([...statuses.keys()].every(status => status === 200 || (status >= 400 && status < 500))).toBe(true)
    expect(upstreams.reduce((sum, upstream) => sum + upstream.requests.length, 0)).toBeGreaterThan(0)
  })
})

/** A decoder either returns a canonical request or throws the client's 400 (RequestValidationError / ProxyError 4xx). */
function decodesOrRejects(decode: () => unknown): void {
  let result: unknown
  try {
    result = decode()
  } catch (error) {
    const name = (error as Error)?.name
    if (name === 'RequestValidationError') return
    if (name === 'ProxyError' && (error as { status: number }).status < 500 && (error as { status: number }).status >= 400) return
    throw error
  }
  expect(result).toMatchObject({ messages: expect.any(Array) })
}

/** `objects`: the decoder is typed to take a JSON object (the route has already refused anything else). */
const decoders: Array<{ name: string; arbitrary: fc.Arbitrary<unknown>; decode: (body: any) => unknown; objects?: boolean }> = [
  { name: 'chat request', arbitrary: shaped.chat, decode: chatCodec.request.decode },
  { name: 'chat limits', arbitrary: shaped.chat, decode: (body) => { if (body && typeof body === 'object' && !Array.isArray(body)) validateChatRequest(body); return { messages: [] } } },
  { name: 'completions request', arbitrary: shaped.completions, decode: body => decodeCompletionsRequest(body), objects: true },
  { name: 'messages request', arbitrary: shaped.messages, decode: messagesCodec.request.decode },
  { name: 'count_tokens request', arbitrary: shaped.messages, decode: decodeCountTokens },
  { name: 'responses request', arbitrary: shaped.responses, decode: responsesCodec.request.decode },
  { name: 'compact request', arbitrary: shaped.responses, decode: decodeCompact },
  { name: 'rule 16 (responses body on chat)', arbitrary: shaped.responses, decode: body => chatCodec.request.decode(chatCodec.request.encode(responsesCodec.request.decode(body) as never)) },
  { name: 'generateContent request', arbitrary: shaped.generate, decode: body => generateCodec.request.decode(body && typeof body === 'object' && !Array.isArray(body) ? { ...body, model: 'm' } : body) },
  { name: 'alpha-cli envelope', arbitrary: fc.record({ model, project: junk, request: fc.oneof(shaped.generate, junk) }, { requiredKeys: [] }), decode: (body) => { const inner = unwrapCliRequest(body); return generateCodec.request.decode({ ...inner.request, model: inner.model ?? 'm' }) }, objects: true },
]

describe.each(decoders)('pure decoder fuzz: $name', ({ arbitrary, decode, objects }) => {
  it('returns a canonical request or throws the client error, on shaped and on arbitrary JSON', () => {
    fc.assert(fc.property(arbitrary, body => decodesOrRejects(() => decode(body))), { numRuns: 1000 })
    fc.assert(fc.property(objects ? fc.object() : junk, body => decodesOrRejects(() => decode(body))), { numRuns: 300 })
  })
})
