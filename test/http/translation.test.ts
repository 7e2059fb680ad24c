import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { clientKey, familyModels, greeting, startFamilyProxy, type FamilyProxy } from '../helpers/family-proxy.ts'
import { openaiMock } from '../../playground/mock-upstream/openai.ts'
import { messagesMock } from '../../playground/mock-upstream/messages.ts'
import { generateMock } from '../../playground/mock-upstream/generate.ts'

let setup: FamilyProxy
beforeAll(async () => { setup = await startFamilyProxy() })
afterAll(() => setup.close())
afterEach(() => {
  setup.upstreams.compat.handler = request => openaiMock(request)
  setup.upstreams.beta.handler = request => messagesMock(request)
  setup.upstreams.alpha.handler = request => generateMock(request)
})

const post = (path: string, body: unknown, headers: Record<string, string> = {}) => fetch(`${setup.proxy.url}${path}`, {
  method: 'POST', headers: { authorization: `Bearer ${clientKey}`, 'content-type': 'application/json', ...headers }, body: JSON.stringify(body),
})
const lastBody = (family: keyof FamilyProxy['upstreams']) => JSON.parse(setup.upstreams[family].requests.at(-1)!.body)
const png = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg=='

describe('reasoning: one effort table for every format', () => {
  it.each([
    ['beta', (body: any) => body.thinking, { type: 'enabled', budget_tokens: 24576 }],
    ['alpha', (body: any) => body.generationConfig.thinkingConfig, { thinkingBudget: 24576, includeThoughts: true }],
    ['gamma', (body: any) => body.reasoning.effort, 'high'],
  ] as const)('reasoning_effort high -> %s upstream', async (family, read, expected) => {
    const response = await post('/v1/chat/completions', { model: familyModels[family], reasoning_effort: 'high', max_tokens: 1000, messages: [{ role: 'user', content: 'think' }] })
    expect(response.status).toBe(200)
    expect(read(lastBody(family))).toEqual(expected)
  })

  it('a thinking budget from a messages client becomes an effort for a chat upstream', async () => {
    await post('/v1/messages', { model: familyModels.compat, max_tokens: 20000, thinking: { type: 'enabled', budget_tokens: 8000 }, messages: [{ role: 'user', content: 'x' }] })
    expect(lastBody('compat').reasoning_effort).toBe('medium')
  })
})

describe('content crosses formats intact', () => {
  it('a base64 image and stop sequences reach messages and generateContent upstreams', async () => {
    const messages = [{ role: 'user', content: [{ type: 'text', text: 'what is it' }, { type: 'image_url', image_url: { url: `data:image/png;base64,${png}` } }] }]
    await post('/v1/chat/completions', { model: familyModels.beta, stop: ['END'], messages })
    const beta = lastBody('beta')
    expect(beta.messages[0].content[1]).toEqual({ type: 'image', source: { type: 'base64', media_type: 'image/png', data: png } })
    expect(beta.stop_sequences).toEqual(['END'])
    await post('/v1/chat/completions', { model: familyModels.alpha, stop: ['END'], messages })
    const alpha = lastBody('alpha')
    expect(alpha.contents[0].parts[1]).toEqual({ inlineData: { mimeType: 'image/png', data: png } })
    expect(alpha.generationConfig.stopSequences).toEqual(['END'])
  })

  it('an image URL reaches a messages upstream as a URL source', async () => {
    await post('/v1/chat/completions', { model: familyModels.beta, messages: [{ role: 'user', content: [{ type: 'image_url', image_url: { url: 'https://example.com/cat.png' } }] }] })
    expect(lastBody('beta').messages[0].content[0]).toEqual({ type: 'image', source: { type: 'url', url: 'https://example.com/cat.png' } })
  })

  it('tool_choice required and a named function map to each format', async () => {
    const tools = [{ type: 'function', function: { name: 'f', parameters: { type: 'object', properties: {} } } }]
    await post('/v1/chat/completions', { model: familyModels.beta, tools, tool_choice: 'required', messages: [{ role: 'user', content: 'x' }] })
    expect(lastBody('beta').tool_choice).toEqual({ type: 'any' })
    await post('/v1/chat/completions', { model: familyModels.alpha, tools, tool_choice: { type: 'function', function: { name: 'f' } }, messages: [{ role: 'user', content: 'x' }] })
    expect(lastBody('alpha').toolConfig).toEqual({ functionCallingConfig: { mode: 'ANY', allowedFunctionNames: ['f'] } })
  })
})

