import { beforeEach, describe, expect, it } from 'vitest'
import { readdirSync, readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { codecs } from './codecs.ts'
import { projectStream } from './project.ts'
import { createSseParser } from '../../core/framing/sse.ts'
import type { StreamEvent } from '../../core/canonical/types.ts'

// A case that returns before its first expect fails instead of passing.
beforeEach(() => { expect.hasAssertions() })

const fixtureDirs: Record<string, string> = { chat: 'providers/compat/codec/fixtures', messages: 'providers/beta/codec/fixtures', generate: 'providers/alpha/codec/fixtures' }
const root = fileURLToPath(new URL('../..', import.meta.url))

/** Streams in each vendor's real event format (ids, extra fields, pings, CRLF framing) decode to what they mean. */
describe.each(codecs.filter(codec => fixtureDirs[codec.format]))('recorded $format streams', (codec) => {
  const dir = root + fixtureDirs[codec.format]
  const names = readdirSync(dir).filter(name => name.endsWith('.sse'))
  it.each(names)('%s', (name) => {
    const expected = JSON.parse(readFileSync(`${dir}/${name.replace('.sse', '.expected.json')}`, 'utf8'))
    const text = readFileSync(`${dir}/${name}`, 'utf8')
    // Fed in awkward pieces, as a network delivers it.
    const parser = createSseParser()
    const decoder = codec.stream.createDecoder()
    const events: StreamEvent[] = []
    for (let i = 0; i < text.length; i += 37) for (const sse of parser.push(text.slice(i, i + 37))) events.push(...decoder.push(sse))
    for (const sse of parser.end()) events.push(...decoder.push(sse))
    events.push(...decoder.end())
    const projected = projectStream(events)
    expect(projected).toEqual({ text: expected.text, calls: expected.calls, finish: expected.finish })
    if (expected.usage) expect(events.find(e => e.type === 'finish')).toMatchObject({ usage: expected.usage })
    if (expected.thinking) expect(events.filter(e => e.type === 'thinking').map(e => (e as { delta: string }).delta).join('')).toBe(expected.thinking)
    if (expected.signature) expect(events.some(e => e.type === 'thinking' && e.signature === expected.signature)).toBe(true)
    expect(events[0]!.type).toBe('start')
  })
})
