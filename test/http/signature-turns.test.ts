import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import Anthropic from '@anthropic-ai/sdk'
import OpenAI from 'openai'
import { startMockUpstream, type MockUpstream } from '../helpers/mock-openai-server.ts'
import { startTestProxy, type TestProxy } from '../helpers/proxy-server.ts'
import { createProxyStorage } from '../../core/storage/storage.ts'
import { upstreamAnswer, type Answer } from '../conformance/signature-fixtures.ts'
import { vendorComplaint } from '../conformance/vendor-rules.ts'

/**
 * Two-turn tool conversations with thinking on, through translated pairs, with real SDK clients. The
 * scripted upstreams check replayed reasoning the way their vendors do (test/conformance/vendor-rules.ts)
 * and answer 400 as they would.
 */
const answer = (signature: string): Answer => ({ thinking: 'Look it up first.', signature, calls: [{ id: 'toolu_01', name: 'get_weather', args: { city: 'Paris' } }] })
const geminiSignature = 'CiQBcsjafGemini3SignatureBytes=='
const anthropicSignature = 'EqQBCkYIBRgCKkAnthropicSignature=='

const json = (body: unknown, status = 200) => new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } })

function gemini3(request: Request): Promise<Response> {
  return request.json().then((body: any) => {
    const complaint = vendorComplaint('generate', body, new Map([[geminiSignature, answer(geminiSignature).thinking]]))
    if (complaint) return json({ error: { code: 400, message: complaint, status: 'INVALID_ARGUMENT' } }, 400)
    const stream = request.url.includes(':streamGenerateContent')
    const answered = JSON.stringify(body.contents).includes('functionResponse')
    if (!answered) {
      const wire = upstreamAnswer('generate', answer(geminiSignature))
      return stream ? new Response(wire.stream, { headers: { 'content-type': 'text/event-stream' } }) : json(wire.json)
    }
    const done = { candidates: [{ content: { role: 'model', parts: [{ text: 'Paris is sunny.' }] }, finishReason: 'STOP', index: 0 }], modelVersion: 'gemini-3-pro-preview' }
    return stream ? new Response(`data: ${JSON.stringify(done)}\n\n`, { headers: { 'content-type': 'text/event-stream' } }) : json(done)
  })
}

function claude(request: Request): Promise<Response> {
  return request.json().then((body: any) => {
    const complaint = vendorComplaint('messages', body, new Map([[anthropicSignature, answer(anthropicSignature).thinking]]))
    if (complaint) return json({ type: 'error', error: { type: 'invalid_request_error', message: complaint } }, 400)
    const answered = JSON.stringify(body.messages).includes('tool_result')
    if (!answered) {
      const wire = upstreamAnswer('messages', answer(anthropicSignature))
      return body.stream ? new Response(wire.stream, { headers: { 'content-type': 'text/event-stream' } }) : json(wire.json)
    }
    return json({ id: 'msg_2', type: 'message', role: 'assistant', model: 'claude-x', content: [{ type: 'text', text: 'Paris is sunny.' }], stop_reason: 'end_turn', stop_sequence: null, usage: { input_tokens: 20, output_tokens: 5 } })
  })
}

let gemini: MockUpstream
let anthropic: MockUpstream
let proxy: TestProxy
// Two more instances sharing one Redis key space (the signature store), and one on its own memory.
let shared: TestProxy
let alone: TestProxy
const base = `test-signatures-${process.pid}-${Date.now()}`

beforeAll(async () => {
  gemini = await startMockUpstream(gemini3)
  anthropic = await startMockUpstream(claude)
  const config = {
    'api-keys': ['sk-sig'],
    'alpha-api-key': [{ 'api-key': 'up-alpha', 'base-url': gemini.url, models: [{ name: 'gemini-3-pro-preview', alias: 'g3' }] }],
    'beta-api-key': [{ 'api-key': 'up-beta', 'base-url': anthropic.url, models: [{ name: 'claude-x', alias: 'claude-t' }] }],
  }
  proxy = await startTestProxy(config, [], await createProxyStorage({ driver: 'redis', base }))
  shared = await startTestProxy(config, [], await createProxyStorage({ driver: 'redis', base }))
  alone = await startTestProxy(config)
}, 60_000)
afterAll(async () => {
  const cleanup = await createProxyStorage({ driver: 'redis', base })
  for (const key of await cleanup.getKeys()) await cleanup.removeItem(key)
  await cleanup.dispose()
  await Promise.all([proxy?.close(), shared?.close(), alone?.close()])
  await Promise.all([gemini?.close(), anthropic?.close()])
})

const tools: Anthropic.Tool[] = [{ name: 'get_weather', description: 'Weather for a city', input_schema: { type: 'object', properties: { city: { type: 'string' } } } }]

