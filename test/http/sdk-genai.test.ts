import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import OpenAI from 'openai'
import Anthropic from '@anthropic-ai/sdk'
import { GoogleGenAI } from '@google/genai'
import { clientKey, families, familyModels, greeting, startFamilyProxy, type FamilyProxy } from '../helpers/family-proxy.ts'

let setup: FamilyProxy
let openai: OpenAI
let anthropic: Anthropic
let genai: GoogleGenAI

beforeAll(async () => {
  setup = await startFamilyProxy()
  openai = new OpenAI({ baseURL: `${setup.proxy.url}/v1`, apiKey: clientKey, maxRetries: 0 })
  anthropic = new Anthropic({ baseURL: setup.proxy.url, apiKey: clientKey, maxRetries: 0 })
  genai = new GoogleGenAI({ apiKey: clientKey, httpOptions: { baseUrl: setup.proxy.url } })
})
afterAll(() => setup.close())

const weatherTool = { name: 'get_weather', description: 'Weather for a city', parameters: { type: 'object', properties: { query: { type: 'string' } }, required: ['query'] } }

describe.each(families)('upstream family %s', (family) => {
  const model = familyModels[family]

  describe('@google/genai', () => {
    it('generateContent', async () => {
      const response = await genai.models.generateContent({ model, contents: 'ping', config: { systemInstruction: 'Be brief.' } })
      expect(response.text).toBe(greeting('ping'))
      expect(response.usageMetadata!.promptTokenCount).toBeGreaterThan(0)
    })

    it('generateContentStream with a functionCall, then the functionResponse', async () => {
      const config = { tools: [{ functionDeclarations: [{ name: weatherTool.name, description: weatherTool.description, parametersJsonSchema: weatherTool.parameters }] }] }
      const calls = []
      for await (const chunk of await genai.models.generateContentStream({ model, contents: 'get_weather in Lima', config })) {
        calls.push(...(chunk.functionCalls ?? []))
      }
      expect(calls).toHaveLength(1)
      expect(calls[0]).toMatchObject({ name: 'get_weather', args: { query: 'get_weather in Lima' } })
      const answer = await genai.models.generateContent({
        model, config,
        contents: [
          { role: 'user', parts: [{ text: 'get_weather in Lima' }] },
          { role: 'model', parts: [{ functionCall: calls[0] }] },
          { role: 'user', parts: [{ functionResponse: { id: calls[0]!.id, name: 'get_weather', response: { result: 'fog' } } }] },
        ],
      })
      expect(answer.text).toContain('The tool said:')
      expect(answer.text).toContain('fog')
    })

    it('countTokens', async () => {
      const count = await genai.models.countTokens({ model, contents: 'How many tokens is this?' })
      expect(count.totalTokens).toBeGreaterThan(5)
    })
  })
})
