import { request as httpRequest } from 'node:http'
import { clientCall, clientHeaders, type ClientFormat } from './client-formats.ts'

/**
 * Streams the minimal request of `format` to a proxy and destroys the socket as soon as `marker` has
 * arrived (a client that stops reading there); resolves with the request id the proxy answered with.
 */
export function leaveAt(proxyUrl: string, format: ClientFormat, model: string, key: string, marker: string): Promise<string> {
  const { path, body } = clientCall(format, model, true)
  return new Promise((resolve, reject) => {
    const req = httpRequest(new URL(path, proxyUrl), { method: 'POST', headers: clientHeaders(key) }, (res) => {
      let text = ''
      res.on('data', (chunk) => {
        text += chunk
        if (!text.includes(marker)) return
        req.destroy()
        resolve(String(res.headers['x-request-id']))
      })
      res.on('end', () => reject(new Error(`the stream ended without ${marker}: ${text}`)))
    })
    req.on('error', () => {})
    req.end(JSON.stringify(body))
  })
}
