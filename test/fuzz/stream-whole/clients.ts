import OpenAI from 'openai'
import Anthropic from '@anthropic-ai/sdk'
import { GoogleGenAI, type GenerateContentResponse, type Part as GenaiPart } from '@google/genai'

/** What a client ends up with, in terms every format shares: the oracle is each SDK's own accumulator. */
export interface Seen {
  text?: string | null
  refusal: string
  reasoning: string
  /** The format's opaque reasoning slots (signatures, encrypted content), in order. */
  opaque: string[]
  calls: Array<{ id?: string; name: string; args: unknown }>
  citations: string[]
  searches: string[]
  finish: unknown
  usage: unknown
}

export type ClientFormat = 'chat' | 'responses' | 'messages' | 'generate'
export const clientFormats: ClientFormat[] = ['chat', 'responses', 'messages', 'generate']

const empty = (): Seen => ({ text: '', refusal: '', reasoning: '', opaque: [], calls: [], citations: [], searches: [], finish: undefined, usage: undefined })
/** A call's arguments as JSON; text that is no JSON (cut by the token limit) as it is. */
const parsed = (args: string): unknown => {
  try { return JSON.parse(args) } catch { return { unparsed: args } }
}

function fromChat(completion: OpenAI.ChatCompletion, reasoning?: string): Seen {
  const seen = empty()
  const choice = completion.choices[0]!
  const message = choice.message as OpenAI.ChatCompletionMessage & { reasoning_content?: string }
  seen.text = message.content as string
  seen.refusal = message.refusal ?? ''
  seen.reasoning = reasoning ?? message.reasoning_content ?? ''
  for (const call of message.tool_calls ?? []) if (call.type === 'function') seen.calls.push({ id: call.id, name: call.function.name, args: parsed(call.function.arguments) })
  seen.citations = (message.annotations ?? []).map(note => note.url_citation.url)
  seen.finish = choice.finish_reason
  seen.usage = completion.usage
  return seen
}

function fromResponse(response: OpenAI.Responses.Response): Seen {
  const seen = empty()
  for (const item of response.output) {
    if (item.type === 'message') {
      for (const part of item.content) {
        if (part.type === 'output_text') {
          seen.text += part.text
          for (const note of part.annotations) if (note.type === 'url_citation') seen.citations.push(note.url)
        } else seen.refusal += part.refusal
      }
    } else if (item.type === 'reasoning') {
      seen.reasoning += [...item.summary, ...(item.content ?? [])].map(part => part.text).join('')
      if (item.encrypted_content) seen.opaque.push(item.encrypted_content)
    } else if (item.type === 'function_call') seen.calls.push({ id: item.call_id, name: item.name, args: parsed(item.arguments) })
    else if (item.type === 'web_search_call') seen.searches.push(JSON.stringify(item.action))
  }
  seen.finish = [response.status, response.incomplete_details?.reason]
  seen.usage = response.usage
  return seen
}

function fromMessage(message: Anthropic.Message): Seen {
  const seen = empty()
  for (const block of message.content) {
    if (block.type === 'text') {
      seen.text += block.text
      for (const cited of block.citations ?? []) if (cited.type === 'web_search_result_location') seen.citations.push(cited.url)
    } else if (block.type === 'thinking') {
      seen.reasoning += block.thinking
      seen.opaque.push(block.signature)
    } else if (block.type === 'redacted_thinking') seen.opaque.push(block.data)
    else if (block.type === 'tool_use') seen.calls.push({ id: block.id, name: block.name, args: block.input })
    else if (block.type === 'server_tool_use') seen.searches.push(JSON.stringify(block.input))
    else if (block.type === 'web_search_tool_result') seen.searches.push(JSON.stringify(block.content))
  }
  seen.finish = [message.stop_reason, message.stop_sequence]
  seen.usage = message.usage
  return seen
}

/** generateContentStream has no accumulator: a client joins the chunks' parts, the last finish and usage. */
function fromGenerate(chunks: GenerateContentResponse[]): Seen {
  // No text part at all reads differently (response.text undefined) from an empty one.
  const seen: Seen = { ...empty(), text: undefined }
  for (const chunk of chunks) {
    const candidate = chunk.candidates?.[0]
    for (const part of (candidate?.content?.parts ?? []) as GenaiPart[]) {
      if (part.thought) seen.reasoning += part.text ?? ''
      else if (part.text !== undefined) seen.text = `${seen.text ?? ''}${part.text}`
      if (part.thoughtSignature) seen.opaque.push(part.thoughtSignature)
      if (part.functionCall) seen.calls.push({ id: part.functionCall.id, name: part.functionCall.name ?? '', args: part.functionCall.args })
    }
    if (candidate?.finishReason) seen.finish = candidate.finishReason
    const grounding = candidate?.groundingMetadata
    if (grounding) {
      seen.searches.push(...(grounding.webSearchQueries ?? []))
      seen.citations.push(...(grounding.groundingChunks ?? []).map(chunk => chunk.web?.uri ?? ''))
    }
    if (chunk.usageMetadata) seen.usage = chunk.usageMetadata
  }
  return seen
}

/** Reads one answer through the real SDK of `format`, whole or streamed. */
export async function readThrough(format: ClientFormat, baseUrl: string, model: string, stream: boolean): Promise<Seen> {
  const apiKey = 'sk-fuzz'
  switch (format) {
    case 'chat': {
      const sdk = new OpenAI({ baseURL: `${baseUrl}/v1`, apiKey, maxRetries: 0 })
      const messages = [{ role: 'user' as const, content: 'hi' }]
      if (!stream) return fromChat(await sdk.chat.completions.create({ model, messages }))
      const running = sdk.chat.completions.stream({ model, messages, stream_options: { include_usage: true } })
      // The accumulator overwrites unknown delta fields: reasoning_content is joined here, as clients do.
      let reasoning = ''
      for await (const chunk of running) reasoning += (chunk.choices[0]?.delta as { reasoning_content?: string } | undefined)?.reasoning_content ?? ''
      return fromChat(await running.finalChatCompletion(), reasoning)
    }
    case 'responses': {
      const sdk = new OpenAI({ baseURL: `${baseUrl}/v1`, apiKey, maxRetries: 0 })
      if (!stream) return fromResponse(await sdk.responses.create({ model, input: 'hi' }))
      return fromResponse(await sdk.responses.stream({ model, input: 'hi' }).finalResponse())
    }
    case 'messages': {
      const sdk = new Anthropic({ baseURL: baseUrl, apiKey, maxRetries: 0 })
      const body = { model, max_tokens: 4096, messages: [{ role: 'user' as const, content: 'hi' }] }
      if (!stream) return fromMessage(await sdk.messages.create(body))
      return fromMessage(await sdk.messages.stream(body).finalMessage())
    }
    case 'generate': {
      const sdk = new GoogleGenAI({ apiKey, httpOptions: { baseUrl } })
      if (!stream) return fromGenerate([await sdk.models.generateContent({ model, contents: 'hi' })])
      const chunks: GenerateContentResponse[] = []
      for await (const chunk of await sdk.models.generateContentStream({ model, contents: 'hi' })) chunks.push(chunk)
      return fromGenerate(chunks)
    }
  }
}
