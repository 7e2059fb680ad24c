import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import Anthropic from '@anthropic-ai/sdk'
import OpenAI from 'openai'
import { startMockUpstream, type MockUpstream } from '../helpers/mock-openai-server.ts'
import { startTestProxy, type TestProxy } from '../helpers/proxy-server.ts'

/**
 * The chat format's web search both ways: a search model (gpt-4o-search-preview) cites pages with
 * `url_citation` annotations on its message (in a stream, on a delta of their own after the text),
 * and a chat client asks for a search with `web_search_options`. Real SDKs read the translation.
 */
const answer = 'It is sunny in Paris.'
const page = { url: 'https://weather.example/paris', title: 'Paris weather' }
const annotation = { type: 'url_citation', url_citation: { start_index: 0, end_index: answer.length, ...page } }
const sse = (frames: unknown[], named = false) => new Response(frames.map(frame => named ? `event: ${(frame as any).type}\ndata: ${JSON.stringify(frame)}\n\n` : `data: ${JSON.stringify(frame)}\n\n`).join('') + (named ? '' : 'data: [DONE]\n\n'), { headers: { 'content-type': 'text/event-stream' } })
const json = (body: unknown) => new Response(JSON.stringify(body), { headers: { 'content-type': 'application/json' } })

const chatBodies: any[] = []
function searchModel(request: Request): Promise<Response> {
  return request.json().then((body: any) => {
    chatBodies.push(body)
    const usage = { prompt_tokens: 5, completion_tokens: 7, total_tokens: 12 }
    if (!body.stream) return json({ id: 'chatcmpl-1', object: 'chat.completion', created: 1, model: 'gpt-4o-search-preview', usage, choices: [{ index: 0, finish_reason: 'stop', message: { role: 'assistant', content: answer, annotations: [annotation] } }] })
    const chunk = (delta: unknown, finish: string | null = null) => ({ id: 'chatcmpl-1', object: 'chat.completion.chunk', created: 1, model: 'gpt-4o-search-preview', choices: [{ index: 0, delta, finish_reason: finish }] })
    return sse([chunk({ role: 'assistant', content: '' }), chunk({ content: 'It is sunny ' }), chunk({ content: 'in Paris.' }), chunk({ annotations: [annotation] }), chunk({}, 'stop'), { ...chunk({}), choices: [], usage }])
  })
}

const claudeBodies: any[] = []
function claude(request: Request): Promise<Response> {
  return request.json().then((body: any) => {
    claudeBodies.push(body)
    const result = { type: 'web_search_tool_result', tool_use_id: 'srvtoolu_01', content: [{ type: 'web_search_result', ...page, encrypted_content: 'EncPage', page_age: null }] }
    const citation = { type: 'web_search_result_location', ...page, cited_text: 'Sunny', encrypted_index: 'EncIndex' }
    const usage = { input_tokens: 10, output_tokens: 30 }
    if (!body.stream) {
      return json({ id: 'msg_01', type: 'message', role: 'assistant', model: 'claude-x', stop_reason: 'end_turn', stop_sequence: null, usage, content: [
        { type: 'server_tool_use', id: 'srvtoolu_01', name: 'web_search', input: { query: 'paris weather' } }, result, { type: 'text', text: answer, citations: [citation] },
      ] })
    }
    const delta = (index: number, d: unknown) => ({ type: 'content_block_delta', index, delta: d })
    return sse([
      { type: 'message_start', message: { id: 'msg_01', type: 'message', role: 'assistant', model: 'claude-x', content: [], stop_reason: null, stop_sequence: null, usage: { input_tokens: 10, output_tokens: 1 } } },
      { type: 'content_block_start', index: 0, content_block: { type: 'server_tool_use', id: 'srvtoolu_01', name: 'web_search', input: {} } },
      delta(0, { type: 'input_json_delta', partial_json: '{"query": "paris weather"}' }),
      { type: 'content_block_stop', index: 0 },
      { type: 'content_block_start', index: 1, content_block: result },
      { type: 'content_block_stop', index: 1 },
      { type: 'content_block_start', index: 2, content_block: { type: 'text', text: '', citations: [] } },
      delta(2, { type: 'citations_delta', citation }),
      delta(2, { type: 'text_delta', text: answer }),
      { type: 'content_block_stop', index: 2 },
      { type: 'message_delta', delta: { stop_reason: 'end_turn', stop_sequence: null }, usage: { output_tokens: 30 } },
      { type: 'message_stop' },
    ], true)
  })
}

