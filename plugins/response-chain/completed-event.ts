import { createSseParser, Utf8Decoder } from 'model-proxy/kit/http'

type Body = Record<string, unknown>

/**
 * Passes a responses SSE stream through unchanged and calls `onResponse` with the final response object
 * (`response.completed` / `response.incomplete`) once it has gone by.
 */
export function watchFinalResponse(stream: ReadableStream<Uint8Array>, onResponse: (response: Body) => void): ReadableStream<Uint8Array> {
  const parser = createSseParser()
  const decoder = new Utf8Decoder()
  let seen = false
  const look = (text: string) => {
    for (const event of parser.push(text)) {
      if (seen || !event.data.includes('"response.')) continue
      try {
        const data = JSON.parse(event.data) as Body
        if ((data.type === 'response.completed' || data.type === 'response.incomplete') && data.response && typeof data.response === 'object') {
          seen = true
          onResponse(data.response as Body)
        }
      } catch {}
    }
  }
  return stream.pipeThrough(new TransformStream<Uint8Array, Uint8Array>({
    transform(chunk, controller) {
      controller.enqueue(chunk)
      look(decoder.write(chunk))
    },
    flush() { look(decoder.end()) },
  }))
}
