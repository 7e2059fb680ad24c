import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import OpenAI from 'openai'
import { GoogleGenAI } from '@google/genai'
import { startMockUpstream, type MockUpstream } from '../helpers/mock-openai-server.ts'
import { startTestProxy, type TestProxy } from '../helpers/proxy-server.ts'

/**
 * Issue 21, `n > 1`: every candidate comes back across chat <-> generateContent, streamed and not; an
 * upstream that answers one candidate (messages) is refused in the client's format, before it is called.
 * The scripted upstreams send the vendors' own sequences: OpenAI interleaves chunks by `choices[].index`,
 * Gemini names each candidate's `index` in every chunk.
 */
const sse = (events: unknown[], done = false) => new Response(events.map(event => `data: ${JSON.stringify(event)}\n\n`).join('') + (done ? 'data: [DONE]\n\n' : ''), { headers: { 'content-type': 'text/event-stream' } })
const json = (body: unknown) => new Response(JSON.stringify(body), { headers: { 'content-type': 'application/json' } })

const geminiChunk = (candidates: unknown[], extra: object = {}) => ({ candidates, modelVersion: 'gemini-x', responseId: 'r1', ...extra })
const text = (index: number, value: string, finishReason?: string) => ({ content: { role: 'model', parts: [{ text: value }] }, index, ...(finishReason && { finishReason }) })

function gemini(request: Request): Promise<Response> {
  return request.json().then((body: any) => {
    const count = body.generationConfig?.candidateCount ?? 1
    if (count !== 2) return new Response(JSON.stringify({ error: { code: 400, message: `expected candidateCount 2, got ${count}`, status: 'INVALID_ARGUMENT' } }), { status: 400 })
    if (!request.url.includes(':streamGenerateContent')) return json(geminiChunk([text(0, 'Red.', 'STOP'), text(1, 'Blue.', 'MAX_TOKENS')], { usageMetadata: { promptTokenCount: 4, candidatesTokenCount: 4, totalTokenCount: 8 } }))
    return sse([
      geminiChunk([text(0, 'Re'), text(1, 'Bl')]),
      geminiChunk([text(1, 'ue.')]),
      geminiChunk([text(0, 'd.', 'STOP'), { content: { role: 'model', parts: [{ functionCall: { name: 'paint', args: { colour: 'blue' } } }] }, index: 1, finishReason: 'STOP' }], { usageMetadata: { promptTokenCount: 4, candidatesTokenCount: 6, totalTokenCount: 10 } }),
    ])
  })
}

const chunk = (choices: unknown[]) => ({ id: 'chatcmpl-1', object: 'chat.completion.chunk', created: 1, model: 'gpt-x', choices })
function openai(request: Request): Promise<Response> {
  return request.json().then((body: any) => {
    if (body.n !== 2) return new Response(JSON.stringify({ error: { message: `expected n 2, got ${body.n}`, type: 'invalid_request_error' } }), { status: 400 })
    return sse([
      chunk([{ index: 0, delta: { role: 'assistant', content: '' }, finish_reason: null }]),
      chunk([{ index: 1, delta: { role: 'assistant', content: '' }, finish_reason: null }]),
      chunk([{ index: 0, delta: { content: 'Cats' }, finish_reason: null }]),
      chunk([{ index: 1, delta: { content: 'Dogs' }, finish_reason: null }]),
      chunk([{ index: 1, delta: { content: ' bark.' }, finish_reason: null }]),
      chunk([{ index: 0, delta: { content: ' purr.' }, finish_reason: null }]),
      chunk([{ index: 0, delta: {}, finish_reason: 'stop' }]),
      chunk([{ index: 1, delta: {}, finish_reason: 'length' }]),
    ], true)
  })
}

let geminiUp: MockUpstream
let openaiUp: MockUpstream
let claudeUp: MockUpstream
let proxy: TestProxy

beforeAll(async () => {
  geminiUp = await startMockUpstream(gemini)
  openaiUp = await startMockUpstream(openai)
  claudeUp = await startMockUpstream(() => json({}))
  proxy = await startTestProxy({
    'api-keys': ['sk-n'],
    'alpha-api-key': [{ 'api-key': 'up-alpha', 'base-url': geminiUp.url, models: [{ name: 'gemini-x', alias: 'gem' }] }],
    'compat-provider': [{ name: 'up-openai', 'base-url': `${openaiUp.url}/v1`, 'api-key-entries': [{ 'api-key': 'up-compat' }], models: [{ name: 'gpt-x', alias: 'gpt' }] }],
    'beta-api-key': [{ 'api-key': 'up-beta', 'base-url': claudeUp.url, models: [{ name: 'claude-x', alias: 'claude' }] }],
  })
}, 60_000)
afterAll(async () => {
  await proxy?.close()
  await Promise.all([geminiUp?.close(), openaiUp?.close(), claudeUp?.close()])
})

