import { beforeEach, describe, expect, it } from 'vitest'
import type { WireCodec } from '../../core/canonical/codec.ts'
import type { CanonicalRequest, CanonicalResponse, Part, StreamEvent } from '../../core/canonical/types.ts'
import { fitRequest } from '../../core/canonical/request-rules.ts'
import { droppedFields } from '../../core/canonical/dropped.ts'
import { createSseParser } from '../../core/framing/sse.ts'
import { codecs } from './codecs.ts'

/**
 * Issue 21: documents, refusals, structured output, tool errors, web search and n > 1, through every
 * client x upstream pair (16): the client's wire -> canonical -> the upstream's wire -> canonical for the
 * request; the upstream's answer -> the client's answer (non-stream and stream). What a pair cannot
 * express must be named by droppedFields.
 */
const pdf = Buffer.from('%PDF-1.4 tiny').toString('base64')
const png = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg=='
const wireOf = (codec: WireCodec, body: Record<string, unknown>) => JSON.parse(JSON.stringify(codec.format === 'generate' ? { ...body, model: 'm' } : body))
/** The request as the client would send it, decoded the way the proxy decodes it. */
const viaClient = (client: WireCodec, request: CanonicalRequest) => client.request.decode(wireOf(client, client.request.encode(request)))
const viaUpstream = (upstream: WireCodec, request: CanonicalRequest) => upstream.request.decode(wireOf(upstream, upstream.request.encode(fitRequest(request, upstream.format).request)))
const parts = (request: CanonicalRequest) => request.messages.flatMap(message => message.parts)

const pairs = codecs.flatMap(client => codecs.map(upstream => ({ name: `${client.format} -> ${upstream.format}`, client, upstream })))
/** Formats whose answers carry web search results and citations. */
const searched = (format: string) => format !== 'chat'
/** Formats whose answers carry several candidates (n > 1). */
const many = (format: string) => format === 'chat' || format === 'generate'
/** Only the pairs where a case applies are generated: a case never passes by returning early. */
const pairsWhere = (both: (format: string) => boolean) => pairs.filter(({ client, upstream }) => both(client.format) && both(upstream.format))

// Every case asserts something: one that returns before its first expect fails.
beforeEach(() => { expect.hasAssertions() })

