import type { ClientSignal } from './client-abort.ts'

/** What the proxy keeps on h3's `event.context` for a request, typed by augmentation (read without casts). */
export interface ProxyEventContext {
  /** The request's id (`X-Request-ID`, the client's when it is safe, else a new UUID). */
  requestId?: string
  /** The headers every answer carries (CORS, `X-Request-ID`): a 200 of the pipeline gets them in its init. */
  baseHeaders?: Record<string, string>
  /** `max-request-body-mb` in bytes, for whoever reads the body. */
  maxBodyBytes?: number
  /** "The client has gone", made once per request (`clientSignal`). */
  clientSignal?: ClientSignal
}

declare module 'h3' {
  interface H3EventContext extends ProxyEventContext {}
}
