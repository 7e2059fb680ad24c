import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { askEnvelope, openSocket } from '../helpers/ws-client.ts'
import { playgroundAdminKey, startPlayground, type PlaygroundWorld } from './playground-world.ts'

/**
 * The playground's config names port 8317 for its mocks; served on another port (`proxy dev --port N`,
 * here a random one), calls the proxy makes in-process (a replay, a `/v1/ws` turn) reach the mocks on
 * that port too.
 */
describe('the playground on a port of its own', () => {
  let world: PlaygroundWorld
  beforeAll(async () => { world = await startPlayground() }, 30_000)
  afterAll(async () => { await world?.close() })
  const manage = (path: string, init: RequestInit = {}) => fetch(`${world.proxy.url}/v0/management${path}`, { ...init, headers: { 'x-management-key': playgroundAdminKey, 'content-type': 'application/json' } })

  it('serves on a port that is not 8317', () => {
    expect(new URL(world.proxy.url).port).not.toBe('8317')
  })

  it('a replay of a recorded request reaches the mock', async () => {
    const sent = await fetch(`${world.proxy.url}/v1/messages`, {
      method: 'POST', headers: { 'x-api-key': 'sk-playground', 'content-type': 'application/json', 'anthropic-version': '2023-06-01' },
      body: JSON.stringify({ model: 'mock-gemini', max_tokens: 50, messages: [{ role: 'user', content: 'hi' }] }),
    })
    expect(sent.status).toBe(200)
    const id = sent.headers.get('x-request-id') ?? (await (await manage('/requests?limit=1')).json()).requests[0].id
    const replay = await (await manage(`/requests/${encodeURIComponent(id)}/replay`, { method: 'POST', body: '{}' })).json()
    expect(replay.status).toBe(200)
  })

  it('a /v1/ws call reaches the mock', async () => {
    const socket = await openSocket(`${world.proxy.url.replace('http', 'ws')}/v1/ws`, { authorization: 'Bearer sk-playground' })
    try {
      const replies = await askEnvelope(socket, { id: '1', path: '/v1/chat/completions', body: { model: 'mock-claude', messages: [{ role: 'user', content: 'hi' }] } })
      expect(replies.at(-1)).toMatchObject({ id: '1', type: 'response', status: 200 })
    } finally {
      socket.close()
    }
  })
})
