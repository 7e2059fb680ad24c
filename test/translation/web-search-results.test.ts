import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import Anthropic from '@anthropic-ai/sdk'
import OpenAI from 'openai'
import { startMockUpstream, type MockUpstream } from '../helpers/mock-openai-server.ts'
import { startTestProxy, type TestProxy } from '../helpers/proxy-server.ts'
import { envelopeMarker } from '../../core/canonical/signature.ts'

/**
 * Issue 21: hosted web search results cross formats. Scripted upstreams answer in their vendor's own
 * event sequences (Anthropic's server tool blocks and citations_delta, OpenAI's web_search_call item
 * events and output_text.annotation.added, Gemini's groundingMetadata on the last chunk); real SDK
 * clients read the translation. Anthropic's encrypted values never leave for another format.
 */
const page = { url: 'https://weather.example/paris', title: 'Paris weather' }
const answer = 'It is sunny in Paris.'
const sse = (events: Array<[string, unknown]>) => new Response(events.map(([event, data]) => `event: ${event}\ndata: ${JSON.stringify(data)}\n\n`).join(''), { headers: { 'content-type': 'text/event-stream' } })
const json = (body: unknown) => new Response(JSON.stringify(body), { headers: { 'content-type': 'application/json' } })

/** Anthropic with web_search_20250305: text, the query block, the results block, then cited text. */
const claudeRequests: any[] = []
function claude(request: Request): Promise<Response> {
  return request.json().then((body: any) => {
    claudeRequests.push(body)
    const result = { type: 'web_search_tool_result', tool_use_id: 'srvtoolu_01', content: [{ type: 'web_search_result', ...page, encrypted_content: 'EncSecretPage', page_age: 'today' }] }
    const citation = { type: 'web_search_result_location', ...page, cited_text: 'Sunny, 24°C', encrypted_index: 'EncSecretIndex' }
    const usage = { input_tokens: 10, output_tokens: 30, server_tool_use: { web_search_requests: 1 } }
    if (!body.stream) {
      return json({ id: 'msg_01', type: 'message', role: 'assistant', model: 'claude-x', stop_reason: 'end_turn', stop_sequence: null, usage, content: [
        { type: 'text', text: 'Let me search.' },
        { type: 'server_tool_use', id: 'srvtoolu_01', name: 'web_search', input: { query: 'paris weather' } },
        result,
        { type: 'text', text: answer, citations: [citation] },
      ] })
    }
    const delta = (index: number, d: unknown): [string, unknown] => ['content_block_delta', { type: 'content_block_delta', index, delta: d }]
    return sse([
      ['message_start', { type: 'message_start', message: { id: 'msg_01', type: 'message', role: 'assistant', model: 'claude-x', content: [], stop_reason: null, stop_sequence: null, usage: { input_tokens: 10, output_tokens: 1 } } }],
      ['content_block_start', { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } }],
      delta(0, { type: 'text_delta', text: 'Let me search.' }),
      ['content_block_stop', { type: 'content_block_stop', index: 0 }],
      ['content_block_start', { type: 'content_block_start', index: 1, content_block: { type: 'server_tool_use', id: 'srvtoolu_01', name: 'web_search', input: {} } }],
      delta(1, { type: 'input_json_delta', partial_json: '' }),
      delta(1, { type: 'input_json_delta', partial_json: '{"query": "paris ' }),
      delta(1, { type: 'input_json_delta', partial_json: 'weather"}' }),
      ['content_block_stop', { type: 'content_block_stop', index: 1 }],
      ['content_block_start', { type: 'content_block_start', index: 2, content_block: result }],
      ['content_block_stop', { type: 'content_block_stop', index: 2 }],
      ['content_block_start', { type: 'content_block_start', index: 3, content_block: { type: 'text', text: '', citations: [] } }],
      delta(3, { type: 'citations_delta', citation }),
      delta(3, { type: 'text_delta', text: answer }),
      ['content_block_stop', { type: 'content_block_stop', index: 3 }],
      ['message_delta', { type: 'message_delta', delta: { stop_reason: 'end_turn', stop_sequence: null }, usage: { output_tokens: 30 } }],
      ['message_stop', { type: 'message_stop' }],
    ])
  })
}

