// The floor for any Node proxy: http.request piped both ways through a keep-alive agent.
import { createServer, request, Agent } from 'node:http'

const target = new URL(process.env.UPSTREAM)
const agent = new Agent({ keepAlive: true, maxSockets: 1024 })
createServer((req, res) => {
  const upstream = request({ host: target.hostname, port: target.port, path: req.url, method: req.method, headers: { ...req.headers, host: target.host }, agent }, (answer) => {
    res.writeHead(answer.statusCode, answer.headers)
    answer.pipe(res)
  })
  upstream.on('error', () => { res.statusCode = 502; res.end() })
  req.pipe(upstream)
}).listen(0, '127.0.0.1', function () { console.log(`listening on http://127.0.0.1:${this.address().port}`) })
