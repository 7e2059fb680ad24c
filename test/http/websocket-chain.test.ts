import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import WebSocket from 'ws'
import { clientKey, familyModels, startFamilyProxy, type FamilyProxy } from '../helpers/family-proxy.ts'

/**
 * The responses WebSocket's connection state, as the Codex CLI uses it: a `generate: false` warm-up
 * and requests that name the latest response in `previous_response_id` with only the new input.
 */

let setup: FamilyProxy
beforeAll(async () => { setup = await startFamilyProxy() })
afterAll(() => setup.close())
beforeEach(() => { for (const upstream of Object.values(setup.upstreams)) upstream.requests.length = 0 })

function open(): Promise<WebSocket> {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(`${setup.proxy.url.replace('http', 'ws')}/v1/responses`, { headers: { authorization: `Bearer ${clientKey}` } })
    socket.once('open', () => resolve(socket))
    socket.once('error', reject)
  })
}

/** Send one `response.create` and collect its messages up to `response.completed` or an error. */
function create(socket: WebSocket, body: Record<string, unknown>): Promise<any[]> {
  return new Promise((resolve) => {
    const messages: any[] = []
    const onMessage = (data: WebSocket.RawData) => {
      const message = JSON.parse(data.toString())
      messages.push(message)
      if (message.type !== 'response.completed' && message.type !== 'error') return
      socket.off('message', onMessage)
      resolve(messages)
    }
    socket.on('message', onMessage)
    socket.send(JSON.stringify({ type: 'response.create', ...body }))
  })
}

const developer = { type: 'message', role: 'developer', content: [{ type: 'input_text', text: 'You are terse.' }] }
const user = (text: string) => ({ type: 'message', role: 'user', content: [{ type: 'input_text', text }] })
const tools = [{ type: 'function', name: 'lookup', parameters: { type: 'object', properties: { query: { type: 'string' } } } }]

describe('responses WebSocket: warm-up and previous_response_id', () => {
  it.each(['gamma', 'beta', 'alpha', 'compat'] as const)('chains a warm-up and a tool round trip into whole requests for a %s upstream', async (family) => {
    const model = familyModels[family]
    const socket = await open()
    try {
      const warm = await create(socket, { model, input: [developer], tools, generate: false })
      expect(warm.map(message => message.type)).toEqual(['response.created', 'response.completed'])
      expect(warm[1].response).toMatchObject({ status: 'completed', output: [] })
      expect(setup.upstreams[family].requests).toHaveLength(0)

      const first = await create(socket, { model, previous_response_id: warm[1].response.id, input: [user('please use lookup')], tools })
      const completed = first.at(-1)
      const call = completed.response.output.find((item: any) => item.type === 'function_call')
      expect(call).toMatchObject({ name: 'lookup' })

      const second = await create(socket, { model, previous_response_id: completed.response.id, input: [{ type: 'function_call_output', call_id: call.call_id, output: 'forty-two' }], tools })
      expect(second.at(-1).response.output[0].content[0].text).toBe('The tool said: forty-two')

      const bodies = setup.upstreams[family].requests.map(request => request.body)
      expect(bodies).toHaveLength(2)
      for (const body of bodies) expect(body).toContain('You are terse.')
      expect(bodies[1]).toContain('please use lookup')
      expect(bodies[1]).not.toContain('previous_response_id')
    } finally {
      socket.close()
    }
  })

  it('refuses an id that is not the socket\'s latest response, and stays usable', async () => {
    const socket = await open()
    try {
      const [error] = await create(socket, { model: familyModels.gamma, previous_response_id: 'resp_unknown', input: [user('hi')] })
      expect(error).toMatchObject({ type: 'error', status: 400, error: { code: 'previous_response_not_found', param: 'previous_response_id' } })
      expect(setup.upstreams.gamma.requests).toHaveLength(0)
      const again = await create(socket, { model: familyModels.gamma, input: [user('hi')] })
      expect(again.at(-1).type).toBe('response.completed')
    } finally {
      socket.close()
    }
  })
})
