// Agent-sized request bodies for the bench, grown from a recorded Claude Code request
// (test/fixtures/clients/claude-code-tool-result.json): its prose placeholders (`<N chars>`) filled back to
// their recorded length, its tool list widened to a real session's 24 tools, and, for the history case,
// tool turns appended until the body reaches the size a working session passes.
import { randomBytes } from 'node:crypto'
import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { messagesCodec } from '../../../providers/beta/codec/index.ts'
import { chatCodec } from '../../../providers/compat/codec/index.ts'

const fixture = JSON.parse(readFileSync(fileURLToPath(new URL('../../fixtures/clients/claude-code-tool-result.json', import.meta.url)), 'utf8')) as {
  headers: Record<string, string>
  body: Record<string, unknown> & { tools: Array<Record<string, unknown>>; messages: unknown[] }
}

// Code-like filler: what agents really carry (source files, diffs, shell output), not one repeated byte.
const words = ['const', 'value', 'return', 'await', 'request', 'function', 'import', 'export', 'if', '(x)', '{', '}', '=>', 'model', 'stream', 'tokens', '\n  ', '// why', 'path', 'error']
function filler(length: number, seed: number): string {
  let out = ''
  let state = seed
  while (out.length < length) {
    state = (state * 1103515245 + 12345) & 0x7fffffff
    out += `${words[state % words.length]} `
  }
  return out.slice(0, length)
}

function expand(value: unknown, seed = { n: 1 }): unknown {
  if (typeof value === 'string') {
    const match = /^<(\d+) chars>$/.exec(value)
    return match ? filler(Number(match[1]), seed.n++) : value.replace('<nonce>', 'bench')
  }
  if (Array.isArray(value)) return value.map(item => expand(item, seed))
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, expand(v, seed)]))
  return value
}

/** A tool turn as Claude Code appends it: the model reads a file, the result comes back. */
function toolTurn(i: number, resultChars: number) {
  const id = `toolu_bench${String(i).padStart(6, '0')}`
  return [
    { role: 'assistant', content: [{ type: 'text', text: filler(200, 1000 + i) }, { type: 'tool_use', id, name: 'Read', input: { file_path: `/work/src/file-${i}.ts` } }] },
    { role: 'user', content: [{ type: 'tool_result', tool_use_id: id, content: filler(resultChars, 2000 + i) }] },
  ]
}

/**
 * A messages request of about `kb` KB: the recorded Claude Code request with 24 tools, plus tool turns
 * until the size is reached. `model` picks the family the bench proxy routes it to.
 */
export function agentBody(kb: number, model: string): Record<string, unknown> {
  const base = expand(fixture.body) as typeof fixture.body
  const tools = [...base.tools]
  for (let i = 0; tools.length < 24; i++) tools.push({ ...base.tools[i % base.tools.length]!, name: `${String(base.tools[i % base.tools.length]!.name)}_${i}` })
  const body = { ...base, model, tools, stream: true }
  const messages = [...base.messages]
  for (let i = 0; JSON.stringify({ ...body, messages }).length < kb * 1024; i++) messages.push(...toolTurn(i, 3000))
  // Keep the conversation ending on a user turn, as a client sends it.
  return { ...body, messages }
}

/** A 1.1 MB PNG's worth of base64 (1.5 MB of JSON), made once: what a pasted screenshot weighs. */
let screenshotData: string | undefined

/**
 * The agent body with a screenshot pasted into its first user message, as Claude Code sends an image the
 * user pasted: an image block before the text, sent again with the whole history every turn.
 */
export function withScreenshot(body: Record<string, unknown>): Record<string, unknown> {
  screenshotData ??= randomBytes(1_100_000).toString('base64')
  const image = { type: 'image', source: { type: 'base64', media_type: 'image/png', data: screenshotData } }
  const [first, ...rest] = body.messages as Array<{ role: string; content: unknown }>
  const content = typeof first!.content === 'string' ? [{ type: 'text', text: first!.content }] : first!.content as unknown[]
  return { ...body, messages: [{ ...first, content: [image, ...content] }, ...rest] }
}

/**
 * The same agent request as a chat-completions client sends it (opencode, qwen-code and the OpenAI SDK
 * speak chat): the messages body through the proxy's own codecs, messages -> canonical -> chat.
 */
export function chatAgentBody(kb: number, model: string): Record<string, unknown> {
  return { ...chatCodec.request.encode(messagesCodec.request.decode(agentBody(kb, model))), model, stream: true }
}

/** The headers the recorded Claude Code sends, with the bench's key. */
export const agentHeaders = (): Record<string, string> => {
  const { authorization: _key, 'content-type': _type, ...rest } = fixture.headers
  return { ...rest, accept: 'text/event-stream' }
}
