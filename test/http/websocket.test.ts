import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import WebSocket from 'ws'
import { clientKey, familyModels, greeting, startFamilyProxy, type FamilyProxy } from '../helpers/family-proxy.ts'

let setup: FamilyProxy
beforeAll(async () => { setup = await startFamilyProxy() })
afterAll(() => setup.close())

const wsUrl = (path: string) => setup.proxy.url.replace('http', 'ws') + path

function open(path: string, headers: Record<string, string> = {}): Promise<WebSocket> {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(wsUrl(path), { headers })
    socket.once('open', () => resolve(socket))
    socket.once('unexpected-response', (_req, res) => reject(new Error(`HTTP ${res.statusCode}`)))
    socket.once('error', reject)
  })
}

/** Collect JSON messages until `until` says the exchange is over. */
function collect(socket: WebSocket, until: (message: any) => boolean): Promise<any[]> {
  return new Promise((resolve) => {
    const messages: any[] = []
    const onMessage = (data: WebSocket.RawData) => {
      const message = JSON.parse(data.toString())
      messages.push(message)
      if (until(message)) {
        socket.off('message', onMessage)
        resolve(messages)
      }
    }
    socket.on('message', onMessage)
  })
}

describe('GET /v1/responses over WebSocket', () => {
  it('refuses a socket without a valid client key', async () => {
    await expect(open('/v1/responses')).rejects.toThrow('HTTP 401')
    await expect(open('/v1/responses', { authorization: 'Bearer wrong' })).rejects.toThrow('HTTP 401')
  })

  it.each(['gamma', 'beta', 'alpha'] as const)('answers response.create with responses events from a %s upstream', async (family) => {
    const socket = await open('/v1/responses', { authorization: `Bearer ${clientKey}` })
    try {
      const done = collect(socket, message => message.type === 'response.completed' || message.type === 'error')
      socket.send(JSON.stringify({ type: 'response.create', model: familyModels[family], input: 'ping' }))
      const messages = await done
      expect(messages[0].type).toBe('response.created')
      const text = messages.filter(m => m.type === 'response.output_text.delta').map(m => m.delta).join('')
      expect(text).toBe(greeting('ping'))
      expect(messages.at(-1).type).toBe('response.completed')
      // a second request on the same socket
      const again = collect(socket, message => message.type === 'response.completed' || message.type === 'error')
      socket.send(JSON.stringify({ type: 'response.create', model: familyModels[family], input: 'again' }))
      expect((await again).at(-1).response.output[0].content[0].text).toBe(greeting('again'))
    } finally {
      socket.close()
    }
  })

  it('errors come back as {type: "error"} and the socket stays usable', async () => {
    const socket = await open('/v1/responses', { authorization: `Bearer ${clientKey}` })
    try {
      const first = collect(socket, () => true)
      socket.send(JSON.stringify({ type: 'response.create', model: 'no-such-model', input: 'x' }))
      const refused = (await first)[0]
      expect(refused).toMatchObject({ type: 'error', status: 404 })
      // The answer's headers ride on the error, as the vendor's socket error carries them.
      expect(refused.headers['x-request-id']).toMatch(/\S/)
      const second = collect(socket, () => true)
      socket.send('not json')
      expect((await second)[0]).toMatchObject({ type: 'error' })
    } finally {
      socket.close()
    }
  })
})

describe('GET /v1/ws envelope API', () => {
  it('serves stream and non-stream requests of any client endpoint, tagged by id (ws-auth off: no key needed to open, one needed to call)', async () => {
    const socket = await open('/v1/ws', { authorization: `Bearer ${clientKey}` })
    try {
      const streamed = collect(socket, message => message.id === 's' && message.type === 'done')
      socket.send(JSON.stringify({ id: 's', path: '/v1/chat/completions', body: { model: familyModels.beta, stream: true, logprobs: true, messages: [{ role: 'user', content: 'ws' }] } }))
      const events = await streamed
      // What an HTTP client reads in the answer's headers comes with `done`.
      expect(events.at(-1).headers).toMatchObject({ 'x-request-id': expect.any(String), 'x-proxy-dropped': expect.stringContaining('logprobs') })
      const text = events.filter(m => m.type === 'event' && m.data?.choices).map(m => m.data.choices[0]?.delta?.content ?? '').join('')
      expect(text).toBe(greeting('ws'))
      const single = collect(socket, message => message.id === 'n')
      socket.send(JSON.stringify({ id: 'n', path: '/v1/messages', body: { model: familyModels.alpha, max_tokens: 50, messages: [{ role: 'user', content: 'hi' }] } }))
      expect((await single)[0]).toMatchObject({ id: 'n', type: 'response', status: 200, body: { type: 'message', content: [{ type: 'text', text: greeting('hi') }] } })
      const bad = collect(socket, message => message.id === 'b')
      socket.send(JSON.stringify({ id: 'b', path: '/v0/management/config', body: {} }))
      expect((await bad)[0]).toMatchObject({ id: 'b', type: 'error', status: 404 })
    } finally {
      socket.close()
    }
  })

  it('with ws-auth on, a key is required', async () => {
    setup.proxy.proxy.kernel.config['ws-auth'] = true
    try {
      await expect(open('/v1/ws')).rejects.toThrow('HTTP 401')
      const socket = await open(`/v1/ws?key=${clientKey}`)
      socket.close()
    } finally {
      setup.proxy.proxy.kernel.config['ws-auth'] = false
    }
  })
})
