import { readKey } from './session.ts'

/** Every management call goes under this path, on the origin that served the panel. */
export const base = '/v0/management'

/** A failed call, with a message meant for the operator (method, path, status and the server's reason). */
export class ApiError extends Error {
  constructor(message: string, readonly status: number, readonly body?: unknown) {
    super(message)
    this.name = 'ApiError'
  }
}

/** The server's own words from a management error body (`{error, message?}`), else the raw text. */
export function reasonOf(body: unknown, text: string): string {
  if (body && typeof body === 'object') {
    const { error, message } = body as { error?: unknown; message?: unknown }
    const head = typeof error === 'string' ? error : typeof (error as { message?: unknown })?.message === 'string' ? (error as { message: string }).message : ''
    if (head && typeof message === 'string' && message) return `${head}: ${message}`
    if (head) return head
  }
  return text.trim().slice(0, 300) || 'no details'
}

let onUnauthorized: (message: string) => void = () => {}
/** The app signs the operator out when a call is refused for a bad or missing key. */
export function setUnauthorizedHandler(handler: (message: string) => void): void {
  onUnauthorized = handler
}

export interface CallOptions {
  /** Raw body text (e.g. YAML) instead of JSON. */
  text?: string
  contentType?: string
  /** Use this key instead of the stored one (sign-in check). */
  key?: string
  /** Return the Response instead of parsed JSON (downloads). */
  raw?: boolean
  /** More request headers (`If-Match`). */
  headers?: Record<string, string>
}

/**
 * One management call: the key goes in `X-Management-Key`, never in the URL. Any failure (network,
 * non-2xx) becomes an ApiError whose message says what was tried and why it failed.
 */
export async function call<T = any>(method: string, path: string, body?: unknown, options: CallOptions = {}): Promise<T> {
  const key = options.key ?? readKey()
  // Signed out (a page waiting behind the sign-in form still polls): a call without a key is not sent.
  // Refused for it, it would count as a failed login of this address, and a few make a ban.
  if (!key) throw new ApiError(`${method} ${path}: signed out, sign in again`, 401)
  const headers: Record<string, string> = { ...options.headers, 'x-management-key': key, accept: 'application/json' }
  let payload: string | undefined
  if (options.text !== undefined) {
    payload = options.text
    headers['content-type'] = options.contentType ?? 'text/plain'
  } else if (body !== undefined) {
    payload = JSON.stringify(body)
    headers['content-type'] = 'application/json'
  }
  let response: Response
  try {
    response = await fetch(base + path, { method, headers, body: payload, cache: 'no-store' })
  } catch (error) {
    throw new ApiError(`${method} ${path}: could not reach the proxy (${(error as Error).message})`, 0)
  }
  if (response.ok && options.raw) return response as T
  const text = await response.text()
  let parsed: unknown
  try { parsed = text ? JSON.parse(text) : undefined } catch { parsed = undefined }
  if (!response.ok) {
    const reason = response.status === 404 && reasonOf(parsed, text) === 'management API disabled'
      ? 'management API disabled: set remote-management.secret-key (or MANAGEMENT_PASSWORD) and restart'
      : reasonOf(parsed, text)
    const error = new ApiError(`${method} ${path} failed (${response.status}): ${reason}`, response.status, parsed)
    if (response.status === 401 && options.key === undefined) onUnauthorized(error.message)
    throw error
  }
  return (parsed ?? text) as T
}

export const get = <T = any>(path: string) => call<T>('GET', path)
export const put = <T = any>(path: string, body: unknown) => call<T>('PUT', path, body)
export const patch = <T = any>(path: string, body: unknown) => call<T>('PATCH', path, body)
export const post = <T = any>(path: string, body: unknown) => call<T>('POST', path, body)
export const del = <T = any>(path: string) => call<T>('DELETE', path)

/** Save a management download (a log file, the usage export) through a blob link: the key stays in a header. */
export async function download(path: string, fallbackName: string): Promise<void> {
  const response = await call<Response>('GET', path, undefined, { raw: true })
  const name = /filename="([^"]+)"/.exec(response.headers.get('content-disposition') ?? '')?.[1] ?? fallbackName
  saveBlob(await response.blob(), name)
}

export function saveBlob(blob: Blob, name: string): void {
  const url = URL.createObjectURL(blob)
  const link = document.createElement('a')
  link.href = url
  link.download = name
  document.body.append(link)
  link.click()
  link.remove()
  setTimeout(() => URL.revokeObjectURL(url), 1000)
}
