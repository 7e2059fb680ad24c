import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startMockUpstream, type MockUpstream } from '../helpers/mock-openai-server.ts'
import { openaiMock } from '../../playground/mock-upstream/openai.ts'
import { startTestProxy, type TestProxy } from '../helpers/proxy-server.ts'
import { startPartnerMock, type PartnerMock } from '../partner/helpers.ts'
import { askEnvelope, openSocket } from '../helpers/ws-client.ts'

/**
 * Issue 18.1 and 18.2: `/v1/ws` envelopes reach client endpoints only, and a model call over any
 * WebSocket is served only to a valid client key (or, with no `api-keys`, to a loopback client that is
 * not a cross-site page), whatever `ws-auth` says: the spec's open socket does not open the credentials.
 */

let upstream: MockUpstream
let partner: PartnerMock
let proxy: TestProxy
const partnerKey = 'partner-secret-key'
const chat = { model: 'm', messages: [{ role: 'user', content: 'ws' }] }

beforeAll(async () => {
  upstream = await startMockUpstream(openaiMock)
  partner = await startPartnerMock()
  proxy = await startTestProxy({
    'api-keys': ['k'],
    partner: { 'upstream-url': partner.url, 'upstream-api-key': partnerKey },
    'compat-provider': [{ name: 'mock', 'base-url': `${upstream.url}/v1`, 'api-key-entries': [{ 'api-key': 'up' }], models: [{ name: 'mock-gpt', alias: 'm' }] }],
  })
})
afterAll(async () => {
  await proxy?.close()
  await partner?.close()
  await upstream?.close()
})

const wsUrl = (path: string) => proxy.url.replace('http', 'ws') + path

describe('/v1/ws envelope paths resolve to client endpoints only', () => {
  const escapes = [
    '/v1beta/models/..\\..\\..\\api\\user\\profile:generateContent',
    '/v1beta/models/..\\..\\api/user/profile:generateContent',
    '/v1beta/models/%2e%2e/%2e%2e/api/user/profile:generateContent',
    '/v1beta/models/.%2E/.%2e/api/user/profile:countTokens',
    '/v1/chat/completions/../../api/user/profile',
    '/v1/messages\\..\\..\\api\\internal\\x',
    '/v1/chat/completions/..%2f..%2fapi/user/profile',
    '\\\\partner.example/api/user/profile',
    '//partner.example/api/user/profile',
    'http://partner.example/v1/chat/completions',
    '/v1beta/models/x:generateContent/../../../../threads',
    '/v1/ws',
    '/v0/management/config',
  ]

  it.each(escapes)('%s: 404 error envelope, nothing reaches the partner upstream', async (path) => {
    const socket = await openSocket(wsUrl('/v1/ws'), { authorization: 'Bearer k' })
    partner.received.length = 0
    try {
      const [reply] = await askEnvelope(socket, { id: 'e', path, body: { contents: [{ parts: [{ text: 'x' }] }], ...chat } })
      expect(partner.received.map(r => `${r.method} ${r.url} ${r.headers.authorization}`)).toEqual([])
      expect(reply).toMatchObject({ id: 'e', type: 'error', status: 404 })
    } finally {
      socket.close()
    }
  })

  it('a path that normalizes onto a client endpoint is served as that endpoint', async () => {
    const socket = await openSocket(wsUrl('/v1/ws'), { authorization: 'Bearer k' })
    try {
      const [reply] = await askEnvelope(socket, { id: 'n', path: '/v1/./chat/completions', body: chat })
      expect(reply).toMatchObject({ id: 'n', type: 'response', status: 200 })
    } finally {
      socket.close()
    }
  })
})

describe('model calls need a client key whatever ws-auth says', () => {
  it.each([false, true])('ws-auth %s: with a valid key (header or ?key=) the call is served', async (wsAuth) => {
    proxy.proxy.kernel.config['ws-auth'] = wsAuth
    try {
      for (const socket of [await openSocket(wsUrl('/v1/ws'), { authorization: 'Bearer k' }), await openSocket(wsUrl('/v1/ws?key=k'))]) {
        const [reply] = await askEnvelope(socket, { id: 'ok', path: '/v1/chat/completions', body: chat })
        expect(reply).toMatchObject({ type: 'response', status: 200, body: { object: 'chat.completion' } })
        socket.close()
      }
    } finally {
      proxy.proxy.kernel.config['ws-auth'] = false
    }
  })

  it('ws-auth false: the socket opens without a key (spec), but a model call gets a 401 and reaches no upstream', async () => {
    const before = upstream.requests.length
    for (const headers of [{}, { authorization: 'Bearer wrong' }, { 'x-api-key': 'wrong' }] as Array<Record<string, string>>) {
      const socket = await openSocket(wsUrl('/v1/ws'), headers)
      try {
        for (const [id, path, body] of [['c', '/v1/chat/completions', chat], ['s', '/v1/chat/completions', { ...chat, stream: true }], ['g', '/v1beta/models/m:generateContent', { contents: [{ parts: [{ text: 'x' }] }] }]] as const) {
          const replies = await askEnvelope(socket, { id, path, body })
          expect(replies).toHaveLength(1)
          expect(replies[0]).toMatchObject({ id, type: 'error', status: 401 })
        }
      } finally {
        socket.close()
      }
    }
    expect(upstream.requests.length).toBe(before)
  })

  it('ws-auth true: no key is refused at the upgrade', async () => {
    proxy.proxy.kernel.config['ws-auth'] = true
    try {
      await expect(openSocket(wsUrl('/v1/ws'))).rejects.toThrow('HTTP 401')
      await expect(openSocket(wsUrl('/v1/ws'), { authorization: 'Bearer wrong' })).rejects.toThrow('HTTP 401')
    } finally {
      proxy.proxy.kernel.config['ws-auth'] = false
    }
  })

  it('a key removed from api-keys stops serving an open socket at its next call', async () => {
    const socket = await openSocket(wsUrl('/v1/ws'), { authorization: 'Bearer k' })
    const kernel = proxy.proxy.kernel
    const config = kernel.config
    try {
      expect((await askEnvelope(socket, { id: '1', path: '/v1/chat/completions', body: chat }))[0]).toMatchObject({ status: 200 })
      await kernel.applyConfig({ ...config, 'api-keys': ['other'] })
      expect((await askEnvelope(socket, { id: '2', path: '/v1/chat/completions', body: chat }))[0]).toMatchObject({ type: 'error', status: 401 })
    } finally {
      await kernel.applyConfig(config)
      socket.close()
    }
  })
})
