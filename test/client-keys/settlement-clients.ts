import { expect } from 'vitest'
import OpenAI from 'openai'
import Anthropic from '@anthropic-ai/sdk'
import { GoogleGenAI } from '@google/genai'
import { generateText, streamText, type LanguageModel, type LanguageModelUsage } from 'ai'
import { createOpenAI } from '@ai-sdk/openai'
import { createAnthropic } from '@ai-sdk/anthropic'
import { createGoogleGenerativeAI } from '@ai-sdk/google'

/**
 * The clients of the settlement matrix, each making one turn the way its users do: the vendor SDKs
 * (openai for chat and responses, @anthropic-ai/sdk, @google/genai) and the Vercel `ai` SDK with each of
 * its providers (`ai-*`), streaming or not.
 */
export const settlementClients = ['chat', 'messages', 'responses', 'generate', 'ai-chat', 'ai-messages', 'ai-responses', 'ai-generate'] as const
export type SettlementClient = typeof settlementClients[number]

export interface Turn {
  proxyUrl: string; model: string; stream: boolean; key: string; session: string
  /** The usage the Vercel `ai` SDK reported to its caller (its clients only). */
  onUsage?: (usage: LanguageModelUsage) => void
}

/** One turn through the client's own SDK; returns the text it read. */
export async function ask(client: SettlementClient, turn: Turn): Promise<string> {
  if (client.startsWith('ai-')) return askAi(client, turn)
  const { proxyUrl, model, stream, key } = turn
  const headers = { 'x-claude-code-session-id': turn.session }
  if (client === 'chat') {
    const openai = new OpenAI({ baseURL: `${proxyUrl}/v1`, apiKey: key, maxRetries: 0, defaultHeaders: headers })
    if (!stream) return (await openai.chat.completions.create({ model, messages: [{ role: 'user', content: 'hi' }] })).choices[0]!.message.content ?? ''
    let text = ''
    // No stream_options: the client did not ask for usage (the proxy asks the upstream, the client never sees it).
    for await (const chunk of await openai.chat.completions.create({ model, stream: true, messages: [{ role: 'user', content: 'hi' }] })) {
      expect(chunk.choices.length, 'a usage-only chunk the client did not ask for').toBeGreaterThan(0)
      text += chunk.choices[0]?.delta.content ?? ''
    }
    return text
  }
  if (client === 'responses') {
    const openai = new OpenAI({ baseURL: `${proxyUrl}/v1`, apiKey: key, maxRetries: 0, defaultHeaders: headers })
    if (!stream) return (await openai.responses.create({ model, input: 'hi' })).output_text
    let text = ''
    for await (const event of await openai.responses.create({ model, input: 'hi', stream: true })) if (event.type === 'response.output_text.delta') text += event.delta
    return text
  }
  if (client === 'messages') {
    const anthropic = new Anthropic({ baseURL: proxyUrl, apiKey: key, maxRetries: 0, defaultHeaders: headers })
    // A large max_tokens: the reservation, never what is charged.
    const params = { model, max_tokens: 16_000, messages: [{ role: 'user' as const, content: 'hi' }] }
    if (!stream) return (await anthropic.messages.create(params)).content.map(block => block.type === 'text' ? block.text : '').join('')
    const final = await anthropic.messages.stream(params).finalMessage()
    return final.content.map(block => block.type === 'text' ? block.text : '').join('')
  }
  const genai = new GoogleGenAI({ apiKey: key, httpOptions: { baseUrl: proxyUrl, headers } })
  if (!stream) return (await genai.models.generateContent({ model, contents: 'hi' })).text ?? ''
  let text = ''
  for await (const chunk of await genai.models.generateContentStream({ model, contents: 'hi' })) text += chunk.text ?? ''
  return text
}

/** The Vercel `ai` SDK: a provider factory with `baseURL` and `apiKey`, then generateText or streamText. */
async function askAi(client: SettlementClient, { proxyUrl, model, stream, key, session, onUsage }: Turn): Promise<string> {
  const headers = { 'x-claude-code-session-id': session }
  const language: LanguageModel = client === 'ai-chat' ? createOpenAI({ baseURL: `${proxyUrl}/v1`, apiKey: key, headers }).chat(model)
    : client === 'ai-responses' ? createOpenAI({ baseURL: `${proxyUrl}/v1`, apiKey: key, headers }).responses(model)
      : client === 'ai-messages' ? createAnthropic({ baseURL: `${proxyUrl}/v1`, apiKey: key, headers })(model)
        : createGoogleGenerativeAI({ baseURL: `${proxyUrl}/v1beta`, apiKey: key, headers })(model)
  // A large output limit: the reservation, never what is charged.
  const params = { model: language, prompt: 'hi', maxOutputTokens: 16_000, maxRetries: 0 }
  if (!stream) {
    const result = await generateText(params)
    onUsage?.(result.usage)
    return result.text
  }
  let failure: unknown
  const result = streamText({ ...params, onError: ({ error }) => { failure = error } })
  let text = ''
  for await (const delta of result.textStream) text += delta
  if (failure) throw failure
  onUsage?.(await result.usage)
  return text
}