describe.each(pairs)('$name', ({ client, upstream }) => {
  it('a PDF by value reaches the upstream as a document (not an image, not text)', () => {
    const request: CanonicalRequest = { model: 'm', stream: false, messages: [{ role: 'user', parts: [{ type: 'text', text: 'Summarise' }, { type: 'file', mediaType: 'application/pdf', data: pdf, filename: 'a.pdf' }] }] }
    const decoded = viaClient(client, request)
    const file = parts(viaUpstream(upstream, decoded)).find(part => part.type === 'file')
    expect(file).toMatchObject({ type: 'file', mediaType: 'application/pdf', data: pdf })
    expect(droppedFields(decoded, client.format, upstream.format)).toEqual([])
  })

  it('an image a tool returned stays an image', () => {
    const request: CanonicalRequest = { model: 'm', stream: false, messages: [
      { role: 'user', parts: [{ type: 'text', text: 'look' }] },
      { role: 'assistant', parts: [{ type: 'tool_call', id: 'call_1', name: 'shot', arguments: '{}' }] },
      { role: 'tool', parts: [{ type: 'tool_result', callId: 'call_1', name: 'shot', content: [{ type: 'text', text: 'here' }, { type: 'image', mediaType: 'image/png', data: png }] }] },
    ] }
    const back = parts(viaUpstream(upstream, viaClient(client, request)))
    const images = back.flatMap(part => part.type === 'image' ? [part] : part.type === 'tool_result' && typeof part.content !== 'string' ? part.content.filter(p => p.type === 'image') : [])
    expect(images).toEqual([expect.objectContaining({ data: png })])
  })

  it('a failed tool call keeps its error flag where both sides have one, else it is reported', () => {
    const request: CanonicalRequest = { model: 'm', stream: false, messages: [
      { role: 'user', parts: [{ type: 'text', text: 'go' }] },
      { role: 'assistant', parts: [{ type: 'tool_call', id: 'call_1', name: 'f', arguments: '{}' }] },
      { role: 'tool', parts: [{ type: 'tool_result', callId: 'call_1', name: 'f', content: 'disk full', isError: true }] },
    ] }
    const decoded = viaClient(client, request)
    const result = parts(viaUpstream(upstream, decoded)).find(part => part.type === 'tool_result')
    const flags = (format: string) => format === 'messages' || format === 'generate'
    expect(result).toMatchObject({ content: 'disk full' })
    if (flags(client.format) && flags(upstream.format)) expect(result).toMatchObject({ isError: true })
    if (flags(client.format) && !flags(upstream.format) && client !== upstream) expect(droppedFields(decoded, client.format, upstream.format)).toHaveLength(1)
  })

  it('a JSON schema for the answer reaches the upstream', () => {
    const schema = { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] }
    const decoded = viaClient(client, { model: 'm', stream: false, responseFormat: { type: 'json_schema', name: 'answer', schema }, messages: [{ role: 'user', parts: [{ type: 'text', text: 'x' }] }] })
    expect(viaUpstream(upstream, decoded).responseFormat).toMatchObject({ type: 'json_schema', schema })
    expect(droppedFields(decoded, client.format, upstream.format)).toEqual([])
  })

  it('web search where both sides have one, reported where not', () => {
    const decoded = viaClient(client, { model: 'm', stream: false, webSearch: { allowedDomains: ['example.com'] }, messages: [{ role: 'user', parts: [{ type: 'text', text: 'news' }] }] })
    if (client.format === 'chat') expect(decoded.webSearch).toBeUndefined()
    else if (upstream.format === 'chat') expect(droppedFields(decoded, client.format, upstream.format)).toContain(client.format === 'generate' ? 'tool:googleSearch' : 'tool:web_search')
    else expect(viaUpstream(upstream, decoded).webSearch).toBeDefined()
  })

  const refusal: CanonicalResponse = { id: 'r', model: 'm', parts: [{ type: 'text', text: 'I cannot help with that.', refusal: true }], finishReason: 'content_filter' }
  it('a refusal answer: text, flagged where the client format has a refusal slot, content_filter kept', () => {
    const back = client.response.decode(JSON.parse(JSON.stringify(client.response.encode(upstream.response.decode(JSON.parse(JSON.stringify(upstream.response.encode(refusal))))))))
    expect(back.finishReason).toBe('content_filter')
    const text = back.parts.find((part): part is Extract<Part, { type: 'text' }> => part.type === 'text')
    expect(text?.text).toBe('I cannot help with that.')
    const slot = (format: string) => format === 'chat' || format === 'responses'
    if (slot(client.format) && slot(upstream.format)) expect(text?.refusal).toBe(true)
  })

  it('a refusal in a stream', () => {
    const events: StreamEvent[] = [{ type: 'start', id: 'x', model: 'm' }, { type: 'text', index: 0, delta: 'No.', refusal: true }, { type: 'finish', reason: 'content_filter' }]
    const decoded = roundStream(client, roundStream(upstream, events))
    expect(decoded.filter(event => event.type === 'text').map(event => (event as { delta: string }).delta).join('')).toBe('No.')
    expect(decoded.find(event => event.type === 'finish')).toMatchObject({ reason: 'content_filter' })
  })

  it('n > 1: every candidate back where both sides have candidates', () => {
    const answer: CanonicalResponse = { id: 'r', model: 'm', parts: [{ type: 'text', text: 'one' }], finishReason: 'stop', alternatives: [{ parts: [{ type: 'text', text: 'two' }], finishReason: 'stop' }] }
    const back = client.response.decode(JSON.parse(JSON.stringify(client.response.encode(upstream.response.decode(JSON.parse(JSON.stringify(upstream.response.encode(answer))))))))
    expect(back.parts).toEqual([{ type: 'text', text: 'one' }])
    if (many(client.format) && many(upstream.format)) expect(back.alternatives).toEqual(answer.alternatives)
  })
})

describe.each(pairsWhere(searched))('web search results, $name', ({ client, upstream }) => {
  const searchAnswer = (origin: string): CanonicalResponse => ({ id: 'r', model: 'm', finishReason: 'stop', parts: [
    { type: 'web_search', id: 's1', query: 'weather', sources: [{ url: 'https://a.example/', title: 'A' }], origin },
    { type: 'text', text: 'Sunny today.', citations: [{ url: 'https://a.example/', title: 'A', start: 0, end: 5, origin }] },
  ] })
  const checkSearch = (parts: Part[]) => {
    expect(parts.find(part => part.type === 'web_search')).toMatchObject({ query: 'weather', sources: [expect.objectContaining({ url: 'https://a.example/' })] })
    const text = parts.filter(part => part.type === 'text')
    expect(text.map(part => part.text).join('')).toBe('Sunny today.')
    expect(text.flatMap(part => part.citations ?? [])).toEqual([expect.objectContaining({ url: 'https://a.example/' })])
  }
  it('web search results in an answer: the search and its citations where both sides have them', () => {
    const back = client.response.decode(JSON.parse(JSON.stringify(client.response.encode(upstream.response.decode(JSON.parse(JSON.stringify(upstream.response.encode(searchAnswer(upstream.format)))))))))
    checkSearch(back.parts)
  })
  it('web search results in a stream', () => {
    const answer = searchAnswer(upstream.format)
    const events: StreamEvent[] = [
      { type: 'start', id: 'x', model: 'm' },
      { type: 'web_search', index: 0, search: answer.parts[0] as Extract<Part, { type: 'web_search' }> },
      { type: 'text', index: 1, delta: 'Sunny ' }, { type: 'text', index: 1, delta: 'today.' },
      { type: 'citation', index: 1, citation: { url: 'https://a.example/', title: 'A', start: 0, end: 5, origin: upstream.format } },
      { type: 'finish', reason: 'stop' },
    ]
    const decoded = roundStream(client, roundStream(upstream, events))
    const search = decoded.find(event => event.type === 'web_search')
    const text = decoded.filter(event => event.type === 'text').map(event => (event as { delta: string }).delta).join('')
    const citations = decoded.filter(event => event.type === 'citation')
    checkSearch([(search as Extract<StreamEvent, { type: 'web_search' }>).search, { type: 'text', text, citations: citations.map(event => (event as Extract<StreamEvent, { type: 'citation' }>).citation) }])
  })
})