describe('thinking + tools across formats, two turns, real SDKs', () => {
  it('@anthropic-ai/sdk -> Gemini 3: the functionCall signature comes back on turn 2', async () => {
    const sdk = new Anthropic({ baseURL: proxy.url, apiKey: 'sk-sig', maxRetries: 0 })
    const ask: Anthropic.MessageParam = { role: 'user', content: 'Weather in Paris?' }
    const thinking = { type: 'enabled', budget_tokens: 2048 } as const
    const first = await sdk.messages.stream({ model: 'g3', max_tokens: 4096, thinking, tools, messages: [ask] }).finalMessage()
    expect(first.stop_reason).toBe('tool_use')
    // The thought summary is shown; the signature travels in the block's own slot.
    expect(first.content.find(block => block.type === 'thinking')).toMatchObject({ thinking: 'Look it up first.' })
    const use = first.content.find(block => block.type === 'tool_use') as Anthropic.ToolUseBlock
    expect(use.input).toEqual({ city: 'Paris' })

    const second = await sdk.messages.create({ model: 'g3', max_tokens: 4096, thinking, tools, messages: [ask, { role: 'assistant', content: first.content }, { role: 'user', content: [{ type: 'tool_result', tool_use_id: use.id, content: 'sunny' }] }] })
    expect(second.content.map(block => block.type === 'text' ? block.text : block.type)).toEqual(['Paris is sunny.'])
    const sent = JSON.parse(gemini.requests.at(-1)!.body)
    expect(sent.contents[1].parts.find((part: any) => part.functionCall).thoughtSignature).toBe(geminiSignature)
  })

  const chatTools: OpenAI.ChatCompletionTool[] = [{ type: 'function', function: { name: 'get_weather', parameters: { type: 'object', properties: { city: { type: 'string' } } } } }]
  const ask: OpenAI.ChatCompletionMessageParam = { role: 'user', content: 'Weather in Paris?' }
  const chat = (on: TestProxy) => new OpenAI({ baseURL: `${on.url}/v1`, apiKey: 'sk-sig', maxRetries: 0 })

  it('openai chat SDK -> Anthropic: the signature kept for the tool call is restored, also by another instance', async () => {
    const stream = await chat(proxy).chat.completions.create({ model: 'claude-t', reasoning_effort: 'medium', tools: chatTools, messages: [ask], stream: true })
    let reasoning = ''
    const calls: Array<{ id: string; name: string; arguments: string }> = []
    for await (const chunk of stream) {
      const delta = chunk.choices[0]?.delta as { reasoning_content?: string; tool_calls?: OpenAI.ChatCompletionChunk.Choice.Delta.ToolCall[] } | undefined
      reasoning += delta?.reasoning_content ?? ''
      for (const call of delta?.tool_calls ?? []) {
        calls[call.index] ??= { id: call.id!, name: call.function!.name!, arguments: '' }
        calls[call.index]!.arguments += call.function?.arguments ?? ''
      }
    }
    expect(reasoning).toBe('Look it up first.')
    const message: OpenAI.ChatCompletionMessageParam = { role: 'assistant', content: null, tool_calls: calls.map(call => ({ id: call.id, type: 'function', function: { name: call.name, arguments: call.arguments } })) }
    const { data: second, response } = await chat(shared).chat.completions.create({ model: 'claude-t', reasoning_effort: 'medium', tools: chatTools, messages: [ask, message, { role: 'tool', tool_call_id: calls[0]!.id, content: 'sunny' }] }).withResponse()
    expect(second.choices[0]!.message.content).toBe('Paris is sunny.')
    expect(response.headers.get('x-proxy-dropped') ?? '').not.toContain('reasoning_effort')
    const sent = JSON.parse(anthropic.requests.at(-1)!.body)
    expect(sent.thinking.type).toBe('enabled')
    expect(sent.messages[1].content[0]).toEqual({ type: 'thinking', thinking: 'Look it up first.', signature: anthropicSignature })
  })

  it('openai chat SDK -> Anthropic, nothing stored: thinking is off for the replayed turn, and said', async () => {
    const first = await chat(alone).chat.completions.create({ model: 'claude-t', reasoning_effort: 'medium', tools: chatTools, messages: [ask] })
    const message = first.choices[0]!.message
    expect((message as unknown as { reasoning_content: string }).reasoning_content).toBe('Look it up first.')
    // Replayed through an instance that never saw the answer.
    const call = message.tool_calls![0]!
    const { data: second, response } = await chat(shared).chat.completions.create({ model: 'claude-t', reasoning_effort: 'medium', tools: chatTools, messages: [ask, { ...message, tool_calls: [{ ...call, id: 'toolu_other' }] }, { role: 'tool', tool_call_id: 'toolu_other', content: 'sunny' }] }).withResponse()
    expect(second.choices[0]!.message.content).toBe('Paris is sunny.')
    expect(response.headers.get('x-proxy-dropped')).toContain('reasoning_effort')
    expect(JSON.parse(anthropic.requests.at(-1)!.body).thinking).toEqual({ type: 'disabled' })
  })
})
