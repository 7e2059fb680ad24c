/** One request as the access log reports it: no secret (keys by name or mask, credentials by id). */
export interface AccessEntry {
  time: string
  id: string
  method: string
  path: string
  status: number
  /** The client key's name (client-keys), else its mask; absent without a key. */
  key?: string
  model: string
  /** The model that served, when routing chose another. */
  servedModel?: string
  /** The upstream model name sent. */
  upstreamModel?: string
  family?: string
  credential?: string
  inputTokens?: number
  outputTokens?: number
  latencyMs: number
  error?: string
}

/** One JSON object per line, snake_case keys, absent fields left out (log collectors index them). */
export function jsonLine(entry: AccessEntry): string {
  return JSON.stringify({
    time: entry.time, level: entry.status >= 500 ? 'error' : entry.status >= 400 ? 'warn' : 'info', msg: 'request',
    request_id: entry.id, method: entry.method, path: entry.path, status: entry.status, key: entry.key, model: entry.model,
    served_model: entry.servedModel, upstream_model: entry.upstreamModel, family: entry.family, credential: entry.credential,
    input_tokens: entry.inputTokens, output_tokens: entry.outputTokens, latency_ms: entry.latencyMs, error: entry.error,
  })
}

/** `time status method path model[->served] family/credential key=… tokens=in/out 123ms id` for a terminal. */
export function textLine(entry: AccessEntry): string {
  const served = entry.servedModel && entry.servedModel !== entry.model ? `->${entry.servedModel}` : ''
  const route = entry.credential ? ` ${entry.family ?? '?'}/${entry.credential}${entry.upstreamModel ? `:${entry.upstreamModel}` : ''}` : ''
  const tokens = entry.inputTokens !== undefined || entry.outputTokens !== undefined ? ` tokens=${entry.inputTokens ?? 0}/${entry.outputTokens ?? 0}` : ''
  const error = entry.error ? ` error=${JSON.stringify(entry.error)}` : ''
  return `${entry.time} ${entry.status} ${entry.method} ${entry.path} ${entry.model || '-'}${served}${route} key=${entry.key ?? '-'}${tokens} ${entry.latencyMs}ms ${entry.id}${error}`
}
