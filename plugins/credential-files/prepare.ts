import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import type { ProxyKernel } from 'model-proxy'
import { writeFileAtomic } from 'model-proxy/kit/config'
import type { CredentialFileStore } from './store.ts'
import type { FileChannel } from './channels.ts'

/**
 * Run a family's step before a file's first request (ProviderDef.credentialFile.prepare: an account's
 * project found) and write what it found into the file; a failure blocks the credential with the reason.
 */
export async function prepareFile(kernel: ProxyKernel, store: CredentialFileStore, name: string, channels: Map<string, FileChannel>): Promise<void> {
  const routing = kernel.services.routingState
  const file = store.entries.get(name)?.file
  const channel = file && channels.get(file.type)
  const step = channel?.def.prepare
  if (!file || !channel || !step) return
  try {
    const fields = await step.run(file, (file.base_url || channel.baseUrl).replace(/\/+$/, ''))
    // The file as it is now (a refresh may have rewritten it meanwhile), with the step's fields on top.
    const path = join(store.dir, name)
    const current = JSON.parse(readFileSync(path, 'utf8')) as Record<string, unknown>
    await writeFileAtomic(path, `${JSON.stringify({ ...current, ...fields }, null, 2)}\n`)
    store.load()
    kernel.refreshCredentials()
    kernel.logger.info(`${name}: ${step.done?.(fields) ?? `${step.name} done`}`)
  } catch (error) {
    routing?.block(`file:${name}`, `${step.name} failed: ${(error as Error).message}`)
    kernel.logger.warn(`${name}: ${step.name} failed: ${(error as Error).message}`)
  }
}
