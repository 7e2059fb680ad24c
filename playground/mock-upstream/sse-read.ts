/** Test-side SSE reader for the mocks: each frame's `event:` name (if any) and parsed `data:` JSON. */
export interface SseFrame { event?: string; data: any }

export async function readSse(response: Response): Promise<SseFrame[]> {
  const text = await response.text()
  return text.split(/\r?\n\r?\n/).filter(Boolean).map(block => {
    const lines = block.split(/\r?\n/)
    const event = lines.find(line => line.startsWith('event: '))?.slice(7)
    const data = JSON.parse(lines.filter(line => line.startsWith('data: ')).map(line => line.slice(6)).join('\n'))
    return event === undefined ? { data } : { event, data }
  })
}

/** Consecutive duplicates collapsed: `[a, b, b, b, c]` -> `[a, b, c]` (for event-order checks). */
export const collapse = (names: Array<string | undefined>) => names.filter((name, i) => name !== names[i - 1])

export const post = (url: string, body: unknown, headers: Record<string, string> = {}) =>
  new Request(url, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) })
