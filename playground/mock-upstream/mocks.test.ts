import { describe, expect, it } from 'vitest'
import { messagesMock } from './messages.ts'
import { responsesMock } from './responses.ts'
import { collapse, post, readSse } from './sse-read.ts'

const echo = (said: string) => `Hello from the playground mock upstream. You said: ${said}`
const tools = [{ name: 'get_weather', description: 'weather', input_schema: { type: 'object', properties: {} } }]

describe('messagesMock', () => {
  const key = { 'x-api-key': 'k', 'anthropic-version': '2023-06-01' }
  const call = (body: Record<string, unknown>, headers: Record<string, string> = key) =>
    messagesMock(post('http://x/mock/beta/v1/messages', { model: 'mock-claude', max_tokens: 64, ...body }, headers), '/mock/beta')

  it('answers non-stream in the exact message shape', async () => {
    const response = await call({ messages: [{ role: 'user', content: 'hi' }] })
    expect(await response.json()).toEqual({
      id: expect.stringMatching(/^msg_/), type: 'message', role: 'assistant', model: 'mock-claude',
      content: [{ type: 'text', text: echo('hi') }], stop_reason: 'end_turn', stop_sequence: null,
      usage: { input_tokens: expect.any(Number), output_tokens: expect.any(Number), cache_creation_input_tokens: 0, cache_read_input_tokens: 0 },
    })
  })

  it('calls a named tool, then reads the tool_result turn', async () => {
    const first = await (await call({ tools, messages: [{ role: 'user', content: 'get_weather in Paris' }] })).json()
    expect(first.stop_reason).toBe('tool_use')
    expect(first.content).toEqual([{ type: 'tool_use', id: expect.stringMatching(/^toolu_/), name: 'get_weather', input: { query: 'get_weather in Paris' } }])
    const second = await (await call({ tools, messages: [
      { role: 'user', content: 'get_weather in Paris' }, { role: 'assistant', content: first.content },
      { role: 'user', content: [{ type: 'tool_result', tool_use_id: first.content[0].id, content: [{ type: 'text', text: 'sunny' }] }] },
    ] })).json()
    expect(second.content).toEqual([{ type: 'text', text: 'The tool said: sunny' }])
  })

  it('streams the vendor event sequence, with thinking and a split tool input', async () => {
    const frames = await readSse(await call({ stream: true, tools, thinking: { type: 'enabled', budget_tokens: 1024 }, messages: [{ role: 'user', content: 'please use a tool' }] }))
    for (const frame of frames) expect(frame.data.type).toBe(frame.event)
    expect(collapse(frames.map(frame => frame.event))).toEqual([
      'message_start', 'content_block_start', 'ping', 'content_block_delta', 'content_block_stop',
      'content_block_start', 'content_block_delta', 'content_block_stop', 'message_delta', 'message_stop',
    ])
    expect(frames[0]!.data.message).toMatchObject({ type: 'message', role: 'assistant', content: [], stop_reason: null, stop_sequence: null })
    expect(frames[1]!.data).toEqual({ type: 'content_block_start', index: 0, content_block: { type: 'thinking', thinking: '', signature: '' } })
    const deltas = frames.filter(frame => frame.event === 'content_block_delta').map(frame => frame.data)
    expect(deltas[0]).toEqual({ type: 'content_block_delta', index: 0, delta: { type: 'thinking_delta', thinking: 'Let me think.' } })
    expect(deltas[1].delta).toEqual({ type: 'signature_delta', signature: expect.stringMatching(/^sig-mock-/) })
    expect(frames[6]!.data.content_block).toEqual({ type: 'tool_use', id: expect.stringMatching(/^toolu_/), name: 'get_weather', input: {} })
    const pieces = deltas.slice(2).map(delta => delta.delta.partial_json as string)
    expect(pieces.filter(Boolean).length).toBeGreaterThanOrEqual(2)
    expect(JSON.parse(pieces.join(''))).toEqual({ query: 'please use a tool' })
    expect(frames.at(-2)!.data).toEqual({ type: 'message_delta', delta: { stop_reason: 'tool_use', stop_sequence: null }, usage: { output_tokens: expect.any(Number) } })
  })

  it('streams text one word per text_delta', async () => {
    const frames = await readSse(await call({ stream: true, messages: [{ role: 'user', content: 'two words' }] }))
    const texts = frames.filter(frame => frame.event === 'content_block_delta').map(frame => frame.data.delta.text)
    expect(texts.join('')).toBe(echo('two words'))
    expect(texts.length).toBeGreaterThan(3)
  })

  it('adds a thinking block non-stream; counts tokens; rejects missing auth and max_tokens', async () => {
    const thought = await (await call({ thinking: { type: 'enabled', budget_tokens: 1024 }, messages: [{ role: 'user', content: 'x' }] })).json()
    expect(thought.content[0]).toEqual({ type: 'thinking', thinking: 'Let me think.', signature: expect.stringMatching(/^sig-mock-/) })
    const count = await messagesMock(post('http://x/v1/messages/count_tokens', { model: 'm', messages: [{ role: 'user', content: 'hello' }] }, key))
    expect(await count.json()).toEqual({ input_tokens: expect.any(Number) })
    const denied = await call({ messages: [] }, {})
    expect(denied.status).toBe(401)
    expect(await denied.json()).toEqual({ type: 'error', error: { type: 'authentication_error', message: expect.any(String) } })
    expect((await call({ messages: [] }, { authorization: 'Bearer t' })).status).toBe(200)
    const invalid = await messagesMock(post('http://x/v1/messages', { model: 'm', messages: [] }, key))
    expect(invalid.status).toBe(400)
    expect(await invalid.json()).toEqual({ type: 'error', error: { type: 'invalid_request_error', message: 'max_tokens: Field required' } })
  })
})

