import { readFile } from 'node:fs/promises'
import { getRequestIP } from 'h3'
import { isMap, parseDocument } from 'yaml'
import type { ProxyKernel } from 'model-proxy'
import { isLoopback } from 'model-proxy/kit/access'
import { validateConfig, unknownTopLevelKeys, ConfigError, hashText } from 'model-proxy/kit/config'
import { jsonDeeperThan, maxJsonDepth, valueDeeperThan } from 'model-proxy/kit/guards'
import { addManagementRoute, type Guard } from './route.ts'
import { ManagementError, reply } from './respond.ts'
import { replaceConfig } from './config-store.ts'
import { hashPlainSecretIn, withSecretHidden } from './secret-doc.ts'
import { buildHeaders } from './build-info.ts'
import { lockoutProblem } from './lockout.ts'

export function addConfigRoutes(kernel: ProxyKernel, guard: Guard): void {
  addManagementRoute(kernel, guard, 'GET', '/config', () => withSecretHidden(kernel.config))

  addManagementRoute(kernel, guard, 'GET', '/config.yaml', async () => {
    if (!kernel.configPath) throw new ManagementError(404, 'no config file')
    const text = await readFile(kernel.configPath, 'utf8')
    // The version read: a PUT sent back with it in If-Match is refused if the file changed meanwhile.
    return new Response(text, { headers: { 'content-type': 'application/yaml; charset=utf-8', etag: `"${hashText(text)}"`, ...buildHeaders } })
  })

  addManagementRoute(kernel, guard, 'PUT', '/config.yaml', async (event) => {
    const text = await event.req.text()
    // A config is a few levels deep; thousands would overflow the parser's and the writer's stack.
    if (jsonDeeperThan(text)) throw new ManagementError(400, 'invalid_yaml', { message: `nested more than ${maxJsonDepth} levels deep` })
    const doc = parseDocument(text)
    // The first line says what and where; the rest quotes the text around it, secrets included.
    if (doc.errors.length) throw new ManagementError(400, 'invalid_yaml', { message: doc.errors[0]!.message.split('\n')[0] })
    // The whole file is replaced: an empty document, a list or a scalar would leave every setting at
    // its default (the management secret among them, locking the operator out). Refused, nothing written.
    if (!isMap(doc.contents)) throw new ManagementError(400, 'invalid_yaml', { message: 'the config must be a YAML mapping of settings (key: value)' })
    let data: unknown
    try {
      data = doc.toJS()
    } catch (error) {
      // Aliases that expand without bound (a billion laughs) are refused by the parser's alias count.
      throw new ManagementError(400, 'invalid_yaml', { message: (error as Error).message })
    }
    if (valueDeeperThan(data)) throw new ManagementError(400, 'invalid_yaml', { message: `nested more than ${maxJsonDepth} levels deep` })
    try {
      // The running proxy knows every plugin's keys: one none of them has is refused by name.
      const unknown = unknownTopLevelKeys(data, kernel.configSchemas)
      if (unknown.length) throw new ConfigError(unknown)
      const lockout = lockoutProblem(validateConfig(data), { remote: !isLoopback(kernel.services.clientAddress?.(event) ?? getRequestIP(event) ?? ''), envPassword: !!process.env.MANAGEMENT_PASSWORD })
      if (lockout) throw new ConfigError([lockout])
    } catch (error) {
      if (error instanceof ConfigError) throw new ManagementError(400, 'invalid_config', { message: error.issues.join('; ') })
      throw error
    }
    await hashPlainSecretIn(doc)
    const ifMatch = event.req.headers.get('if-match')?.trim().replace(/^W\//, '').replace(/^"(.*)"$/, '$1') || undefined
    const { changed } = await replaceConfig(kernel, doc, text, ifMatch === '*' ? undefined : ifMatch)
    return reply({ ok: true, changed: [...new Set(changed.map(path => path.split('.')[0]!))] })
  })
}
