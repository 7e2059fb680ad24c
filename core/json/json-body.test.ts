import { describe, expect, it } from 'vitest'
import { ClientBody } from './client-body.ts'
import { JsonBody } from './json-body.ts'

describe('JsonBody', () => {
  const bytes = Buffer.from('{ "model" : "m", "messages": [] }')
  const lazy = () => new JsonBody(new ClientBody(bytes))

  it('untouched, it is the client bytes (the same Buffer: the recorder keeps one blob)', () => {
    const body = lazy()
    expect(body.bytes()).toBe(bytes)
    expect(body.asClientSent).toBe(true)
  })

  it('a read, a replacement or an edit hands over to writing its value', () => {
    const uses: Array<[(body: JsonBody) => unknown, unknown]> = [
      [body => body.read(), { model: 'm', messages: [] }],
      [body => body.replace({ a: 1 }), { a: 1 }],
      [body => body.edit(json => { json.extra = 1 }), { model: 'm', messages: [], extra: 1 }],
      [body => body.edit(({ model: _model, ...rest }) => rest), { messages: [] }],
      [body => body.set('model', 'n'), { model: 'n', messages: [] }],
    ]
    for (const [use, value] of uses) {
      const body = lazy()
      use(body)
      expect(body.asClientSent).toBe(false)
      expect(JSON.parse(body.bytes().toString())).toEqual(value)
    }
  })

  it('an edit never changes the client\'s parsed object', () => {
    const client = new ClientBody(bytes)
    const body = new JsonBody(client)
    body.edit(json => { delete json.model })
    expect(client.object()).toEqual({ model: 'm', messages: [] })
  })

  it('a field the client did not send is written in front of its bytes, nothing parsed', () => {
    const client = new ClientBody(bytes)
    const body = new JsonBody(client).set('stream_options', { include_usage: true })
    expect(client.parsed).toBe(false)
    expect(body.bytes().toString()).toBe(`{"stream_options":{"include_usage":true},${bytes.toString().slice(1)}`)
    // Read afterwards: the value has the field too, in the same place.
    expect(Object.keys(body.read())).toEqual(['stream_options', 'model', 'messages'])
    expect(new JsonBody(new ClientBody(Buffer.from('{}'))).set('a', 1).bytes().toString()).toBe('{"a":1}')
  })

  it('written once, until it changes again', () => {
    const body = new JsonBody({ a: 1 })
    const first = body.bytes()
    expect(body.bytes()).toBe(first)
    body.set('b', 2)
    expect(body.bytes().toString()).toBe('{"a":1,"b":2}')
  })
})
