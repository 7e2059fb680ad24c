import { describe, expect, it } from 'vitest'
import { ClientBody } from './client-body.ts'
import { JsonBody } from './json-body.ts'
import { joined } from './derived-strings.ts'

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

  it('a field the client did not send is written after its bytes, nothing parsed', () => {
    const client = new ClientBody(bytes)
    const body = new JsonBody(client).set('stream_options', { include_usage: true })
    expect(client.parsed).toBe(false)
    expect(body.bytes().toString()).toBe(`${bytes.toString().slice(0, -1)},"stream_options":{"include_usage":true}}`)
    // Read afterwards: the value has the field too, in the same place (last, as an assignment puts it).
    expect(Object.keys(body.read())).toEqual(['model', 'messages', 'stream_options'])
    expect(new JsonBody(new ClientBody(Buffer.from('{}'))).set('a', 1).bytes().toString()).toBe('{"a":1}')
  })

  it('set on client bytes means what JSON.parse, the assignments and JSON.stringify mean', () => {
    // Each was sent upstream wrong: the first value of a key set twice (JSON.parse keeps the last), `"k":undefined`
    // (not JSON), toJSON called without its key, the value as it was at `set` rather than when written.
    const plain = (text: string, fields: Array<[string, unknown]>) => {
      const body = JSON.parse(text)
      for (const [key, value] of fields) body[key] = value
      return JSON.stringify(body)
    }
    const later = { include_usage: true }
    const cases: Array<[string, Array<[string, unknown]>]> = [
      ['{"model":"m"}', [['k', 1], ['k', 2]]],
      [' \n{ \t}\n', [['k', undefined], ['j', 1]]],
      ['{"model":"m"}', [['k', undefined]]],
      ['{"model":"m"}', [['k', () => 1], ['s', Symbol('s')]]],
      ['{"model":"m","n":{"k":0}}', [['k', { toJSON: (key: string) => `key ${key}` }]]],
      ['{"model":"m"}', [['k', later], ['1', [undefined]]]],
    ]
    for (const [text, fields] of cases) {
      const body = new JsonBody(new ClientBody(Buffer.from(text)))
      for (const [key, value] of fields) body.set(key, value)
      later.include_usage = false
      const sent = body.bytes().toString()
      expect(JSON.parse(sent)).toStrictEqual(JSON.parse(plain(text, fields)))
      expect(JSON.stringify(JSON.parse(sent))).toBe(plain(text, fields))
      expect(JSON.stringify(body.read())).toBe(plain(text, fields))
    }
  })

  it('written again after forgetWritten, once the client\'s parse was released, the bytes are those sent', () => {
    // The flight recorder asks for the bytes after the stream answer released the client's parse: its long strings
    // were gone, and the body was written anew with JSON.stringify's spelling (24 KB recorded for 39 KB sent).
    const client = new ClientBody(Buffer.from(`{"messages":[{"role":"user","content":"${'caf\\u00e9 \\/ '.repeat(3000)}"}]}`), 'forget')
    const body = new JsonBody({ instructions: (client.object().messages as Array<{ content: string }>)[0]!.content }, { scope: 'forget', client })
    const sent = body.bytes()
    body.forgetWritten()
    client.release()
    expect(body.bytes().equals(sent)).toBe(true)
  })

  it('written again after forgetWritten, once other requests\' images moved the derived ring on, the bytes are those sent', () => {
    // A data URL joined from the client's base64 (its `\\/` copied) was written anew, `/` unescaped, by the recorder's bytes().
    const client = new ClientBody(Buffer.from(`{"messages":[{"source":{"data":"${'QUJD\\/'.repeat(5000)}"}}]}`), 'ring')
    const data = (client.object().messages as Array<{ source: { data: string } }>)[0]!.source.data
    const body = new JsonBody({ input: [{ type: 'input_image', image_url: joined('data:image/png;base64,', data) }] }, { scope: 'ring', client })
    const sent = body.bytes()
    body.forgetWritten()
    for (let i = 0; i < 16; i++) joined('data:x;base64,', `${'A'.repeat(20_000)}${i}`)
    expect(body.bytes().equals(sent)).toBe(true)
  })

  it('written once, until it changes again', () => {
    const body = new JsonBody({ a: 1 })
    const first = body.bytes()
    expect(body.bytes()).toBe(first)
    body.set('b', 2)
    expect(body.bytes().toString()).toBe('{"a":1,"b":2}')
  })
})
