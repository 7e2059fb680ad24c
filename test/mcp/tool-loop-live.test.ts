import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import OpenAI from 'openai'
import Anthropic from '@anthropic-ai/sdk'
import type { TestProxy } from '../helpers/proxy-server.ts'
import { startMockUpstream, type MockUpstream } from '../helpers/mock-openai-server.ts'
import { loopProxy, scriptedChat, scriptedGenerate } from './scripted-model.ts'

/**
 * A streamed tool loop is written while it runs: the client sees the answer start at once, the loop's
 * own items as each call ends, and the model's text token by token, in one well-formed stream of its
 * format (indexes and sequence numbers across turns, one start, one end, the usage of every turn).
 */
let proxy: TestProxy
let chat: MockUpstream
let generate: MockUpstream
// What the chat model does on a turn after the first: answer, fail, or wait first.
let later: 'answer' | 'fail' | { waitMs: number } = 'answer'
// A pause after each event of the first turn's stream (a slow model).
let firstGapMs = 0
const turnsSeen: number[] = []

beforeAll(async () => {
  chat = await startMockUpstream(async (request) => {
    const body = await request.clone().json() as { messages: Array<{ role: string }> }
    turnsSeen.push(Date.now())
    const afterTool = body.messages.at(-1)!.role === 'tool'
    if (afterTool && later === 'fail') return Response.json({ error: { message: 'the model is down', type: 'server_error' } }, { status: 500 })
    if (afterTool && typeof later === 'object') await new Promise(resolve => setTimeout(resolve, (later as { waitMs: number }).waitMs))
    const answer = await scriptedChat(request)
    if (afterTool || !firstGapMs) return answer
    const pause = new TransformStream<Uint8Array, Uint8Array>({ async transform(chunk, out) { out.enqueue(chunk); await new Promise(resolve => setTimeout(resolve, firstGapMs)) } })
    return new Response(answer.body!.pipeThrough(pause), answer)
  })
  generate = await startMockUpstream(scriptedGenerate)
  proxy = await loopProxy(chat.url, generate.url, { 'api-keys': ['live-key'], 'request-retry': 0 })
}, 60_000)

afterAll(async () => {
  await proxy?.close()
  await chat?.close()
  await generate?.close()
})

beforeEach(() => {
  later = 'answer'
  firstGapMs = 0
  turnsSeen.length = 0
})

