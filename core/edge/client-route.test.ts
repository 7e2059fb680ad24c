import type { H3Event } from 'h3'
import { describe, expect, it } from 'vitest'
import { readClientBody } from './client-route.ts'

/** An event as a runtime without Node's request gives it: the body only as a web stream. */
const webEvent = (body: ReadableStream<Uint8Array>, headers: Record<string, string> = {}) => ({
  req: new Request('http://proxy.test/v1/chat/completions', { method: 'POST', body, headers, duplex: 'half' } as RequestInit),
  context: {},
}) as unknown as H3Event

const streamOf = (chunks: string[], failAfter?: number) => new ReadableStream<Uint8Array>({
  start(controller) {
    chunks.forEach((chunk, i) => {
      if (i === failAfter) controller.error(new Error('connection reset'))
      else controller.enqueue(new TextEncoder().encode(chunk))
    })
    if (failAfter === undefined) controller.close()
  },
})

describe('readClientBody from a web body', () => {
  it('reads the chunks as one body', async () => {
    const body = await readClientBody(webEvent(streamOf(['{"model":', '"m","messages":[]}'])))
    expect(body.field('model')).toBe('m')
  })

  it('a body that errors mid-way is the client\'s 400 incomplete_body, not a server error', async () => {
    await expect(readClientBody(webEvent(streamOf(['{"model":', 'x'], 1)))).rejects.toMatchObject({ status: 400, code: 'incomplete_body' })
  })
})
