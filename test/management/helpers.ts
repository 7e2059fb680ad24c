import { mkdtempSync, rmSync, writeFileSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { parse } from 'yaml'
import { startTestProxy, type TestProxy } from '../helpers/proxy-server.ts'
import { defineProxyPlugin } from '../../core/plugin-host/plugin.ts'

/** Lets a test play a remote client: `x-test-client-ip` becomes the client's address. */
export const fakeAddressPlugin = defineProxyPlugin({
  name: 'test-client-address',
  setup(kernel) {
    kernel.services.clientAddress = event => event.req.headers.get('x-test-client-ip') ?? '127.0.0.1'
  },
})

export interface ManagedProxy { proxy: TestProxy; path: string; dir: string; text(): string; yaml(): any; close(): Promise<void> }

/** A proxy started from a real YAML file (with comments) in a temp folder, management enabled. */
export async function startManagedProxy(yamlText: string): Promise<ManagedProxy> {
  const dir = mkdtempSync(join(tmpdir(), 'proxy-mgmt-'))
  const path = join(dir, 'config.yaml')
  writeFileSync(path, yamlText)
  const proxy = await startTestProxy(parse(yamlText), [fakeAddressPlugin], undefined, path)
  return {
    proxy, path, dir,
    text: () => readFileSync(path, 'utf8'),
    yaml: () => parse(readFileSync(path, 'utf8')),
    async close() {
      await proxy.close()
      rmSync(dir, { recursive: true, force: true })
    },
  }
}

export const managementSecret = 'mgmt-secret-1'

export const baseYaml = `# Operator notes: keep this comment
host: 127.0.0.1
port: 8317
api-keys:
  - client-one # the first client
remote-management:
  allow-remote: false
  secret-key: ${managementSecret}
request-retry: 3
compat-provider:
  # the local mock
  - name: mock
    base-url: http://127.0.0.1:9/v1
    api-key-entries:
      - api-key: up-1
    models:
      - name: mock-gpt
        alias: fast
`
