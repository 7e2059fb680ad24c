import Anthropic from '@anthropic-ai/sdk'
import { GoogleGenAI, type FunctionCall } from '@google/genai'
import OpenAI from 'openai'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startMockUpstream, type MockUpstream } from '../../test/helpers/mock-openai-server.ts'
import { generateMock } from './generate.ts'
import { messagesMock } from './messages.ts'
import { responsesMock } from './responses.ts'

// The official SDKs parse the mocks over real HTTP: if they accept them, the mocks speak the real formats.
const echo = (said: string) => `Hello from the playground mock upstream. You said: ${said}`

describe('messagesMock through @anthropic-ai/sdk', () => {
  let mock: MockUpstream
  let client: Anthropic
  beforeAll(async () => {
    mock = await startMockUpstream(messagesMock)
    client = new Anthropic({ apiKey: 'sdk-key', baseURL: mock.url, maxRetries: 0 })
  })
  afterAll(() => mock.close())
  const tools = [{ name: 'get_weather', description: 'Weather for a city', input_schema: { type: 'object' as const, properties: { query: { type: 'string' } } } }]

  it('messages.create', async () => {
    const message = await client.messages.create({ model: 'mock-claude', max_tokens: 64, messages: [{ role: 'user', content: 'ping' }] })
    expect(message.content).toEqual([{ type: 'text', text: echo('ping') }])
    expect(message.stop_reason).toBe('end_turn')
    // This SDK generation sends the API key as `authorization: Bearer`, not `x-api-key`.
    expect(mock.requests.at(-1)!.headers.authorization).toBe('Bearer sdk-key')
  })

  it('messages.stream().finalMessage() with a tool, thinking, and the tool_result turn', async () => {
    const stream = client.messages.stream({ model: 'mock-claude', max_tokens: 2048, tools, thinking: { type: 'enabled', budget_tokens: 1024 }, messages: [{ role: 'user', content: 'get_weather for Oslo' }] })
    let text = ''
    stream.on('text', delta => { text += delta })
    const message = await stream.finalMessage()
    expect(text).toBe('')
    expect(message.stop_reason).toBe('tool_use')
    expect(message.content[0]).toEqual({ type: 'thinking', thinking: 'Let me think.', signature: expect.stringMatching(/^sig-mock-/) })
    const toolUse = message.content[1]
    expect(toolUse).toEqual({ type: 'tool_use', id: expect.stringMatching(/^toolu_/), name: 'get_weather', input: { query: 'get_weather for Oslo' } })
    if (toolUse?.type !== 'tool_use') throw new Error('expected tool_use')

    const followUp = client.messages.stream({ model: 'mock-claude', max_tokens: 64, tools, messages: [
      { role: 'user', content: 'get_weather for Oslo' },
      { role: 'assistant', content: message.content },
      { role: 'user', content: [{ type: 'tool_result', tool_use_id: toolUse.id, content: 'snow' }] },
    ] })
    const final = await followUp.finalMessage()
    expect(final.content).toEqual([{ type: 'text', text: 'The tool said: snow' }])
    expect(final.usage.output_tokens).toBeGreaterThan(0)
  })

  it('messages.countTokens and a 401 surfaced as AuthenticationError', async () => {
    expect(await client.messages.countTokens({ model: 'mock-claude', messages: [{ role: 'user', content: 'hello' }] })).toEqual({ input_tokens: expect.any(Number) })
    const anonymous = new Anthropic({ apiKey: 'x', baseURL: mock.url, maxRetries: 0, defaultHeaders: { authorization: null } })
    await expect(anonymous.messages.create({ model: 'm', max_tokens: 1, messages: [] })).rejects.toBeInstanceOf(Anthropic.AuthenticationError)
  })
})

