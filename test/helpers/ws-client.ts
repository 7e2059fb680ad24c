import WebSocket from 'ws'

/** Open a WebSocket; rejects with `HTTP <status>` when the upgrade is refused. */
export function openSocket(url: string, headers: Record<string, string> = {}): Promise<WebSocket> {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(url, { headers })
    socket.once('open', () => resolve(socket))
    socket.once('unexpected-response', (_req, res) => reject(new Error(`HTTP ${res.statusCode}`)))
    socket.once('error', reject)
  })
}

/** Send one `/v1/ws` envelope and collect the replies tagged with its id, up to the last one. */
export function askEnvelope(socket: WebSocket, envelope: { id: string; path: string; body: unknown }): Promise<any[]> {
  return new Promise((resolve) => {
    const messages: any[] = []
    const onMessage = (data: WebSocket.RawData) => {
      const message = JSON.parse(data.toString())
      if (message.id !== envelope.id && message.id !== null) return
      messages.push(message)
      if (message.type !== 'event') {
        socket.off('message', onMessage)
        resolve(messages)
      }
    }
    socket.on('message', onMessage)
    socket.send(JSON.stringify(envelope))
  })
}
