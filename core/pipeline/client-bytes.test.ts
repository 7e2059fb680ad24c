import { describe, expect, it } from 'vitest'
import { clientBytesUsable } from './client-bytes.ts'

describe('clientBytesUsable', () => {
  it.each([
    ['a plain chat body', 'chat', '{"model":"m","messages":[{"role":"user","content":"hi"}]}', true],
    ['two model keys', 'chat', '{"model":"cheap","messages":[],"model":"dear"}', false],
    ['two model keys, spaced', 'messages', '{ "model" : "a", "max_tokens": 1, "model" : "b" }', false],
    ['"model" quoted inside a string', 'chat', '{"model":"m","messages":[{"role":"user","content":"set \\"model\\" to x"}]}', true],
    ['a string value that is exactly "model"', 'responses', '{"model":"m","input":"model"}', false],
    ['generateContent model turns', 'generate', '{"contents":[{"role":"user"},{"role":"model"},{"role":"model"}]}', true],
    ['no model key at all', 'chat', '{"messages":[]}', true],
  ] as const)('%s -> %s', (_name, format, text, expected) => {
    // generateContent names the model in its URL (its codec's `modelIn: 'url'`).
    expect(clientBytesUsable(text, format !== 'generate')).toBe(expected)
  })
})
