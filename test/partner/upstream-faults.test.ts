import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { echo, startPartnerMock, startPartnerProxy, type LoggedProxy, type PartnerMock } from './helpers.ts'

/**
 * A partner upstream whose answer breaks after its headers (the connection reset mid-body): the answer
 * is passed through as the partner sent it, so the client sees it broken too (its connection is cut, no
 * clean end that would pass for a whole answer), and the proxy goes on serving. The body's error had no
 * listener: it was an uncaught exception that took the process down.
 */
let partner: PartnerMock
let proxy: LoggedProxy
const withKey = 'client-with-partner-key'
const withoutKey = 'client-without-partner-key'

beforeAll(async () => {
  partner = await startPartnerMock()
  proxy = await startPartnerProxy({
    'api-keys': [withKey, withoutKey],
    // Only `withKey` has a partner key: its answer goes through the key scrubber, the other's as it came.
    partner: { 'upstream-url': partner.url, 'upstream-api-keys': [{ 'upstream-api-key': 'partner-key-a', 'api-keys': [withKey] }] },
  })
})
afterAll(async () => {
  await proxy?.close()
  await partner?.close()
})

const call = (key: string, model: string) => fetch(`${proxy.url}/api/provider/compat/v1/chat/completions`, {
  method: 'POST',
  headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
  body: JSON.stringify({ model, stream: true, messages: [{ role: 'user', content: 'hi' }] }),
  signal: AbortSignal.timeout(5000),
})

describe('a partner answer that breaks mid-body', () => {
  it.each([withKey, withoutKey])('client %s: its answer is cut, the proxy keeps serving', async (key) => {
    partner.handler = (req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' })
      res.write('data: {"id":"c1","choices":[{"index":0,"delta":{"content":"Hel"}}]}\n\n')
      setTimeout(() => req.socket.destroy(), 30)
    }
    const started = Date.now()
    const response = await call(key, 'partner-only-model')
    expect(response.status).toBe(200)
    // The break reaches the client as a broken body, at once: not a normal end, not a connection left open.
    await expect(response.text()).rejects.toThrow()
    expect(Date.now() - started).toBeLessThan(2000)

    partner.handler = (_req, res, record) => echo(res, record)
    const next = await call(key, 'partner-only-model')
    expect(next.status).toBe(200)
    expect(JSON.parse(await next.text()).method).toBe('POST')
  })
})
