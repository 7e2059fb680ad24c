import { readFileSync } from 'node:fs'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startMockUpstream, type MockUpstream } from '../helpers/mock-openai-server.ts'
import { startTestProxy, type TestProxy } from '../helpers/proxy-server.ts'
import { clientKey, familyModels, startFamilyProxy, type FamilyProxy } from '../helpers/family-proxy.ts'

/**
 * Codex's namespace tools (`multi_agent_v1`, an MCP server's tools) through a chat upstream: the recorded
 * Codex body goes in, the upstream sees plain function tools under flat names, and its scripted call of
 * one comes back to Codex as a function_call with the tool's own name and its namespace, streamed and not.
 */
const recorded = JSON.parse(readFileSync(new URL('../fixtures/clients/codex-plain.json', import.meta.url), 'utf8')).body
const args = '{"target":"agent-1"}'

const chatRequests: any[] = []
const json = (body: unknown) => new Response(JSON.stringify(body), { headers: { 'content-type': 'application/json' } })
function chat(request: Request): Promise<Response> {
  return request.json().then((body: any) => {
    chatRequests.push(body)
    const call = { id: 'call_ns1', type: 'function', function: { name: 'multi_agent_v1__close_agent', arguments: args } }
    const usage = { prompt_tokens: 50, completion_tokens: 9, total_tokens: 59 }
    if (!body.stream) {
      return json({ id: 'chatcmpl-1', object: 'chat.completion', created: 1, model: 'chat-x', choices: [{ index: 0, message: { role: 'assistant', content: null, tool_calls: [call] }, finish_reason: 'tool_calls' }], usage })
    }
    const chunk = (delta: unknown, finish: string | null = null, extra: object = {}) => `data: ${JSON.stringify({ id: 'chatcmpl-1', object: 'chat.completion.chunk', created: 1, model: 'chat-x', choices: [{ index: 0, delta, finish_reason: finish }], ...extra })}\n\n`
    const text = chunk({ role: 'assistant', tool_calls: [{ index: 0, ...call, function: { name: call.function.name, arguments: '' } }] })
      + chunk({ tool_calls: [{ index: 0, function: { arguments: args.slice(0, 8) } }] })
      + chunk({ tool_calls: [{ index: 0, function: { arguments: args.slice(8) } }] })
      + chunk({}, 'tool_calls') + `data: ${JSON.stringify({ id: 'chatcmpl-1', object: 'chat.completion.chunk', created: 1, model: 'chat-x', choices: [], usage })}\n\n` + 'data: [DONE]\n\n'
    return new Response(text, { headers: { 'content-type': 'text/event-stream' } })
  })
}

let upstream: MockUpstream
let proxy: TestProxy
beforeAll(async () => {
  upstream = await startMockUpstream(chat)
  proxy = await startTestProxy({
    'api-keys': ['sk-ns'],
    'compat-provider': [{ name: 'up-chat', 'base-url': `${upstream.url}/v1`, 'api-key-entries': [{ 'api-key': 'up-compat' }], models: [{ name: 'chat-x', alias: 'via-compat' }] }],
  })
}, 60_000)
afterAll(async () => {
  await proxy?.close()
  await upstream?.close()
})

const send = (body: Record<string, unknown>) => fetch(`${proxy.url}/v1/responses`, {
  method: 'POST',
  headers: { authorization: 'Bearer sk-ns', 'content-type': 'application/json' },
  body: JSON.stringify({ ...body, model: 'via-compat' }),
})

/** The function_call items of a streamed answer, as Codex reads them (`response.output_item.done`). */
function streamedCalls(text: string): any[] {
  return text.split('\n\n').flatMap(frame => {
    const data = frame.split('\n').find(line => line.startsWith('data: '))
    if (!data) return []
    const event = JSON.parse(data.slice(6))
    return event.type === 'response.output_item.done' && event.item.type === 'function_call' ? [event.item] : []
  })
}

