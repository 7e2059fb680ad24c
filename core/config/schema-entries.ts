import { z } from 'zod'
import { baseUrlSchema, requiredBaseUrlSchema } from './upstream-url.ts'
import { unsafePathMessage, unsafePathSegment } from '../data/unsafe-keys.ts'
import { headerNamePattern, headerValuePattern } from '../data/http-header.ts'

/** `{name, alias}` of a provider entry's `models[]`: upstream name and the name clients use. */
export const modelAliasSchema = z.strictObject({
  name: z.string().min(1, { error: 'must be a non-empty model name' }),
  alias: z.string().default(''),
})

/** `protocol://[user:pass@]host:port[/]` with socks5, http or https; '' = none. */
export const proxyUrlSchema = z.string().refine(
  value => value === '' || /^(socks5h?|https?):\/\/([^@/\s]+@)?[^:/\s]+:\d+\/?$/.test(value),
  { error: 'must be socks5://, http:// or https:// [user:pass@]host:port' },
)

/**
 * Headers sent upstream with every request of an entry. One that no request may carry (a line break in
 * a value, a space in a name) is refused here: accepted, it failed every request of the entry, as the
 * proxy's own error.
 */
export const headersSchema = z.record(z.string(), z.string().regex(headerValuePattern, { error: 'must be one line of text (no line breaks or control characters)' }))
  .superRefine((headers, ctx) => {
    for (const name of Object.keys(headers)) {
      if (!headerNamePattern.test(name)) ctx.addIssue({ code: 'custom', path: [name], message: 'must be an HTTP header name (letters, digits and !#$%&\'*+-.^_`|~, no spaces)' })
    }
  })
  .default({})
/** Integer priority; higher is picked first (routing rule 2). Accepts "5" as CLIProxyAPI's attributes do. */
export const prioritySchema = z.coerce.number().int({ error: 'must be an integer' }).default(0)

/**
 * One provider key entry (spec: "Provider key entry"): the shape of most families' `<family>-api-key` lists.
 * Entries are strict objects, here and in every list of the config: a misspelt or misplaced key is
 * refused with its path, never silently ignored (an ignored condition widens what an entry applies to).
 */
export const providerKeyEntrySchema = z.strictObject({
  'api-key': z.string().min(1, { error: 'must be a non-empty key' }),
  prefix: z.string().default(''),
  'base-url': baseUrlSchema.default(''),
  'excluded-models': z.array(z.string()).default([]),
  models: z.array(modelAliasSchema).default([]),
  /** Absent = use the global `proxy-url`; empty string = no proxy for this entry (rule 13). */
  'proxy-url': proxyUrlSchema.optional(),
  headers: headersSchema,
  priority: prioritySchema,
})

/**
 * One named upstream (spec: "Compat provider entry"): name, required base URL, several keys. The shape of
 * a family whose config editor is `named-upstreams`; the panel checks such lists with it too.
 */
export const namedUpstreamEntrySchema = z.strictObject({
  name: z.string().min(1, { error: 'must be a non-empty name' }),
  'base-url': requiredBaseUrlSchema,
  'api-key-entries': z.array(z.strictObject({
    'api-key': z.string().default(''),
    'proxy-url': proxyUrlSchema.optional(),
  })).default([]),
  models: z.array(modelAliasSchema).default([]),
  headers: headersSchema,
  prefix: z.string().default(''),
  'excluded-models': z.array(z.string()).default([]),
  priority: prioritySchema,
})

/** The entry schema of each panel editor kind (ProviderConfigKey.editor). */
export const editorEntrySchemas = { 'key-entries': providerKeyEntrySchema, 'named-upstreams': namedUpstreamEntrySchema }

/** `oauth-model-alias.<channel>[]`. */
export const aliasEntrySchema = z.strictObject({
  name: z.string().min(1),
  alias: z.string().min(1),
  fork: z.boolean().default(false),
})

/** A rule's `protocol`: which ones exist is known once the families are (core/config/family-schemas.ts checks it). */
export const payloadProtocolSchema = z.string()

const payloadModelSchema = z.strictObject({
  name: z.string().min(1),
  protocol: payloadProtocolSchema.optional(),
})

/** Refuse paths that would write through the prototype chain (`__proto__.x` reaches every object). */
const refuseUnsafePaths = (paths: string[], ctx: z.RefinementCtx) => {
  for (const path of paths) {
    const segment = unsafePathSegment(path)
    if (segment !== undefined) ctx.addIssue({ code: 'custom', message: unsafePathMessage(path, segment) })
  }
}

/** `default`, `default-raw`, `override`, `override-raw`: params map JSON path -> value. */
export const payloadRuleSchema = z.strictObject({
  models: z.array(payloadModelSchema).default([]),
  params: z.record(z.string(), z.unknown()).default({}).superRefine((params, ctx) => refuseUnsafePaths(Object.keys(params), ctx)),
})

/** `filter`: params is the list of JSON paths to remove. */
export const payloadFilterRuleSchema = z.strictObject({
  models: z.array(payloadModelSchema).default([]),
  params: z.array(z.string()).default([]).superRefine(refuseUnsafePaths),
})

export type ProviderKeyEntry = z.infer<typeof providerKeyEntrySchema>
export type AliasEntry = z.infer<typeof aliasEntrySchema>
export type PayloadRule = z.infer<typeof payloadRuleSchema>
export type PayloadFilterRule = z.infer<typeof payloadFilterRuleSchema>