const chatClient = () => new OpenAI({ apiKey: 'sk-n', baseURL: `${proxy.url}/v1` })

describe('n > 1 across formats', () => {
  it('openai SDK, stream, n = 2 -> Gemini: both candidates stream under their own choice index', async () => {
    const stream = await chatClient().chat.completions.create({ model: 'gem', n: 2, stream: true, messages: [{ role: 'user', content: 'A colour' }] })
    const texts = ['', '']
    const finishes: Array<string | null> = [null, null]
    const calls: string[] = []
    for await (const part of stream) {
      for (const choice of part.choices) {
        texts[choice.index] += choice.delta.content ?? ''
        for (const call of choice.delta.tool_calls ?? []) calls.push(`${choice.index}:${call.function?.name ?? ''}${call.function?.arguments ?? ''}`)
        if (choice.finish_reason) finishes[choice.index] = choice.finish_reason
      }
    }
    expect(texts).toEqual(['Red.', 'Blue.'])
    expect(calls.join('')).toBe('1:paint1:{"colour":"blue"}')
    expect(finishes).toEqual(['stop', 'tool_calls'])
    expect(JSON.parse(geminiUp.requests.at(-1)!.body).generationConfig.candidateCount).toBe(2)
  })

  it('openai SDK, non-stream, n = 2 -> Gemini: choices[0] and choices[1]', async () => {
    const answer = await chatClient().chat.completions.create({ model: 'gem', n: 2, messages: [{ role: 'user', content: 'A colour' }] })
    expect(answer.choices.map(choice => [choice.index, choice.message.content, choice.finish_reason])).toEqual([[0, 'Red.', 'stop'], [1, 'Blue.', 'length']])
  })

  it('@google/genai, stream, candidateCount 2 -> an OpenAI upstream: candidates keep their index', async () => {
    const genai = new GoogleGenAI({ apiKey: 'sk-n', httpOptions: { baseUrl: proxy.url } })
    const stream = await genai.models.generateContentStream({ model: 'gpt', contents: 'An animal', config: { candidateCount: 2 } })
    const texts: string[] = ['', '']
    const finishes: string[] = []
    for await (const part of stream) {
      for (const candidate of part.candidates ?? []) {
        texts[candidate.index ?? 0] += candidate.content?.parts?.map(p => p.text ?? '').join('') ?? ''
        if (candidate.finishReason) finishes[candidate.index ?? 0] = candidate.finishReason
      }
    }
    expect(texts).toEqual(['Cats purr.', 'Dogs bark.'])
    expect(finishes).toEqual(['STOP', 'MAX_TOKENS'])
    expect(JSON.parse(openaiUp.requests.at(-1)!.body).n).toBe(2)
  })

  it('n = 2 toward a messages upstream: a 400 in the chat format naming n, and the upstream is not called', async () => {
    const before = claudeUp.requests.length
    for (const stream of [false, true]) {
      const error = await chatClient().chat.completions.create({ model: 'claude', n: 2, stream, messages: [{ role: 'user', content: 'x' }] }).then(() => undefined, (e: unknown) => e)
      expect(error).toBeInstanceOf(OpenAI.BadRequestError)
      expect((error as InstanceType<typeof OpenAI.BadRequestError>).message).toMatch(/n = 2 is not supported.*one candidate/)
    }
    expect(claudeUp.requests.length).toBe(before)
  })

  it('a generate client asking candidateCount 2 of a messages model gets Gemini\'s error shape', async () => {
    const response = await fetch(`${proxy.url}/v1beta/models/claude:generateContent`, { method: 'POST', headers: { 'x-goog-api-key': 'sk-n', 'content-type': 'application/json' }, body: JSON.stringify({ contents: [{ role: 'user', parts: [{ text: 'x' }] }], generationConfig: { candidateCount: 2 } }) })
    expect(response.status).toBe(400)
    const body = await response.json() as { error: { status: string; message: string } }
    expect(body.error.status).toBe('INVALID_ARGUMENT')
    expect(body.error.message).toContain('generationConfig.candidateCount = 2')
  })
})
