import type { StreamMarker, StreamUsageOption } from 'model-proxy'

const isObject = (value: unknown): value is Record<string, unknown> => !!value && typeof value === 'object' && !Array.isArray(value)

/**
 * The frames a chat stream's usage and end are read from: the usage chunk, a finish reason, `[DONE]`, an
 * error chunk (an object, or a bare message as some servers send: `{"error":"...","error_type":"..."}`).
 */
export const chatStreamMarkers: StreamMarker[] = [
  { text: '"usage"', value: 'object', usage: true },
  { text: '"finish_reason"', value: 'string' },
  { text: '[DONE]' },
  { text: '"error"', value: 'object' },
  { text: '"error"', value: 'string' },
]

/**
 * A chat stream reports usage only when asked (`stream_options.include_usage`), in a last chunk with
 * no choices: that chunk is what a client that did not ask must not see.
 */
export const chatUsageOption: StreamUsageOption = {
  field: 'stream_options',
  asked: value => isObject(value) && value.include_usage === true,
  ask: value => ({ ...(isObject(value) ? value : {}), include_usage: true }),
  usageOnly(frame) {
    let chunk: unknown
    try { chunk = JSON.parse(frame.data) } catch { return false }
    return isObject(chunk) && isObject(chunk.usage) && Array.isArray(chunk.choices) && chunk.choices.length === 0
  },
}
