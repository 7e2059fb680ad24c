import type { ProxyKernel } from 'model-proxy'
import type { KeyLimits } from './limits.ts'

const storageKey = 'client-keys:spend'

/**
 * Without Redis, spend per key lives in this process: it is kept in storage (fs survives a restart)
 * every few seconds and at close, and read back at start. With Redis, Redis keeps it.
 */
export async function keepSpend(kernel: ProxyKernel, limits: KeyLimits): Promise<() => Promise<void>> {
  if (kernel.fleet.shared) return async () => {}
  const saved = await kernel.storage.getItem<Record<string, Record<string, number>>>(storageKey).catch(() => null)
  if (saved && typeof saved === 'object') limits.local.loadSpend(saved)
  let last = JSON.stringify(limits.local.spendState())
  const save = async () => {
    const state = limits.local.spendState()
    const text = JSON.stringify(state)
    if (text === last) return
    await kernel.storage.setItem(storageKey, state).then(() => { last = text }, error => kernel.warnLimited('client-keys', `client-key spend not saved: ${(error as Error).message}`))
  }
  const timer = setInterval(() => { void save() }, 5000)
  timer.unref()
  return async () => {
    clearInterval(timer)
    await save()
  }
}
