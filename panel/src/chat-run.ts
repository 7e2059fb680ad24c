import { answerText, errorText, splitSse, streamText, usageOf, type ChatCall, type TokenCounts } from './chat-formats.ts'
import type { WireFormatId } from './wire-formats.ts'

/** How one chat request went: what the page shows under the answer. */
export interface ChatOutcome {
  status: number
  text: string
  error?: string
  usage: TokenCounts
  /** Milliseconds until the response headers, the first text, and the end. */
  headersMs: number
  firstTextMs?: number
  totalMs: number
  /** `x-proxy-served-model`: routing chose another model than the one asked for. */
  served?: string
  /** `x-proxy-dropped`: what translation could not carry. */
  dropped?: string
}

const parse = (text: string): Record<string, any> | undefined => {
  try {
    const value = JSON.parse(text)
    return value && typeof value === 'object' ? value : undefined
  } catch {
    return undefined
  }
}

/**
 * Sends the call to the proxy (same origin, the client endpoints) as a client of `format` would, and
 * reads the answer: a stream event by event, calling `onText` with the text so far.
 */
export async function runChat(format: WireFormatId, call: ChatCall, stream: boolean, onText: (text: string) => void, signal: AbortSignal): Promise<ChatOutcome> {
  const started = performance.now()
  const response = await fetch(call.path, { method: 'POST', headers: call.headers, body: JSON.stringify(call.body), signal, cache: 'no-store' })
  const outcome: ChatOutcome = {
    status: response.status, text: '', usage: {}, headersMs: Math.round(performance.now() - started), totalMs: 0,
    served: response.headers.get('x-proxy-served-model') ?? undefined, dropped: response.headers.get('x-proxy-dropped') ?? undefined,
  }
  const add = (data: Record<string, any>, text: string) => {
    Object.assign(outcome.usage, usageOf(format, data))
    outcome.error ??= errorText(data)
    if (!text) return
    outcome.firstTextMs ??= Math.round(performance.now() - started)
    outcome.text += text
    onText(outcome.text)
  }
  const isStream = stream && response.ok && (response.headers.get('content-type') ?? '').includes('text/event-stream')
  if (isStream && response.body) {
    const reader = response.body.getReader()
    const decoder = new TextDecoder()
    let buffer = ''
    for (;;) {
      const { done, value } = await reader.read()
      buffer += decoder.decode(value, { stream: !done })
      const { events, rest } = splitSse(done ? `${buffer}\n\n` : buffer)
      buffer = rest
      for (const event of events) {
        const data = parse(event.data)
        if (data) add(data, streamText(format, data, event.event))
      }
      if (done) break
    }
  } else {
    const body = await response.text()
    const data = parse(body)
    if (!data) outcome.error = response.ok ? 'the answer is not JSON' : body.slice(0, 300) || `HTTP ${response.status}`
    else add(data, response.ok ? answerText(format, data) : '')
  }
  if (!response.ok) outcome.error ??= `HTTP ${response.status}`
  outcome.totalMs = Math.round(performance.now() - started)
  return outcome
}
