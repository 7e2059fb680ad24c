import { describe, expect, it } from 'vitest'
import { unwrapCliRequest, wrapCliRequest, wrapCliResponse } from './cli-envelope.ts'
import { generateCodec } from './index.ts'

describe('alpha-cli envelope', () => {
  it('wraps and unwraps a request', () => {
    const body = { contents: [{ role: 'user', parts: [{ text: 'hi' }] }] }
    const wrapped = wrapCliRequest('gemini-2.5-pro', 'proj-1', body)
    expect(wrapped).toEqual({ model: 'gemini-2.5-pro', project: 'proj-1', request: body })
    expect(unwrapCliRequest(wrapped)).toEqual({ model: 'gemini-2.5-pro', project: 'proj-1', request: body })
    expect(unwrapCliRequest(body)).toEqual({ request: body })
  })

  it('responses and stream chunks decode through the envelope', () => {
    const inner = { candidates: [{ content: { role: 'model', parts: [{ text: 'hello' }] }, finishReason: 'STOP' }], usageMetadata: { promptTokenCount: 3, candidatesTokenCount: 1, totalTokenCount: 4 } }
    expect(generateCodec.response.decode(wrapCliResponse(inner)).parts).toEqual([{ type: 'text', text: 'hello' }])
    const decoder = generateCodec.stream.createDecoder()
    const events = [...decoder.push({ data: JSON.stringify(wrapCliResponse(inner)) }), ...decoder.end()]
    expect(events.map(event => event.type)).toEqual(['start', 'text', 'finish'])
  })
})
