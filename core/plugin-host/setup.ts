import { hookSeconds, type ProxyKernel } from '../kernel/kernel.ts'
import { ConfigError } from '../config/validate.ts'
import type { ProxyPlugin } from './plugin.ts'

/**
 * One plugin's `setup`, as that plugin (its listeners are named after it) and bounded by
 * `timeouts.hook-seconds`: a setup that throws, rejects or never settles stops the start with one line
 * naming the plugin, as a plugin that cannot load does, instead of a bare stack (or, for a setup waiting
 * on nothing, a silent exit 13 once the event loop empties).
 */
export async function setupPlugin(kernel: ProxyKernel, plugin: ProxyPlugin): Promise<void> {
  if (typeof plugin.setup !== 'function') return
  const seconds = hookSeconds(kernel.config)
  let timer: NodeJS.Timeout | undefined
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new ConfigError([`plugin "${plugin.name}": its setup did not finish within ${seconds} s (timeouts.hook-seconds)`])), seconds * 1000)
  })
  try {
    await Promise.race([kernel.hooks.asPlugin(plugin.name, () => plugin.setup!(kernel)), late])
  } catch (error) {
    if (error instanceof ConfigError) throw error
    // The stack is the plugin author's to read: at debug level, the operator gets the line.
    kernel.logger.debug(error)
    throw new ConfigError([`plugin "${plugin.name}": its setup failed: ${setupFailure(error)}`])
  } finally {
    clearTimeout(timer)
  }
}

/** What a setup threw, in one line: an Error's message, or the value itself (a setup may reject with anything). */
function setupFailure(error: unknown): string {
  let text: string
  try {
    text = error instanceof Error ? error.message : String(error)
  } catch {
    text = 'an unprintable value'
  }
  return text.replace(/\s+/g, ' ').trim().slice(0, 500)
}
