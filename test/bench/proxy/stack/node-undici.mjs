// Stack floor 2: Node's HTTP server, undici's client (what the proxy sends with), the body read whole.
import { createServer } from 'node:http'
import { Agent } from 'undici'
import { readWhole, upstreamHeaders } from './shared.mjs'

const origin = new URL(process.env.UPSTREAM).origin
const agent = new Agent({ keepAliveTimeout: 30_000, pipelining: 1 })
createServer(async (req, res) => {
  const body = await readWhole(req)
  try {
    const answer = await agent.request({ origin, path: req.url, method: 'POST', headers: upstreamHeaders(req, body), body })
    answer.body.on('error', () => res.destroy())
    res.writeHead(answer.statusCode, { 'content-type': answer.headers['content-type'] ?? 'text/event-stream' })
    answer.body.pipe(res)
  } catch {
    res.destroy()
  }
}).listen(0, '127.0.0.1', function () { console.log(`listening on http://127.0.0.1:${this.address().port}`) })
