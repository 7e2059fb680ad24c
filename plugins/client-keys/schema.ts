import { z } from 'zod'

const count = () => z.number({ error: 'must be a number' }).int({ error: 'must be an integer' }).min(1, { error: 'must be >= 1' })

export const budgetPeriods = ['day', 'week', 'month', 'total'] as const
export type BudgetPeriod = typeof budgetPeriods[number]

/** One `client-keys` entry: a key (plain, or `sha256:<hex>` once hashed) with a name and its rules. */
export const clientKeyEntrySchema = z.strictObject({
  key: z.string().min(1, { error: 'must be a non-empty key (or its sha256:<hex> hash)' }),
  name: z.string().min(1, { error: 'must be a non-empty name' }).max(64, { error: 'must be at most 64 characters' }),
  owner: z.string().optional(),
  /** Model patterns this key may use (`exact`, `prefix-*`, `*-suffix`, `*part*`); absent or empty: every model. */
  models: z.array(z.string().min(1)).optional(),
  rpm: count().optional(),
  tpm: count().optional(),
  budget: z.strictObject({
    usd: z.number({ error: 'must be a number' }).positive({ error: 'must be > 0' }),
    period: z.enum(budgetPeriods, { error: 'must be day, week, month or total' }).default('month'),
  }).optional(),
  /** Date (or date-time) after which the key is refused. */
  expires: z.string().refine(value => !Number.isNaN(Date.parse(value)), { error: 'must be a date (YYYY-MM-DD or ISO date-time)' }).optional(),
  disabled: z.boolean({ error: 'must be true or false' }).optional(),
})

export type ClientKeyEntry = z.infer<typeof clientKeyEntrySchema>

/**
 * `client-key-policy`: what the rules of named keys do when they cannot be applied as written.
 * `on-error`: the limits cannot be checked (the shared store is away, the check failed): `open` serves
 * (counting per instance meanwhile), `closed` answers 503. `unpriced-models`: a key with a budget sent to
 * a model without a price: `refuse` (403 naming the model) or `allow` (served, costing $0). Strict: a
 * misspelt key here would silently keep a default the operator meant to change.
 */
export const clientKeyPolicySchema = z.strictObject({
  'on-error': z.enum(['open', 'closed'], { error: 'must be open or closed' }).default('open'),
  'unpriced-models': z.enum(['refuse', 'allow'], { error: 'must be refuse or allow' }).default('refuse'),
})

export type ClientKeyPolicy = z.infer<typeof clientKeyPolicySchema>

/** The plugin's config keys. Names are unique: limits, usage and metrics are counted by name. */
export const clientKeysConfigSchema = z.looseObject({
  'client-key-policy': clientKeyPolicySchema.prefault({}),
  'client-keys': z.array(clientKeyEntrySchema).default([]).superRefine((entries, ctx) => {
    const names = new Set<string>()
    for (const [i, entry] of entries.entries()) {
      if (names.has(entry.name)) ctx.addIssue({ code: 'custom', path: [i, 'name'], message: `duplicate name ${JSON.stringify(entry.name)}` })
      names.add(entry.name)
    }
  }),
})

export const clientKeysOf = (config: object): ClientKeyEntry[] => (config as { 'client-keys'?: ClientKeyEntry[] })['client-keys'] ?? []

export const policyOf = (config: object): ClientKeyPolicy => (config as { 'client-key-policy'?: ClientKeyPolicy })['client-key-policy'] ?? { 'on-error': 'open', 'unpriced-models': 'refuse' }
