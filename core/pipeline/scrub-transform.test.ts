import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { Readable } from 'node:stream'
import { maskedTransform, scrubReadable } from './scrub-transform.ts'
import type { StreamTransform } from './stream-transform.ts'
import type { Credential } from '../provider/credential.ts'
import { startMockUpstream, type MockUpstream } from '../../test/helpers/mock-openai-server.ts'
import { startTestProxy, type TestProxy } from '../../test/helpers/proxy-server.ts'
import { openaiMock } from '../../playground/mock-upstream/openai.ts'

const key = 'up-key-0123456789abcdef/Zq+x9'
/** A credential header the operator configured (a gateway's own token). */
const orgToken = 'org-token-9876543210fedcba'
const credential = { apiKey: key } as Credential
/** A transform that passes bytes as they come. */
const identity = (): StreamTransform => ({ push: chunk => chunk, end: () => undefined, fail: () => undefined, settle: () => true, primed: true, complete: false, delivered: 0 })
/** The bytes `scrubReadable` gives for `chunks` fed one by one. */
const scrubbed = async (chunks: string[]) => {
  const out: Buffer[] = []
  for await (const chunk of scrubReadable(Readable.from(chunks.map(chunk => Buffer.from(chunk))), [key])) out.push(chunk as Buffer)
  return Buffer.concat(out).toString()
}

describe('scrubReadable (an answer piped as it is)', () => {
  it('masks the key, plain or encoded, wherever the chunks cut it, and keeps every other byte', async () => {
    const text = `data: {"text":"${key} and ${encodeURIComponent(key)} and ${Buffer.from(key).toString('base64')}"}\n\n`
    for (let cut = 1; cut < text.length; cut += 3) {
      const out = await scrubbed([text.slice(0, cut), text.slice(cut, cut + 7), text.slice(cut + 7)])
      expect(out).not.toContain('0123456789ab')
      expect(out).not.toContain(Buffer.from(key).toString('base64').slice(4, 20))
      expect(out.startsWith('data: {"text":"up-k...q+x9 and up-k...q+x9')).toBe(true)
    }
    expect(await scrubbed(['no secret here, ', 'u', 'p-'])).toBe('no secret here, up-')
  })
})

describe('maskedTransform (a 200 stream, event by event)', () => {
  it('masks the key as text spells it (plain, URL-encoded, JSON-escaped) in each event, and passes other events as they are', () => {
    const transform = maskedTransform(identity(), credential)
    const event = Buffer.from(`data: {"text":"${key} ${encodeURIComponent(key)} ${JSON.stringify(key).slice(1, -1)} ${key.replaceAll('/', '\\/')}"}\n\n`)
    const out = Buffer.from(transform.push(event)!).toString()
    expect(out).not.toContain('0123456789ab')
    expect(out.match(/up-k\.\.\.q\+x9/g)).toHaveLength(4)
    const plain = Buffer.from('data: {"text":"hello"}\n\n')
    expect(transform.push(plain)).toBe(plain)
  })
})

describe('a 200 answer that quotes the upstream key', () => {
  let upstream: MockUpstream
  let proxy: TestProxy
  beforeAll(async () => {
    // Quotes the key it was sent as the answer's text.
    upstream = await startMockUpstream(async (request) => {
      const body = await request.json() as Record<string, unknown>
      return openaiMock(new Request(request.url, { method: 'POST', headers: request.headers, body: JSON.stringify({ ...body, messages: [{ role: 'user', content: `${request.headers.get('authorization')} ${request.headers.get('x-org-token')}` }] }) }))
    })
    proxy = await startTestProxy({ 'api-keys': ['client'], 'compat-provider': [{ name: 'echo', 'base-url': `${upstream.url}/v1`, headers: { 'x-org-token': orgToken, 'anthropic-version': '2023-06-01' }, 'api-key-entries': [{ 'api-key': key }], models: [{ name: 'm' }] }] })
  })
  afterAll(async () => {
    await proxy.close()
    await upstream.close()
  })

  it.each([['chat', false], ['chat', true], ['messages', false], ['messages', true]] as const)('%s, stream %s: the client gets it masked', async (format, stream) => {
    const path = format === 'chat' ? '/v1/chat/completions' : '/v1/messages'
    const response = await fetch(`${proxy.url}${path}`, { method: 'POST', headers: { authorization: 'Bearer client', 'content-type': 'application/json' }, body: JSON.stringify({ model: 'm', stream, max_tokens: 50, messages: [{ role: 'user', content: 'hi' }] }) })
    const text = await response.text()
    expect(response.status).toBe(200)
    expect(text).toContain('up-k...q+x9')
    expect(text).not.toContain(key.slice(6, 18))
    expect(text).not.toContain('9876543210')
  })
})
