import type { Readable } from 'node:stream'

export type FirstChunk =
  | { iterator: AsyncIterator<Buffer>; chunk: Buffer | undefined }
  | { error: string }

/** The first non-empty chunk of an upstream stream, or why there is none (empty body, reset, timeout). */
export async function readFirstChunk(body: Readable): Promise<FirstChunk> {
  const iterator = body[Symbol.asyncIterator]() as AsyncIterator<Buffer>
  try {
    for (;;) {
      const next = await iterator.next()
      if (next.done) return { error: 'empty response' }
      if (next.value.length) return { iterator, chunk: next.value }
    }
  } catch (error) {
    body.destroy()
    return { error: (error as Error).message }
  }
}
