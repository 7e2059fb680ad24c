import { z } from 'zod'

const positive = (range: string) => z.number({ error: 'must be a number' }).int({ error: 'must be an integer' }).min(1, { error: `must be ${range}` })
const name = () => z.string().min(1, { error: 'must be a non-empty model name' })

/**
 * One scenario rule (`routing.rules[]`): every condition given must hold; the first matching rule's
 * `model` serves the request (docs/agent-routing.md).
 */
export const routingRuleSchema = z.strictObject({
  name: z.string().optional(),
  /** Only requests for these client models (wildcards as in exclusions); absent = any model. */
  models: z.array(z.string()).optional(),
  'tokens-over': z.number({ error: 'must be a number' }).int({ error: 'must be an integer' }).min(0, { error: 'must be >= 0' }).optional(),
  /** An agent's background call: a small, tool-less request (titles, summaries). */
  background: z.boolean({ error: 'must be true or false' }).optional(),
  thinking: z.boolean({ error: 'must be true or false' }).optional(),
  images: z.boolean({ error: 'must be true or false' }).optional(),
  'web-search': z.boolean({ error: 'must be true or false' }).optional(),
  'sub-agent': z.boolean({ error: 'must be true or false' }).optional(),
  'client-keys': z.array(z.string()).optional(),
  /** Header name -> regular expression its value must match. */
  headers: z.record(z.string(), z.string()).optional(),
  model: name(),
})

/** `routing` keys beyond the spec's `strategy` (issue 24). */
export const routingExtraSchema = {
  /** `auto`: agent traffic (a session signal or a multi-turn conversation) stays on one credential while it is ready. */
  'session-affinity': z.enum(['auto', 'off', 'strict'], { error: 'must be auto, off or strict' }).default('auto'),
  'session-affinity-ttl': positive('>= 1').default(3600),
  rules: z.array(routingRuleSchema).default([]),
}

/** `fallbacks`: client model -> other models (any family) tried in order when every candidate of the first fails before the first byte. */
export const fallbacksSchema = z.record(z.string(), z.array(name())).default({})

export type RoutingRule = z.infer<typeof routingRuleSchema>
