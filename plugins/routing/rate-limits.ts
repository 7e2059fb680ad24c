/** One quota window an upstream reported for a credential. */
export interface QuotaWindow {
  /** 0..1 of the window spent. */
  used: number
  /** Epoch ms when the window refills, when known. */
  resetAt?: number
  limit?: number
  remaining?: number
}

type Headers = Record<string, string | string[] | undefined>

const one = (value: string | string[] | undefined) => Array.isArray(value) ? value[0] : value

/** `6m0s`, `1.5s`, `20ms`, `1h2m` (OpenAI's reset durations) -> ms. */
export function durationMs(text: string): number | undefined {
  let total = 0
  let matched = false
  for (const [, amount, unit] of text.matchAll(/(\d+(?:\.\d+)?)(ms|h|m|s)/g)) {
    matched = true
    total += Number(amount) * (unit === 'ms' ? 1 : unit === 's' ? 1000 : unit === 'm' ? 60_000 : 3_600_000)
  }
  return matched ? total : undefined
}

/** A reset value as vendors send it: RFC 3339, epoch seconds, seconds from now, or a duration. */
export function resetAt(text: string, now: number): number | undefined {
  if (/^\d+(\.\d+)?$/.test(text)) {
    const value = Number(text)
    return value > 1e9 ? value * 1000 : now + value * 1000
  }
  const date = Date.parse(text)
  if (!Number.isNaN(date)) return date
  const ms = durationMs(text)
  return ms === undefined ? undefined : now + ms
}

/**
 * Quota windows from an upstream's response headers: `anthropic-ratelimit-<name>-{limit,remaining,reset}`,
 * the sign-in plans' `anthropic-ratelimit-unified-<window>-{utilization,reset}`, OpenAI's
 * `x-ratelimit-{limit,remaining,reset}-<name>`, and Codex sign-in's `x-codex-<primary|secondary>-*`.
 * Undefined when the answer carried none (most do not: nothing to store).
 */
export function windowsFromHeaders(headers: Headers, now = Date.now()): Record<string, QuotaWindow> | undefined {
  const parts: Record<string, { limit?: number; remaining?: number; used?: number; reset?: number; windowMinutes?: number }> = {}
  const part = (name: string) => (parts[name] ??= {})
  for (const key in headers) {
    const c = key.charCodeAt(0)
    if (c !== 97 && c !== 120) continue // 'a' | 'x': skip the rest cheaply
    const value = one(headers[key])
    if (!value) continue
    let m: RegExpExecArray | null
    if ((m = /^anthropic-ratelimit-unified-(\w+)-(utilization|reset)$/.exec(key))) {
      if (m[2] === 'utilization') part(m[1]!).used = Number(value)
      else part(m[1]!).reset = resetAt(value, now)
    } else if ((m = /^anthropic-ratelimit-([\w-]+)-(limit|remaining|reset)$/.exec(key)) && !key.startsWith('anthropic-ratelimit-unified-')) {
      assign(part(m[1]!), m[2]!, value, now)
    } else if ((m = /^x-ratelimit-(limit|remaining|reset)(?:-([\w-]+))?$/.exec(key))) {
      assign(part(m[2] ?? 'requests'), m[1]!, value, now)
    } else if ((m = /^x-codex-(primary|secondary)-(used-percent|window-minutes|reset-after-seconds|reset-at)$/.exec(key))) {
      const p = part(m[1]!)
      if (m[2] === 'used-percent') p.used = Number(value) / 100
      else if (m[2] === 'window-minutes') p.windowMinutes = Number(value)
      else if (m[2] === 'reset-at') p.reset = resetAt(value, now)
      else p.reset = now + Number(value) * 1000
    }
  }
  const out: Record<string, QuotaWindow> = {}
  for (const [name, p] of Object.entries(parts)) {
    let used = p.used
    if (used === undefined && p.limit !== undefined && p.remaining !== undefined && p.limit > 0) used = 1 - p.remaining / p.limit
    if (used === undefined || !Number.isFinite(used)) continue
    const label = p.windowMinutes ? `${name} (${p.windowMinutes} min)` : name
    out[label] = { used: Math.min(1, Math.max(0, used)), ...(p.reset !== undefined && { resetAt: p.reset }), ...(p.limit !== undefined && { limit: p.limit }), ...(p.remaining !== undefined && { remaining: p.remaining }) }
  }
  return Object.keys(out).length ? out : undefined
}

function assign(p: { limit?: number; remaining?: number; reset?: number }, field: string, value: string, now: number): void {
  if (field === 'reset') p.reset = resetAt(value, now)
  else p[field as 'limit' | 'remaining'] = Number(value)
}

/** Headroom of a credential: the tightest window's unspent share (1 when nothing is known); a window past its reset counts as full. */
export function headroom(windows: Record<string, QuotaWindow> | undefined, now = Date.now()): { free: number; resetAt?: number } {
  let free = 1
  let soonest: number | undefined
  for (const window of Object.values(windows ?? {})) {
    if (window.resetAt !== undefined && window.resetAt <= now) continue
    if (1 - window.used < free) free = 1 - window.used
    if (window.resetAt !== undefined && (soonest === undefined || window.resetAt < soonest)) soonest = window.resetAt
  }
  return { free, resetAt: soonest }
}
