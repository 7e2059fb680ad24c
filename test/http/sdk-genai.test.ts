import { describe, expect, it } from 'vitest'
import { families, familyModels, greeting } from '../helpers/family-proxy.ts'
import { useSdkClients, weatherTool } from '../helpers/sdk-clients.ts'

const sdk = useSdkClients()

describe.each(families)('upstream family %s', (family) => {
  const model = familyModels[family]

  describe('@google/genai', () => {
    it('generateContent', async () => {
      const response = await sdk.genai.models.generateContent({ model, contents: 'ping', config: { systemInstruction: 'Be brief.' } })
      expect(response.text).toBe(greeting('ping'))
      expect(response.usageMetadata!.promptTokenCount).toBeGreaterThan(0)
    })

    it('generateContentStream with a functionCall, then the functionResponse', async () => {
      const config = { tools: [{ functionDeclarations: [{ name: weatherTool.name, description: weatherTool.description, parametersJsonSchema: weatherTool.parameters }] }] }
      const calls = []
      for await (const chunk of await sdk.genai.models.generateContentStream({ model, contents: 'get_weather in Lima', config })) {
        calls.push(...(chunk.functionCalls ?? []))
      }
      expect(calls).toHaveLength(1)
      expect(calls[0]).toMatchObject({ name: 'get_weather', args: { query: 'get_weather in Lima' } })
      const answer = await sdk.genai.models.generateContent({
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
      const count = await sdk.genai.models.countTokens({ model, contents: 'How many tokens is this?' })
      expect(count.totalTokens).toBeGreaterThan(5)
    })
  })
})
