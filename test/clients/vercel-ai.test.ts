import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest'
import { generateText, stepCountIs, streamText, tool, type LanguageModel, type LanguageModelUsage } from 'ai'
import { createOpenAI } from '@ai-sdk/openai'
import { createAnthropic } from '@ai-sdk/anthropic'
import { createGoogleGenerativeAI } from '@ai-sdk/google'
import { z } from 'zod'
import { families, greeting, type Family } from '../helpers/family-proxy.ts'
import { useAgentLab, type SdkSession } from './lab/agent-lab.ts'
import { clientRow, clientVersion, labTitle, type ClientId } from './lab/clients.ts'
import { saveFixture } from './lab/fixtures.ts'

/**
 * The Vercel AI SDK (`ai` with @ai-sdk/openai, @ai-sdk/anthropic and @ai-sdk/google) pointed at the
 * proxy the way its users do (a provider factory with `baseURL` and `apiKey`), in four flavours against
 * every upstream family: plain text, streamed text and a tool round trip the SDK executes itself.
 */

const lab = useAgentLab()
let session: SdkSession
/** Warnings the SDK reported (unsupported settings, unknown finish reasons and the like). */
const warnings: unknown[] = []

/** The SDK's fetch, limited to the proxy so no test can reach the internet. */
const proxyFetch: typeof fetch = async (input, init) => {
  const url = new URL(input instanceof Request ? input.url : String(input))
  if (url.origin !== new URL(lab.setup.proxy.url).origin) throw new Error(`refusing a request outside the proxy: ${url.origin}`)
  return fetch(input, init)
}

interface Flavour {
  /** The provider package, its matrix row, and the family whose format it speaks (where its fixtures are recorded). */
  client: ClientId
  row: string
  home: Family
  /** The provider call a user writes, bound to the running proxy and this test's key. */
  model(id: string): LanguageModel
  /** The proxy endpoint this flavour talks to, for one call. */
  endpoint(id: string, stream: boolean): string
}

const withAi = `(ai ${clientVersion('ai')})`
const flavours: Flavour[] = [
  {
    client: 'ai-openai', row: clientRow('ai-openai', `chat ${withAi}`), home: 'compat',
    model: id => createOpenAI({ baseURL: `${lab.setup.proxy.url}/v1`, apiKey: session.key, fetch: proxyFetch }).chat(id),
    endpoint: () => 'POST /v1/chat/completions',
  },
  {
    client: 'ai-openai', row: clientRow('ai-openai', `responses ${withAi}`), home: 'gamma',
    model: id => createOpenAI({ baseURL: `${lab.setup.proxy.url}/v1`, apiKey: session.key, fetch: proxyFetch })(id),
    endpoint: () => 'POST /v1/responses',
  },
  {
    client: 'ai-anthropic', row: clientRow('ai-anthropic', withAi), home: 'beta',
    model: id => createAnthropic({ baseURL: `${lab.setup.proxy.url}/v1`, apiKey: session.key, fetch: proxyFetch })(id),
    endpoint: () => 'POST /v1/messages',
  },
  {
    client: 'ai-google', row: clientRow('ai-google', withAi), home: 'alpha',
    model: id => createGoogleGenerativeAI({ baseURL: `${lab.setup.proxy.url}/v1beta`, apiKey: session.key, fetch: proxyFetch })(id),
    endpoint: (id, stream) => stream ? `POST /v1beta/models/${id}:streamGenerateContent?alt=sse` : `POST /v1beta/models/${id}:generateContent`,
  },
]
const cases = flavours.flatMap(flavour => families.map(family => ({ ...flavour, family })))
const made = () => session.calls().map(call => `${call.method} ${call.path}`)
/** `chat-plain` for the openai flavour's two APIs, `plain` for the others. */
const fixtureName = (flavour: Flavour, name: string) => flavour.client === 'ai-openai' ? `${flavour.home === 'gamma' ? 'responses' : 'chat'}-${name}` : name

/** The tool the mocks call when the prompt names it; the SDK validates its input and runs it. */
const weather = () => {
  const execute = vi.fn(async ({ query }: { query: string }) => `sunny, 21C (${query.length} chars asked)`)
  return { execute, tools: { get_weather: tool({ description: 'Weather for a city', inputSchema: z.object({ query: z.string() }), execute }) } }
}

beforeAll(() => {
  ;(globalThis as { AI_SDK_LOG_WARNINGS?: unknown }).AI_SDK_LOG_WARNINGS = (options: { warnings: unknown[] }) => warnings.push(...options.warnings)
})
afterAll(() => {
  delete (globalThis as { AI_SDK_LOG_WARNINGS?: unknown }).AI_SDK_LOG_WARNINGS
})
afterEach(() => {
  // Whatever the proxy answered, the SDK took it without complaint.
  expect(warnings.splice(0)).toEqual([])
  expect(session.calls().filter(call => call.status >= 400)).toEqual([])
})

