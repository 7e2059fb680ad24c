import type { ClientSignal } from './client-abort.ts'

/** What the proxy keeps on h3's `event.context` for a request, typed by augmentation (read without casts). */
export interface ProxyEventContext {
  requestId?: string // `X-Request-ID`: the client's when it is safe, else a new UUID
  baseHeaders?: Record<string, string> // what every answer carries (CORS, `X-Request-ID`)
  maxBodyBytes?: number // `max-request-body-mb` in bytes
  clientSignal?: ClientSignal
}

declare module 'h3' {
  interface H3EventContext extends ProxyEventContext {}
}