describe('responsesMock', () => {
  const call = (body: Record<string, unknown>, headers: Record<string, string> = { authorization: 'Bearer k' }) =>
    responsesMock(post('http://x/mock/gamma/v1/responses', { model: 'mock-resp', ...body }, headers), '/mock/gamma')
  const fnTools = [{ type: 'function', name: 'lookup', parameters: { type: 'object', properties: {} } }]

  it('answers non-stream in the exact response shape', async () => {
    const body = await (await call({ input: 'hi', instructions: 'be brief' })).json()
    expect(body).toMatchObject({ id: expect.stringMatching(/^resp_/), object: 'response', created_at: expect.any(Number), status: 'completed', model: 'mock-resp', instructions: 'be brief' })
    expect(body.output).toEqual([{ type: 'message', id: expect.stringMatching(/^msg_/), status: 'completed', role: 'assistant', content: [{ type: 'output_text', text: echo('hi'), annotations: [] }] }])
    const { input_tokens, output_tokens } = body.usage
    expect(body.usage).toEqual({ input_tokens, input_tokens_details: { cached_tokens: 0 }, output_tokens, output_tokens_details: { reasoning_tokens: 0 }, total_tokens: input_tokens + output_tokens })
  })

  it('calls a function, then answers a function_call_output item', async () => {
    const input = [{ type: 'message', role: 'user', content: [{ type: 'input_text', text: 'lookup cats' }] }]
    const first = await (await call({ input, tools: fnTools })).json()
    expect(first.output).toEqual([{ type: 'function_call', id: expect.stringMatching(/^fc_/), call_id: expect.stringMatching(/^call_/), name: 'lookup', arguments: '{"query":"lookup cats"}', status: 'completed' }])
    const second = await (await call({ tools: fnTools, input: [...input, first.output[0], { type: 'function_call_output', call_id: first.output[0].call_id, output: '42' }] })).json()
    expect(second.output[0].content[0].text).toBe('The tool said: 42')
  })

  it('streams typed, sequence-numbered events for text', async () => {
    const frames = await readSse(await call({ input: 'hi there', stream: true }))
    frames.forEach((frame, i) => expect(frame.data).toMatchObject({ type: frame.event, sequence_number: i }))
    expect(collapse(frames.map(frame => frame.event))).toEqual([
      'response.created', 'response.in_progress', 'response.output_item.added', 'response.content_part.added',
      'response.output_text.delta', 'response.output_text.done', 'response.content_part.done', 'response.output_item.done', 'response.completed',
    ])
    expect(frames[0]!.data.response).toMatchObject({ status: 'in_progress', output: [] })
    const deltas = frames.filter(frame => frame.event === 'response.output_text.delta').map(frame => frame.data)
    expect(deltas.length).toBeGreaterThan(3)
    expect(deltas[0]).toMatchObject({ item_id: expect.stringMatching(/^msg_/), output_index: 0, content_index: 0 })
    expect(deltas.map(delta => delta.delta).join('')).toBe(echo('hi there'))
    expect(frames.at(-1)!.data.response.output[0].content[0].text).toBe(echo('hi there'))
  })

  it('streams reasoning then a function call', async () => {
    const frames = await readSse(await call({ input: 'use a tool', tools: fnTools, stream: true, reasoning: { effort: 'low' } }))
    expect(collapse(frames.map(frame => frame.event))).toEqual([
      'response.created', 'response.in_progress',
      'response.output_item.added', 'response.reasoning_summary_part.added', 'response.reasoning_summary_text.delta',
      'response.reasoning_summary_text.done', 'response.reasoning_summary_part.done', 'response.output_item.done',
      'response.output_item.added', 'response.function_call_arguments.delta', 'response.function_call_arguments.done', 'response.output_item.done',
      'response.completed',
    ])
    const argDeltas = frames.filter(frame => frame.event === 'response.function_call_arguments.delta').map(frame => frame.data.delta)
    expect(argDeltas.length).toBeGreaterThanOrEqual(2)
    expect(argDeltas.join('')).toBe('{"query":"use a tool"}')
    const done = frames.at(-1)!.data.response
    expect(done.output[0]).toEqual({ id: expect.stringMatching(/^rs_/), type: 'reasoning', summary: [{ type: 'summary_text', text: 'Thinking.' }], encrypted_content: expect.stringMatching(/^enc-mock-/) })
    expect(done.output[1]).toMatchObject({ type: 'function_call', name: 'lookup', status: 'completed' })
  })

  it('rejects a request without a Bearer key in the OpenAI error shape', async () => {
    const denied = await call({ input: 'x' }, {})
    expect(denied.status).toBe(401)
    expect(await denied.json()).toEqual({ error: { message: expect.any(String), type: 'invalid_request_error', param: null, code: null } })
  })
})
