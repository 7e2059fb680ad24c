import { expect } from 'vitest'
import type { ScriptedUsage } from '../helpers/usage-upstream.ts'
import { eventually } from '../recorder/helpers.ts'

/** USD per million tokens: every kind its own price, so a wrong split shows in the cost. */
export const settlementPrice = { input: 3, output: 15, 'cache-read': 0.3, 'cache-write': 3.75, reasoning: 20 }

/** Tokens a request counts against tpm: its whole prompt and its whole output. */
export const tokensOf = (u: ScriptedUsage) => u.input + u.output

/** What scripted usage costs at `settlementPrice`: cache reads, cache writes and reasoning at their own prices. */
export const costOf = (u: ScriptedUsage) => {
  const price = settlementPrice
  return ((u.input - u.cacheRead - u.cacheWrite) * price.input + u.cacheRead * price['cache-read'] + u.cacheWrite * price['cache-write']
    + (u.output - u.reasoning) * price.output + u.reasoning * price.reasoning) / 1e6
}

/** A management GET on the proxy at `url`, expected to answer 200. */
export const managementReader = (url: () => string, secret: string) => async (path: string) => {
  const response = await fetch(`${url()}/v0/management${path}`, { headers: { authorization: `Bearer ${secret}` } })
  expect(response.status, path).toBe(200)
  return response.json() as Promise<any>
}

/** The flight record of request `id` once it is written (it lands within a flush of the request's end). */
export const recordReader = (url: () => string, secret: string) => (id: string) => eventually(async () => {
  const response = await fetch(`${url()}/v0/management/requests/${id}`, { headers: { authorization: `Bearer ${secret}` } })
  return response.status === 200 ? response.json() as Promise<any> : undefined
})
