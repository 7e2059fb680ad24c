import { describe, expect, it } from 'vitest'
import type { H3Event } from 'h3'
import { defineObjectState, defineRequestState } from './request-state.ts'
import { createProxyRequest, releaseParsedBody } from '../pipeline/request.ts'
import { ClientBody } from '../json/index.ts'

const event = { context: {} } as unknown as H3Event
const newRequest = (body: Record<string, unknown> | ClientBody) => createProxyRequest(event, { inbound: 'chat', endpoint: 'chat', body })

/** An own accessor on a per-request object keeps it alive through young collections (docs/benchmarks.md). */
const ownAccessors = (value: object) => Object.entries(Object.getOwnPropertyDescriptors(value)).filter(([, d]) => d.get || d.set).map(([key]) => key)

describe('defineRequestState', () => {
  it('keeps one value per request and state, dropped by setting undefined', () => {
    const first = defineRequestState<number>('a')
    const second = defineRequestState<string>('a')
    const one = newRequest({ model: 'm' })
    const two = newRequest({ model: 'm' })
    expect(first.get(one)).toBeUndefined()
    first.set(one, 1)
    second.set(one, 'x')
    expect([first.get(one), second.get(one), first.get(two)]).toEqual([1, 'x', undefined])
    first.set(one, undefined)
    expect(first.get(one)).toBeUndefined()
  })

  it('is invisible to JSON and to string keys', () => {
    const state = defineRequestState<object>('plugin')
    const request = newRequest({ model: 'm' })
    state.set(request, { secret: true })
    expect(Object.keys(request)).not.toContain('plugin')
    expect(JSON.stringify({ ...request, event: undefined })).not.toContain('secret')
  })
})

describe('defineObjectState', () => {
  it('a shared mark is one key wherever it is defined (a Request marked by one module graph, read by another)', () => {
    const here = defineObjectState<Request, string>('test-mark', { shared: true })
    const there = defineObjectState<Request, string>('test-mark', { shared: true })
    const own = defineObjectState<Request, string>('test-mark')
    const request = new Request('http://proxy.internal/v1/chat/completions', { method: 'POST' })
    here.set(request, 'client-key')
    expect([there.get(request), own.get(request)]).toEqual(['client-key', undefined])
    expect(Object.keys(request)).toEqual([])
  })
})

describe('the pipeline request', () => {
  it('has no accessor of its own: body is read through its prototype', () => {
    const request = newRequest({ model: 'm', messages: [] })
    expect(ownAccessors(request)).toEqual([])
    expect(request.body).toEqual({ model: 'm', messages: [] })
  })

  it('parses a client body on first read, and drops the bytes once body is assigned', () => {
    const clientBody = new ClientBody(Buffer.from('{"model":"m","messages":[{"role":"user","content":"hi"}]}'))
    const request = newRequest(clientBody)
    expect(request.model).toBe('m')
    expect(clientBody.parsed).toBe(false)
    expect(request.body.messages).toEqual([{ role: 'user', content: 'hi' }])
    expect(request.clientBody).toBe(clientBody)
    request.body = { model: 'other' }
    expect(request.clientBody).toBeUndefined()
    expect(request.body).toEqual({ model: 'other' })
  })

  it('lets go of the parsed body once a stream answer has started, and reads it again on demand', () => {
    const clientBody = new ClientBody(Buffer.from('{"model":"m","messages":[{"role":"user","content":"hi"}]}'))
    const request = newRequest(clientBody)
    const first = request.body
    request.canonical = { model: 'm', messages: [] } as unknown as NonNullable<typeof request.canonical>
    releaseParsedBody(request)
    expect([request.canonical, clientBody.parsed]).toEqual([undefined, false])
    expect(request.body).toEqual(first)
    expect(request.body).not.toBe(first)
  })

  it('keeps a body a hook replaced', () => {
    const request = newRequest(new ClientBody(Buffer.from('{"model":"m"}')))
    const replaced = { model: 'other' }
    request.body = replaced
    releaseParsedBody(request)
    expect(request.body).toBe(replaced)
  })
})
