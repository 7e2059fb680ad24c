import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTestProxy, type TestProxy } from '../helpers/proxy-server.ts'
import { gatewayClient, localStdioServer, serverUp } from './servers.ts'

/** Every progress notice of a call reaches its client, the last one (sent just before the result) too. */
let proxy: TestProxy
const local = localStdioServer

beforeAll(async () => {
  proxy = await startTestProxy({ 'api-keys': ['progress-key'], 'mcp-servers': [local] })
  await serverUp(proxy, 'local')
}, 30_000)

afterAll(async () => {
  await proxy?.close()
})

describe('progress of a local server\'s call', () => {
  it('reaches the client whole: the notice written with the result is not lost', async () => {
    const client = await gatewayClient(proxy.url, 'progress-key')
    for (let round = 0; round < 5; round++) {
      const seen: number[] = []
      const result = await client.callTool({ name: 'local__sleep', arguments: { ms: 60, steps: 3 } }, undefined, { onprogress: notice => seen.push(notice.progress) })
      expect(result.content).toEqual([{ type: 'text', text: 'slept 60' }])
      expect(seen).toEqual([1, 2, 3])
    }
    await client.close()
  })
})
