import type { ProxyKernel } from 'model-proxy'

/**
 * Why the request's client key may not be served by `model` (a named key's allowed models, or a price
 * for its budget: the client-keys plugin decides), or undefined. Rules and fallbacks skip such models.
 */
export const keyRefusal = (kernel: ProxyKernel, clientKey: string | undefined, model: string): string | undefined =>
  clientKey === undefined ? undefined : kernel.services.clientKeys?.modelRefusal?.({ value: clientKey }, model)
