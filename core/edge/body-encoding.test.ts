import { brotliCompressSync, deflateSync, gzipSync } from 'node:zlib'
import { describe, expect, it } from 'vitest'
import { decodeBody } from './body-encoding.ts'

const json = Buffer.from('{"model":"m","messages":[{"role":"user","content":"hi"}]}')

describe('decodeBody', () => {
  it('reads the codings in the header, identity being none, names in any case', async () => {
    expect(await decodeBody(json, ' Identity ', 10)).toBe(json)
    expect(await decodeBody(json, ', identity,', 10)).toBe(json)
    expect(await decodeBody(gzipSync(deflateSync(json)), 'deflate, GZIP', 1 << 20)).toEqual(json)
  })

  it.each([['gzip', gzipSync], ['x-gzip', gzipSync], ['deflate', deflateSync], ['br', brotliCompressSync]] as const)('undoes %s', async (coding, encode) => {
    expect(await decodeBody(encode(json), coding, 1 << 20)).toEqual(json)
  })

  it('undoes several codings, the last applied first', async () => {
    expect(await decodeBody(gzipSync(deflateSync(json)), 'deflate, gzip', 1 << 20)).toEqual(json)
  })

  it('leaves a body without codings (or identity) as it is', async () => {
    expect(await decodeBody(json, undefined, 10)).toBe(json)
    expect(await decodeBody(json, 'identity', 10)).toBe(json)
  })

  it('refuses an unknown coding with a 415, corrupt data with a 400', async () => {
    await expect(decodeBody(json, 'compress', 1 << 20)).rejects.toMatchObject({ status: 415, code: 'unsupported_content_encoding' })
    await expect(decodeBody(json, 'gzip', 1 << 20)).rejects.toMatchObject({ status: 400, code: 'invalid_content_encoding' })
  })

  it('holds the decoded size to the body limit: a 1 KB gzip of 10 MB of zeros is a 413', async () => {
    const bomb = gzipSync(Buffer.alloc(10 << 20))
    expect(bomb.length).toBeLessThan(20_000)
    await expect(decodeBody(bomb, 'gzip', 1 << 20)).rejects.toMatchObject({ status: 413 })
    expect((await decodeBody(bomb, 'gzip', 10 << 20)).length).toBe(10 << 20)
  })
})
