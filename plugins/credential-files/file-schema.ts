import { z } from 'zod'
import { baseUrlSchema } from 'model-proxy/kit/config'

/**
 * A credential file in `auth-dir` (`<anything>.json`) whose `type` is one of `types` (the file types of
 * the registered families, core/provider/provider-files.ts). Unknown fields are kept, so a file written by a
 * vendor's own CLI login can carry more than we read.
 */
export const credentialFileSchema = (types: readonly string[]) => z.looseObject({
  type: z.custom<string>(value => typeof value === 'string' && types.includes(value), { error: `must be one of ${[...types].sort().join(', ')}` }),
  access_token: z.string().optional(),
  refresh_token: z.string().optional(),
  /** ISO time or epoch milliseconds when the access token expires. */
  expiry: z.union([z.string(), z.number()]).optional(),
  email: z.string().optional(),
  project_id: z.string().optional(),
  account_id: z.string().optional(),
  base_url: baseUrlSchema.optional(),
  disabled: z.boolean().optional(),
  /** A cloud service-account key (the JWT grant replaces refresh tokens). */
  service_account: z.object({ client_email: z.string(), private_key: z.string(), project_id: z.string().optional(), token_uri: z.string().optional() }).optional(),
  /** The cloud platform location of a service account (its family's default when absent). */
  location: z.string().optional(),
  attributes: z.record(z.string(), z.union([z.string(), z.number()])).optional(),
})
export type CredentialFile = z.infer<ReturnType<typeof credentialFileSchema>>

/** Expiry as epoch ms, or undefined when the file does not say. */
export function expiryOf(file: CredentialFile): number | undefined {
  if (file.expiry === undefined) return undefined
  const value = typeof file.expiry === 'number' ? file.expiry : Date.parse(file.expiry)
  return Number.isFinite(value) ? value : undefined
}
