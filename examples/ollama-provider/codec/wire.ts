// Ollama's `/api/chat` wire shapes (https://github.com/ollama/ollama/blob/main/docs/api.md): the parts this codec reads and writes.

export interface OllamaToolCall { function: { name: string; arguments: Record<string, unknown> } }

export interface OllamaMessage {
  role: 'system' | 'user' | 'assistant' | 'tool'
  content: string
  thinking?: string
  /** Base64 images, no data: prefix. */
  images?: string[]
  tool_calls?: OllamaToolCall[]
  /** On a `tool` message: the function whose result this is. */
  tool_name?: string
}

/** One line of a stream, or the whole answer when `stream: false` (then `done` is true). */
export interface OllamaChunk {
  model?: string
  created_at?: string
  message?: Partial<OllamaMessage>
  done?: boolean
  done_reason?: string
  prompt_eval_count?: number
  eval_count?: number
  error?: string
}

export const isObject = (value: unknown): value is Record<string, unknown> => !!value && typeof value === 'object' && !Array.isArray(value)

/** Ollama hands tool arguments over as an object; canonical keeps JSON text. */
export function argumentsObject(text: string): Record<string, unknown> {
  try {
    const value = JSON.parse(text || '{}')
    return isObject(value) ? value : {}
  } catch {
    return {}
  }
}
