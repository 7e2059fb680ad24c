import type { WireFormatId } from './wire-formats.ts'

/** One turn of the chat page's conversation. */
export interface Turn { role: 'user' | 'assistant'; text: string; /** The model that answered (shown above the turn). */ model?: string }

/** A request as the client SDK of `format` would send it: path, auth header and body. */
export interface ChatCall { path: string; headers: Record<string, string>; body: Record<string, unknown> }

export interface ChatOptions { model: string; turns: Turn[]; system?: string; stream: boolean; maxTokens?: number }

/** The request a client of `format` sends for this conversation (the proxy accepts each format's own key header). */
export function buildChatCall(format: WireFormatId, key: string, { model, turns, system, stream, maxTokens = 1024 }: ChatOptions): ChatCall {
  const json = { 'content-type': 'application/json' }
  switch (format) {
    case 'chat':
      return {
        path: '/v1/chat/completions',
        headers: { ...json, authorization: `Bearer ${key}` },
        body: { model, stream, ...(stream && { stream_options: { include_usage: true } }), messages: [...(system ? [{ role: 'system', content: system }] : []), ...turns.map(t => ({ role: t.role, content: t.text }))] },
      }
    case 'responses':
      return {
        path: '/v1/responses',
        headers: { ...json, authorization: `Bearer ${key}` },
        body: { model, stream, ...(system && { instructions: system }), input: turns.map(t => ({ role: t.role, content: t.text })) },
      }
    case 'messages':
      return {
        path: '/v1/messages',
        headers: { ...json, 'x-api-key': key, 'anthropic-version': '2023-06-01' },
        body: { model, stream, max_tokens: maxTokens, ...(system && { system }), messages: turns.map(t => ({ role: t.role, content: t.text })) },
      }
    case 'generate':
      return {
        path: `/v1beta/models/${encodeURIComponent(model)}:${stream ? 'streamGenerateContent?alt=sse' : 'generateContent'}`,
        headers: { ...json, 'x-goog-api-key': key },
        body: { ...(system && { systemInstruction: { parts: [{ text: system }] } }), contents: turns.map(t => ({ role: t.role === 'assistant' ? 'model' : 'user', parts: [{ text: t.text }] })) },
      }
  }
}

type Json = Record<string, any>
const texts = (parts: unknown): string => Array.isArray(parts) ? parts.filter((p: Json) => typeof p?.text === 'string' && !p.thought).map((p: Json) => p.text).join('') : ''

/** The text of one stream event's data (`''` for events that carry none). */
export function streamText(format: WireFormatId, data: Json, event?: string): string {
  switch (format) {
    case 'chat': return typeof data.choices?.[0]?.delta?.content === 'string' ? data.choices[0].delta.content : ''
    case 'responses': return (data.type ?? event) === 'response.output_text.delta' && typeof data.delta === 'string' ? data.delta : ''
    case 'messages': return data.type === 'content_block_delta' && data.delta?.type === 'text_delta' ? String(data.delta.text ?? '') : ''
    case 'generate': return texts(data.candidates?.[0]?.content?.parts)
  }
}

/** The text of a whole answer. */
export function answerText(format: WireFormatId, body: Json): string {
  switch (format) {
    case 'chat': return String(body.choices?.[0]?.message?.content ?? '')
    case 'responses': return (Array.isArray(body.output) ? body.output : []).flatMap((item: Json) => Array.isArray(item.content) ? item.content : []).filter((c: Json) => c.type === 'output_text').map((c: Json) => c.text).join('')
    case 'messages': return texts((Array.isArray(body.content) ? body.content : []).filter((c: Json) => c.type === 'text'))
    case 'generate': return texts(body.candidates?.[0]?.content?.parts)
  }
}

export interface TokenCounts { input?: number; output?: number }

/** Token counts an answer or a stream event reports (any of them; later events complete earlier ones). */
export function usageOf(format: WireFormatId, data: Json): TokenCounts {
  const pick = (input: unknown, output: unknown): TokenCounts => ({ ...(typeof input === 'number' && { input }), ...(typeof output === 'number' && { output }) })
  switch (format) {
    case 'chat': return pick(data.usage?.prompt_tokens, data.usage?.completion_tokens)
    case 'responses': {
      const usage = data.usage ?? data.response?.usage
      return pick(usage?.input_tokens, usage?.output_tokens)
    }
    case 'messages': {
      const usage = data.usage ?? data.message?.usage
      return pick(usage?.input_tokens, usage?.output_tokens)
    }
    case 'generate': return pick(data.usageMetadata?.promptTokenCount, data.usageMetadata?.candidatesTokenCount)
  }
}

/** The error text of a failed answer or an error event, in any of the formats' error shapes. */
export function errorText(data: Json): string | undefined {
  const error = data.error ?? (data.type === 'error' ? data : undefined)
  if (!error) return undefined
  return typeof error === 'string' ? error : String(error.message ?? JSON.stringify(error))
}

/** Splits SSE text into events; returns the events complete so far and the unfinished rest. */
export function splitSse(buffer: string): { events: Array<{ event?: string; data: string }>; rest: string } {
  const blocks = buffer.replace(/\r\n?/g, '\n').split('\n\n')
  const rest = blocks.pop() ?? ''
  const events = blocks.map((block) => {
    let event: string | undefined
    const data: string[] = []
    for (const line of block.split('\n')) {
      if (line.startsWith('event:')) event = line.slice(6).trim()
      else if (line.startsWith('data:')) data.push(line.slice(5).replace(/^ /, ''))
    }
    return { event, data: data.join('\n') }
  }).filter(e => e.data && e.data !== '[DONE]')
  return { events, rest }
}
