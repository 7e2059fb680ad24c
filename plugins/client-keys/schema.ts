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

/** The plugin's config key. Names are unique: limits, usage and metrics are counted by name. */
export const clientKeysConfigSchema = z.looseObject({
  'client-keys': z.array(clientKeyEntrySchema).default([]).superRefine((entries, ctx) => {
    const names = new Set<string>()
    for (const [i, entry] of entries.entries()) {
      if (names.has(entry.name)) ctx.addIssue({ code: 'custom', path: [i, 'name'], message: `duplicate name ${JSON.stringify(entry.name)}` })
      names.add(entry.name)
    }
  }),
})

export const clientKeysOf = (config: object): ClientKeyEntry[] => (config as { 'client-keys'?: ClientKeyEntry[] })['client-keys'] ?? []
