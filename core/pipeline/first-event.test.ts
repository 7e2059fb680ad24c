import { describe, expect, it } from 'vitest'
import { firstEvent, firstEventError, firstEventOffset } from './first-event.ts'
import { chatCodec } from '../../providers/compat/codec/index.ts'
import { messagesCodec } from '../../providers/beta/codec/index.ts'
import { responsesCodec } from '../../providers/gamma/codec/index.ts'
import { generateCodec } from '../../providers/alpha/codec/index.ts'
import type { WireCodec } from '../canonical/codec.ts'

describe('firstEventOffset', () => {
  it.each([
    ['a data event', 'data: {"a":1}\n\n', 0],
    ['an event with its name', 'event: message_start\ndata: {"type":"message_start"}\n\n', 0],
    ['[DONE]', 'data: [DONE]\n\n', 0],
    ['a comment first', ': keep-alive\n\ndata: {}\n\n', 14],
    ['junk that is not SSE first', '<html>oops</html>\n\ndata: {}\r\n\r\n', 19],
    ['CRLF blocks', ': x\r\n\r\ndata: {"b":2}\r\n\r\n', 7],
    ['data without a space', 'data:{"c":3}\n\n', 0],
    ['multi-line data', 'data: {"d":\ndata: 4}\n\n', 0],
    ['LF lines, a CRLF blank line', ': x\n\r\ndata: {"e":5}\n\r\n', 6],
    ['LF lines, a CR blank line', 'data: {"f":6}\n\r', 0],
    ['nothing but comments', ': a\n\n: b\n\n', undefined],
    ['junk only', '\u0000\u0007garbage }{ \r\nmore garbage\n\n\n', undefined],
  ])('%s', (_name, text, offset) => {
    expect(firstEventOffset(text)).toBe(offset)
  })

  it.each([
    ['JSON cut off', 'data: {"id":\n\n'],
    ['HTML as data', 'data: <html>\n\n'],
    ['after a comment', ': hi\n\ndata: {"x"\n\n'],
  ])('%s: throws', (_name, text) => {
    expect(() => firstEventOffset(text)).toThrow(/not valid JSON/)
  })
})

describe('firstEvent', () => {
  it('gives the frame, its name included, and where the next event may start', () => {
    expect(firstEvent(': x\n\nevent: error\ndata: {"type":"error"}\n\n')).toEqual({ at: 5, next: 42, frame: { event: 'error', data: '{"type":"error"}' } })
    expect(firstEvent('data:{"a":1}\n\ndata: 2')).toEqual({ at: 0, next: 14, frame: { data: '{"a":1}' } })
  })
})

const codecs: Record<string, WireCodec> = { compat: chatCodec, beta: messagesCodec, gamma: responsesCodec, alpha: generateCodec }

describe('firstEventError', () => {
  it.each([
    ['compat', 'an error with an HTTP code', { data: '{"error":{"message":"busy","type":"server_error","code":503}}' }, 503],
    ['compat', 'a rate limit by type', { data: '{"error":{"message":"slow down","type":"rate_limit_error","code":null}}' }, 429],
    ['compat', 'insufficient quota', { data: '{"error":{"message":"pay","type":"insufficient_quota"}}' }, 429],
    ['compat', 'a code that is no HTTP status', { data: '{"error":{"message":"x","type":"server_error","code":1234}}' }, 500],
    ['compat', 'a string code', { data: '{"error":{"message":"x","code":"upstream_failed"}}' }, 502],
    ['compat', 'an answer chunk', { data: '{"id":"c","choices":[{"index":0,"delta":{"content":"error"}}]}' }, undefined],
    ['compat', '[DONE]', { data: '[DONE]' }, undefined],
    ['compat', 'an error key spelled with an escape (JSON.parse reads it)', { data: '{"\\u0065rror":{"message":"busy","type":"server_error","code":503}}' }, 503],
    ['beta', 'overloaded', { event: 'error', data: '{"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}' }, 529],
    ['beta', 'rate limited', { event: 'error', data: '{"type":"error","error":{"type":"rate_limit_error","message":"slow"}}' }, 429],
    ['beta', 'an api error', { event: 'error', data: '{"type":"error","error":{"type":"api_error","message":"oops"}}' }, 500],
    ['beta', 'message_start', { event: 'message_start', data: '{"type":"message_start","message":{"id":"m","model":"x","usage":{"input_tokens":1}}}' }, undefined],
    ['beta', 'a ping', { event: 'ping', data: '{"type":"ping"}' }, undefined],
    ['gamma', 'response.failed', { data: '{"type":"response.failed","response":{"id":"r","status":"failed","error":{"code":"server_error","message":"down"}}}' }, 500],
    ['gamma', 'response.failed, rate limited', { data: '{"type":"response.failed","response":{"id":"r","error":{"code":"rate_limit_exceeded","message":"slow"}}}' }, 429],
    ['gamma', 'a flat error event', { event: 'error', data: '{"type":"error","code":"rate_limit_exceeded","message":"slow","param":null}' }, 429],
    ['gamma', 'a nested error event', { data: '{"type":"error","error":{"type":"invalid_request_error","code":"overloaded","message":"busy"}}' }, 529],
    ['gamma', 'a client error by its code alone', { event: 'error', data: '{"type":"error","code":"context_length_exceeded","message":"too long","param":null}' }, 400],
    ['gamma', 'response.created', { data: '{"type":"response.created","response":{"id":"r","status":"in_progress","error":null}}' }, undefined],
    ['alpha', 'RESOURCE_EXHAUSTED', { data: '{"error":{"code":429,"message":"quota","status":"RESOURCE_EXHAUSTED"}}' }, 429],
    ['alpha', 'UNAVAILABLE', { data: '{"error":{"code":503,"message":"overloaded","status":"UNAVAILABLE"}}' }, 503],
    ['alpha', 'a status name only', { data: '{"error":{"message":"quota","status":"RESOURCE_EXHAUSTED"}}' }, 429],
    ['alpha', 'a candidate', { data: '{"candidates":[{"content":{"parts":[{"text":"hi"}]}}]}' }, undefined],
  ])('%s: %s', (family, _name, frame, status) => {
    const error = firstEventError(codecs[family]!, frame)
    expect(error?.status).toBe(status)
    if (error) expect(error.data).toBe(frame.data)
  })

  it("takes the decoder's status, a bad gateway's when it is no HTTP error status (a plugin's decoder)", () => {
    const erring = (status: number): WireCodec => ({ ...chatCodec, stream: { ...chatCodec.stream, createDecoder: () => ({ push: () => [{ type: 'error', status, message: 'x' }], end: () => [] }) } })
    const frame = { data: '{"error":{}}' }
    expect(firstEventError(erring(418), frame)?.status).toBe(418)
    expect(firstEventError(erring(200), frame)?.status).toBe(502)
    expect(firstEventError(erring(0), frame)?.status).toBe(502)
  })
})
