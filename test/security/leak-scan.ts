import { randomBytes } from 'node:crypto'
import { appendFileSync, existsSync, readdirSync, readFileSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { createConsola } from 'consola'

/**
 * Shared by the secrets probes (secrets-*.test.ts): planted secrets, the forms a leak can take, the
 * surfaces seen, and upstreams that echo the credentials they were sent.
 */

/** A secret with characters that URL-encoding changes, so an encoded leak differs from a plain one. */
export const plant = (label: string) => `${label}-${randomBytes(9).toString('hex')}/${randomBytes(6).toString('base64url')}+${randomBytes(6).toString('hex')}`

/** Every 12-character piece of `text` (all of it when shorter). */
const pieces = (text: string, size = 12) => text.length <= size ? [text] : Array.from({ length: text.length - size + 1 }, (_, i) => text.slice(i, i + size))

/**
 * The needles a leak of `secret` can show as: any 12-character piece of it, of its URL-encoded form, and
 * of its base64 / base64url forms (each of the three alignments, the padding-bound tail left out).
 */
export function needles(secret: string): string[] {
  const out = new Set(pieces(secret))
  const encoded = encodeURIComponent(secret)
  if (encoded !== secret) for (const piece of pieces(encoded)) out.add(piece)
  for (let shift = 0; shift < 3; shift++) {
    const bytes = Buffer.from(secret.slice(shift))
    for (const form of [bytes.toString('base64'), bytes.toString('base64url')]) for (const piece of pieces(form.slice(0, -4), 16)) out.add(piece)
  }
  return [...out]
}

/** Where a secret shows in `text`, with some context, or undefined. */
export function leakOf(text: string, secret: string, forms = needles(secret)): string | undefined {
  for (const needle of forms) {
    const at = text.indexOf(needle)
    if (at !== -1) return text.slice(Math.max(0, at - 80), at + 80)
  }
  return undefined
}

export interface Seen { where: string; text: string }

/** Every place `secrets` show in `surfaces`, except a pair `allowed` says is by design. */
export function scan(surfaces: Seen[], secrets: Record<string, string>, allowed: (where: string, name: string) => boolean = () => false): string[] {
  const found: string[] = []
  const forms = Object.fromEntries(Object.entries(secrets).map(([name, secret]) => [name, needles(secret)]))
  for (const { where, text } of surfaces) {
    for (const [name, secret] of Object.entries(secrets)) {
      if (allowed(where, name)) continue
      const context = leakOf(text, secret, forms[name])
      if (context) found.push(`${name} in ${where}: …${context}…`)
    }
  }
  // LEAK_DUMP=<file>: every finding written out in full (an assertion diff cuts them short).
  if (process.env.LEAK_DUMP && found.length) appendFileSync(process.env.LEAK_DUMP, `${found.join('\n')}\n`)
  return found
}

export function filesUnder(dir: string): string[] {
  if (!existsSync(dir)) return []
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name)
    return statSync(path).isDirectory() ? filesUnder(path) : [path]
  })
}
export const fileSurfaces = (dir: string): Seen[] => filesUnder(dir).map(path => ({ where: path, text: readFileSync(path, 'utf8') }))

/** A logger that prints nowhere and keeps every line (what stdout/stderr would show). */
export function capturingLogger(lines: string[]) {
  return createConsola({ level: 5, reporters: [{ log: (entry) => { lines.push(entry.args.map(arg => arg instanceof Error ? `${arg.message} ${arg.stack} ${String((arg as { cause?: unknown }).cause ?? '')}` : typeof arg === 'string' ? arg : JSON.stringify(arg)).join(' ')) } }] })
}

/** A fetch that keeps every response (headers and body) as a surface. */
export function recordingFetch(base: string, seen: Seen[]) {
  return async (path: string, init: RequestInit = {}) => {
    const response = await fetch(`${base}${path}`, { redirect: 'manual', ...init, signal: init.signal ?? AbortSignal.timeout(20_000) })
    const body = await response.text()
    seen.push({ where: `${init.method ?? 'GET'} ${path.split('?')[0]} (${response.status})`, text: `${[...response.headers].map(([k, v]) => `${k}: ${v}`).join('\n')}\n${body}` })
    return { status: response.status, body }
  }
}

/** Whatever credential a request carried, in every header and query form a family uses. */
export function credentialsIn(request: Request): string {
  const url = new URL(request.url)
  return ['authorization', 'x-api-key', 'x-goog-api-key', 'x-org-token'].map(name => request.headers.get(name) ?? '').concat(url.searchParams.get('key') ?? '').filter(Boolean).join(' ')
}

/** The words in a prompt that make an echoing upstream misbehave. */
export type Echo = 'echo-401' | 'echo-200' | 'echo-header' | 'echo-redirect' | 'echo-stream-error'
export const echoes: Echo[] = ['echo-401', 'echo-200', 'echo-header', 'echo-redirect', 'echo-stream-error']

/**
 * `said` quoting `credentials` raw, URL-encoded and (`base64`) base64-encoded. A 200 stream is masked as
 * text spells a key (raw, URL-encoded, JSON-escaped): base64 runs would cost a search each on every event
 * of every stream (docs/security.md), so a stream's echo quotes none.
 */
const quoted = (credentials: string, base64 = true) => {
  const raw = credentials.replace(/^Bearer /, '')
  return `${credentials} ${encodeURIComponent(raw)}${base64 ? ` ${Buffer.from(raw).toString('base64')}` : ''}`
}

/**
 * Wraps a family mock: a prompt holding an `Echo` word gets an answer that quotes the credentials the
 * upstream was sent (in an error body, a 200 answer's text, a header, a redirect or a stream's error event).
 */
export function echoing(handler: (request: Request) => Promise<Response> | Response, streamError: (said: string) => string) {
  return async (request: Request): Promise<Response> => {
    const body = await request.clone().text()
    const echo = echoes.find(word => body.includes(word))
    if (!echo) return handler(request)
    const stream = echo === 'echo-stream-error' || (echo === 'echo-200' && /"stream"\s*:\s*true|streamGenerateContent|alt=sse/.test(`${body} ${request.url}`))
    const said = quoted(credentialsIn(request), !stream)
    const error = { error: { code: 401, type: 'authentication_error', status: 'UNAUTHENTICATED', message: `invalid credential ${said}` }, type: 'error' }
    switch (echo) {
      case 'echo-401': return Response.json(error, { status: 401, headers: { 'www-authenticate': `Bearer realm="api", error="invalid_token", key="${said}"` } })
      case 'echo-header': {
        const answer = await handler(new Request(request.url, { method: 'POST', headers: request.headers, body: body.replace(echo, 'hi') }))
        const headers = new Headers(answer.headers)
        headers.set('x-debug-credential', said.replaceAll(/[^\x20-\x7e]/g, ''))
        headers.set('set-cookie', `session=${encodeURIComponent(said)}`)
        return new Response(answer.body, { status: answer.status, headers })
      }
      case 'echo-redirect': return new Response(null, { status: 307, headers: { location: `https://elsewhere.example/login?key=${encodeURIComponent(said)}` } })
      case 'echo-200': return handler(new Request(request.url, { method: 'POST', headers: request.headers, body: body.replace(echo, `your key is ${said}`) }))
      case 'echo-stream-error': return new Response(streamError(said), { status: 200, headers: { 'content-type': 'text/event-stream' } })
    }
  }
}
