import { endedStatus, type ResponseContext } from 'model-proxy'
import { clientKeyId } from 'model-proxy/kit/access'
import { brokenStream } from '../management/api.ts'
import { shownModelName } from 'model-proxy/kit/models'

/** One request, as usage statistics keep it (no secrets: the client key is its id, `key-<hash>`). */
export interface UsageRecord {
  id: string
  /** Epoch ms when the request started. */
  time: number
  clientKey: string
  model: string
  upstreamModel?: string
  /** The model that served when routing chose another (a scenario rule or a fallback). */
  servedModel?: string
  /** The conversation (a short hash) when routing kept it on one credential. */
  session?: string
  provider?: string
  family?: string
  credential?: string
  inputTokens: number
  outputTokens: number
  cachedTokens: number
  /** Prompt tokens written to the upstream's cache (absent in records from before it was kept). */
  cacheWriteTokens?: number
  reasoningTokens: number
  /** The counts are the proxy's estimate: the upstream reported none, or the answer was cut. */
  estimated?: boolean
  /** A stream the upstream (or a hook's stream) failed after its 200: status 499 as for a client that left, but the upstream's failure. */
  broken?: true
  latencyMs: number
  status: number
  stream: boolean
  /** The name of a named client key (`client-keys`). */
  keyName?: string
  /** What the answer cost in USD (`model-prices`); absent when no price is known. */
  cost?: number
}

export function recordFrom(ctx: ResponseContext, extra: { keyName?: string; cost?: number } = {}): UsageRecord {
  const usage = ctx.usage
  return {
    id: ctx.request.id,
    time: ctx.request.startedAt,
    clientKey: ctx.request.clientKey ? clientKeyId(ctx.request.clientKey) : 'anonymous',
    ...(extra.keyName !== undefined && { keyName: extra.keyName }),
    ...(extra.cost !== undefined && { cost: extra.cost }),
    // The client's name: cut, or a name of megabytes would be stored with every such request.
    model: shownModelName(ctx.request.model),
    upstreamModel: ctx.candidate?.upstreamModel,
    ...(ctx.request.servedModel && { servedModel: ctx.request.servedModel }),
    ...(ctx.request.session && { session: ctx.request.session }),
    provider: ctx.candidate?.credential.provider,
    family: ctx.candidate?.credential.family,
    credential: ctx.candidate?.credential.id,
    inputTokens: usage?.inputTokens ?? 0,
    outputTokens: usage?.outputTokens ?? 0,
    cachedTokens: usage?.cachedInputTokens ?? 0,
    ...(usage?.cacheCreationInputTokens && { cacheWriteTokens: usage.cacheCreationInputTokens }),
    reasoningTokens: usage?.reasoningTokens ?? 0,
    ...(usage?.estimated && { estimated: true }),
    ...(brokenStream(ctx) && { broken: true as const }),
    latencyMs: ctx.durationMs,
    status: endedStatus(ctx),
    stream: ctx.request.stream,
  }
}

const isNumber = (value: unknown) => typeof value === 'number' && Number.isFinite(value)
/** A count, a cost or a duration: finite and not below zero (a negative one would lower every total). */
const isAmount = (value: unknown) => isNumber(value) && (value as number) >= 0
/** Epoch ms a Date can hold: the store files records by hour (`toISOString`), which throws past it. */
const isTime = (value: unknown) => isAmount(value) && (value as number) <= 8.64e15
const optional = (value: unknown, check: (value: unknown) => boolean) => value === undefined || check(value)
const isString = (value: unknown) => typeof value === 'string'
const isBoolean = (value: unknown) => typeof value === 'boolean'
const textFields = ['clientKey', 'upstreamModel', 'servedModel', 'session', 'provider', 'family', 'credential', 'keyName'] as const
/** Optional here: records of older exports may lack them. */
const amountFields = ['cachedTokens', 'cacheWriteTokens', 'reasoningTokens', 'latencyMs', 'cost'] as const

/** Imported records must look like ours, field by field; anything else is skipped, not trusted. */
export function isUsageRecord(value: unknown): value is UsageRecord {
  const r = value as Record<string, unknown> | null
  return !!r && typeof r === 'object' && typeof r.id === 'string' && isTime(r.time) && typeof r.model === 'string'
    && isAmount(r.inputTokens) && isAmount(r.outputTokens) && isNumber(r.status)
    && amountFields.every(field => optional(r[field], isAmount)) && textFields.every(field => optional(r[field], isString))
    && optional(r.stream, isBoolean) && optional(r.estimated, isBoolean)
}
