import { describe, expect, it } from 'vitest'
import type { CanonicalResponse, StreamEvent, ToolDef } from './types.ts'
import { namespaceRestorer, restoreEventNamespace, restoreNamespaces } from './tool-namespaces.ts'
import { createToolCallSequencer } from './tool-call-order.ts'

const namespace = { name: 'multi_agent_v1', tool: 'close_agent' }
const tools: ToolDef[] = [{ name: 'exec_command' }, { name: 'multi_agent_v1__close_agent', namespace }]
const call = (name: string) => ({ type: 'tool_call' as const, id: 'c1', name, arguments: '{}' })

describe('namespaceRestorer', () => {
  it.each<[string, ToolDef[] | undefined, string, unknown]>([
    ['no tools: nothing to do', undefined, 'x', undefined],
    ['no grouped tool: nothing to do', [{ name: 'exec_command' }], 'exec_command', undefined],
    ['a grouped tool\'s flat name', tools, 'multi_agent_v1__close_agent', namespace],
    ['a plain tool', tools, 'exec_command', null],
    ['a name no tool has', tools, 'other', null],
  ])('%s', (_, defs, name, expected) => {
    const restore = namespaceRestorer(defs)
    if (expected === undefined) return expect(restore).toBeUndefined()
    expect(restore!(name) ?? null).toEqual(expected)
  })
})

describe('restoreNamespaces', () => {
  it('gives grouped calls their namespace, in parts and alternatives, and leaves the rest', () => {
    const response: CanonicalResponse = { id: 'r', model: 'm', finishReason: 'tool_calls', parts: [call('exec_command'), call('multi_agent_v1__close_agent')], alternatives: [{ parts: [call('multi_agent_v1__close_agent')], finishReason: 'tool_calls' }] }
    const restored = restoreNamespaces(response, tools)
    expect(restored.parts).toEqual([call('exec_command'), { ...call('multi_agent_v1__close_agent'), namespace }])
    expect(restored.alternatives![0]!.parts).toEqual([{ ...call('multi_agent_v1__close_agent'), namespace }])
  })

  it('returns the same response when the request declared no grouped tool', () => {
    const response: CanonicalResponse = { id: 'r', model: 'm', finishReason: 'stop', parts: [call('x')] }
    expect(restoreNamespaces(response, [{ name: 'x' }])).toBe(response)
  })

  it('stream: only a grouped tool_call_start changes', () => {
    const restore = namespaceRestorer(tools)!
    const start: StreamEvent = { type: 'tool_call_start', index: 0, id: 'c1', name: 'multi_agent_v1__close_agent' }
    const text: StreamEvent = { type: 'text', index: 1, delta: 'a' }
    expect(restoreEventNamespace(start, restore)).toEqual({ ...start, namespace })
    expect(restoreEventNamespace(text, restore)).toBe(text)
  })

  it('the tool call sequencer keeps the namespace of a held call', () => {
    const sequence = createToolCallSequencer()
    const events: StreamEvent[] = [
      { type: 'tool_call_start', index: 0, id: 'a', name: 'exec_command' },
      { type: 'tool_call_start', index: 1, id: 'b', name: 'multi_agent_v1__close_agent', namespace },
      { type: 'tool_call_delta', index: 1, delta: '{}' },
      { type: 'finish', reason: 'tool_calls' },
    ]
    const out = events.flatMap(sequence)
    expect(out.find(event => event.type === 'tool_call_start' && event.index === 1)).toMatchObject({ namespace })
  })
})
