import type { StreamUsageOption } from 'model-proxy'

const isObject = (value: unknown): value is Record<string, unknown> => !!value && typeof value === 'object' && !Array.isArray(value)

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
