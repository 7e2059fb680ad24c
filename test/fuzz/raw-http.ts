import { connect } from 'node:net'

/** What came back for raw request bytes: nothing (status 0), or a status, headers and the body. */
export interface RawAnswer {
  status: number
  headers: Record<string, string>
  body: string
  /** How the read ended, when no status came: the timeout, a socket error (its code), or a close. */
  ended?: string
}

/** Decode a chunked body as far as it goes. */
function unchunk(raw: string): string {
  let out = ''
  let at = 0
  for (;;) {
    const line = raw.indexOf('\r\n', at)
    if (line === -1) return out
    const size = Number.parseInt(raw.slice(at, line), 16)
    if (!size) return out
    out += raw.slice(line + 2, line + 2 + size)
    at = line + 2 + size + 2
  }
}

export function parseAnswer(raw: Buffer): RawAnswer {
  const text = raw.toString('utf8')
  const status = Number(/^HTTP\/1\.[01] (\d{3})/.exec(text)?.[1] ?? 0)
  const end = text.indexOf('\r\n\r\n')
  const headers: Record<string, string> = {}
  for (const line of text.slice(0, end === -1 ? text.length : end).split('\r\n').slice(1)) {
    const colon = line.indexOf(':')
    if (colon > 0) headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim()
  }
  const rest = end === -1 ? '' : text.slice(end + 4)
  return { status, headers, body: headers['transfer-encoding'] === 'chunked' ? unchunk(rest) : rest }
}

/**
 * Send raw bytes on a fresh connection and read the answer until the server closes (requests say
 * `connection: close`) or `timeoutMs` passes; `hangUp` closes right after sending (no answer expected).
 */
export function sendRaw(port: number, host: string, bytes: Buffer, hangUp: boolean, timeoutMs: number): Promise<RawAnswer> {
  return new Promise((resolve) => {
    const socket = connect(port, host)
    const chunks: Buffer[] = []
    let size = 0
    let settled = false
    const done = (ended: string) => {
      if (settled) return
      settled = true
      clearTimeout(timer)
      socket.destroy()
      const answer = parseAnswer(Buffer.concat(chunks))
      resolve(answer.status ? answer : { ...answer, ended: `${ended} after ${size} bytes` })
    }
    const timer = setTimeout(() => done(`no answer within ${timeoutMs} ms`), timeoutMs)
    socket.on('error', (error: NodeJS.ErrnoException) => done(`socket error ${error.code ?? error.message}`))
    socket.on('close', () => done('closed'))
    socket.on('data', (chunk: Buffer) => {
      // Error bodies are small; a long answer (a stream) is cut after its head and a little body.
      if (size < 65_536) chunks.push(chunk)
      size += chunk.length
    })
    socket.write(bytes, () => { if (hangUp) setTimeout(() => done('hung up'), 5) })
  })
}
