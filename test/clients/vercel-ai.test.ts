import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest'
import { generateText, stepCountIs, streamText, tool, type LanguageModel, type LanguageModelUsage } from 'ai'
import { createOpenAI } from '@ai-sdk/openai'
import { createAnthropic } from '@ai-sdk/anthropic'
import { createGoogleGenerativeAI } from '@ai-sdk/google'
import { z } from 'zod'
import { clientKey, families, familyModels, greeting, startFamilyProxy, type FamilyProxy } from '../helpers/family-proxy.ts'

/**
 * The Vercel AI SDK (ai 6.x with @ai-sdk/openai, @ai-sdk/anthropic and @ai-sdk/google 3.x) pointed at the
 * proxy the way its users do (a provider factory with `baseURL` and `apiKey`), in four flavours against
 * every upstream family: plain text, streamed text and a tool round trip the SDK executes itself.
 */

let setup: FamilyProxy
/** Every request the SDK sent, as `METHOD /path?query` with the status the proxy answered. */
const calls: Array<{ request: string; status: number }> = []
/** Warnings the SDK reported (unsupported settings, unknown finish reasons and the like). */
const warnings: unknown[] = []

/** The SDK's fetch, limited to the proxy so no test can reach the internet, and recorded. */
const proxyFetch: typeof fetch = async (input, init) => {
  const url = new URL(input instanceof Request ? input.url : String(input))
  if (url.origin !== new URL(setup.proxy.url).origin) throw new Error(`refusing a request outside the proxy: ${url.origin}`)
  const response = await fetch(input, init)
  calls.push({ request: `${init?.method ?? 'GET'} ${url.pathname}${url.search}`, status: response.status })
  return response
}

interface Flavour {
  /** The provider call a user writes, bound to the running proxy. */
  model(id: string): LanguageModel
  /** The proxy endpoint this flavour talks to, for one call. */
  endpoint(id: string, stream: boolean): string
}

const flavours: Record<string, Flavour> = {
  'openai.chat (chat completions)': {
    model: id => createOpenAI({ baseURL: `${setup.proxy.url}/v1`, apiKey: clientKey, fetch: proxyFetch }).chat(id),
    endpoint: () => 'POST /v1/chat/completions',
  },
  'openai (responses)': {
    model: id => createOpenAI({ baseURL: `${setup.proxy.url}/v1`, apiKey: clientKey, fetch: proxyFetch })(id),
    endpoint: () => 'POST /v1/responses',
  },
  'anthropic (messages)': {
    model: id => createAnthropic({ baseURL: `${setup.proxy.url}/v1`, apiKey: clientKey, fetch: proxyFetch })(id),
    endpoint: () => 'POST /v1/messages',
  },
  'google (generateContent)': {
    model: id => createGoogleGenerativeAI({ baseURL: `${setup.proxy.url}/v1beta`, apiKey: clientKey, fetch: proxyFetch })(id),
    endpoint: (id, stream) => stream ? `POST /v1beta/models/${id}:streamGenerateContent?alt=sse` : `POST /v1beta/models/${id}:generateContent`,
  },
}

/** The tool the mocks call when the prompt names it; the SDK validates its input and runs it. */
const weather = () => {
  const execute = vi.fn(async ({ query }: { query: string }) => `sunny, 21C (${query.length} chars asked)`)
  return { execute, tools: { get_weather: tool({ description: 'Weather for a city', inputSchema: z.object({ query: z.string() }), execute }) } }
}

beforeAll(async () => {
  setup = await startFamilyProxy()
  ;(globalThis as { AI_SDK_LOG_WARNINGS?: unknown }).AI_SDK_LOG_WARNINGS = (options: { warnings: unknown[] }) => warnings.push(...options.warnings)
})
afterAll(async () => {
  delete (globalThis as { AI_SDK_LOG_WARNINGS?: unknown }).AI_SDK_LOG_WARNINGS
  await setup?.close()
})
afterEach(() => {
  const [warned, made] = [warnings.splice(0), calls.splice(0)]
  // Whatever the proxy answered, the SDK took it without complaint.
  expect(warned).toEqual([])
  expect(made.filter(call => call.status >= 400)).toEqual([])
})

/** Usage the SDK parsed: real numbers, not undefined or NaN. */
function expectUsage(usage: LanguageModelUsage) {
  expect(usage.inputTokens).toBeGreaterThan(0)
  expect(usage.outputTokens).toBeGreaterThan(0)
  expect(usage.totalTokens).toBe(usage.inputTokens! + usage.outputTokens!)
}

describe.each(families)('Vercel AI SDK -> %s upstream', (family) => {
  const id = familyModels[family]

  describe.each(Object.entries(flavours))('%s', (_name, flavour) => {
    it('generateText', async () => {
      const result = await generateText({ model: flavour.model(id), system: 'Be brief.', prompt: 'ping', maxRetries: 0, maxOutputTokens: 1024 })
      expect(result.text).toBe(greeting('ping'))
      expect(result.finishReason).toBe('stop')
      expect(result.response.modelId).toBe(id)
      expect(result.warnings).toEqual([])
      expectUsage(result.usage)
      expect(calls.map(call => call.request)).toEqual([flavour.endpoint(id, false)])
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
      expect(calls.map(call => call.request)).toEqual([flavour.endpoint(id, true)])
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
      expect(calls.map(call => call.request)).toEqual([flavour.endpoint(id, false), flavour.endpoint(id, false)])
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
      expect(calls.map(call => call.request)).toEqual([flavour.endpoint(id, true), flavour.endpoint(id, true)])
    })
  })
})
