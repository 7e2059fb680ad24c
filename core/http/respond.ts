import { FastResponse } from 'srvx'

/** CORS headers of the spec's Versioning section: on every response, errors included. */
export const corsHeaders: Record<string, string> = {
  'access-control-allow-origin': '*',
  'access-control-allow-methods': 'GET, POST, PUT, PATCH, DELETE, OPTIONS',
  'access-control-allow-headers': '*',
}

const jsonType = { 'content-type': 'application/json' }

export function jsonResponse(body: unknown, status = 200, headers?: Record<string, string>): Response {
  // srvx's FastResponse: written straight to the Node socket, no web-stream body on the hot path.
  return new FastResponse(JSON.stringify(body), { status, headers: headers ? { ...jsonType, ...headers } : jsonType })
}

/** Response headers of an SSE stream (spec Events 1). */
export const sseHeaders: Record<string, string> = {
  'content-type': 'text/event-stream',
  'cache-control': 'no-cache',
  connection: 'keep-alive',
  'x-accel-buffering': 'no',
}
