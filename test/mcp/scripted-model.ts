import type { MockHandler } from '../helpers/mock-openai-server.ts'
import { startTestProxy, type TestProxy } from '../helpers/proxy-server.ts'
import { referenceServers, until } from './servers.ts'

/**
 * A proxy with the scripted models as `via-chat` (a chat upstream) and `via-generate` (a
 * generateContent upstream), the reference `everything` MCP server behind its gateway, once it is up.
 */
export async function loopProxy(chatUrl: string, generateUrl: string, config: Record<string, unknown>): Promise<TestProxy> {
  const proxy = await startTestProxy({
    'compat-provider': [{ name: 'scripted', 'base-url': `${chatUrl}/v1`, 'api-key-entries': [{ 'api-key': 'up' }], models: [{ name: 'scripted-gpt', alias: 'via-chat' }] }],
    'alpha-api-key': [{ 'api-key': 'up', 'base-url': generateUrl, models: [{ name: 'scripted-gemini', alias: 'via-generate' }] }],
    'mcp-servers': [referenceServers('/tmp')[0]],
    ...config,
  })
  await until(() => proxy.proxy.kernel.services.mcpGateway!.servers.get('everything')!.state === 'up')
  return proxy
}

/**
 * Scripted models that use a gateway tool: asked with `everything__echo` among their tools and no tool
 * result yet, they call it with `{ message: 'ping' }`; given its result, they answer with what it said.
 */
export const scriptedChat: MockHandler = async (request) => {
  const body = await request.json() as { stream?: boolean; messages: Array<{ role: string; content: unknown }>; tools?: Array<{ function: { name: string } }> }
  const last = body.messages.at(-1)!
  const usage = { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 }
  const message = last.role === 'tool'
    ? { role: 'assistant', content: `tool said: ${typeof last.content === 'string' ? last.content : JSON.stringify(last.content)}` }
    : body.tools?.some(tool => tool.function.name === 'everything__echo')
      ? { role: 'assistant', content: null, tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'everything__echo', arguments: '{"message":"ping"}' } }] }
      : { role: 'assistant', content: 'no tool offered' }
  if (body.stream) return sse(chatChunks(message, usage))
  return Response.json({ id: 'chatcmpl-1', object: 'chat.completion', created: 1, model: 'scripted', choices: [{ index: 0, message, finish_reason: message.tool_calls ? 'tool_calls' : 'stop' }], usage })
}

/** Text cut into pieces of a few characters, as a model streams tokens. */
export const tokens = (text: string) => text.match(/.{1,4}/gs) ?? []

/** `data:` events written one by one, 5 ms apart: each reaches the proxy as its own chunk. */
function sse(events: unknown[]): Response {
  const encoder = new TextEncoder()
  return new Response(new ReadableStream({
    async start(controller) {
      for (const event of events) {
        controller.enqueue(encoder.encode(`data: ${typeof event === 'string' ? event : JSON.stringify(event)}\n\n`))
        await new Promise(resolve => setTimeout(resolve, 5))
      }
      controller.close()
    },
  }), { headers: { 'content-type': 'text/event-stream' } })
}

function chatChunks(message: { content: string | null; tool_calls?: Array<{ id: string; function: { name: string; arguments: string } }> }, usage: Record<string, number>): unknown[] {
  const chunk = (delta: Record<string, unknown>, finish: string | null = null) => ({ id: 'chatcmpl-1', object: 'chat.completion.chunk', created: 1, model: 'scripted', choices: [{ index: 0, delta, finish_reason: finish }] })
  const pieces = message.tool_calls
    ? message.tool_calls.map((call, index) => chunk({ tool_calls: [{ index, id: call.id, type: 'function', function: { name: call.function.name, arguments: call.function.arguments } }] }))
    : tokens(message.content ?? '').map(text => chunk({ content: text }))
  return [chunk({ role: 'assistant', content: '' }), ...pieces, chunk({}, message.tool_calls ? 'tool_calls' : 'stop'), { id: 'chatcmpl-1', object: 'chat.completion.chunk', created: 1, model: 'scripted', choices: [], usage }, '[DONE]']
}

export const scriptedGenerate: MockHandler = async (request) => {
  const body = await request.json() as { contents: Array<{ role: string; parts: Array<Record<string, any>> }>; tools?: Array<{ functionDeclarations?: Array<{ name: string }> }> }
  const parts = body.contents.at(-1)!.parts
  const result = parts.find(part => part.functionResponse)?.functionResponse
  const offered = body.tools?.some(tool => tool.functionDeclarations?.some(fn => fn.name === 'everything__echo'))
  const reply = result ? [{ text: `tool said: ${JSON.stringify(result.response)}` }] : offered ? [{ functionCall: { name: 'everything__echo', args: { message: 'ping' } } }] : [{ text: 'no tool offered' }]
  const usageMetadata = { promptTokenCount: 10, candidatesTokenCount: 5, totalTokenCount: 15 }
  if (new URL(request.url).pathname.includes(':streamGenerateContent')) {
    const first = reply[0]!
    const pieces: Array<typeof reply> = 'text' in first ? tokens(first.text).map(text => [{ text }]) : [reply]
    return sse(pieces.map((piece, index) => ({ candidates: [{ content: { role: 'model', parts: piece }, index: 0, ...(index === pieces.length - 1 && { finishReason: 'STOP' }) }], ...(index === pieces.length - 1 && { usageMetadata }), modelVersion: 'scripted' })))
  }
  return Response.json({ candidates: [{ content: { role: 'model', parts: reply }, finishReason: 'STOP', index: 0 }], usageMetadata, modelVersion: 'scripted' })
}