describe('Codex namespace tools through a chat upstream', () => {
  it.each([false, true])('stream %s: the tools arrive flattened, the call comes back namespaced', async (stream) => {
    chatRequests.length = 0
    const res = await send({ ...recorded, stream })
    expect(res.status).toBe(200)
    expect(res.headers.get('x-proxy-dropped') ?? '').not.toContain('tool:namespace')

    const names = chatRequests[0].tools.map((tool: any) => tool.function.name)
    expect(names).toEqual(expect.arrayContaining(['exec_command', 'multi_agent_v1__close_agent', 'multi_agent_v1__spawn_agent', 'multi_agent_v1__wait_agent']))
    expect(chatRequests[0].tools.every((tool: any) => tool.type === 'function' && /^[a-zA-Z0-9_-]{1,64}$/.test(tool.function.name))).toBe(true)
    const close = chatRequests[0].tools.find((tool: any) => tool.function.name === 'multi_agent_v1__close_agent')
    const original = recorded.tools.find((tool: any) => tool.type === 'namespace').tools.find((tool: any) => tool.name === 'close_agent')
    expect(close.function.parameters).toEqual(original.parameters)

    const calls = stream ? streamedCalls(await res.text()) : (await res.json() as any).output.filter((item: any) => item.type === 'function_call')
    expect(calls).toHaveLength(1)
    expect(calls[0]).toMatchObject({ type: 'function_call', call_id: 'call_ns1', name: 'close_agent', namespace: 'multi_agent_v1', arguments: args })
  })

  it('the next turn: the namespaced call and its output reach the upstream under the flat name', async () => {
    chatRequests.length = 0
    const input = [
      ...recorded.input,
      { type: 'function_call', call_id: 'call_ns1', name: 'close_agent', namespace: 'multi_agent_v1', arguments: args },
      { type: 'function_call_output', call_id: 'call_ns1', output: 'closed' },
    ]
    const res = await send({ ...recorded, input, stream: false })
    expect(res.status).toBe(200)
    const messages = chatRequests[0].messages
    const assistant = messages.find((message: any) => message.tool_calls)
    expect(assistant.tool_calls[0]).toMatchObject({ id: 'call_ns1', function: { name: 'multi_agent_v1__close_agent', arguments: args } })
    expect(messages.at(-1)).toMatchObject({ role: 'tool', tool_call_id: 'call_ns1', content: 'closed' })
  })

  it('an MCP server\'s namespace (ending in __) flattens the way Codex names it, and unknown nested tools are reported', async () => {
    chatRequests.length = 0
    const mcp = { type: 'namespace', name: 'mcp__proxy__', description: 'Tools of the proxy MCP server.', tools: [
      { type: 'function', name: 'echo', description: 'Echo', strict: false, parameters: { type: 'object', properties: { text: { type: 'string' } } } },
      { type: 'custom', name: 'apply_patch', description: 'freeform' },
    ] }
    const res = await send({ model: 'via-compat', input: 'hi', tools: [mcp], stream: false })
    expect(res.status).toBe(200)
    expect(chatRequests[0].tools.map((tool: any) => tool.function.name)).toEqual(['mcp__proxy__echo'])
    expect(res.headers.get('x-proxy-dropped')).toContain('tool:custom')
  })
})

/** The tool names an upstream request offered, in any of the formats (chat, messages, generateContent). */
function offeredNames(body: any): string[] {
  return (body.tools ?? []).flatMap((tool: any) => tool.functionDeclarations?.map((d: any) => d.name) ?? [tool.function?.name ?? tool.name])
}

describe('every other upstream format: the playground mock model calls the flat name it was offered', () => {
  let family: FamilyProxy
  beforeAll(async () => { family = await startFamilyProxy() }, 60_000)
  afterAll(() => family?.close())

  const cases = (['compat', 'beta', 'alpha', 'delta'] as const).flatMap(name => [false, true].map(stream => [name, stream] as const))
  it.each(cases)('%s, stream %s', async (name, stream) => {
    const upstream = family.upstreams[name]
    upstream.requests.length = 0
    const input = [{ type: 'message', role: 'user', content: [{ type: 'input_text', text: `call multi_agent_v1__close_agent with ${args}` }] }]
    const res = await fetch(`${family.proxy.url}/v1/responses`, {
      method: 'POST',
      headers: { authorization: `Bearer ${clientKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ ...recorded, input, model: familyModels[name], stream }),
    })
    expect(res.status).toBe(200)
    expect(res.headers.get('x-proxy-dropped') ?? '').not.toContain('tool:namespace')
    const offered = offeredNames(JSON.parse(upstream.requests.at(-1)!.body))
    expect(offered).toEqual(expect.arrayContaining(['multi_agent_v1__close_agent', 'multi_agent_v1__wait_agent']))
    const calls = stream ? streamedCalls(await res.text()) : (await res.json() as any).output.filter((item: any) => item.type === 'function_call')
    expect(calls).toHaveLength(1)
    expect(calls[0]).toMatchObject({ type: 'function_call', name: 'close_agent', namespace: 'multi_agent_v1', arguments: args })
  })
})