describe.each(pairsWhere(many))('several candidates, $name', ({ client, upstream }) => {
  it('n > 1 in a stream: every candidate back, each under its own choice', () => {
    const events: StreamEvent[] = [
      { type: 'start', id: 'x', model: 'm' },
      { type: 'text', index: 0, delta: 'one' },
      { type: 'text', index: 1, delta: 'two', choice: 1 },
      { type: 'tool_call_start', index: 2, id: 'call_b', name: 'f', choice: 1 },
      { type: 'tool_call_delta', index: 2, delta: '{"a":1}', choice: 1 },
      { type: 'finish', reason: 'stop', choices: ['stop', 'tool_calls'] },
    ]
    const decoded = roundStream(client, roundStream(upstream, events))
    const textOf = (choice: number) => decoded.filter(event => event.type === 'text' && (event.choice ?? 0) === choice).map(event => (event as { delta: string }).delta).join('')
    expect([textOf(0), textOf(1)]).toEqual(['one', 'two'])
    expect(decoded.find(event => event.type === 'tool_call_start')).toMatchObject({ name: 'f', choice: 1 })
    expect(decoded.filter(event => event.type === 'tool_call_delta').map(event => (event as { delta: string }).delta).join('')).toBe('{"a":1}')
    expect(decoded.at(-1)).toMatchObject({ type: 'finish', reason: 'stop', choices: ['stop', 'tool_calls'] })
  })
})

function roundStream(codec: WireCodec, events: StreamEvent[]): StreamEvent[] {
  const encoder = codec.stream.createEncoder({ model: 'm' })
  let wire = events.map(event => encoder.push(event)).join('') + encoder.end()
  const parser = createSseParser()
  const decoder = codec.stream.createDecoder()
  const out: StreamEvent[] = []
  for (const sse of [...parser.push(wire), ...parser.end()]) out.push(...decoder.push(sse))
  out.push(...decoder.end())
  wire = ''
  return out
}

describe('generateContent answers', () => {
  const generate = codecs.find(codec => codec.format === 'generate')!
  it('a blocked prompt is content_filter with its reason, in every client format', () => {
    const blocked = generate.response.decode({ promptFeedback: { blockReason: 'PROHIBITED_CONTENT' }, usageMetadata: { promptTokenCount: 5 } })
    expect(blocked.finishReason).toBe('content_filter')
    for (const client of codecs) expect(JSON.stringify(client.response.encode(blocked))).toContain('PROHIBITED_CONTENT')
    const decoder = generate.stream.createDecoder()
    const events = [...decoder.push({ data: JSON.stringify({ promptFeedback: { blockReason: 'SAFETY' } }) }), ...decoder.end()]
    expect(events.find(event => event.type === 'text')).toMatchObject({ refusal: true })
    expect(events.at(-1)).toMatchObject({ type: 'finish', reason: 'content_filter' })
  })
  it('a generate client may send the 5 stop sequences its API accepts, not 6', () => {
    const body = { model: 'm', contents: [{ role: 'user', parts: [{ text: 'x' }] }], generationConfig: { stopSequences: ['a', 'b', 'c', 'd', 'e'] } }
    expect(generate.request.decode(body).stop).toHaveLength(5)
    expect(() => generate.request.decode({ ...body, generationConfig: { stopSequences: ['a', 'b', 'c', 'd', 'e', 'f'] } })).toThrow(/at most 5/)
  })
  it('Gemini-style tool schemas reach other vendors as JSON Schema', () => {
    const decoded = generate.request.decode({ model: 'm', contents: [{ role: 'user', parts: [{ text: 'x' }] }], tools: [{ functionDeclarations: [{ name: 'f', parameters: { type: 'OBJECT', properties: { q: { type: 'STRING', nullable: true } } } }] }] })
    expect(decoded.tools![0]!.parameters).toEqual({ type: 'object', properties: { q: { type: ['string', 'null'] } } })
  })
})