/** The SSE events of a streamed POST, each with when it arrived. */
async function events(path: string, body: Record<string, unknown>, headers: Record<string, string> = {}): Promise<{ status: number; events: Array<{ at: number; data: Record<string, any> }>; text: string }> {
  const response = await fetch(`${proxy.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', authorization: 'Bearer live-key', ...headers }, body: JSON.stringify(body) })
  if (!response.headers.get('content-type')?.includes('event-stream')) return { status: response.status, events: [], text: await response.text() }
  const out: Array<{ at: number; data: Record<string, any> }> = []
  let buffer = ''
  const decoder = new TextDecoder()
  for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
    buffer += decoder.decode(chunk, { stream: true })
    let end: number
    while ((end = buffer.indexOf('\n\n')) !== -1) {
      const data = buffer.slice(0, end).split('\n').find(line => line.startsWith('data: '))
      buffer = buffer.slice(end + 2)
      if (data) out.push({ at: Date.now(), data: JSON.parse(data.slice(6)) })
    }
  }
  return { status: response.status, events: out, text: buffer }
}

const mcpTool = { type: 'mcp', server_label: 'everything', server_url: 'https://mcp.example/unused', require_approval: 'never' }
const messagesRequest = (model: string) => ({ model, max_tokens: 100, stream: true, messages: [{ role: 'user', content: 'echo ping' }], mcp_servers: [{ type: 'url', name: 'everything', url: 'https://mcp.example/unused' }], tools: [{ type: 'mcp_toolset', mcp_server_name: 'everything' }] })
const mcpHeader = { 'anthropic-beta': 'mcp-client-2025-11-20', 'anthropic-version': '2023-06-01' }

describe.each(['via-chat', 'via-generate'])('responses client, %s', (model) => {
  it('one stream across the turns: one created, the items in order, text token by token, one completed', async () => {
    const { status, events: got } = await events('/v1/responses', { model, input: 'echo ping', tools: [mcpTool], stream: true })
    expect(status).toBe(200)
    const types = got.map(event => event.data.type)
    expect(types.filter(type => type === 'response.created')).toHaveLength(1)
    expect(types.at(-1)).toBe('response.completed')
    expect(got.map(event => event.data.sequence_number)).toEqual(got.map((_, index) => index))
    const completed = got.at(-1)!.data.response
    expect(completed.id).toBe(got[0]!.data.response.id)
    expect(completed.output.map((item: { type: string }) => item.type)).toEqual(['mcp_list_tools', 'mcp_call', 'message'])
    // Every item event points at the item the final output holds at that index; the model's call of the gateway tool never shows.
    for (const { data } of got.filter(event => event.data.type === 'response.output_item.done')) expect(completed.output[data.output_index]).toEqual(data.item)
    expect(got.some(event => event.data.item?.type === 'function_call')).toBe(false)
    const deltas = got.filter(event => event.data.type === 'response.output_text.delta')
    expect(deltas.length).toBeGreaterThan(2)
    expect(deltas.map(event => event.data.delta).join('')).toBe(completed.output[2].content[0].text)
    expect(deltas.every(event => event.data.output_index === 2)).toBe(true)
    expect(completed.usage).toMatchObject({ input_tokens: 20, output_tokens: 10 })
  })
})

describe.each(['via-chat', 'via-generate'])('messages client, %s', (model) => {
  it('one stream across the turns: one message_start, blocks indexed in order, text token by token, summed usage', async () => {
    const { status, events: got } = await events('/v1/messages', messagesRequest(model), mcpHeader)
    expect(status).toBe(200)
    const types = got.map(event => event.data.type)
    expect(types.filter(type => type === 'message_start')).toHaveLength(1)
    expect(types.slice(-2)).toEqual(['message_delta', 'message_stop'])
    const starts = got.filter(event => event.data.type === 'content_block_start').map(event => event.data)
    expect(starts.map(start => start.index)).toEqual([0, 1, 2])
    expect(starts.map(start => start.content_block.type)).toEqual(['mcp_tool_use', 'mcp_tool_result', 'text'])
    expect(got.filter(event => event.data.type === 'content_block_stop').map(event => event.data.index)).toEqual([0, 1, 2])
    const deltas = got.filter(event => event.data.type === 'content_block_delta')
    expect(deltas.length).toBeGreaterThan(2)
    expect(deltas.map(event => event.data.delta.text).join('')).toContain('Echo: ping')
    expect(got.at(-2)!.data).toMatchObject({ delta: { stop_reason: 'end_turn' }, usage: { input_tokens: 20, output_tokens: 10 } })
  })

  it('the SDK reads the same message as the whole answer', async () => {
    const anthropic = new Anthropic({ baseURL: proxy.url, apiKey: 'live-key', maxRetries: 0 })
    const { stream: _, ...request } = messagesRequest(model)
    const streamed = await anthropic.beta.messages.stream({ ...request, betas: ['mcp-client-2025-11-20'] } as never).finalMessage()
    const whole = await anthropic.beta.messages.create({ ...request, betas: ['mcp-client-2025-11-20'] } as never) as Anthropic.Beta.BetaMessage
    const shape = (message: Anthropic.Beta.BetaMessage) => message.content.map(block => block.type === 'mcp_tool_result' || block.type === 'mcp_tool_use' ? { ...block, id: 'x', tool_use_id: 'x' } : block)
    expect(shape(streamed)).toEqual(shape(whole))
    expect(streamed.usage).toMatchObject({ input_tokens: whole.usage.input_tokens, output_tokens: whole.usage.output_tokens })
  })
})

describe('while the loop runs', () => {
  it('the client has the start and the tool listing before the next turn is even asked', async () => {
    later = { waitMs: 400 }
    const started = Date.now()
    const { events: got } = await events('/v1/responses', { model: 'via-chat', input: 'echo ping', tools: [mcpTool], stream: true })
    const listed = got.find(event => event.data.item?.type === 'mcp_call' && event.data.type === 'response.output_item.done')!
    expect(turnsSeen).toHaveLength(2)
    expect(got[0]!.at).toBeLessThan(turnsSeen[1]!)
    expect(listed.at).toBeLessThanOrEqual(turnsSeen[1]! + 50)
    expect(got.at(-1)!.at - started).toBeGreaterThanOrEqual(400)
  })

  it('a turn that fails after the first byte ends the stream with the format\'s error event', async () => {
    later = 'fail'
    const { status, events: got } = await events('/v1/responses', { model: 'via-chat', input: 'echo ping', tools: [mcpTool], stream: true })
    expect(status).toBe(200)
    expect(got.some(event => event.data.item?.type === 'mcp_call')).toBe(true)
    expect(got.at(-1)!.data).toMatchObject({ type: 'error', message: expect.stringContaining('the model is down') })
    const openai = new OpenAI({ baseURL: `${proxy.url}/v1`, apiKey: 'live-key', maxRetries: 0 })
    await expect(openai.responses.stream({ model: 'via-chat', input: 'echo ping', tools: [mcpTool as never] }).finalResponse()).rejects.toThrow(/the model is down/)

    const messages = await events('/v1/messages', messagesRequest('via-chat'), mcpHeader)
    expect(messages.events.at(-1)!.data).toMatchObject({ type: 'error', error: { message: expect.stringContaining('the model is down') } })
  })

  it('a client that leaves mid-loop ends the loop: no tool is called, no next turn asked, and the proxy serves on', async () => {
    firstGapMs = 150
    const leave = new AbortController()
    const response = await fetch(`${proxy.url}/v1/responses`, { method: 'POST', signal: leave.signal, headers: { 'content-type': 'application/json', authorization: 'Bearer live-key' }, body: JSON.stringify({ model: 'via-chat', input: 'echo ping', tools: [mcpTool], stream: true }) })
    const reader = response.body!.getReader()
    await reader.read()
    leave.abort()
    await new Promise(resolve => setTimeout(resolve, 500))
    expect(turnsSeen).toHaveLength(1)
    firstGapMs = 0
    const again = await events('/v1/responses', { model: 'via-chat', input: 'echo ping', tools: [mcpTool], stream: true })
    expect(again.events.at(-1)!.data.type).toBe('response.completed')
    expect(turnsSeen).toHaveLength(3)
  })

  it('a first turn that fails is that turn\'s error, with its status, as when not streamed', async () => {
    const { status, text } = await events('/v1/responses', { model: 'via-chat', input: 'echo ping', tools: [mcpTool], stream: true, temperature: 'hot' })
    expect(status).toBe(400)
    expect(JSON.parse(text).error.message).toBeTruthy()
  })
})
