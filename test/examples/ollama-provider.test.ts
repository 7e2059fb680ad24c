import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createServer, type Server } from 'node:http'
import { cpSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import OpenAI from 'openai'
import Anthropic from '@anthropic-ai/sdk'
import { GoogleGenAI } from '@google/genai'
import { runCli, type CliProcess } from '../helpers/spawn-cli.ts'

const example = fileURLToPath(new URL('../../examples/ollama-provider', import.meta.url))

/** A scripted Ollama: `/api/chat` answers "Hello there" as NDJSON lines (or one JSON), after some thinking. */
function startOllama(): Promise<{ server: Server; url: string; bodies: Array<Record<string, unknown>> }> {
  const bodies: Array<Record<string, unknown>> = []
  const line = (fields: Record<string, unknown>) => `${JSON.stringify({ model: 'llama3.2', created_at: '2026-01-01T00:00:00Z', ...fields })}\n`
  const server = createServer((req, res) => {
    let text = ''
    req.on('data', chunk => { text += chunk })
    req.on('end', async () => {
      if (req.url !== '/api/chat') { res.writeHead(404).end('{"error":"not found"}'); return }
      const body = JSON.parse(text)
      bodies.push(body)
      if (body.stream === false) {
        res.writeHead(200, { 'content-type': 'application/json' })
        res.end(JSON.stringify({ model: 'llama3.2', created_at: '2026-01-01T00:00:00Z', message: { role: 'assistant', content: 'Hello there', thinking: 'greet them' }, done: true, done_reason: 'stop', prompt_eval_count: 7, eval_count: 3 }))
        return
      }
      res.writeHead(200, { 'content-type': 'application/x-ndjson' })
      if (JSON.stringify(body.messages).includes('crash')) {
        res.end(line({ message: { role: 'assistant', content: 'Hel' }, done: false }) + '{"error":"model runner crashed"}\n')
        return
      }
      // Lines split across writes, and two lines in one write: the codec's framing has to cut them.
      const lines = [
        line({ message: { role: 'assistant', content: '', thinking: 'greet them' }, done: false }),
        line({ message: { role: 'assistant', content: 'Hello' }, done: false }),
        line({ message: { role: 'assistant', content: ' there' }, done: false }),
        line({ message: { role: 'assistant', content: '' }, done: true, done_reason: 'stop', prompt_eval_count: 7, eval_count: 3 }),
      ]
      res.write(lines[0]!.slice(0, 20))
      await new Promise(resolve => setTimeout(resolve, 20))
      res.write(lines[0]!.slice(20) + lines[1]!.slice(0, 30))
      await new Promise(resolve => setTimeout(resolve, 20))
      res.write(lines[1]!.slice(30) + lines[2])
      res.end(lines[3])
    })
  })
  return new Promise(resolve => server.listen(0, '127.0.0.1', () => {
    const { port } = server.address() as { port: number }
    resolve({ server, url: `http://127.0.0.1:${port}`, bodies })
  }))
}

let ollama: Awaited<ReturnType<typeof startOllama>>
let dir: string
let cli: CliProcess
let base: string
beforeAll(async () => {
  ollama = await startOllama()
  // A project outside the repo, as a plugin author has it: the example copied next to a proxy.config.ts.
  dir = mkdtempSync(join(tmpdir(), 'proxy-ollama-'))
  cpSync(example, join(dir, 'ollama-provider'), { recursive: true })
  writeFileSync(join(dir, 'proxy.config.ts'), [
    "import { defineProxyConfig } from 'model-proxy'",
    "export default defineProxyConfig({ config: './config.yaml', plugins: ['./ollama-provider/index.ts'], storage: { driver: 'memory' } })",
    '',
  ].join('\n'))
  writeFileSync(join(dir, 'config.yaml'), [
    'host: 127.0.0.1', 'api-keys: [k]',
    `ollama: [{ name: local, base-url: '${ollama.url}', models: [{ name: llama3.2, alias: llama } ] }]`, '',
  ].join('\n'))
  cli = runCli(['start', '--port', '0'], dir)
  base = await cli.url
}, 60_000)
afterAll(async () => {
  await cli?.kill('SIGKILL')
  await new Promise(resolve => ollama.server.close(resolve))
  rmSync(dir, { recursive: true, force: true })
})

const openai = () => new OpenAI({ baseURL: `${base}/v1`, apiKey: 'k', maxRetries: 0 })
const anthropic = () => new Anthropic({ baseURL: base, apiKey: 'k', maxRetries: 0 })
const genai = () => new GoogleGenAI({ apiKey: 'k', httpOptions: { baseUrl: base } })
const user = 'Say hello'

describe('example: Ollama provider plugin (NDJSON upstream) from a project outside the repo', () => {
  it('chat completions: stream and not', async () => {
    const answer = await openai().chat.completions.create({ model: 'llama', max_tokens: 50, messages: [{ role: 'system', content: 'Be brief' }, { role: 'user', content: user }] })
    expect(answer.choices[0]!.message.content).toBe('Hello there')
    expect(answer.usage).toMatchObject({ prompt_tokens: 7, completion_tokens: 3 })
    // The codec encoded the canonical request into Ollama's own body.
    expect(ollama.bodies.at(-1)).toMatchObject({ model: 'llama3.2', stream: false, options: { num_predict: 50 }, messages: [{ role: 'system', content: 'Be brief' }, { role: 'user', content: user }] })

    let text = ''
    let finish: string | null = null
    for await (const chunk of await openai().chat.completions.create({ model: 'llama', stream: true, messages: [{ role: 'user', content: user }] })) {
      text += chunk.choices[0]?.delta.content ?? ''
      finish = chunk.choices[0]?.finish_reason ?? finish
    }
    expect(text).toBe('Hello there')
    expect(finish).toBe('stop')
    expect(ollama.bodies.at(-1)).toMatchObject({ stream: true })
  })

  it('responses: stream and not', async () => {
    const answer = await openai().responses.create({ model: 'llama', input: user })
    expect(answer.output_text).toBe('Hello there')
    let text = ''
    let completed = false
    for await (const event of await openai().responses.create({ model: 'llama', input: user, stream: true })) {
      if (event.type === 'response.output_text.delta') text += event.delta
      if (event.type === 'response.completed') completed = true
    }
    expect(text).toBe('Hello there')
    expect(completed).toBe(true)
  })

  it('messages: stream and not, thinking shown both ways', async () => {
    const answer = await anthropic().messages.create({ model: 'llama', max_tokens: 100, messages: [{ role: 'user', content: user }] })
    expect(answer.content.flatMap(block => block.type === 'text' ? [block.text] : [])).toEqual(['Hello there'])
    // Ollama's thinking reaches a messages client whole too (issue 21), with the proxy's origin-tagged signature slot.
    expect(answer.content.flatMap(block => block.type === 'thinking' ? [block.thinking] : [])).toEqual(['greet them'])
    expect(answer.usage).toMatchObject({ input_tokens: 7, output_tokens: 3 })
    const stream = anthropic().messages.stream({ model: 'llama', max_tokens: 100, messages: [{ role: 'user', content: user }] })
    let thinking = ''
    stream.on('thinking', delta => { thinking += delta })
    const final = await stream.finalMessage()
    expect(final.content.flatMap(block => block.type === 'text' ? [block.text] : [])).toEqual(['Hello there'])
    expect(thinking).toBe('greet them')
    expect(final.stop_reason).toBe('end_turn')
  })

  it('generateContent: stream and not', async () => {
    const answer = await genai().models.generateContent({ model: 'llama', contents: user })
    expect(answer.text).toBe('Hello there')
    expect(answer.usageMetadata).toMatchObject({ promptTokenCount: 7, candidatesTokenCount: 3 })
    let text = ''
    for await (const chunk of await genai().models.generateContentStream({ model: 'llama', contents: user })) text += chunk.text ?? ''
    expect(text).toBe('Hello there')
  })

  it('an error line mid-stream reaches the client as an error in its own format', async () => {
    const response = await fetch(`${base}/v1/messages`, {
      method: 'POST', headers: { 'x-api-key': 'k', 'content-type': 'application/json', 'anthropic-version': '2023-06-01' },
      body: JSON.stringify({ model: 'llama', max_tokens: 10, stream: true, messages: [{ role: 'user', content: 'crash' }] }),
    })
    const text = await response.text()
    expect(text).toContain('"text_delta"')
    expect(text).toMatch(/event: error\ndata: .*model runner crashed/)
  })
})
