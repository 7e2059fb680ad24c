import { describe, expect, it } from 'vitest'
import { parseDocument } from 'yaml'
import { keepUntouchedLines } from './keep-lines.ts'

const file = `# notes
port: 8317   # spaced comment
routing:
  strategy: round-robin
  rules:
    - { name: big, models: ["claude-*"], model: fast }
fallbacks:
  fast: ["mock-gpt",   "other"]
api-keys: [a, b]
`

/** An edit made on the parsed document, written back as the management API does. */
const edited = (text: string, edit: (doc: ReturnType<typeof parseDocument>) => void) => {
  const doc = parseDocument(text)
  edit(doc)
  return keepUntouchedLines(text, doc.toString())
}

describe('keepUntouchedLines', () => {
  it.each([
    ['a scalar', (doc: any) => doc.setIn(['routing', 'strategy'], 'fill-first'), ['  strategy: round-robin', '  strategy: fill-first']],
    ['a top-level scalar with its comment', (doc: any) => doc.setIn(['port'], 9000), ['port: 8317   # spaced comment', 'port: 9000 # spaced comment']],
  ])('%s: only its line changes', (_, edit, [from, to]) => {
    const out = edited(file, edit)
    expect(out).toBe(file.replace(from!, to!))
  })

  it('an added key: one new line, every other line byte for byte', () => {
    const out = edited(file, doc => doc.setIn(['debug'], true))
    expect(out).toBe(`${file}debug: true\n`)
  })

  it('a deleted entry: its line goes, the others stay', () => {
    const out = edited(file, doc => doc.deleteIn(['fallbacks']))
    expect(out).toBe(file.replace('fallbacks:\n  fast: ["mock-gpt",   "other"]\n', ''))
  })

  it('nothing changed: the file as it was', () => {
    expect(edited(file, () => {})).toBe(file)
  })

  it('lines that do not pair up (a reflowed multi-line value): the library\'s text', () => {
    const text = 'a: [1,\n  2]\nb: 1\n'
    const doc = parseDocument(text)
    doc.setIn(['b'], 2)
    expect(keepUntouchedLines(text, doc.toString())).toBe(doc.toString())
  })
})
