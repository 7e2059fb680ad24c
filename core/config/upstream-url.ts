import { z } from 'zod'

/**
 * Why a URL may not be an upstream base URL, or undefined when it may: http or https only (no `file:`,
 * `gopher:` or the like) and no `user:pass@` (credentials belong in the entry's key fields, where they
 * are masked and redacted, not in a URL that ends up in logs and listings).
 */
export function upstreamUrlProblem(value: string): string | undefined {
  let url: URL
  try {
    url = new URL(value)
  } catch {
    return 'must be an http(s) URL'
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return 'must be an http(s) URL'
  if (!url.hostname) return 'must be an http(s) URL'
  if (url.username || url.password) return 'must not contain credentials (user:pass@)'
  return undefined
}

/** An upstream base URL; '' = the family's default. */
export const baseUrlSchema = z.string().superRefine((value, ctx) => {
  const problem = value === '' ? undefined : upstreamUrlProblem(value)
  if (problem) ctx.addIssue({ code: 'custom', message: problem })
})

/** A required upstream base URL (compat providers have no default). */
export const requiredBaseUrlSchema = z.string().superRefine((value, ctx) => {
  const problem = upstreamUrlProblem(value)
  if (problem) ctx.addIssue({ code: 'custom', message: problem })
})