describe('responsesMock through openai', () => {
  let mock: MockUpstream
  let client: OpenAI
  beforeAll(async () => {
    mock = await startMockUpstream(responsesMock)
    client = new OpenAI({ apiKey: 'sdk-key', baseURL: `${mock.url}/v1`, maxRetries: 0 })
  })
  afterAll(() => mock.close())
  const tools = [{ type: 'function' as const, name: 'lookup', description: 'Look up', strict: false, parameters: { type: 'object', properties: { query: { type: 'string' } } } }]

  it('responses.create', async () => {
    const response = await client.responses.create({ model: 'mock-resp', input: 'ping', instructions: 'be brief' })
    expect(response.output_text).toBe(echo('ping'))
    expect(response.status).toBe('completed')
  })

  it('responses.create({stream: true}) yields the typed events', async () => {
    const types: string[] = []
    let text = ''
    for await (const event of await client.responses.create({ model: 'mock-resp', input: 'stream me', stream: true })) {
      types.push(event.type)
      if (event.type === 'response.output_text.delta') text += event.delta
    }
    expect(text).toBe(echo('stream me'))
    expect(types[0]).toBe('response.created')
    expect(types.at(-1)).toBe('response.completed')
  })

  it('responses.stream() with reasoning and a function call, then the function_call_output turn', async () => {
    const stream = client.responses.stream({ model: 'mock-resp', input: 'please use a tool', tools, reasoning: { effort: 'low', summary: 'auto' } })
    let args = ''
    stream.on('response.function_call_arguments.delta', event => { args = event.snapshot })
    const response = await stream.finalResponse()
    expect(args).toBe('{"query":"please use a tool"}')
    expect(response.output.map(item => item.type)).toEqual(['reasoning', 'function_call'])
    const call = response.output[1]
    if (call?.type !== 'function_call') throw new Error('expected function_call')
    expect(call.name).toBe('lookup')

    const next = await client.responses.stream({ model: 'mock-resp', tools, input: [
      { role: 'user', content: 'please use a tool' }, call,
      { type: 'function_call_output', call_id: call.call_id, output: '7 results' },
    ] }).finalResponse()
    expect(next.output_text).toBe('The tool said: 7 results')
  })

  it('a missing key is a 401 AuthenticationError', async () => {
    const anonymous = new OpenAI({ apiKey: 'x', baseURL: `${mock.url}/v1`, maxRetries: 0, defaultHeaders: { authorization: null } })
    await expect(anonymous.responses.create({ model: 'm', input: 'x' })).rejects.toBeInstanceOf(OpenAI.AuthenticationError)
  })
})

describe('generateMock through @google/genai', () => {
  let mock: MockUpstream
  let ai: GoogleGenAI
  beforeAll(async () => {
    mock = await startMockUpstream(generateMock)
    ai = new GoogleGenAI({ apiKey: 'sdk-key', httpOptions: { baseUrl: mock.url } })
  })
  afterAll(() => mock.close())
  const tools = [{ functionDeclarations: [{ name: 'lookup', description: 'Look up', parametersJsonSchema: { type: 'object', properties: { query: { type: 'string' } } } }] }]

  it('models.generateContent', async () => {
    const response = await ai.models.generateContent({ model: 'mock-gemini', contents: 'ping' })
    expect(response.text).toBe(echo('ping'))
    expect(response.usageMetadata?.totalTokenCount).toBeGreaterThan(0)
    expect(mock.requests.at(-1)!.url).toBe('/v1/models/mock-gemini:generateContent') // genai 3 defaults to v1
    expect(mock.requests.at(-1)!.headers['x-goog-api-key']).toBe('sdk-key')
  })

  it('models.generateContentStream with thoughts and a functionCall, then the functionResponse turn', async () => {
    const config = { tools, thinkingConfig: { includeThoughts: true } }
    const stream = await ai.models.generateContentStream({ model: 'mock-gemini', contents: 'lookup cats', config })
    const calls: FunctionCall[] = []
    const thoughts: string[] = []
    for await (const chunk of stream) {
      calls.push(...chunk.functionCalls ?? [])
      for (const part of chunk.candidates?.[0]?.content?.parts ?? []) if (part.thought) thoughts.push(part.text ?? '')
    }
    expect(mock.requests.at(-1)!.url).toBe('/v1/models/mock-gemini:streamGenerateContent?alt=sse')
    expect(thoughts).toEqual(['Thinking.'])
    expect(calls).toEqual([{ name: 'lookup', args: { query: 'lookup cats' } }])

    let text = ''
    for await (const chunk of await ai.models.generateContentStream({ model: 'mock-gemini', config, contents: [
      { role: 'user', parts: [{ text: 'lookup cats' }] },
      { role: 'model', parts: [{ functionCall: calls[0], thoughtSignature: 'sig-mock-x' }] },
      { role: 'user', parts: [{ functionResponse: { name: 'lookup', response: { result: 'meow' } } }] },
    ] })) text += chunk.text ?? ''
    expect(text).toBe('The tool said: meow')
  })

  it('models.countTokens', async () => {
    expect((await ai.models.countTokens({ model: 'mock-gemini', contents: 'count me' })).totalTokens).toBeGreaterThan(0)
  })
})
