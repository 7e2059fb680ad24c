import { describe, expect, it } from 'vitest'
import type Anthropic from '@anthropic-ai/sdk'
import { families, familyModels, greeting } from '../helpers/family-proxy.ts'
import { useSdkClients, weatherTool } from '../helpers/sdk-clients.ts'

const sdk = useSdkClients()

describe.each(families)('upstream family %s', (family) => {
  const model = familyModels[family]

  describe('@anthropic-ai/sdk', () => {
    it('messages', async () => {
      const message = await sdk.anthropic.messages.create({ model, max_tokens: 256, system: 'Be brief.', messages: [{ role: 'user', content: 'ping' }] })
      expect(message.content[0]).toMatchObject({ type: 'text', text: greeting('ping') })
      expect(message.stop_reason).toBe('end_turn')
      expect(message.usage.output_tokens).toBeGreaterThan(0)
    })

    it('stream().finalMessage() with tool_use, then tool_result', async () => {
      const tools = [{ name: weatherTool.name, description: weatherTool.description, input_schema: weatherTool.parameters as Anthropic.Tool.InputSchema }]
      const message = await sdk.anthropic.messages.stream({ model, max_tokens: 256, tools, messages: [{ role: 'user', content: 'get_weather in Oslo' }] }).finalMessage()
      const use = message.content.find(block => block.type === 'tool_use')
      expect(message.stop_reason).toBe('tool_use')
      expect(use && use.type === 'tool_use' && use.input).toEqual({ query: 'get_weather in Oslo' })
      const answer = await sdk.anthropic.messages.create({
        model, max_tokens: 256, tools,
        messages: [
          { role: 'user', content: 'get_weather in Oslo' },
          { role: 'assistant', content: message.content },
          { role: 'user', content: [{ type: 'tool_result', tool_use_id: (use as Anthropic.ToolUseBlock).id, content: 'snow, -3C' }] },
        ],
      })
      expect(answer.content[0]).toMatchObject({ type: 'text', text: 'The tool said: snow, -3C' })
    })

    it('countTokens', async () => {
      const count = await sdk.anthropic.messages.countTokens({ model, messages: [{ role: 'user', content: 'How many tokens is this?' }] })
      expect(count.input_tokens).toBeGreaterThan(5)
    })
  })

})
