// Stack floor 1: Node's HTTP server and client, the body read whole before it is sent (as any proxy that
// routes on the body must), the answer piped back. Forwards /v1/messages as it came.
import { Agent, createServer, request } from 'node:http'
import { readWhole, upstreamHeaders } from './shared.mjs'

const target = new URL(process.env.UPSTREAM)
const agent = new Agent({ keepAlive: true, maxSockets: 1024 })
createServer(async (req, res) => {
  const body = await readWhole(req)
  const upstream = request({ host: target.hostname, port: target.port, path: req.url, method: 'POST', headers: upstreamHeaders(req, body), agent }, (answer) => {
    res.writeHead(answer.statusCode, { 'content-type': answer.headers['content-type'] ?? 'text/event-stream' })
    answer.pipe(res)
  })
  upstream.on('error', () => res.destroy())
  upstream.end(body)
}).listen(0, '127.0.0.1', function () { console.log(`listening on http://127.0.0.1:${this.address().port}`) })
