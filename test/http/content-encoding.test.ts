import { gzipSync } from 'node:zlib'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { clientKey, familyModels, startFamilyProxy, type FamilyProxy } from '../helpers/family-proxy.ts'
import { clientCall, clientHeaders } from '../helpers/client-formats.ts'
import { offFormat, formatOfPath } from '../fuzz/error-formats.ts'

/**
 * A client body sent with `Content-Encoding: gzip` is read decoded, on the same-format path (whose bytes
 * go upstream as they are: decoded, with no content-encoding) as on the translated one. It used to be read
 * as it came: "request body is not valid UTF-8" for a body the client sent whole.
 */
let setup: FamilyProxy
beforeAll(async () => { setup = await startFamilyProxy() })
afterAll(() => setup.close())

const send = (path: string, body: Buffer, encoding: string) => fetch(`${setup.proxy.url}${path}`, {
  method: 'POST', headers: { ...clientHeaders(clientKey), 'content-encoding': encoding, 'anthropic-version': '2023-06-01' }, body: new Uint8Array(body), signal: AbortSignal.timeout(10_000),
})

describe.each([['messages', 'beta'], ['messages', 'compat'], ['chat', 'compat'], ['responses', 'gamma'], ['generate-sse', 'alpha']] as const)('%s -> %s', (format, family) => {
  const { path, body } = clientCall(format, familyModels[family], false, 'compressed hello')

  it('a gzip body is read decoded; the upstream gets JSON without the coding', async () => {
    const response = await send(path, gzipSync(JSON.stringify(body)), 'gzip')
    expect(response.status, await response.clone().text()).toBe(200)
    expect(await response.text()).toContain('compressed hello')
    const upstream = setup.upstreams[family].requests.at(-1)!
    expect(upstream.headers['content-encoding']).toBeUndefined()
    expect(upstream.body).toContain('compressed hello')
  })

  it('an unknown coding is a 415, a corrupt body a 400, each in the client\'s format', async () => {
    const unknown = await send(path, Buffer.from(JSON.stringify(body)), 'compress')
    expect(unknown.status).toBe(415)
    expect(offFormat(formatOfPath(path), await unknown.text())).toBeUndefined()
    const corrupt = await send(path, Buffer.from(JSON.stringify(body)), 'gzip')
    expect(corrupt.status).toBe(400)
    const text = await corrupt.text()
    expect(offFormat(formatOfPath(path), text)).toBeUndefined()
    expect(text).toContain('not valid gzip data')
  })
})
