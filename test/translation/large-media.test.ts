import { describe, expect, it } from 'vitest'
import fc from 'fast-check'
import { codecs } from '../conformance/codecs.ts'
import { ClientBody } from '../../core/json/index.ts'
import { jsonBytes } from '../../core/json/json-bytes.ts'

/**
 * Images and files large enough for the writer to copy the client's bytes of their base64
 * (core/json/derived-strings.ts, raw-strings.ts), in every client format to every upstream format: the
 * written bytes must mean what JSON.stringify of the upstream body means, however the client spelled
 * its JSON (escaped `/`, escaped letters, escapes in the data URL's header) and whatever the media type.
 */
const base64Chars = fc.constantFrom(...'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/')
const spellings = {
  plain: (c: string) => c,
  slash: (c: string) => c === '/' ? '\\/' : c,
  letters: (c: string) => c === 'A' ? '\\u0041' : c === '/' ? '\\/' : c,
}
/** A JSON string token for `text`, spelled the way `spell` writes each character (JSON.stringify's escapes otherwise). */
const token = (text: string, spell: (c: string) => string) => `"${[...text].map(c => JSON.stringify(c).slice(1, -1) === c ? spell(c) : JSON.stringify(c).slice(1, -1)).join('')}"`

const bodies: Record<string, (media: { type: string; data: string; spell: (c: string) => string; headerSpell: (c: string) => string }) => string> = {
  messages: ({ type, data, spell }) => `{"model":"m","max_tokens":10,"messages":[{"role":"user","content":[{"type":"image","source":{"type":"base64","media_type":${JSON.stringify(type)},"data":${token(data, spell)}}},{"type":"document","source":{"type":"base64","media_type":"application/pdf","data":${token(data, spell)}}},{"type":"text","text":"look"}]}]}`,
  chat: ({ type, data, spell, headerSpell }) => `{"model":"m","messages":[{"role":"user","content":[{"type":"image_url","image_url":{"url":${token(`data:${type};base64,`, headerSpell).slice(0, -1)}${token(data, spell).slice(1)}}},{"type":"file","file":{"filename":"a.pdf","file_data":${token('data:application/pdf;base64,', headerSpell).slice(0, -1)}${token(data, spell).slice(1)}}},{"type":"text","text":"look"}]}]}`,
  responses: ({ type, data, spell, headerSpell }) => `{"model":"m","input":[{"role":"user","content":[{"type":"input_image","image_url":${token(`data:${type};base64,`, headerSpell).slice(0, -1)}${token(data, spell).slice(1)}},{"type":"input_file","filename":"a.pdf","file_data":${token('data:application/pdf;base64,', headerSpell).slice(0, -1)}${token(data, spell).slice(1)}},{"type":"input_text","text":"look"}]}]}`,
  generate: ({ type, data, spell }) => `{"model":"m","contents":[{"role":"user","parts":[{"inlineData":{"mimeType":${JSON.stringify(type)},"data":${token(data, spell)}}},{"inlineData":{"mimeType":"application/pdf","data":${token(data, spell)}}},{"text":"look"}]}]}`,
}

describe.each(codecs.map(codec => codec.format))('a %s client\'s large image and file', (client) => {
  const decode = codecs.find(codec => codec.format === client)!.request.decode
  it.each(codecs.map(codec => codec.format))('to %s: the bytes mean what JSON.stringify writes', (upstream) => {
    const encode = codecs.find(codec => codec.format === upstream)!.request.encode
    fc.assert(fc.property(
      fc.array(base64Chars, { minLength: 300, maxLength: 300 }).map(chars => chars.join('').repeat(60)),
      fc.constantFrom('image/png', 'image/jpeg', 'image/webp'),
      fc.constantFrom(...Object.keys(spellings) as Array<keyof typeof spellings>),
      fc.constantFrom(...Object.keys(spellings) as Array<keyof typeof spellings>),
      (data, type, spelling, headerSpelling) => {
        const json = bodies[client]!({ type, data, spell: spellings[spelling], headerSpell: spellings[headerSpelling] })
        const body = new ClientBody(Buffer.from(json), `media-${client}-${upstream}`)
        const encoded = encode(decode(body.object()))
        const written = jsonBytes(encoded, body.rawStrings).toString()
        expect(JSON.parse(written)).toStrictEqual(JSON.parse(JSON.stringify(encoded)))
        // The client's own spelling was copied, except where a data URL's header was spelled with escapes
        // (a cut there would not fall between the same characters: written anew, as the first check shows).
        const headerPlain = headerSpelling === 'plain' || client === 'messages' || client === 'generate'
        if (headerPlain) expect(written).toContain(data.slice(0, 40).replaceAll('/', spelling === 'plain' ? '/' : '\\/').replaceAll('A', spelling === 'letters' ? '\\u0041' : 'A'))
      },
    ), { numRuns: 12 })
  })
})
