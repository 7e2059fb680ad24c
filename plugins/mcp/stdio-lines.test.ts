import { describe, expect, it } from 'vitest'
import { LineReader, lineLimit } from './stdio-lines.ts'

const drain = (reader: LineReader) => {
  const out: unknown[] = []
  for (;;) {
    try {
      const message = reader.readMessage()
      if (message === null) return out
      out.push(message)
    } catch (error) {
      out.push(`error: ${(error as Error).message.slice(0, 60)}`)
    }
  }
}

describe('LineReader', () => {
  it('reads messages across chunks and CRLF ends, and reports a line that is no message', () => {
    const reader = new LineReader(() => 1000)
    const text = '{"jsonrpc":"2.0","id":1,"result":{}}\r\nnot json\n{"jsonrpc":"2.0","method":"notifications/x"}\n'
    for (const byte of Buffer.from(text)) reader.append(Buffer.from([byte]))
    const out = drain(reader)
    expect(out[0]).toEqual({ jsonrpc: '2.0', id: 1, result: {} })
    expect(out[1]).toMatch(/^error: /)
    expect(out[2]).toEqual({ jsonrpc: '2.0', method: 'notifications/x' })
  })

  it('skips a line over the limit; a response gets an error for its id, in either key order', () => {
    const reader = new LineReader(() => 100)
    const big = 'x'.repeat(500)
    const typescript = `{"result":{"content":[{"type":"text","text":"${big}"}]},"jsonrpc":"2.0","id":7}\n`
    const python = `{"jsonrpc":"2.0","id":8,"result":{"text":"${big}"}}\n`
    const notification = `{"jsonrpc":"2.0","method":"notifications/message","params":{"data":"${big}"}}\n`
    reader.append(Buffer.from(typescript.slice(0, 50)))
    reader.append(Buffer.from(typescript.slice(50) + python + notification.slice(0, 300)))
    reader.append(Buffer.from(`${notification.slice(300)}{"jsonrpc":"2.0","id":9,"result":{}}\n`))
    const out = drain(reader) as Array<{ id?: number; error?: { code: number; message: string } } | string>
    expect(out).toHaveLength(4)
    expect(out[0]).toMatchObject({ id: 7, error: { code: -32603 } })
    expect((out[0] as { error: { message: string } }).error.message).toMatch(/a message of 5\d\d bytes, larger than the gateway reads from a local server \(100 bytes\)/)
    expect(out[1]).toMatchObject({ id: 8, error: { code: -32603 } })
    expect(out[2]).toMatch(/^error: skipped a message of/)
    expect(out[3]).toEqual({ jsonrpc: '2.0', id: 9, result: {} })
  })

  it('reads every result the cap lets through', () => {
    expect(lineLimit(1024)).toBe(10 * 1024 * 1024)
    expect(lineLimit(20 * 1024)).toBeGreaterThan(2 * 20 * 1024 * 1024)
  })
})
