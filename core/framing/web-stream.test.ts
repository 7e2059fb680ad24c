import { PassThrough } from 'node:stream'
import { describe, expect, it } from 'vitest'
import { webStreamOf } from './web-stream.ts'

describe('webStreamOf', () => {
  it('gives the Node stream\'s chunks and its end', async () => {
    const node = new PassThrough()
    const web = webStreamOf(node)
    node.end('ab')
    expect(await new Response(web).text()).toBe('ab')
  })

  it('cancelled while a chunk is still on its way: the Node stream is let go, nothing is thrown', async () => {
    const node = new PassThrough()
    node.write('a')
    // The 'data' listener queues a resume; the cancel comes first.
    const web = webStreamOf(node)
    await web.cancel()
    await new Promise(resolve => setImmediate(resolve))
    expect(node.destroyed).toBe(true)
  })
})