/** Usage the SDK parsed: real numbers, not undefined or NaN. */
function expectUsage(usage: LanguageModelUsage) {
  expect(usage.inputTokens).toBeGreaterThan(0)
  expect(usage.outputTokens).toBeGreaterThan(0)
  expect(usage.totalTokens).toBe(usage.inputTokens! + usage.outputTokens!)
}

describe.each(cases.map(flavour => [labTitle(flavour.row, flavour.family), flavour] as const))('%s', (_title, flavour) => {
  const family = flavour.family
  let id: string
  beforeEach(() => {
    session = lab.session(family)
    id = session.model
  })

  it('generateText', async () => {
    const result = await generateText({ model: flavour.model(id), system: 'Be brief.', prompt: 'ping', maxRetries: 0, maxOutputTokens: 1024 })
    expect(result.text).toBe(greeting('ping'))
    expect(result.finishReason).toBe('stop')
    expect(result.response.modelId).toBe(id)
    expect(result.warnings).toEqual([])
    expectUsage(result.usage)
    expect(made()).toEqual([flavour.endpoint(id, false)])
    if (family === flavour.home) saveFixture(flavour.client, fixtureName(flavour, 'plain'), session.calls()[0], session)
  })

  it('streamText arrives in several deltas', async () => {
    const errors: unknown[] = []
    const result = streamText({ model: flavour.model(id), prompt: 'stream ping', maxRetries: 0, maxOutputTokens: 1024, onError: ({ error }) => { errors.push(error) } })
    const deltas: string[] = []
    const kinds = new Set<string>()
    for await (const part of result.fullStream) {
      kinds.add(part.type)
      if (part.type === 'text-delta') deltas.push(part.text)
    }
    expect(errors).toEqual([])
    expect(kinds.has('error')).toBe(false)
    expect(deltas.length).toBeGreaterThan(1)
    expect(deltas.join('')).toBe(greeting('stream ping'))
    expect(await result.text).toBe(greeting('stream ping'))
    expect(await result.finishReason).toBe('stop')
    expect(await result.warnings).toEqual([])
    expectUsage(await result.usage)
    expect(made()).toEqual([flavour.endpoint(id, true)])
    if (family === flavour.home) saveFixture(flavour.client, fixtureName(flavour, 'stream'), session.calls()[0], session)
  })

  it('generateText runs a tool and answers from its result', async () => {
    const { execute, tools } = weather()
    const result = await generateText({ model: flavour.model(id), prompt: 'get_weather in Paris', tools, stopWhen: stepCountIs(2), maxRetries: 0, maxOutputTokens: 1024 })
    expect(execute).toHaveBeenCalledTimes(1)
    expect(execute.mock.calls[0]![0]).toEqual({ query: 'get_weather in Paris' })
    expect(result.steps.map(step => step.finishReason)).toEqual(['tool-calls', 'stop'])
    const [call] = result.steps[0]!.toolCalls
    expect(call).toMatchObject({ toolName: 'get_weather', input: { query: 'get_weather in Paris' } })
    expect(call!.toolCallId).toBeTruthy()
    expect(result.text).toBe('The tool said: sunny, 21C (20 chars asked)')
    expectUsage(result.totalUsage)
    expect(made()).toEqual([flavour.endpoint(id, false), flavour.endpoint(id, false)])
    if (family === flavour.home) saveFixture(flavour.client, fixtureName(flavour, 'tool-result'), session.calls()[1], session)
  })

  it('streamText runs a tool and streams the answer', async () => {
    const { execute, tools } = weather()
    const errors: unknown[] = []
    const result = streamText({ model: flavour.model(id), prompt: 'use get_weather for Rome', tools, stopWhen: stepCountIs(2), maxRetries: 0, maxOutputTokens: 1024, onError: ({ error }) => { errors.push(error) } })
    const kinds: string[] = []
    for await (const part of result.fullStream) kinds.push(part.type)
    expect(errors).toEqual([])
    expect(kinds).not.toContain('error')
    expect(kinds).toContain('tool-call')
    expect(kinds).toContain('tool-result')
    expect(execute).toHaveBeenCalledTimes(1)
    expect(execute.mock.calls[0]![0]).toEqual({ query: 'use get_weather for Rome' })
    const steps = await result.steps
    expect(steps.map(step => step.finishReason)).toEqual(['tool-calls', 'stop'])
    expect(await result.text).toBe('The tool said: sunny, 21C (24 chars asked)')
    expectUsage(await result.totalUsage)
    expect(made()).toEqual([flavour.endpoint(id, true), flavour.endpoint(id, true)])
  })
})
