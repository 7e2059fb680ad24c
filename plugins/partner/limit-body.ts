import { Transform, type Readable } from 'node:stream'
import { ProxyError } from '../../core/http/errors.ts'

const tooLarge = (limit: number) => new ProxyError(413, `request body too large: the limit is ${Math.round(limit / 1048576)} MB (max-request-body-mb)`, 'invalid_request_error', 'request_too_large')

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
