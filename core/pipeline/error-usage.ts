import type { StreamDecoder } from '../canonical/codec.ts'
import type { Usage } from '../canonical/types.ts'

/**
 * A decoder that also hands over the usage its error events carry (what the upstream had reported
 * before the error), for a reader that takes usage from `start` and `finish` only (the usage tap).
 */
export function keepingErrorUsage(decoder: StreamDecoder, keep: (usage: Usage) => void): StreamDecoder {
  return {
    push(frame) {
      const events = decoder.push(frame)
      for (const event of events) if (event.type === 'error' && event.usage) keep(event.usage)
      return events
    },
    end: () => decoder.end(),
    ...(decoder.terminated && { terminated: () => decoder.terminated!() }),
  }
}
