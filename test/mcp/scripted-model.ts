import type { MockHandler } from '../helpers/mock-openai-server.ts'

/**
 * Scripted models that use a gateway tool: asked with `everything__echo` among their tools and no tool
 * result yet, they call it with `{ message: 'ping' }`; given its result, they answer with what it said.
 */
export const scriptedChat: MockHandler = async (request) => {
  const body = await request.json() as { messages: Array<{ role: string; content: unknown }>; tools?: Array<{ function: { name: string } }> }
  const last = body.messages.at(-1)!
  const usage = { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 }
  const message = last.role === 'tool'
    ? { role: 'assistant', content: `tool said: ${typeof last.content === 'string' ? last.content : JSON.stringify(last.content)}` }
    : body.tools?.some(tool => tool.function.name === 'everything__echo')
      ? { role: 'assistant', content: null, tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'everything__echo', arguments: '{"message":"ping"}' } }] }
      : { role: 'assistant', content: 'no tool offered' }
  return Response.json({ id: 'chatcmpl-1', object: 'chat.completion', created: 1, model: 'scripted', choices: [{ index: 0, message, finish_reason: message.tool_calls ? 'tool_calls' : 'stop' }], usage })
}

export const scriptedGenerate: MockHandler = async (request) => {
  const body = await request.json() as { contents: Array<{ role: string; parts: Array<Record<string, any>> }>; tools?: Array<{ functionDeclarations?: Array<{ name: string }> }> }
  const parts = body.contents.at(-1)!.parts
  const result = parts.find(part => part.functionResponse)?.functionResponse
  const offered = body.tools?.some(tool => tool.functionDeclarations?.some(fn => fn.name === 'everything__echo'))
  const reply = result ? [{ text: `tool said: ${JSON.stringify(result.response)}` }] : offered ? [{ functionCall: { name: 'everything__echo', args: { message: 'ping' } } }] : [{ text: 'no tool offered' }]
  return Response.json({ candidates: [{ content: { role: 'model', parts: reply }, finishReason: 'STOP', index: 0 }], usageMetadata: { promptTokenCount: 10, candidatesTokenCount: 5, totalTokenCount: 15 }, modelVersion: 'scripted' })
}
