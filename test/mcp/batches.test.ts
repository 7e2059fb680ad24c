import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTestProxy, type TestProxy } from '../helpers/proxy-server.ts'
import { localStdioServer, serverUp } from './servers.ts'

/**
 * JSON-RPC batches on `/mcp`: the 2025-03-26 revision has them, and every request of a batch gets its
 * answer, a request reusing an earlier one's id an error of its own; the 2026-07-28 revision has none.
 */
let proxy: TestProxy
const key = 'batch-key'
const local = localStdioServer

beforeAll(async () => {
  proxy = await startTestProxy({ 'api-keys': [key], 'mcp-servers': [local] })
  await serverUp(proxy, 'local')
}, 30_000)

afterAll(async () => {
  await proxy?.close()
})

const send = (headers: Record<string, string>, body: unknown) => fetch(`${proxy.url}/mcp`, {
  method: 'POST',
  headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
  body: JSON.stringify(body),
  signal: AbortSignal.timeout(10_000),
})
const call = (id: number | string, name: string, args: Record<string, unknown>, meta?: object) =>
  ({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: `local__${name}`, arguments: args, ...meta && { _meta: meta } } })
const events = (text: string) => [...text.matchAll(/^data: (.*)$/gm)].map(match => JSON.parse(match[1]))

async function openSession(): Promise<string> {
  const answer = await send({}, { jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: '2025-03-26', capabilities: {}, clientInfo: { name: 'raw', version: '1' } } })
  await answer.text()
  return answer.headers.get('mcp-session-id')!
}

describe('a 2025-03-26 batch', () => {
  it('answers every request; one that reuses an earlier id gets -32600 "duplicate id", the first its own result', async () => {
    const session = await openSession()
    // The first id 5 is the slow one: the quick ones used to end the stream before it answered.
    const answer = await send({ 'mcp-session-id': session, 'mcp-protocol-version': '2025-03-26' }, [
      call(5, 'sleep', { ms: 400 }), call(5, 'echo', { message: 'second five' }), call('six', 'echo', { message: 'six' }), call(5, 'echo', { message: 'third five' }),
    ])
    expect(answer.status).toBe(200)
    const answers = events(await answer.text())
    expect(answers).toHaveLength(4)
    expect(answers.filter(a => a.result)).toEqual(expect.arrayContaining([
      expect.objectContaining({ id: 5, result: { content: [{ type: 'text', text: 'slept 400' }] } }),
      expect.objectContaining({ id: 'six', result: { content: [{ type: 'text', text: 'six' }] } }),
    ]))
    const errors = answers.filter(a => a.error)
    expect(errors).toHaveLength(2)
    for (const error of errors) expect(error).toMatchObject({ id: 5, error: { code: -32600, message: expect.stringContaining('duplicate id') } })
    expect(JSON.stringify(answers)).not.toContain('five')
  })

  it('an empty one is -32600 Invalid Request, not accepted', async () => {
    const session = await openSession()
    const answer = await send({ 'mcp-session-id': session, 'mcp-protocol-version': '2025-03-26' }, [])
    expect([answer.status, (await answer.json() as { error: { code: number } }).error.code]).toEqual([400, -32600])
  })

  it('without duplicates is answered as before', async () => {
    const session = await openSession()
    const answer = await send({ 'mcp-session-id': session, 'mcp-protocol-version': '2025-03-26' }, [call(1, 'echo', { message: 'a' }), call(2, 'echo', { message: 'b' })])
    expect(events(await answer.text()).map(a => [a.id, a.result.content[0].text])).toEqual(expect.arrayContaining([[1, 'a'], [2, 'b']]))
  })
})

describe('a batch of revision 2026-07-28', () => {
  const envelope = { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': {} }

  it('is refused with -32600: that revision has no batches (by its header, or by its requests\' _meta)', async () => {
    for (const [headers, body] of [
      [{ 'mcp-protocol-version': '2026-07-28' }, [call(1, 'echo', { message: 'a' }), call(2, 'echo', { message: 'b' })]],
      [{ 'mcp-protocol-version': '2026-07-28' }, [call(1, 'echo', { message: 'a' }, envelope)]],
      [{}, [call(1, 'echo', { message: 'a' }, envelope), call(1, 'echo', { message: 'b' }, envelope)]],
    ] as const) {
      const answer = await send(headers, body)
      const refused = await answer.json() as { error: { code: number; message: string } }
      expect([answer.status, refused.error.code]).toEqual([400, -32600])
      expect(refused.error.message).toMatch(/batch/i)
    }
  })
})
