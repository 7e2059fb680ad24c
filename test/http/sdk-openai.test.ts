import { describe, expect, it } from 'vitest'
import { families, familyModels, greeting } from '../helpers/family-proxy.ts'
import { useSdkClients, weatherTool } from '../helpers/sdk-clients.ts'

const sdk = useSdkClients()

describe.each(families)('upstream family %s', (family) => {
  const model = familyModels[family]

  describe('openai SDK', () => {
    it('chat', async () => {
      const completion = await sdk.openai.chat.completions.create({ model, messages: [{ role: 'system', content: 'Be brief.' }, { role: 'user', content: 'ping' }] })
      expect(completion.model).toBe(model)
      expect(completion.choices[0]!.message.content).toBe(greeting('ping'))
      expect(completion.choices[0]!.finish_reason).toBe('stop')
      expect(completion.usage!.prompt_tokens).toBeGreaterThan(0)
      expect(completion.usage!.completion_tokens).toBeGreaterThan(0)
    })

    it('chat stream with tools, then the tool result turn', async () => {
      const tools = [{ type: 'function' as const, function: weatherTool }]
      const final = await sdk.openai.chat.completions.stream({ model, messages: [{ role: 'user', content: 'get_weather in Paris' }], tools }).finalChatCompletion()
      const call = final.choices[0]!.message.tool_calls![0]!
      expect(final.choices[0]!.finish_reason).toBe('tool_calls')
      expect(call.type === 'function' && call.function.name).toBe('get_weather')
      expect(call.type === 'function' && JSON.parse(call.function.arguments)).toEqual({ query: 'get_weather in Paris' })
      expect(call.id).toBeTruthy()
      const answer = await sdk.openai.chat.completions.create({
        model,
        tools,
        messages: [
          { role: 'user', content: 'get_weather in Paris' },
          { role: 'assistant', content: null, tool_calls: [call] },
          { role: 'tool', tool_call_id: call.id, content: 'sunny, 21C' },
        ],
      })
      expect(answer.choices[0]!.message.content).toBe('The tool said: sunny, 21C')
    })

    it('responses', async () => {
      const response = await sdk.openai.responses.create({ model, instructions: 'Be brief.', input: 'ping' })
      expect(response.output_text).toBe(greeting('ping'))
      expect(response.usage!.input_tokens).toBeGreaterThan(0)
    })

    it('responses stream with a function call', async () => {
      const stream = sdk.openai.responses.stream({ model, input: 'get_weather in Rome', tools: [{ type: 'function', strict: false, ...weatherTool }] })
      const final = await stream.finalResponse()
      const call = final.output.find(item => item.type === 'function_call')
      expect(call && call.type === 'function_call' && call.name).toBe('get_weather')
      expect(call && call.type === 'function_call' && JSON.parse(call.arguments)).toEqual({ query: 'get_weather in Rome' })
    })
  })

})
