import { describe, expect, it } from 'vitest'
import { type CanonicalResponse, type StreamEvent, RequestValidationError } from 'model-proxy'
import { flatToolName, maxToolName } from './namespace-tools.ts'
import { decodeRequest } from './request-decode.ts'
import { encodeRequest } from './request-encode.ts'
import { encodeResponse } from './response-encode.ts'
import { decodeResponse } from './response-decode.ts'
import { createStreamEncoder } from './stream-encode.ts'
import { frames } from './test-utils.ts'

const fn = (name: string, extra: Record<string, unknown> = {}) => ({ type: 'function', name, description: `does ${name}`, strict: false, parameters: { type: 'object', properties: {} }, ...extra })
const agents = { type: 'namespace', name: 'multi_agent_v1', description: 'Agents.', tools: [fn('close_agent'), fn('spawn_agent')] }
const decode = (body: Record<string, unknown>) => decodeRequest({ model: 'm', input: 'hi', ...body })

describe('flatToolName', () => {
  const long = 'x'.repeat(70)
  it.each<[string, string, string, string]>([
    ['plain join', 'multi_agent_v1', 'close_agent', 'multi_agent_v1__close_agent'],
    ['an MCP namespace ends in the delimiter: not doubled', 'mcp__proxy__', 'echo', 'mcp__proxy__echo'],
    ['leading underscores of the tool are trimmed', 'ns', '__t', 'ns__t'],
    ['characters no format accepts become _', 'my.ns', 'do:it', 'my_ns__do_it'],
  ])('%s', (_, namespace, tool, flat) => expect(flatToolName(namespace, tool)).toBe(flat))

  it('a name over 64 characters is cut and hashed, the same every time, distinct per pair', () => {
    const a = flatToolName(long, 'a')
    expect(a).toHaveLength(maxToolName)
    expect(a).toMatch(/^x+_[0-9a-f]{10}$/)
    expect(flatToolName(long, 'a')).toBe(a)
    expect(flatToolName(long, 'b')).not.toBe(a)
  })

  it('a name already taken gets the hashed form', () => {
    const flat = flatToolName('ns', 't', new Set(['ns__t']))
    expect(flat).toMatch(/^ns__t_[0-9a-f]{10}$/)
  })
})

describe('request decode: namespace tools', () => {
  it('flattens a namespace into function tools that keep it, and reports nothing dropped', () => {
    const request = decode({ tools: [fn('exec_command'), agents] })
    expect(request.tools).toEqual([
      { name: 'exec_command', description: 'does exec_command', parameters: { type: 'object', properties: {} }, strict: false },
      { name: 'multi_agent_v1__close_agent', description: 'does close_agent', parameters: { type: 'object', properties: {} }, strict: false, namespace: { name: 'multi_agent_v1', tool: 'close_agent' } },
      { name: 'multi_agent_v1__spawn_agent', description: 'does spawn_agent', parameters: { type: 'object', properties: {} }, strict: false, namespace: { name: 'multi_agent_v1', tool: 'spawn_agent' } },
    ])
    expect(request.unmapped ?? []).not.toContain('tool:namespace')
  })

  it('a flat name never takes a plain tool\'s name, even one listed after the namespace', () => {
    const request = decode({ tools: [agents, fn('multi_agent_v1__close_agent')] })
    const names = request.tools!.map(tool => tool.name)
    expect(new Set(names).size).toBe(names.length)
    expect(names[0]).toMatch(/^multi_agent_v1__close_agent_[0-9a-f]{10}$/)
  })

  it('other tool types inside a namespace are dropped for other formats and reported', () => {
    const request = decode({ tools: [{ type: 'namespace', name: 'ns', tools: [fn('a'), { type: 'custom', name: 'patch' }] }] })
    expect(request.tools!.map(tool => tool.name)).toEqual(['ns__a'])
    expect(request.unmapped).toContain('tool:custom')
  })

  it.each<[string, unknown, string]>([
    ['a namespace without a name', { type: 'namespace', tools: [] }, 'tools[0].name'],
    ['tools that are not an array', { type: 'namespace', name: 'ns', tools: {} }, 'tools[0].tools'],
    ['a nested tool without a type', { type: 'namespace', name: 'ns', tools: [{ name: 'a' }] }, 'tools[0].tools[0]'],
    ['a nested function without a name', { type: 'namespace', name: 'ns', tools: [{ type: 'function' }] }, 'tools[0].tools[0].name'],
  ])('rejects %s', (_, tool, param) => {
    expect(() => decode({ tools: [tool] })).toThrow(RequestValidationError)
    try { decode({ tools: [tool] }) } catch (error) { expect((error as RequestValidationError).param).toBe(param) }
  })

  it('a call of a namespaced tool in the conversation takes the flat name its definition got', () => {
    const request = decode({
      tools: [agents],
      input: [{ type: 'function_call', call_id: 'c1', namespace: 'multi_agent_v1', name: 'close_agent', arguments: '{}' }, { type: 'function_call_output', call_id: 'c1', output: 'ok' }],
    })
    expect(request.messages).toEqual([
      { role: 'assistant', parts: [{ type: 'tool_call', id: 'c1', name: 'multi_agent_v1__close_agent', arguments: '{}', namespace: { name: 'multi_agent_v1', tool: 'close_agent' } }] },
      { role: 'tool', parts: [{ type: 'tool_result', callId: 'c1', name: 'multi_agent_v1__close_agent', content: 'ok' }] },
    ])
  })
})

