import type { Notice } from '../hooks.ts'

/** A call's outcome: errors are announced to screen readers at once (role=alert). */
export function NoticeLine({ notice }: { notice?: Notice }) {
  if (!notice) return null
  return notice.kind === 'error'
    ? <p class="notice error" role="alert">{notice.text}</p>
    : <p class="notice ok" role="status">{notice.text}</p>
}

export function ErrorLine({ error }: { error?: string }) {
  return error ? <p class="notice error" role="alert">{error}</p> : null
}