let upstreams: MockUpstream[] = []
let proxy: TestProxy
beforeAll(async () => {
  upstreams = await Promise.all([searchModel, claude].map(handler => startMockUpstream(handler)))
  proxy = await startTestProxy({
    'api-keys': ['sk-cws'],
    'compat-provider': [{ name: 'search', 'base-url': `${upstreams[0]!.url}/v1`, 'api-key-entries': [{ 'api-key': 'up' }], models: [{ name: 'gpt-4o-search-preview', alias: 'searching' }] }],
    'beta-api-key': [{ 'api-key': 'up-beta', 'base-url': upstreams[1]!.url, models: [{ name: 'claude-x', alias: 'claude' }] }],
  })
}, 60_000)
afterAll(async () => {
  await proxy?.close()
  await Promise.all(upstreams.map(upstream => upstream.close()))
})

const openai = () => new OpenAI({ apiKey: 'sk-cws', baseURL: `${proxy.url}/v1`, maxRetries: 0 })
const anthropic = () => new Anthropic({ apiKey: 'sk-cws', baseURL: proxy.url, maxRetries: 0 })

describe('a chat search model\'s citations reach other formats', () => {
  it.each([false, true])('responses client (stream %s): url_citation on the text', async (stream) => {
    const ask = { model: 'searching', input: 'Weather in Paris?', tools: [{ type: 'web_search' as const }] }
    const response = stream ? await openai().responses.stream(ask).finalResponse() : await openai().responses.create(ask)
    const text = response.output.flatMap(item => item.type === 'message' ? item.content : []).find(part => part.type === 'output_text')!
    expect(text).toMatchObject({ text: answer, annotations: [{ type: 'url_citation', start_index: 0, end_index: answer.length, ...page }] })
    expect(chatBodies.at(-1).web_search_options).toEqual({})
  })

  it.each([false, true])('messages client (stream %s): a cited text block', async (stream) => {
    const ask = { model: 'searching', max_tokens: 100, tools: [{ type: 'web_search_20250305' as const, name: 'web_search' as const }], messages: [{ role: 'user' as const, content: 'Weather in Paris?' }] }
    const message = stream ? await anthropic().messages.stream(ask).finalMessage() : await anthropic().messages.create(ask)
    const text = message.content.find(block => block.type === 'text') as Anthropic.TextBlock
    expect(text.text).toBe(answer)
    expect(text.citations).toEqual([expect.objectContaining({ type: 'web_search_result_location', url: page.url, title: page.title, cited_text: answer })])
  })
})

describe('a chat client\'s web_search_options reach other formats', () => {
  it.each([false, true])('toward messages (stream %s): the web_search tool goes, the citations come back as annotations', async (stream) => {
    const ask = { model: 'claude', messages: [{ role: 'user' as const, content: 'Weather in Paris?' }], web_search_options: { search_context_size: 'low' as const, user_location: { type: 'approximate' as const, approximate: { city: 'Paris', country: 'FR' } } } }
    let message: OpenAI.ChatCompletionMessage
    if (stream) {
      const chunks = await openai().chat.completions.create({ ...ask, stream: true })
      let content = ''
      const annotations: OpenAI.ChatCompletionMessage.Annotation[] = []
      for await (const chunk of chunks) {
        // The SDK's chunk type has no annotations; search models send them on a delta of their own.
        const delta = chunk.choices[0]?.delta as { content?: string; annotations?: OpenAI.ChatCompletionMessage.Annotation[] } | undefined
        content += delta?.content ?? ''
        annotations.push(...delta?.annotations ?? [])
      }
      message = { role: 'assistant', content, refusal: null, annotations }
    } else {
      const { data, response } = await openai().chat.completions.create(ask).withResponse()
      message = data.choices[0]!.message
      // The search goes; the messages tool has no context size.
      expect(response.headers.get('x-proxy-dropped')?.split(',')).toEqual(['web_search_options.search_context_size', 'web_search_tool_result.encrypted_content'])
    }
    expect(message.content).toBe(answer)
    expect(message.annotations).toEqual([annotation])
    expect(JSON.stringify(message)).not.toMatch(/EncPage|EncIndex/)
    expect(claudeBodies.at(-1).tools).toEqual([{ type: 'web_search_20250305', name: 'web_search', user_location: { type: 'approximate', city: 'Paris', country: 'FR' } }])
  })
})
