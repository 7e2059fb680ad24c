import { createSseParser } from 'model-proxy/kit/http'

type Json = Record<string, unknown>

/** One event of a turn's stream: its SSE name and its JSON (undefined when the data is not JSON). */
export interface TurnEvent { event?: string; data: Json | undefined }

/**
 * A turn answered as a stream: its events as they arrive, handed to `onEvent`. A status other than
 * 200 reads the body whole as the error it is. Resolves with the status and, for an error, its JSON.
 */
export async function readTurn(response: Response, onEvent: (event: TurnEvent) => void): Promise<{ status: number; json?: Json }> {
  if (response.status !== 200 || !response.body) {
    const text = await response.text()
    let json: Json | undefined
    try { json = JSON.parse(text) } catch {}
    return { status: response.status, json }
  }
  const parser = createSseParser()
  const decoder = new TextDecoder()
  const handle = (events: Array<{ event?: string; data: string }>) => {
    for (const { event, data } of events) {
      let json: Json | undefined
      try { json = JSON.parse(data) } catch {}
      onEvent({ event, data: json })
    }
  }
  const reader = response.body.getReader()
  for (let read = await reader.read(); !read.done; read = await reader.read()) handle(parser.push(decoder.decode(read.value, { stream: true })))
  handle(parser.push(decoder.decode()))
  handle(parser.end())
  return { status: 200 }
}
