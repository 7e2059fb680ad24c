import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTestProxy, type TestProxy } from '../helpers/proxy-server.ts'
import { clientCall, clientHeaders, streamCompleted } from '../helpers/client-formats.ts'
import { responsesMock } from '../../playground/mock-upstream/responses.ts'
import { eventually, manage } from './helpers.ts'

/**
 * A stream whose upstream ends while the end of the client's answer still waits to be sent (here behind a
 * 4 MB event; a slow client does the same): `after-response` runs then, where the recorder builds its
 * record. It read the context's `stream` there, which made a web stream over the answer as it was being
 * sent: that paused the answer for good, and the client never got its last bytes or its end.
 */
const secret = 'recorder-admin'
const big = 4_000_000

let upstream: Server
let proxy: TestProxy
beforeAll(async () => {
  // A responses upstream whose second text delta is 4 MB: the client's chat stream gets it as one event.
  upstream = createServer(async (req, res) => {
    const parts: Buffer[] = []
    for await (const part of req) parts.push(part as Buffer)
    const answer = await responsesMock(new Request(`http://mock${req.url}`, { method: 'POST', headers: req.headers as HeadersInit, body: Buffer.concat(parts) }))
    const events = (await answer.text()).split(/(?<=\n\n)/)
    const at = events.findIndex(event => event.includes('output_text.delta')) + 1
    events[at] = events[at]!.replace('"delta":"', `"delta":"${'x'.repeat(big)}`)
    res.writeHead(200, { 'content-type': 'text/event-stream' })
    // Written as an upstream sends them: the big event, then the rest apart.
    res.write(events.slice(0, at + 1).join(''))
    res.end(events.slice(at + 1).join(''))
  })
  await new Promise<void>(resolve => upstream.listen(0, '127.0.0.1', resolve))
  proxy = await startTestProxy({
    'api-keys': ['k'],
    'remote-management': { 'secret-key': secret },
    recorder: { mode: 'all' },
    'gamma-api-key': [{ 'api-key': 'up-key', 'base-url': `http://127.0.0.1:${(upstream.address() as AddressInfo).port}/v1`, models: [{ name: 'mock-codex', alias: 'm' }] }],
  })
})
afterAll(async () => {
  await proxy?.close()
  upstream?.closeAllConnections()
  await new Promise(resolve => upstream?.close(resolve))
})

describe('the recorder and an answer not yet sent whole when its upstream ends', () => {
  it('the client gets the whole answer and its end; the record has it', async () => {
    const { path, body } = clientCall('chat', 'm', true)
    const response = await fetch(`${proxy.url}${path}`, { method: 'POST', headers: { ...clientHeaders('k'), 'x-request-id': 'big-event' }, body: JSON.stringify(body), signal: AbortSignal.timeout(8000) })
    const text = await response.text()
    expect(text.length).toBeGreaterThan(big)
    expect(streamCompleted('chat', text), text.slice(-300)).toBeUndefined()
    const record = await eventually(async () => {
      const { status, body } = await manage(proxy, '/requests/big-event')
      return status === 200 ? body : undefined
    })
    expect(record.status).toBe(200)
    expect(record.client.response.stream.events.length).toBeGreaterThan(0)
  })
})
