import { constants } from 'node:buffer'
import * as zlib from 'node:zlib'
import { promisify } from 'node:util'
import { bodyTooLarge, ProxyError } from '../errors/proxy-error.ts'

type Decode = (bytes: Buffer, options: zlib.ZlibOptions) => Promise<Buffer>

// zstd is in node:zlib from Node 22.15 on; on older Node a zstd body is refused like any unknown coding.
const zstd = (zlib as { zstdDecompress?: typeof zlib.gunzip }).zstdDecompress
/** The codings a client may compress its body with (RFC 9110 8.4.1), by name. */
const decoders: Record<string, Decode | undefined> = {
  gzip: promisify(zlib.gunzip), 'x-gzip': promisify(zlib.gunzip), deflate: promisify(zlib.inflate), br: promisify(zlib.brotliDecompress),
  zstd: zstd && (promisify(zstd) as Decode),
}

/**
 * The body with its codings undone, last applied first (else the client hears "not valid UTF-8" about a body it sent whole),
 * its decoded size held to `limit` (a small compressed body may stand for gigabytes); an unknown coding is a 415, a corrupt body a 400.
 */
export async function decodeBody(bytes: Buffer, header: string | null | undefined, limit: number): Promise<Buffer> {
  // The codings in the order they were applied (`identity` is none).
  const codings = (header ?? '').split(',').map(coding => coding.trim().toLowerCase()).filter(coding => coding && coding !== 'identity')
  if (!codings.length || !bytes.length) return bytes
  const maxOutputLength = Number.isFinite(limit) ? Math.min(limit + 1, constants.MAX_LENGTH) : constants.MAX_LENGTH
  let body = bytes
  for (const coding of codings.reverse()) {
    const decode = decoders[coding]
    if (!decode) throw new ProxyError(415, `content-encoding ${JSON.stringify(coding)} is not supported: send the body uncompressed, or with ${supported().join(', ')}`, 'invalid_request_error', 'unsupported_content_encoding')
    try {
      body = await decode(body, { maxOutputLength })
    } catch (error) {
      if ((error as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE') throw bodyTooLarge(limit)
      throw new ProxyError(400, `request body is not valid ${coding} data (content-encoding): ${(error as Error).message}`, 'invalid_request_error', 'invalid_content_encoding')
    }
    if (body.length > limit) throw bodyTooLarge(limit)
  }
  return body
}

const supported = () => Object.keys(decoders).filter(coding => decoders[coding] && coding !== 'x-gzip')
