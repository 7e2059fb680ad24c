import type { CanonicalRequest, StreamEvent } from '../../core/canonical/types.ts'

const png = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg=='

/** Canonical requests that every format can express. */
export const requestFixtures: Array<{ name: string; request: CanonicalRequest }> = [
  {
    name: 'system prompt and multi-turn history',
    request: {
      model: 'm', stream: false, maxTokens: 300, temperature: 0.5, topP: 0.9,
      messages: [
        { role: 'system', parts: [{ type: 'text', text: 'Be brief.' }] },
        { role: 'user', parts: [{ type: 'text', text: 'Hi' }] },
        { role: 'assistant', parts: [{ type: 'text', text: 'Hello!' }] },
        { role: 'user', parts: [{ type: 'text', text: 'How are you?' }] },
      ],
    },
  },
  {
    name: 'image by value',
    request: { model: 'm', stream: false, maxTokens: 100, messages: [{ role: 'user', parts: [{ type: 'text', text: 'What is this?' }, { type: 'image', mediaType: 'image/png', data: png }] }] },
  },
  {
    name: 'tools, parallel calls and several results in one turn',
    request: {
      model: 'm', stream: true, toolChoice: 'auto', maxTokens: 100,
      tools: [{ name: 'get_weather', description: 'Weather', parameters: { type: 'object', properties: { city: { type: 'string' } } } }, { name: 'get_time', parameters: { type: 'object', properties: {} } }],
      messages: [
        { role: 'user', parts: [{ type: 'text', text: 'Weather and time in Paris?' }] },
        { role: 'assistant', parts: [{ type: 'tool_call', id: 'call_1', name: 'get_weather', arguments: '{"city":"Paris"}' }, { type: 'tool_call', id: 'call_2', name: 'get_time', arguments: '{}' }] },
        { role: 'tool', parts: [{ type: 'tool_result', callId: 'call_1', name: 'get_weather', content: 'sunny' }, { type: 'tool_result', callId: 'call_2', name: 'get_time', content: '10:00' }] },
        { role: 'user', parts: [{ type: 'text', text: 'Thanks' }] },
      ],
    },
  },
  {
    name: 'a named tool choice',
    request: { model: 'm', stream: false, maxTokens: 100, toolChoice: { name: 'get_weather' }, tools: [{ name: 'get_weather', parameters: { type: 'object', properties: {} } }], messages: [{ role: 'user', parts: [{ type: 'text', text: 'x' }] }] },
  },
]

/** Canonical streams: text, then a tool call whose arguments arrive in pieces. */
export const streamFixtures: Array<{ name: string; events: StreamEvent[] }> = [
  {
    name: 'text',
    events: [
      { type: 'start', id: 'x', model: 'm' },
      { type: 'text', index: 0, delta: 'Hello ' },
      { type: 'text', index: 0, delta: 'world' },
      { type: 'finish', reason: 'stop', usage: { inputTokens: 10, outputTokens: 2 } },
    ],
  },
  {
    name: 'tool call first (no text before it)',
    events: [
      { type: 'start', id: 'x', model: 'm' },
      { type: 'tool_call_start', index: 0, id: 'call_9', name: 'get_weather' },
      { type: 'tool_call_delta', index: 0, delta: '{"city":' },
      { type: 'tool_call_delta', index: 0, delta: '"Oslo"}' },
      { type: 'finish', reason: 'tool_calls', usage: { inputTokens: 10, outputTokens: 5 } },
    ],
  },
  {
    name: 'text then two parallel tool calls',
    events: [
      { type: 'start', id: 'x', model: 'm' },
      { type: 'text', index: 0, delta: 'Checking.' },
      { type: 'tool_call_start', index: 1, id: 'call_a', name: 'get_weather' },
      { type: 'tool_call_delta', index: 1, delta: '{"city":"Rome"}' },
      { type: 'tool_call_start', index: 2, id: 'call_b', name: 'get_time' },
      { type: 'tool_call_delta', index: 2, delta: '{}' },
      { type: 'finish', reason: 'tool_calls', usage: { inputTokens: 7, outputTokens: 9 } },
    ],
  },
]