describe('upstream errors come back in the client format', () => {
  it('a messages-format 400 reaches an OpenAI client as an OpenAI error', async () => {
    setup.upstreams.beta.handler = () => new Response(JSON.stringify({ type: 'error', error: { type: 'invalid_request_error', message: 'messages: roles must alternate' } }), { status: 400 })
    const response = await post('/v1/chat/completions', { model: familyModels.beta, messages: [{ role: 'user', content: 'x' }] })
    expect(response.status).toBe(400)
    expect(await response.json()).toEqual({ error: { message: 'messages: roles must alternate', type: 'invalid_request_error', param: null, code: null } })
  })

  it('a generateContent 429 reaches a messages client as a rate_limit_error', async () => {
    setup.upstreams.alpha.handler = () => new Response(JSON.stringify({ error: { code: 429, message: 'Resource has been exhausted', status: 'RESOURCE_EXHAUSTED' } }), { status: 429 })
    const response = await post('/v1/messages', { model: familyModels.alpha, max_tokens: 100, messages: [{ role: 'user', content: 'x' }] })
    expect(response.status).toBe(429)
    expect(await response.json()).toEqual({ type: 'error', error: { type: 'rate_limit_error', message: 'Resource has been exhausted' } })
  })

  it('validation errors name the field, in each format', async () => {
    const chat = await post('/v1/chat/completions', { model: familyModels.compat, temperature: 3, messages: [{ role: 'user', content: 'x' }] })
    expect(chat.status).toBe(400)
    expect((await chat.json()).error.message).toContain('temperature')
    const messages = await post('/v1/messages', { model: familyModels.compat, messages: [{ role: 'user', content: 'x' }] })
    expect(messages.status).toBe(400)
    expect((await messages.json()).error).toMatchObject({ type: 'invalid_request_error', message: expect.stringContaining('max_tokens') })
    const generate = await post(`/v1beta/models/${familyModels.compat}:generateContent`, { contents: [{ role: 5, parts: [{ text: 'x' }] }] })
    expect(generate.status).toBe(400)
    expect((await generate.json()).error).toMatchObject({ code: 400, status: 'INVALID_ARGUMENT', message: expect.stringContaining('contents[0].role') })
  })
})

describe('endpoints', () => {
  it('legacy /v1/completions answers text_completion, streaming too', async () => {
    const response = await post('/v1/completions', { model: familyModels.beta, prompt: 'ping', max_tokens: 50 })
    const body = await response.json()
    expect(body).toMatchObject({ object: 'text_completion', model: familyModels.beta, choices: [{ text: greeting('ping'), finish_reason: 'stop' }] })
    const stream = await (await post('/v1/completions', { model: familyModels.alpha, prompt: 'ping', stream: true })).text()
    const text = stream.split('\n').filter(line => line.startsWith('data: {')).map(line => JSON.parse(line.slice(6)).choices[0].text).join('')
    expect(text).toBe(greeting('ping'))
    expect(stream.trim().endsWith('data: [DONE]')).toBe(true)
  })

  it('rule 16: a responses-shaped body on /v1/chat/completions is served as chat', async () => {
    const response = await post('/v1/chat/completions', { model: familyModels.compat, instructions: 'Be brief.', input: 'ping' })
    const body = await response.json()
    expect(body.object).toBe('chat.completion')
    expect(body.choices[0].message.content).toBe(greeting('ping'))
  })

  it('streamGenerateContent without alt=sse streams one JSON array', async () => {
    const response = await post(`/v1beta/models/${familyModels.compat}:streamGenerateContent`, { contents: [{ role: 'user', parts: [{ text: 'ping' }] }] })
    expect(response.headers.get('content-type')).toContain('application/json')
    const chunks = JSON.parse(await response.text()) as Array<{ candidates: Array<{ content: { parts: Array<{ text?: string }> } }> }>
    expect(chunks.length).toBeGreaterThan(2)
    expect(chunks.flatMap(chunk => chunk.candidates[0]!.content.parts.map(part => part.text ?? '')).join('')).toBe(greeting('ping'))
  })

  it('/v1/models answers the messages-format list to the beta CLI user agent, the OpenAI list otherwise', async () => {
    const cli = await (await fetch(`${setup.proxy.url}/v1/models`, { headers: { authorization: `Bearer ${clientKey}`, 'user-agent': 'claude-cli/2.0.14 (external, cli)' } })).json()
    expect(cli).toMatchObject({ has_more: false, data: expect.arrayContaining([expect.objectContaining({ type: 'model', id: familyModels.beta })]) })
    const openai = await (await fetch(`${setup.proxy.url}/v1/models`, { headers: { authorization: `Bearer ${clientKey}` } })).json()
    expect(openai).toMatchObject({ object: 'list', data: expect.arrayContaining([expect.objectContaining({ object: 'model', id: familyModels.alpha })]) })
  })

  it('GET /v1beta/models/{model} returns one model, 404 for an unknown one', async () => {
    const one = await fetch(`${setup.proxy.url}/v1beta/models/${familyModels.alpha}?key=${clientKey}`)
    expect(await one.json()).toMatchObject({ name: `models/${familyModels.alpha}` })
    const missing = await fetch(`${setup.proxy.url}/v1beta/models/nope?key=${clientKey}`)
    expect(missing.status).toBe(404)
    expect((await missing.json()).error.status).toBe('NOT_FOUND')
  })
})

describe('reasoning budgets fit the model (catalog thinking ranges)', () => {
  it.each([
    ['gemini-2.5-flash', 'xhigh', 24576],
    ['gemini-2.5-pro', 'none', 128],
    ['gemini-2.5-pro', 'medium', 8192],
  ])('%s with reasoning_effort %s -> thinkingBudget %i', async (model, effort, budget) => {
    const response = await post('/v1/chat/completions', { model, reasoning_effort: effort, messages: [{ role: 'user', content: 'x' }] })
    expect(response.status).toBe(200)
    expect(lastBody('alpha').generationConfig.thinkingConfig.thinkingBudget).toBe(budget)
  })
})
