import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { parse } from 'yaml'
import { startTestProxy, type TestProxy } from '../helpers/proxy-server.ts'
import mockUpstream from '../../playground/mock-upstream/plugin.ts'
import acmeProvider from '../../playground/plugins/acme-provider.ts'

export const playgroundAdminKey = 'playground-admin'
const playgroundConfig = fileURLToPath(new URL('../../playground/config.yaml', import.meta.url))

export interface PlaygroundWorld { proxy: TestProxy; dir: string; configPath: string; close(): Promise<void> }

/**
 * The playground as `npx proxy dev` serves it (its config.yaml and plugins, the mocks on the proxy's
 * own port), on a random loopback port with its files in a temporary folder.
 */
export async function startPlayground(): Promise<PlaygroundWorld> {
  const dir = mkdtempSync(join(tmpdir(), 'proxy-playground-'))
  mkdirSync(join(dir, 'auths'))
  const yaml = `${readFileSync(playgroundConfig, 'utf8').replace('auth-dir: ./.data/auths', `auth-dir: ${join(dir, 'auths')}`)}
remote-management:
  secret-key: ${playgroundAdminKey}
`
  const configPath = join(dir, 'config.yaml')
  writeFileSync(configPath, yaml)
  const proxy = await startTestProxy(parse(yaml), [mockUpstream, acmeProvider], undefined, configPath)
  return {
    proxy, dir, configPath,
    async close() {
      await proxy.close()
      rmSync(dir, { recursive: true, force: true })
    },
  }
}