/** OpenAI Responses with the web_search tool: the web_search_call item's events, then the cited message. */
function openai(request: Request): Promise<Response> {
  return request.json().then((body: any) => {
    const call = { id: 'ws_01', type: 'web_search_call', status: 'completed', action: { type: 'search', query: 'paris weather', sources: [{ type: 'url', url: page.url }] } }
    const annotation = { type: 'url_citation', start_index: 0, end_index: answer.length, ...page }
    const message = { id: 'msg_01', type: 'message', role: 'assistant', status: 'completed', content: [{ type: 'output_text', text: answer, annotations: [annotation] }] }
    const response = (status: string, output: unknown[]) => ({ id: 'resp_01', object: 'response', created_at: 1, status, model: 'gpt-x', output, usage: status === 'completed' ? { input_tokens: 10, output_tokens: 20, total_tokens: 30 } : null })
    if (!body.stream) return json(response('completed', [call, message]))
    const ref = { item_id: 'ws_01', output_index: 0 }
    const text = { item_id: 'msg_01', output_index: 1, content_index: 0 }
    let seq = 0
    const e = (type: string, data: object): [string, unknown] => [type, { type, sequence_number: seq++, ...data }]
    return sse([
      e('response.created', { response: response('in_progress', []) }),
      e('response.output_item.added', { output_index: 0, item: { id: 'ws_01', type: 'web_search_call', status: 'in_progress' } }),
      e('response.web_search_call.in_progress', ref), e('response.web_search_call.searching', ref), e('response.web_search_call.completed', ref),
      e('response.output_item.done', { output_index: 0, item: call }),
      e('response.output_item.added', { output_index: 1, item: { ...message, status: 'in_progress', content: [] } }),
      e('response.content_part.added', { ...text, part: { type: 'output_text', text: '', annotations: [] } }),
      e('response.output_text.delta', { ...text, delta: 'It is sunny ' }),
      e('response.output_text.delta', { ...text, delta: 'in Paris.' }),
      e('response.output_text.annotation.added', { ...text, annotation_index: 0, annotation }),
      e('response.output_text.done', { ...text, text: answer }),
      e('response.content_part.done', { ...text, part: message.content[0] }),
      e('response.output_item.done', { output_index: 1, item: message }),
      e('response.completed', { response: response('completed', [call, message]) }),
    ])
  })
}

/** Gemini with googleSearch: the text streams, the last chunk carries the grounding (byte offsets). */
function gemini(request: Request): Response {
  const grounding = { webSearchQueries: ['paris weather'], groundingChunks: [{ web: { uri: page.url, title: page.title } }], groundingSupports: [{ segment: { startIndex: 0, endIndex: Buffer.byteLength(answer), text: answer }, groundingChunkIndices: [0] }] }
  const chunk = (text: string, extra: object = {}) => ({ candidates: [{ content: { role: 'model', parts: [{ text }] }, index: 0, ...extra }], modelVersion: 'gemini-x', responseId: 'g1' })
  if (!request.url.includes(':streamGenerateContent')) return json({ ...chunk(answer, { finishReason: 'STOP', groundingMetadata: grounding }), usageMetadata: { promptTokenCount: 5, candidatesTokenCount: 6, totalTokenCount: 11 } })
  return new Response([chunk('It is sunny '), { ...chunk('in Paris.', { finishReason: 'STOP', groundingMetadata: grounding }), usageMetadata: { promptTokenCount: 5, candidatesTokenCount: 6, totalTokenCount: 11 } }].map(c => `data: ${JSON.stringify(c)}\n\n`).join(''), { headers: { 'content-type': 'text/event-stream' } })
}

let upstreams: MockUpstream[] = []
let proxy: TestProxy
beforeAll(async () => {
  upstreams = await Promise.all([claude, openai, gemini].map(handler => startMockUpstream(handler)))
  const [anthropic, responses, google] = upstreams
  proxy = await startTestProxy({
    'api-keys': ['sk-ws'],
    'beta-api-key': [{ 'api-key': 'up-beta', 'base-url': anthropic!.url, models: [{ name: 'claude-x', alias: 'claude' }] }],
    'gamma-api-key': [{ 'api-key': 'up-gamma', 'base-url': `${responses!.url}/v1`, models: [{ name: 'gpt-x', alias: 'gpt' }] }],
    'alpha-api-key': [{ 'api-key': 'up-alpha', 'base-url': google!.url, models: [{ name: 'gemini-x', alias: 'gem' }] }],
  })
}, 60_000)
afterAll(async () => {
  await proxy?.close()
  await Promise.all(upstreams.map(upstream => upstream.close()))
})