describe('round trip to a responses upstream', () => {
  it('the namespace comes back nested, in order, with its calls named its way', () => {
    const body = {
      tools: [fn('exec_command'), agents, { type: 'web_search' }],
      input: [{ type: 'function_call', call_id: 'c1', namespace: 'multi_agent_v1', name: 'close_agent', arguments: '{}' }],
    }
    const wire = encodeRequest(decode(body))
    expect(wire.tools).toEqual(body.tools)
    expect((wire.input as unknown[])[0]).toEqual({ type: 'function_call', call_id: 'c1', name: 'close_agent', namespace: 'multi_agent_v1', arguments: '{}' })
  })

  it('an upstream\'s namespaced call decodes to its flat name and encodes back the same', () => {
    const item = { id: 'fc_1', type: 'function_call', call_id: 'c1', name: 'close_agent', namespace: 'multi_agent_v1', arguments: '{}', status: 'completed' }
    const response = decodeResponse({ id: 'resp_1', model: 'm', status: 'completed', output: [item] })
    expect(response.parts).toEqual([{ type: 'tool_call', id: 'c1', name: 'multi_agent_v1__close_agent', arguments: '{}', namespace: { name: 'multi_agent_v1', tool: 'close_agent' } }])
  })
})

describe('encoders: a call of a namespaced tool', () => {
  const namespace = { name: 'mcp__proxy__', tool: 'echo' }
  it('non-stream: name and namespace on the function_call item', () => {
    const response: CanonicalResponse = { id: 'r1', model: 'm', finishReason: 'tool_calls', parts: [{ type: 'tool_call', id: 'c1', name: 'mcp__proxy__echo', arguments: '{"text":"hi"}', namespace }] }
    const [item] = encodeResponse(response).output as Array<Record<string, unknown>>
    expect(item).toMatchObject({ type: 'function_call', call_id: 'c1', name: 'echo', namespace: 'mcp__proxy__', arguments: '{"text":"hi"}' })
  })

  it('stream: the added and done items and the arguments.done event name it the same way', () => {
    const encoder = createStreamEncoder({ model: 'm' })
    const events: StreamEvent[] = [
      { type: 'start', id: 'r1', model: 'm' },
      { type: 'tool_call_start', index: 0, id: 'c1', name: 'mcp__proxy__echo', namespace },
      { type: 'tool_call_delta', index: 0, delta: '{"text":"hi"}' },
      { type: 'finish', reason: 'tool_calls' },
    ]
    const out = frames(events.map(event => encoder.push(event)).join('') + encoder.end())
    const named = (type: string) => out.find(f => f.data.type === type)!.data
    expect(named('response.output_item.added').item).toMatchObject({ name: 'echo', namespace: 'mcp__proxy__' })
    expect(named('response.output_item.done').item).toMatchObject({ name: 'echo', namespace: 'mcp__proxy__', arguments: '{"text":"hi"}' })
    expect(named('response.function_call_arguments.done')).toMatchObject({ name: 'echo', namespace: 'mcp__proxy__' })
    expect(named('response.completed').response.output[0]).toMatchObject({ name: 'echo', namespace: 'mcp__proxy__' })
  })
})
