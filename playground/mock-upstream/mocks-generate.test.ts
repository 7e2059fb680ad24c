import { describe, expect, it } from 'vitest'
import { generateMock } from './generate.ts'
import { post, readSse } from './sse-read.ts'

const echo = (said: string) => `Hello from the playground mock upstream. You said: ${said}`
const key = { 'x-goog-api-key': 'k' }
const base = 'http://x/mock/alpha'
const call = (method: string, body: Record<string, unknown>, query = '', headers: Record<string, string> = key) =>
  generateMock(post(`${base}/v1beta/models/mock-gemini:${method}${query}`, body, headers), '/mock/alpha')
const user = (text: string) => ({ role: 'user', parts: [{ text }] })
const tools = [{ functionDeclarations: [{ name: 'lookup', description: 'look up', parameters: { type: 'OBJECT', properties: {} } }] }]

describe('generateMock', () => {
  it('answers generateContent in the exact response shape', async () => {
    const body = await (await call('generateContent', { contents: [user('hi')] })).json()
    const { promptTokenCount, candidatesTokenCount } = body.usageMetadata
    expect(body).toEqual({
      candidates: [{ content: { role: 'model', parts: [{ text: echo('hi') }] }, finishReason: 'STOP', index: 0 }],
      usageMetadata: { promptTokenCount, candidatesTokenCount, totalTokenCount: promptTokenCount + candidatesTokenCount },
      modelVersion: 'mock-gemini',
      responseId: expect.any(String),
    })
  })

  it('streams SSE chunks (CRLF-delimited); only the last has finishReason and full usage', async () => {
    const response = await call('streamGenerateContent', { contents: [user('hi there')] }, '?alt=sse')
    expect(response.headers.get('content-type')).toBe('text/event-stream')
    const raw = await response.clone().text()
    expect(raw.startsWith('data: {')).toBe(true)
    expect(raw.endsWith('}\r\n\r\n')).toBe(true)
    const chunks = (await readSse(response)).map(frame => frame.data)
    expect(chunks.length).toBeGreaterThan(3)
    expect(chunks.map(chunk => chunk.candidates[0].content.parts[0].text).join('')).toBe(echo('hi there'))
    for (const chunk of chunks.slice(0, -1)) {
      expect(chunk.candidates[0].finishReason).toBeUndefined()
      expect(chunk.usageMetadata.candidatesTokenCount).toBeUndefined()
    }
    expect(chunks.at(-1)).toMatchObject({ candidates: [{ finishReason: 'STOP', index: 0 }], modelVersion: 'mock-gemini', usageMetadata: { candidatesTokenCount: expect.any(Number) } })
    expect(new Set(chunks.map(chunk => chunk.responseId)).size).toBe(1)
  })

  it('answers :streamGenerateContent without alt=sse as one JSON array of the same chunks', async () => {
    const chunks = await (await call('streamGenerateContent', { contents: [user('hi')] })).json()
    expect(Array.isArray(chunks)).toBe(true)
    expect(chunks.map((chunk: any) => chunk.candidates[0].content.parts[0].text).join('')).toBe(echo('hi'))
    expect(chunks.at(-1).candidates[0].finishReason).toBe('STOP')
  })

  it('calls a function in one chunk (no id, with thoughtSignature), then reads functionResponse', async () => {
    const chunks = (await readSse(await call('streamGenerateContent', { contents: [user('lookup dogs')], tools }, '?alt=sse'))).map(frame => frame.data)
    expect(chunks).toHaveLength(1)
    expect(chunks[0].candidates[0]).toEqual({
      content: { role: 'model', parts: [{ functionCall: { name: 'lookup', args: { query: 'lookup dogs' } }, thoughtSignature: expect.stringMatching(/^sig-mock-/) }] },
      finishReason: 'STOP', index: 0,
    })
    const answer = await (await call('generateContent', { tools, contents: [
      user('lookup dogs'), chunks[0].candidates[0].content,
      { role: 'user', parts: [{ functionResponse: { name: 'lookup', response: { result: 'woof' } } }] },
    ] })).json()
    expect(answer.candidates[0].content.parts).toEqual([{ text: 'The tool said: woof' }])
  })

  it('emits a thought part first when includeThoughts is set', async () => {
    const config = { generationConfig: { thinkingConfig: { includeThoughts: true, thinkingBudget: 128 } } }
    const body = await (await call('generateContent', { contents: [user('x')], ...config })).json()
    expect(body.candidates[0].content.parts).toEqual([{ text: 'Thinking.', thought: true }, { text: echo('x') }])
    expect(body.usageMetadata.thoughtsTokenCount).toBeGreaterThan(0)
    const chunks = (await readSse(await call('streamGenerateContent', { contents: [user('x')], ...config }, '?alt=sse'))).map(frame => frame.data)
    expect(chunks[0].candidates[0].content.parts).toEqual([{ text: 'Thinking.', thought: true }])
  })

  it('serves the v1internal channel wrapped in {response}', async () => {
    const headers = { authorization: 'Bearer oauth' }
    const request = { contents: [user('inside')] }
    const once = await generateMock(post(`${base}/v1internal:generateContent`, { model: 'mock-gemini', project: 'p', request }, headers), '/mock/alpha')
    const body = await once.json()
    expect(Object.keys(body)).toEqual(['response'])
    expect(body.response.candidates[0].content.parts[0].text).toBe(echo('inside'))
    const stream = await generateMock(post(`${base}/v1internal:streamGenerateContent?alt=sse`, { model: 'mock-gemini', project: 'p', request }, headers), '/mock/alpha')
    const chunks = (await readSse(stream)).map(frame => frame.data)
    for (const chunk of chunks) expect(Object.keys(chunk)).toEqual(['response'])
    expect(chunks.map(chunk => chunk.response.candidates[0].content.parts[0].text).join('')).toBe(echo('inside'))
    expect(chunks.at(-1)!.response).toMatchObject({ candidates: [{ finishReason: 'STOP' }], modelVersion: 'mock-gemini' })
  })

  it('counts tokens, lists models, and rejects missing credentials', async () => {
    expect(await (await call('countTokens', { contents: [user('count me')] })).json()).toEqual({ totalTokens: expect.any(Number) })
    expect((await call('generateContent', { contents: [user('x')] }, '?key=abc', {})).status).toBe(200)
    const list = await (await generateMock(new Request(`${base}/v1beta/models`, { headers: key }), '/mock/alpha')).json()
    expect(list.models).toHaveLength(1)
    expect(list.models[0].name).toBe('models/mock-gemini')
    const denied = await call('generateContent', { contents: [user('x')] }, '', {})
    expect(denied.status).toBe(401)
    expect(await denied.json()).toEqual({ error: { code: 401, message: expect.any(String), status: 'UNAUTHENTICATED' } })
  })
})