const responsesClient = () => new OpenAI({ apiKey: 'sk-ws', baseURL: `${proxy.url}/v1` })
const messagesClient = () => new Anthropic({ apiKey: 'sk-ws', baseURL: proxy.url })
const searchTool = { type: 'web_search' as const }
const anthropicTool = { type: 'web_search_20250305' as const, name: 'web_search' as const }

/** What a responses client must see: the search item, and the cited text with a url_citation over it. */
function expectResponsesSearch(output: OpenAI.Responses.ResponseOutputItem[]) {
  const search = output.find(item => item.type === 'web_search_call') as OpenAI.Responses.ResponseFunctionWebSearch
  expect(search).toMatchObject({ status: 'completed', action: { type: 'search', query: 'paris weather', sources: [{ type: 'url', url: page.url }] } })
  const texts = output.flatMap(item => item.type === 'message' ? item.content : []).filter(part => part.type === 'output_text')
  const cited = texts.find(part => part.annotations.length)!
  expect(cited.text).toBe(answer)
  expect(cited.annotations).toEqual([{ type: 'url_citation', start_index: 0, end_index: answer.length, ...page }])
}

describe('web search results across formats', () => {
  it('openai SDK (responses) -> Anthropic, non-stream: web_search_call + url_citation, no encrypted value, reported', async () => {
    const { data, response } = await responsesClient().responses.create({ model: 'claude', input: 'Weather in Paris?', tools: [searchTool] }).withResponse()
    expectResponsesSearch(data.output)
    expect(JSON.stringify(data)).not.toMatch(/EncSecret/)
    expect(response.headers.get('x-proxy-dropped')).toContain('web_search_tool_result.encrypted_content')
    expect(claudeRequests.at(-1).tools).toEqual([expect.objectContaining({ type: 'web_search_20250305', name: 'web_search' })])
  })

  it('openai SDK (responses) -> Anthropic, stream: the SDK assembles the same output', async () => {
    const stream = responsesClient().responses.stream({ model: 'claude', input: 'Weather in Paris?', tools: [searchTool] })
    const types: string[] = []
    stream.on('event', event => { types.push(event.type) })
    const final = await stream.finalResponse()
    expectResponsesSearch(final.output)
    expect(types).toEqual(expect.arrayContaining(['response.web_search_call.searching', 'response.output_text.annotation.added']))
    expect(JSON.stringify(final)).not.toMatch(/EncSecret/)
  })

  it('@anthropic-ai/sdk -> OpenAI Responses, stream and not: server_tool_use + web_search_tool_result + cited text', async () => {
    const ask = { model: 'gpt', max_tokens: 500, tools: [anthropicTool], messages: [{ role: 'user' as const, content: 'Weather in Paris?' }] }
    const whole = await messagesClient().messages.create(ask)
    const streamed = await messagesClient().messages.stream(ask).finalMessage()
    for (const message of [whole, streamed]) {
      expect(message.content.map(block => block.type)).toEqual(['server_tool_use', 'web_search_tool_result', 'text'])
      expect(message.content[0]).toMatchObject({ name: 'web_search', input: { query: 'paris weather' } })
      const results = (message.content[1] as Anthropic.WebSearchToolResultBlock).content as Anthropic.WebSearchResultBlock[]
      expect(results.map(result => result.url)).toEqual([page.url])
      // Not Anthropic's: the encrypted slot holds the proxy's marker, which the proxy never forwards to Anthropic.
      expect(results[0]!.encrypted_content.startsWith(envelopeMarker)).toBe(true)
      const text = message.content[2] as Anthropic.TextBlock
      expect(text.text).toBe(answer)
      expect(text.citations).toEqual([expect.objectContaining({ type: 'web_search_result_location', url: page.url, title: page.title, cited_text: answer })])
    }
  })

  it('...and replayed to Anthropic, the translated search stays out (reported), the text goes', async () => {
    const first = await messagesClient().messages.create({ model: 'gpt', max_tokens: 500, tools: [anthropicTool], messages: [{ role: 'user', content: 'Weather in Paris?' }] })
    const { response } = await messagesClient().messages.create({ model: 'claude', max_tokens: 500, tools: [anthropicTool], messages: [
      { role: 'user', content: 'Weather in Paris?' },
      { role: 'assistant', content: first.content as Anthropic.ContentBlockParam[] },
      { role: 'user', content: 'And tomorrow?' },
    ] }).withResponse()
    const sent = claudeRequests.at(-1)
    expect(JSON.stringify(sent)).not.toContain(envelopeMarker)
    expect(sent.messages[1].content).toEqual([{ type: 'text', text: answer }])
    expect(response.headers.get('x-proxy-dropped')).toContain('web_search_tool_result')
  })

  it('...also when the client spells the envelope with an escaped letter (the same JSON): it never reaches Anthropic', async () => {
    const first = await messagesClient().messages.create({ model: 'gpt', max_tokens: 500, tools: [anthropicTool], messages: [{ role: 'user', content: 'Weather in Paris?' }] })
    const body = JSON.stringify({ model: 'claude', max_tokens: 500, tools: [anthropicTool], messages: [
      { role: 'user', content: 'Weather in Paris?' },
      { role: 'assistant', content: first.content },
      { role: 'user', content: 'And tomorrow?' },
    ] }).replaceAll(envelopeMarker, `\\u0062${envelopeMarker.slice(1)}`)
    expect(body).not.toContain(envelopeMarker)
    const response = await fetch(`${proxy.url}/v1/messages`, { method: 'POST', headers: { 'x-api-key': 'sk-ws', 'anthropic-version': '2023-06-01', 'content-type': 'application/json' }, body })
    expect(response.status).toBe(200)
    expect(JSON.stringify(claudeRequests.at(-1))).not.toContain(envelopeMarker)
    expect(response.headers.get('x-proxy-dropped')).toContain('web_search_tool_result')
  })

  it('Anthropic\'s own search replayed to Anthropic through the codecs keeps its encrypted values', async () => {
    const first = await messagesClient().messages.create({ model: 'claude', max_tokens: 500, tools: [anthropicTool], messages: [{ role: 'user', content: 'Weather in Paris?' }] })
    const translated = await messagesClient().messages.create({ model: 'gpt', max_tokens: 500, tools: [anthropicTool], messages: [{ role: 'user', content: 'x' }] })
    // One conversation with both: the envelope sends it through the codecs; Anthropic's own blocks survive.
    await messagesClient().messages.create({ model: 'claude', max_tokens: 500, tools: [anthropicTool], messages: [
      { role: 'user', content: 'Weather in Paris?' },
      { role: 'assistant', content: first.content as Anthropic.ContentBlockParam[] },
      { role: 'user', content: 'and elsewhere?' },
      { role: 'assistant', content: translated.content as Anthropic.ContentBlockParam[] },
      { role: 'user', content: 'thanks' },
    ] })
    const sent = JSON.stringify(claudeRequests.at(-1))
    expect(sent).toContain('EncSecretPage')
    expect(sent).toContain('EncSecretIndex')
    expect(sent).not.toContain(envelopeMarker)
  })

  it('Gemini grounding -> a responses client (stream) and a messages client (non-stream)', async () => {
    const final = await responsesClient().responses.stream({ model: 'gem', input: 'Weather in Paris?', tools: [searchTool] }).finalResponse()
    expectResponsesSearch(final.output)
    const message = await messagesClient().messages.create({ model: 'gem', max_tokens: 500, tools: [anthropicTool], messages: [{ role: 'user', content: 'Weather in Paris?' }] })
    expect(message.content.map(block => block.type)).toEqual(['server_tool_use', 'web_search_tool_result', 'text'])
    expect((message.content[2] as Anthropic.TextBlock).citations).toEqual([expect.objectContaining({ url: page.url, cited_text: answer })])
  })
})
