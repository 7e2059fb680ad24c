import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { TestProxy } from '../helpers/proxy-server.ts'
import { startMockUpstream, type MockUpstream } from '../helpers/mock-openai-server.ts'
import { loopProxy, scriptedChat, scriptedGenerate } from './scripted-model.ts'

/**
 * `streaming.keepalive-seconds` holds for a streamed tool loop too: its answer is written by the loop,
 * not the pipeline, and while the loop waits (a tool call, the model's next turn) the client hears the
 * comments, as on every other model stream, instead of a silence a balancer or client may drop.
 */
let proxy: TestProxy
let chat: MockUpstream
let generate: MockUpstream

beforeAll(async () => {
  chat = await startMockUpstream(async (request) => {
    const body = await request.clone().json() as { messages: Array<{ role: string }> }
    // The turn after the tool's result is slow: the loop's stream is quiet meanwhile.
    if (body.messages.at(-1)!.role === 'tool') await new Promise(resolve => setTimeout(resolve, 2600))
    return scriptedChat(request)
  })
  generate = await startMockUpstream(scriptedGenerate)
  proxy = await loopProxy(chat.url, generate.url, { 'api-keys': ['alive-key'], 'request-retry': 0, streaming: { 'keepalive-seconds': 1 } })
}, 60_000)

afterAll(async () => {
  await proxy?.close()
  await chat?.close()
  await generate?.close()
})

describe('a streamed tool loop with streaming.keepalive-seconds', () => {
  it('sends the comments while it waits, between events, and ends as before', async () => {
    const response = await fetch(`${proxy.url}/v1/responses`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: 'Bearer alive-key' },
      body: JSON.stringify({ model: 'via-chat', input: 'echo ping', stream: true, tools: [{ type: 'mcp', server_label: 'everything', server_url: 'https://mcp.example/unused', require_approval: 'never' }] }),
    })
    expect(response.status).toBe(200)
    const text = await response.text()
    expect((text.match(/^: keep-alive$/gm) ?? []).length).toBeGreaterThanOrEqual(2)
    // Each comment stands between two events.
    for (const part of text.split('\n\n').filter(Boolean)) expect(part.startsWith(': ') || /^(event|data): /m.test(part)).toBe(true)
    const last = JSON.parse(/^data: (.*)$/gm.exec(text.split('\n\n').filter(part => part.includes('data: ')).at(-1)!)![1])
    expect(last.type).toBe('response.completed')
    expect(JSON.stringify(last.response.output)).toContain('tool said')
  })
})
