import { readFileSync } from 'node:fs'
import { request as httpRequest } from 'node:http'
import { join } from 'node:path'
import { clientCall, clientHeaders, type ClientFormat } from '../helpers/client-formats.ts'
import type { ReceivedSpan } from '../helpers/otlp-receiver.ts'

/** What one view says of one request, in common terms (absent: the view does not show it). */
export interface Seen { status?: number; input?: number; output?: number; cached?: number; cacheWrite?: number; reasoning?: number; estimated?: boolean; cost?: number }

export interface Sent { id: string; status: number; text: string }

/** One client request; `leave`: read until this text came, then drop the connection; `askUsage`: a chat client's include_usage; `abortAfterMs`: drop it then. */
export interface Sending { key: string; requestId: string; traceparent: string; leave?: string; askUsage?: boolean; abortAfterMs?: number }

export function send(proxyUrl: string, format: ClientFormat, model: string, stream: boolean, said: string, { key, requestId, traceparent, leave, askUsage, abortAfterMs }: Sending): Promise<Sent> {
  const { path, body } = clientCall(format, model, stream, said)
  if (askUsage !== undefined) body.stream_options = { include_usage: askUsage }
  return new Promise((resolve, reject) => {
    const req = httpRequest(new URL(path, proxyUrl), { method: 'POST', headers: { ...clientHeaders(key), traceparent, 'x-request-id': requestId } }, (res) => {
      let text = ''
      const id = String(res.headers['x-request-id'])
      res.setEncoding('utf8')
      res.on('data', (chunk) => {
        text += chunk
        if (leave && text.includes(leave)) {
          req.destroy()
          resolve({ id, status: res.statusCode!, text })
        }
      })
      res.on('end', () => resolve({ id, status: res.statusCode!, text }))
      res.on('error', () => {})
    })
    req.on('error', error => { if (!leave && !abortAfterMs) reject(error) })
    if (abortAfterMs) setTimeout(() => { req.destroy(); resolve({ id: requestId, status: 0, text: '' }) }, abortAfterMs)
    req.setTimeout(15_000, () => req.destroy(new Error('timed out')))
    req.end(JSON.stringify(body))
  })
}

/** One record of `/usage/export`. */
export const fromUsageRecord = (record: any): Seen => ({
  status: record.status, input: record.inputTokens, output: record.outputTokens, cached: record.cachedTokens, cacheWrite: record.cacheWriteTokens ?? 0,
  reasoning: record.reasoningTokens, estimated: record.estimated === true, cost: record.cost ?? 0,
})

/** The key's view: its recent requests, its tpm tokens this minute and its spend today. */
export const fromKeyView = (view: any): { recent: Seen[]; tpm: number; spent: number } => ({
  recent: view.recent.map((r: any) => ({ status: r.status, input: r.inputTokens, output: r.outputTokens, estimated: r.estimated === true, cost: r.costUsd })),
  tpm: view.usage.minute.tokens,
  spent: view.usage.spent_usd.day,
})

/** Seen values in a canonical order, costs to the billionth: lists compared as multisets. */
export const sortedSeen = (list: Seen[]) => list.map(seen => JSON.stringify([seen.status, seen.input, seen.output, seen.estimated, Math.round((seen.cost ?? 0) * 1e9)])).sort()

export const fromRecord = (record: any): Seen & { error?: string } => {
  const u = record.usage ?? {}
  return { status: record.status, error: record.error, input: u.inputTokens ?? 0, output: u.outputTokens ?? 0, cached: u.cachedInputTokens ?? 0, cacheWrite: u.cacheCreationInputTokens ?? 0, reasoning: u.reasoningTokens ?? 0, estimated: u.estimated === true, cost: record.cost ?? 0 }
}

export const fromAccessLine = (line: any): Seen => ({ status: line.status, input: line.input_tokens ?? 0, output: line.output_tokens ?? 0 })

export const fromSpan = (span: ReceivedSpan): Seen => {
  const a = span.attributes
  return {
    status: a['http.response.status_code'] as number, input: (a['gen_ai.usage.input_tokens'] ?? 0) as number, output: (a['gen_ai.usage.output_tokens'] ?? 0) as number,
    cached: (a['gen_ai.usage.cache_read.input_tokens'] ?? 0) as number, cacheWrite: (a['gen_ai.usage.cache_creation.input_tokens'] ?? 0) as number,
    reasoning: (a['proxy.usage.reasoning_tokens'] ?? 0) as number, estimated: a['proxy.usage.estimated'] === true,
  }
}

/** The main log's request line of `id`: its level and status. */
export function mainLogLine(dir: string, id: string): { level: string; status: number; error?: string } | undefined {
  let text = ''
  try { text = readFileSync(join(dir, 'main.log'), 'utf8') } catch { return undefined }
  const line = text.split('\n').find(line => line.includes(` ${id} model=`))
  const match = line && /\] (\w+): .* status=(\d+) [\d.]+ms(?: error=(.*))?$/.exec(line)
  return match ? { level: match[1]!, status: Number(match[2]), ...(match[3] && { error: match[3] }) } : undefined
}

/** One key's series in `/metrics`: its requests by status, input and output tokens, cost. */
export function keyMetrics(text: string, key: string): Seen & { requests: Record<string, number> } {
  const requests: Record<string, number> = {}
  const seen: Seen & { requests: Record<string, number> } = { requests, input: 0, output: 0, cost: 0 }
  for (const line of text.split('\n')) {
    if (!line.includes(`key="${key}"`)) continue
    const value = Number(line.slice(line.lastIndexOf(' ') + 1))
    const status = /^proxy_client_key_requests_total\{.*status="(\d+)"/.exec(line)
    if (status) requests[status[1]!] = (requests[status[1]!] ?? 0) + value
    const type = /^proxy_client_key_tokens_total\{.*type="(\w+)"/.exec(line)
    if (type?.[1] === 'input' || type?.[1] === 'output') seen[type[1]] = value
    if (line.startsWith('proxy_client_key_cost_usd_total{')) seen.cost = value
  }
  return seen
}

/** `proxy_tokens_total` by type and `proxy_requests_total` by status, summed over the other labels. */
export function metricTotals(text: string): { tokens: Record<string, number>; requests: Record<string, number>; retries: number } {
  const tokens: Record<string, number> = {}
  const requests: Record<string, number> = {}
  let retries = 0
  for (const line of text.split('\n')) {
    if (line.startsWith('proxy_upstream_retries_total{')) retries += Number(line.slice(line.lastIndexOf(' ') + 1))
    const token = /^proxy_tokens_total\{.*type="(\w+)".*\} ([\d.e+]+)$/.exec(line)
    if (token) tokens[token[1]!] = (tokens[token[1]!] ?? 0) + Number(token[2])
    const request = /^proxy_requests_total\{.*status="(\d+)".*\} ([\d.e+]+)$/.exec(line)
    if (request) requests[request[1]!] = (requests[request[1]!] ?? 0) + Number(request[2])
  }
  return { tokens, requests, retries }
}
