import fc from 'fast-check'
import { formatOfPath, type ErrorFormat } from './error-formats.ts'
import { flawed } from './bad-bytes.ts'

/**
 * Malformed requests as raw bytes: bad JSON, wrong content types, huge headers, truncated and cut-off
 * chunked bodies, invalid UTF-8, wrong methods, absurd paths, bytes that are not HTTP, bodies nested
 * tens of thousands deep, and management calls with junk bodies. Each says which error formats an
 * answer may come in (the path's own; the generic one where the HTTP parser itself refuses the bytes).
 */
export interface MalformedRequest { bytes: Buffer; hangUp: boolean; formats: ErrorFormat[]; label: string }

/** Seeded PRNG (mulberry32): the same run every time. */
export function random(seed: number) {
  return () => {
    seed = (seed + 0x6D2B79F5) | 0
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed)
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

export const clientKey = 'k'
export const managementKey = 'fuzz-management-key'

const paths = ['/api/provider/compat/v1/chat/completions', '/api/provider/beta/v1/messages', '/api/provider/alpha/v1beta/models/m:generateContent', '/v1/chat/completions', '/v1/completions', '/v1/messages', '/v1/messages/count_tokens', '/v1/responses', '/v1/responses/compact', '/v1beta/models/m:generateContent', '/v1beta/models/m:streamGenerateContent', '/v1beta/models/m:countTokens', '/v1/models', '/v0/management/config', '/healthz']
const absurdPaths = ['/v1beta/models/%zz:generateContent', '/v1beta/models/%E0%A4%A:generateContent', '/v1beta/models/%:countTokens', '/v1/chat/completions/../../../etc/passwd', '//v1//chat///completions', `/v1/${'a'.repeat(9000)}`, '/v1beta/models/:generateContent', '/v1beta/models/m:', '/%00', '/v1/chat/completions?%zz=%zz&&&=', '/v1beta/models/m:generateContent?alt=%zz', '*', '/\u00e9\u00e8', '/v1/ws', '/v1beta/models/%2F..%2F:generateContent', '/v0/management/%zz', '/v0/management/../../v1/models', '/api/provider/%zz/v1/messages']
const methods = ['GET', 'PUT', 'DELETE', 'PATCH', 'HEAD', 'BREW', 'TRACE', 'CONNECT', 'post']
/** Management calls that a junk body cannot turn into a write that changes the run (no api-keys edits). */
const managementCalls: Array<[string, string]> = [
  ['PUT', '/debug'], ['PATCH', '/request-retry'], ['PUT', '/max-retry-interval'], ['PUT', '/routing/strategy'], ['PUT', '/proxy-url'],
  ['PUT', '/logs-max-total-size-mb'], ['PUT', '/compat-provider'], ['PATCH', '/compat-provider'], ['PATCH', '/gamma-api-key'], ['PUT', '/alpha-api-key'],
  ['POST', '/api-call'], ['POST', '/usage/import'], ['POST', '/credentials/block'], ['POST', '/credentials/reset-cooldown'], ['POST', '/oauth-callback'],
  ['POST', '/auth-files'], ['PUT', '/config.yaml'], ['GET', '/request-error-logs/%zz'], ['GET', '/request-log-by-id/..%2F..%2Fetc%2Fpasswd'],
  ['GET', '/no-such-route'], ['DELETE', '/api-keys?index=%zz'], ['DELETE', '/compat-provider?index=99'], ['GET', '/logs?after=abc&limit=-1'],
  ['DELETE', '/auth-files?name=..%2F..%2Fetc%2Fpasswd'], ['GET', '/usage/export?format=%zz'], ['PATCH', '/config.yaml'],
]

/** Well-formed bodies of each format, each with one bad thing in a key or value (bad-bytes.ts): sampled once, seeded. */
const flawedBodies = fc.sample(flawed([
  { model: 'm', max_tokens: 5, messages: [{ role: 'user', content: [{ type: 'text', text: 'x' }] }, { role: 'assistant', content: 'y' }], tools: [{ type: 'function', function: { name: 'f', parameters: { type: 'object' } } }] },
  { model: 'm', max_tokens: 5, system: 's', messages: [{ role: 'user', content: [{ type: 'tool_result', tool_use_id: 't', content: 'r' }] }] },
  { model: 'm', input: [{ type: 'message', role: 'user', content: [{ type: 'input_text', text: 'x' }] }] },
  { contents: [{ role: 'user', parts: [{ text: 'x' }] }], generationConfig: { maxOutputTokens: 5 } },
]), { seed: 38, numRuns: 2000 })
/** YAML documents that are not a config mapping: a write of one must be refused and change nothing. */
const notMappings = [':::', '- a\n- b\n', 'just text', '42', '', '~', '[1, 2]', '"quoted"', '--- !!binary aGk=', 'port: 99999999', 'routing: { rules: [{ when: { model: x }, to: y }] }', 'api-keys: 7']

/** JSON nested `depth` deep, in one of a few shapes. */
function nested(depth: number, shape: number): string {
  if (shape === 0) return '['.repeat(depth) + ']'.repeat(depth)
  if (shape === 1) return '{"a":'.repeat(depth) + '1' + '}'.repeat(depth)
  if (shape === 2) return '[{"x":'.repeat(depth) + '0' + '}]'.repeat(depth)
  return '['.repeat(depth) // never closed
}

export function malformed(rand: () => number): MalformedRequest {
  const pick = <T>(list: T[]) => list[Math.floor(rand() * list.length)]!
  const path = pick(paths)
  const head = `host: 127.0.0.1\r\nauthorization: Bearer ${clientKey}\r\nx-management-key: ${managementKey}\r\n`
  const raw = (text: string, body: Buffer | string = '') => Buffer.concat([Buffer.from(text, 'latin1'), Buffer.isBuffer(body) ? body : Buffer.from(body)])
  const withBody = (body: Buffer | string, type = 'application/json', method = 'POST', target = path) => raw(`${method} ${target} HTTP/1.1\r\n${head}content-type: ${type}\r\ncontent-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n`, body)
  const answer = (label: string, bytes: Buffer, target = path): MalformedRequest => ({ bytes, hangUp: false, formats: [formatOfPath(target)], label })
  const deep = () => nested(pick([200, 250, 300, 1000, 5000, 20_000, 100_000]), Math.floor(rand() * 4))
  switch (Math.floor(rand() * 17)) {
    case 14:
    case 15:
    case 16: {
      const body = pick(flawedBodies)
      return answer(`flawed body (${body.flaw})`, withBody(body.bytes))
    }
    case 0: return answer('bad json', withBody(pick(['{', '{"model":', '[1,2', '{"model":"m","messages":[{"role":"user","content":"x"}]', 'null', '"str"', '{"model":"m","messages":{}}', '{"model":1e999}', '\u0000\u0001', '{"__proto__":{"model":"m"},"constructor":{"prototype":{"x":1}}}'])))
    case 1: return answer('content type', withBody('{"model":"m","messages":[{"role":"user","content":"x"}]}', pick(['text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x', '', 'application/json; charset=utf-16', ';;;'])))
    case 2: return { label: 'huge header', bytes: raw(`POST ${path} HTTP/1.1\r\n${head}x-huge: ${'h'.repeat(8_000 + Math.floor(rand() * 40_000))}\r\ncontent-length: 2\r\nconnection: close\r\n\r\n{}`), hangUp: false, formats: [formatOfPath(path), 'generic'] }
    case 3: return { label: 'truncated body', bytes: raw(`POST ${path} HTTP/1.1\r\n${head}content-type: application/json\r\ncontent-length: ${100 + Math.floor(rand() * 10_000)}\r\n\r\n`, '{"model":"m","messages":[{"ro'), hangUp: true, formats: [] }
    case 4: {
      const bad = Buffer.from([0x7b, 0x22, 0x6d, 0x6f, 0x64, 0x65, 0x6c, 0x22, 0x3a, 0x22, 0xff, 0xfe, 0xc3, 0x28, 0x22, 0x7d])
      if (rand() < 0.5) return answer('invalid utf-8 body', withBody(bad))
      return { label: 'invalid utf-8 path', bytes: raw(`POST /v1beta/models/\xff\xfe:generateContent HTTP/1.1\r\n${head}content-length: 2\r\nconnection: close\r\n\r\n{}`), hangUp: false, formats: ['generate', 'generic'] }
    }
    case 5: return answer('method', withBody('{}', 'application/json', pick(methods)))
    case 6: {
      const target = pick(absurdPaths)
      return { label: 'absurd path', bytes: withBody('{"model":"m","contents":[]}', 'application/json', pick(['POST', 'GET']), target), hangUp: false, formats: [formatOfPath(target), formatOfPath(new URL(target, 'http://x').pathname), 'generic'] }
    }
    case 7: return { label: 'cut chunked body', bytes: raw(`POST ${path} HTTP/1.1\r\n${head}content-type: application/json\r\ntransfer-encoding: chunked\r\n\r\n`, pick(['10\r\n{"model":"m","me\r\n', 'zz\r\n', '5\r\n{"a":', 'ffffffffff\r\n{'])), hangUp: true, formats: [] }
    case 8: return { label: 'not http', bytes: Buffer.from(pick(['GARBAGE\r\n\r\n', '\x16\x03\x01\x02\x00\x01\x00\x01\xfc\x03\x03\r\n\r\n', 'GET / HTTP/9.9\r\n\r\n', 'POST /v1/chat/completions HTTP/1.1\r\ncontent-length: -1\r\n\r\n', 'POST /v1/chat/completions HTTP/1.1\r\ncontent-length: 1\r\ncontent-length: 2\r\n\r\n{}', 'GET /healthz HTTP/1.1\r\nhost: x\r\nbad header line\r\n\r\n']), 'latin1'), hangUp: false, formats: ['generic', 'openai'] }
    case 9:
    case 10: {
      // Nesting where each format keeps its content, its tools, its config; or the whole body.
      const d = deep()
      const body = pick([
        `{"model":"m","messages":[{"role":"user","content":${d}}]}`,
        `{"model":"m","messages":[{"role":"user","content":"x"}],"tools":[{"type":"function","function":{"name":"f","parameters":${d}}}],"input":${d}}`,
        `{"model":"m","max_tokens":5,"messages":[{"role":"user","content":[{"type":"tool_result","tool_use_id":"t","content":${d}}]}],"metadata":${d}}`,
        `{"contents":[{"role":"user","parts":[{"text":"x"},{"functionResponse":{"name":"f","response":${d}}}]}],"generationConfig":${d}}`,
        `{"model":"m","prompt":${d},"input":[{"type":"message","role":"user","content":${d}}]}`,
        d,
      ])
      return answer('deep json', withBody(body))
    }
    case 11:
    case 12: {
      const [method, route] = pick(managementCalls)
      const target = `/v0/management${route}`
      const body = route === '/config.yaml'
        ? pick([...notMappings, nested(pick([1000, 20_000]), Math.floor(rand() * 4)), '{a: '.repeat(5000), `a:\n${Array.from({ length: 3000 }, (_, i) => `${' '.repeat(i + 1)}a:`).join('\n')}`, '- - - - - - -\n  x: [', 'port: [1, 2', '\t\u0000'])
        : pick(['{', 'null', '[1]', '{"value":null}', '{"value":{"a":[1,{"b":2}]}}', '{"value":1e999}', `{"value":${deep()}}`, deep(), '{"__proto__":{"x":1}}', '{"index":"0","value":{}}', '{"value":[1,2,3]}', '{"index":1e999,"value":{"api-key":null}}', '{"name":{"$ne":1}}', '"just a string"', '{"value":"\u0000"}'])
      return answer(`management ${method} ${route}`, withBody(body, route === '/config.yaml' ? 'application/yaml' : 'application/json', method, target), target)
    }
    default: return answer('stream flag', withBody(`{"model":"m","messages":[{"role":"user","content":${JSON.stringify('x'.repeat(Math.floor(rand() * 2000)))}}],"stream":"yes"}`))
  }
}
