import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import Anthropic from '@anthropic-ai/sdk'
import OpenAI from 'openai'
import { GoogleGenAI } from '@google/genai'
import { startMockUpstream, type MockUpstream } from '../helpers/mock-openai-server.ts'
import { startTestProxy, type TestProxy } from '../helpers/proxy-server.ts'

/**
 * Usage details the vendors report besides the plain counts, through the proxy with real SDKs:
 * Anthropic's `output_tokens_details.thinking_tokens` (part of output_tokens), Gemini's
 * `toolUsePromptTokenCount` (tool results the model read: input, in totalTokenCount) and
 * `thoughtsTokenCount`. Translated clients read them in their own fields; the proxy's own counts
 * (GET /metrics) have them on the same-format path too.
 */
const sse = (frames: unknown[], named: boolean) => new Response(frames.map(frame => `${named ? `event: ${(frame as any).type}\n` : ''}data: ${JSON.stringify(frame)}\n\n`).join(''), { headers: { 'content-type': 'text/event-stream' } })
const json = (body: unknown) => new Response(JSON.stringify(body), { headers: { 'content-type': 'application/json' } })

function claude(request: Request): Promise<Response> {
  return request.json().then((body: any) => {
    const usage = { input_tokens: 10, output_tokens: 30, cache_read_input_tokens: 0, cache_creation_input_tokens: 0, output_tokens_details: { thinking_tokens: 12 } }
    if (!body.stream) return json({ id: 'msg_01', type: 'message', role: 'assistant', model: 'claude-x', stop_reason: 'end_turn', stop_sequence: null, usage, content: [{ type: 'text', text: 'hi' }] })
    return sse([
      { type: 'message_start', message: { id: 'msg_01', type: 'message', role: 'assistant', model: 'claude-x', content: [], stop_reason: null, stop_sequence: null, usage: { input_tokens: 10, output_tokens: 1 } } },
      { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } },
      { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: 'hi' } },
      { type: 'content_block_stop', index: 0 },
      { type: 'message_delta', delta: { stop_reason: 'end_turn', stop_sequence: null }, usage: { output_tokens: 30, output_tokens_details: { thinking_tokens: 12 } } },
      { type: 'message_stop' },
    ], true)
  })
}

const geminiUsage = { promptTokenCount: 10, candidatesTokenCount: 5, toolUsePromptTokenCount: 100, thoughtsTokenCount: 3, totalTokenCount: 118 }
function gemini(request: Request): Response {
  const chunk = (text: string, extra: object = {}) => ({ candidates: [{ content: { role: 'model', parts: [{ text }] }, index: 0, ...extra }], modelVersion: 'gemini-x', responseId: 'g1' })
  if (!request.url.includes(':streamGenerateContent')) return json({ ...chunk('hi', { finishReason: 'STOP' }), usageMetadata: geminiUsage })
  return sse([chunk('h'), { ...chunk('i', { finishReason: 'STOP' }), usageMetadata: geminiUsage }], false)
}

let upstreams: MockUpstream[] = []
let proxy: TestProxy
beforeAll(async () => {
  upstreams = await Promise.all([claude, gemini].map(handler => startMockUpstream(handler)))
  proxy = await startTestProxy({
    'api-keys': ['sk-u'],
    'beta-api-key': [{ 'api-key': 'up-beta', 'base-url': upstreams[0]!.url, models: [{ name: 'claude-x', alias: 'claude' }] }],
    'alpha-api-key': [{ 'api-key': 'up-alpha', 'base-url': upstreams[1]!.url, models: [{ name: 'gemini-x', alias: 'gem' }] }],
  })
}, 60_000)
afterAll(async () => {
  await proxy?.close()
  await Promise.all(upstreams.map(upstream => upstream.close()))
})

const openai = () => new OpenAI({ apiKey: 'sk-u', baseURL: `${proxy.url}/v1`, maxRetries: 0 })

/** The chat client's usage, stream (with include_usage) or not. */
async function chatUsage(model: string, stream: boolean): Promise<OpenAI.CompletionUsage | undefined | null> {
  const messages = [{ role: 'user' as const, content: 'x' }]
  if (!stream) return (await openai().chat.completions.create({ model, messages })).usage
  let usage: OpenAI.CompletionUsage | undefined | null
  for await (const chunk of await openai().chat.completions.create({ model, messages, stream: true, stream_options: { include_usage: true } })) usage = chunk.usage ?? usage
  return usage
}

/** The sum of `proxy_tokens_total` samples of one model and token type. */
async function counted(model: string, type: string): Promise<number> {
  const text = await (await fetch(`${proxy.url}/metrics`)).text()
  return text.split('\n').filter(line => line.startsWith('proxy_tokens_total{') && line.includes(`model="${model}"`) && line.includes(`type="${type}"`))
    .reduce((sum, line) => sum + Number(line.slice(line.lastIndexOf(' ') + 1)), 0)
}

describe('usage details', () => {
  it.each([false, true])('Anthropic thinking tokens reach a chat client as reasoning_tokens (stream %s)', async (stream) => {
    const usage = await chatUsage('claude', stream)
    expect(usage).toMatchObject({ prompt_tokens: 10, completion_tokens: 30, completion_tokens_details: { reasoning_tokens: 12 } })
  })

  it.each([false, true])('Gemini tool-use prompt tokens are input for a chat client (stream %s)', async (stream) => {
    const usage = await chatUsage('gem', stream)
    expect(usage).toMatchObject({ prompt_tokens: 110, completion_tokens: 8, total_tokens: 118, completion_tokens_details: { reasoning_tokens: 3 } })
  })

  it('a messages client reads the thinking tokens a Gemini answer used', async () => {
    const message = await new Anthropic({ apiKey: 'sk-u', baseURL: proxy.url, maxRetries: 0 }).messages.create({ model: 'gem', max_tokens: 50, messages: [{ role: 'user', content: 'x' }] })
    expect(message.usage).toMatchObject({ input_tokens: 110, output_tokens: 8, output_tokens_details: { thinking_tokens: 3 } })
  })

  it('same format, passed through: the proxy counts the thinking and tool-use tokens', async () => {
    const beforeReasoning = await counted('claude', 'reasoning')
    const final = await new Anthropic({ apiKey: 'sk-u', baseURL: proxy.url, maxRetries: 0 }).messages.stream({ model: 'claude', max_tokens: 50, messages: [{ role: 'user', content: 'x' }] }).finalMessage()
    expect(final.usage.output_tokens_details).toEqual({ thinking_tokens: 12 })
    expect(await counted('claude', 'reasoning') - beforeReasoning).toBe(12)

    const beforeInput = await counted('gem', 'input')
    const genai = new GoogleGenAI({ apiKey: 'sk-u', httpOptions: { baseUrl: proxy.url } })
    let last: unknown
    for await (const chunk of await genai.models.generateContentStream({ model: 'gem', contents: 'x' })) last = chunk.usageMetadata ?? last
    expect(last).toMatchObject({ toolUsePromptTokenCount: 100 })
    expect(await counted('gem', 'input') - beforeInput).toBe(110)
  })
})
