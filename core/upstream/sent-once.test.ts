import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { sendUpstream, type UpstreamHttpRequest } from './send.ts'
import { ClientBody, JsonBody } from '../json/index.ts'

/** What reached the upstream: the raw header lines, in order, and the body. */
interface Seen { rawHeaders: string[]; body: string }
let server: Server
let url = ''
const seen: Seen[] = []
beforeAll(async () => {
  server = createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', chunk => chunks.push(chunk))
    req.on('end', () => {
      seen.push({ rawHeaders: req.rawHeaders, body: Buffer.concat(chunks).toString('utf8') })
      res.writeHead(200, { 'content-type': 'text/event-stream' })
      res.end('data: {}\n\n')
    })
  })
  await new Promise<void>(resolve => server.listen(0, '127.0.0.1', resolve))
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1/chat/completions`
})
afterAll(() => new Promise<void>(resolve => server.close(() => resolve())))

async function send(req: UpstreamHttpRequest): Promise<Seen> {
  const res = await sendUpstream(req)
  await res.body.text()
  return seen.at(-1)!
}

const headers = () => ({ 'content-type': 'application/json', authorization: 'Bearer up' })

describe('a body written out for the upstream is let go once sent', () => {
  it.each([100, 40_000])('the wire is the same as for the bytes themselves (%i characters, some not ASCII)', async (size) => {
    const json = { model: 'm', stream: true, messages: [{ role: 'user', content: `é ${'x'.repeat(size)} ✓` }] }
    const written = await send({ url, method: 'POST', headers: headers(), json: new JsonBody(json) })
    const plain = await send({ url, method: 'POST', headers: headers(), body: JSON.stringify(json) })
    expect(written.body).toBe(JSON.stringify(json))
    expect(written.rawHeaders).toEqual(plain.rawHeaders)
    expect(written.rawHeaders).toContain(String(Buffer.byteLength(JSON.stringify(json))))
  })

  it('leaves what a hook or observer reads of the request as it was (headers, the written bytes)', async () => {
    const json = { model: 'm', messages: [{ role: 'user', content: 'y'.repeat(40_000) }] }
    const req: UpstreamHttpRequest = { url, method: 'POST', headers: headers(), json: new JsonBody(json) }
    await send(req)
    expect(req.headers).toEqual(headers())
    expect(String(req.json!.bytes())).toBe(JSON.stringify(json))
  })

  it('the client\'s own bytes go the same way (a stream answer lets the request\'s hold on them go too), the wire unchanged', async () => {
    const text = `{ "model": "m", "messages": [{"role":"user","content":"caf\\u00e9 ${'z'.repeat(40_000)}"}] }`
    const req: UpstreamHttpRequest = { url, method: 'POST', headers: headers(), json: new JsonBody(new ClientBody(Buffer.from(text))) }
    expect(req.json!.asClientSent).toBe(true)
    const sent = await send(req)
    const plain = await send({ url, method: 'POST', headers: headers(), body: Buffer.from(text) })
    expect(sent.body).toBe(text)
    expect(sent.rawHeaders).toEqual(plain.rawHeaders)
    expect(String(req.json!.bytes())).toBe(text)
  })
})
