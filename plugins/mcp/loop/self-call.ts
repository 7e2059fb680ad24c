import type { ProxyKernel } from 'model-proxy'
import { trustedClient } from 'model-proxy/kit/access'

/**
 * One turn of the tool loop sent through the proxy's own route for the client's format, in-process:
 * routing, translation to the upstream's format, limits, usage, recorder and traces all see it as the
 * client's request (under the client's key, already checked). The answer as the route gives it: a
 * stream is read as it comes (live-turn.ts); `signal` ends the turn when the client leaves.
 */
export function sendSelf(kernel: ProxyKernel, path: string, headers: Headers, body: Record<string, unknown>, key: string | undefined, signal?: AbortSignal): Promise<Response> {
  const sent = new Headers()
  for (const [name, value] of headers) {
    if (!name.startsWith('anthropic-') && !name.startsWith('openai-') && name !== 'user-agent' && name !== 'x-request-id') continue
    // The MCP feature flag is the proxy's to serve here; the upstream gets plain tool use.
    const kept = value.split(',').map(item => item.trim()).filter(item => !item.startsWith('mcp-client')).join(',')
    if (kept) sent.set(name, kept)
  }
  sent.set('content-type', 'application/json')
  const request = new Request(new URL(path, 'http://proxy.internal'), { method: 'POST', headers: sent, body: JSON.stringify(body), signal })
  trustedClient.set(request, key ?? true)
  return Promise.resolve(kernel.app.fetch(request))
}

/** A turn answered whole: its status and JSON. */
export async function callSelf(kernel: ProxyKernel, path: string, headers: Headers, body: Record<string, unknown>, key: string | undefined): Promise<{ status: number; json: Record<string, unknown> | undefined }> {
  const response = await sendSelf(kernel, path, headers, body, key)
  const text = await response.text()
  let json: Record<string, unknown> | undefined
  try {
    json = JSON.parse(text)
  } catch {}
  return { status: response.status, json }
}
