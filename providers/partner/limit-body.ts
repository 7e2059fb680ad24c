import { Transform, type Readable } from 'node:stream'
import { bodyTooLarge as tooLarge } from 'model-proxy/kit/errors'

/** A streamed body held to `max-request-body-mb`: refused up front by its declared length, or cut when it passes the limit. */
export function limitBody(body: Readable, limit: number, declared: string | null): Readable {
  if (Number(declared ?? Number.NaN) > limit) {
    body.destroy()
    throw tooLarge(limit)
  }
  let size = 0
  const counter = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      size += chunk.length
      done(size > limit ? tooLarge(limit) : null, chunk)
    },
  })
  body.on('error', error => counter.destroy(error))
  return body.pipe(counter)
}
