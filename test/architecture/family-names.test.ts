import { describe, expect, it } from 'vitest'
import { readFileSync, readdirSync, statSync } from 'node:fs'
import { join, relative } from 'node:path'
import { fileURLToPath } from 'node:url'
import { stripComments, wordsOf } from './family-names.ts'

const root = fileURLToPath(new URL('../..', import.meta.url))

/**
 * The families of the spec, and the words of its vendor config keys (`alpha-api-key` ... `compat-provider`
 * split into words: their family word is what would name a family).
 */
const familyWords = new Set(['alpha', 'beta', 'gamma', 'delta', 'compat', 'partner'])

/**
 * Occurrences the spec forces, each with why. Kept narrow: a file and a word, nothing broader.
 * - `delta` in the canonical stream events: the spec's chat chunk calls an incremental piece `delta`
 *   ("`delta` (incremental message fields)") and DESIGN.md's canonical `StreamEvent` takes that word for
 *   text, thinking and tool-argument pieces (`tool_call_delta`). It is the word, not the family.
 */
const allowed: Array<{ file: string; word: string }> = [
  { file: 'core/canonical/types.ts', word: 'delta' },
  // The same canonical stream events, read where tool calls are sequenced and signed thinking collected.
  { file: 'core/canonical/tool-call-order.ts', word: 'delta' },
  { file: 'core/pipeline/signature-store.ts', word: 'delta' },
  // A translated stream counts the characters of the canonical pieces it gave the client (an estimate's basis).
  { file: 'core/pipeline/stream-transform.ts', word: 'delta' },
  // A same-format stream counts the same, from the events its decoder reads.
  { file: 'core/pipeline/usage-tap.ts', word: 'delta' },
  // Stream chunks read as the canonical event with another `delta` (the event's own field).
  { file: 'core/canonical/chunk-template.ts', word: 'delta' },
  // The panel's chat page reads the client formats' stream events, whose incremental field is `delta` in each spec.
  { file: 'panel/src/chat-formats.ts', word: 'delta' },
  // The MCP tool loop writes the responses and messages stream events, whose incremental field is `delta` in each spec.
  { file: 'plugins/mcp/loop/live-responses.ts', word: 'delta' },
  { file: 'plugins/mcp/loop/live-messages.ts', word: 'delta' },
]

const walk = (dir: string): string[] => readdirSync(dir).flatMap((name) => {
  const path = join(dir, name)
  return statSync(path).isDirectory() ? walk(path) : [path]
})

/** Product code only: the `*.test.ts` files next to it drive the built-in families as data. */
const sources = ['core', 'plugins', 'panel/src'].flatMap(folder => walk(join(root, folder)))
  .filter(path => /\.(ts|tsx|mjs|js|css)$/.test(path) && !path.endsWith('.test.ts'))

describe('no family is named in core/, plugins/ or panel/src (outside comments)', () => {
  it('the scanner sees names in identifiers, strings and keys, and skips comments', () => {
    expect(wordsOf(stripComments(`const compatProviderSchema = 1 // alpha\n/* beta */ x['gamma-api-key'] = "//delta"`))).toEqual(['const', 'compat', 'provider', 'schema', '1', 'x', 'gamma', 'api', 'key', 'delta'])
    // The spec's `/v1beta` path segment is one word, not the family.
    expect(wordsOf('/v1beta/models')).toEqual(['v1beta', 'models'])
  })

  it('finds none', () => {
    expect(sources.length).toBeGreaterThan(100)
    const hits: string[] = []
    for (const path of sources) {
      const file = relative(root, path)
      stripComments(readFileSync(path, 'utf8')).split('\n').forEach((line, index) => {
        for (const word of new Set(wordsOf(line))) {
          if (!familyWords.has(word) || allowed.some(entry => entry.file === file && entry.word === word)) continue
          hits.push(`${file}:${index + 1}: ${word}: ${line.trim().slice(0, 120)}`)
        }
      })
    }
    expect(hits).toEqual([])
  })
})
