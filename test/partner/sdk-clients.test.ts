import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import OpenAI from 'openai'
import Anthropic from '@anthropic-ai/sdk'
import { GoogleGenAI } from '@google/genai'
import { clientKey, familyModels, greeting, startFamilyProxy, type FamilyProxy } from '../helpers/family-proxy.ts'

// The official SDKs, pointed at the partner's provider-route aliases the way a partner tool points them.
describe('official SDKs through the partner provider routes', () => {
  let setup: FamilyProxy
  let openai: OpenAI
  let anthropic: Anthropic
  let genai: GoogleGenAI
  beforeAll(async () => {
    setup = await startFamilyProxy()
    const base = `${setup.proxy.url}/api/provider`
    openai = new OpenAI({ baseURL: `${base}/compat/v1`, apiKey: clientKey, maxRetries: 0 })
    anthropic = new Anthropic({ baseURL: `${base}/beta`, apiKey: clientKey, maxRetries: 0 })
    genai = new GoogleGenAI({ apiKey: clientKey, httpOptions: { baseUrl: `${base}/alpha` } })
  })
  afterAll(() => setup.close())

  describe.each(Object.entries(familyModels))('upstream %s', (_family, model) => {
    it('openai chat, non-stream and stream', async () => {
      const answer = await openai.chat.completions.create({ model, messages: [{ role: 'user', content: 'hi' }] })
      expect(answer.choices[0]!.message.content).toBe(greeting('hi'))
      expect(answer.model).toBe(model)
      let text = ''
      for await (const chunk of await openai.chat.completions.create({ model, stream: true, messages: [{ role: 'user', content: 'hey' }] })) text += chunk.choices[0]?.delta.content ?? ''
      expect(text).toBe(greeting('hey'))
    })

    it('anthropic messages, non-stream and stream', async () => {
      const answer = await anthropic.messages.create({ model, max_tokens: 100, messages: [{ role: 'user', content: 'hi' }] })
      expect(answer.content[0]).toMatchObject({ type: 'text', text: greeting('hi') })
      const stream = anthropic.messages.stream({ model, max_tokens: 100, messages: [{ role: 'user', content: 'hey' }] })
      expect((await stream.finalMessage()).content[0]).toMatchObject({ type: 'text', text: greeting('hey') })
    })

    it('google genai generateContent, non-stream and stream', async () => {
      const answer = await genai.models.generateContent({ model, contents: 'hi' })
      expect(answer.text).toBe(greeting('hi'))
      let text = ''
      for await (const chunk of await genai.models.generateContentStream({ model, contents: 'hey' })) text += chunk.text ?? ''
      expect(text).toBe(greeting('hey'))
    })
  })

  it('a wrong key is the SDK\'s own authentication error', async () => {
    const wrong = new OpenAI({ baseURL: `${setup.proxy.url}/api/provider/compat/v1`, apiKey: 'sk-wrong', maxRetries: 0 })
    await expect(wrong.chat.completions.create({ model: familyModels.compat, messages: [{ role: 'user', content: 'hi' }] })).rejects.toBeInstanceOf(OpenAI.AuthenticationError)
  })
})
