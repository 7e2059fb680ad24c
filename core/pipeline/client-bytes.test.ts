import { describe, expect, it } from 'vitest'
import { clientBytesUsable } from './client-bytes.ts'

describe('clientBytesUsable', () => {
  it.each([
    ['a plain chat body', 'chat', '{"model":"m","messages":[{"role":"user","content":"hi"}]}', true],
    ['two model keys', 'chat', '{"model":"cheap","messages":[],"model":"dear"}', false],
    ['two model keys, spaced', 'messages', '{ "model" : "a", "max_tokens": 1, "model" : "b" }', false],
    ['"model" quoted inside a string', 'chat', '{"model":"m","messages":[{"role":"user","content":"set \\"model\\" to x"}]}', true],
    ['a string value that is exactly "model"', 'responses', '{"model":"m","input":"model"}', true],
    ['a tool schema with a model property (Claude Code\'s Agent tool)', 'messages', '{"model":"m","tools":[{"name":"Agent","input_schema":{"properties":{"model":{"type":"string"}}}}]}', true],
    ['a nested model key before the top-level one', 'chat', '{"metadata":{"model":"x"},"messages":[],"model":"m"}', true],
    ['a second top-level key spelled with an escape', 'chat', '{"model":"cheap","mod\\u0065l":"dear"}', false],
    ['an escaped key that is not model', 'chat', '{"model":"m","mod\\u0065":"x","messages":[]}', true],
    ['escaped quotes and backslashes before a duplicate', 'messages', '{"model":"a","system":"say \\"}\\\\","model":"b"}', false],
    ['a duplicate after a nested array of objects', 'responses', '{"model":"a","input":[{"type":"x","content":[{"model":1}]}],"model":"b"}', false],
    ['generateContent model turns', 'generate', '{"contents":[{"role":"user"},{"role":"model"},{"role":"model"}]}', true],
    ['no model key at all', 'chat', '{"messages":[]}', true],
  ] as const)('%s -> %s', (_name, format, text, expected) => {
    // generateContent names the model in its URL (its codec's `modelIn: 'url'`).
    expect(clientBytesUsable(text, format !== 'generate')).toBe(expected)
  })
})
