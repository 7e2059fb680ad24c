import { describe, expect, it } from 'vitest'
import { validateConfig, ConfigError } from '../../core/config/validate.ts'
import { loadPlugins } from '../../core/plugin-host/plugin.ts'
import { builtinPlugins } from '../../core/plugin-host/builtins.ts'
import { pluginSchemas } from '../../core/config/load.ts'

/** The built-in families' and plugins' keys join the base schema before validation, as at start-up (core/config/load.ts). */
const schemas = pluginSchemas(await loadPlugins(builtinPlugins, process.cwd()))
const validate = (raw: unknown) => validateConfig(raw, schemas) as ReturnType<typeof validateConfig> & Record<string, any>

describe('config schema defaults equal the spec', () => {
  const config = validate({})
  it.each([
    ['host', ''],
    ['port', 8317],
    ['debug', false],
    ['api-keys', []],
    ['remote-management', { 'allow-remote': false, 'secret-key': '', 'disable-control-panel': false }],
    ['usage-statistics-enabled', false],
    ['logging-to-file', false],
    ['request-log', false],
    ['logs-max-total-size-mb', 0],
    ['error-logs-max-files', 10],
    ['proxy-url', ''],
    ['request-retry', 3],
    ['max-retry-credentials', 0],
    ['max-retry-interval', 30],
    ['quota-exceeded', { 'switch-project': true, 'switch-preview-model': true }],
    // The spec's one routing key, plus issue 24's agent routing defaults (docs/agent-routing.md).
    ['routing', { strategy: 'round-robin', rules: [], 'session-affinity': 'auto', 'session-affinity-ttl': 3600 }],
    ['streaming', { 'keepalive-seconds': 0, 'bootstrap-retries': 0 }],
    ['nonstream-keepalive-interval', 0],
    ['passthrough-headers', false],
    ['ws-auth', false],
    ['force-model-prefix', false],
    ['tls', { enable: false, cert: '', key: '' }],
    ['payload', { default: [], 'default-raw': [], override: [], 'override-raw': [], filter: [] }],
    ['oauth-model-alias', {}],
    ['oauth-excluded-models', {}],
    ['partner', { 'upstream-url': '', 'upstream-api-key': '', 'upstream-api-keys': [], 'restrict-management-to-localhost': false, 'model-mappings': [], 'force-model-mappings': false }],
    ['alpha-api-key', []],
    ['beta-api-key', []],
    ['gamma-api-key', []],
    ['delta-api-key', []],
    ['compat-provider', []],
    ['auth-dir', '~/.model-proxy/auths'],
  ])('%s', (key, value) => {
    expect(config[key as keyof typeof config]).toEqual(value)
  })

  it('fills sub-object defaults of entries', () => {
    const parsed = validate({
      'beta-api-key': [{ 'api-key': 'k' }],
      'compat-provider': [{ name: 'x', 'base-url': 'http://h/v1' }],
      'oauth-model-alias': { beta: [{ name: 'up', alias: 'down' }] },
      payload: { default: [{ models: [{ name: 'gpt-*' }], params: { temperature: 0.5 } }] },
    })
    expect(parsed['beta-api-key'][0]).toEqual({ 'api-key': 'k', prefix: '', 'base-url': '', 'excluded-models': [], models: [], headers: {}, priority: 0 })
    expect(parsed['compat-provider'][0]).toMatchObject({ 'api-key-entries': [], models: [], headers: {} })
    expect(parsed['oauth-model-alias'].beta![0]!.fork).toBe(false)
    expect(parsed.payload.default[0]!.params).toEqual({ temperature: 0.5 })
  })
})

describe('invalid config names each bad path', () => {
  const issues = (raw: unknown) => {
    try {
      validate(raw)
    } catch (error) {
      expect(error).toBeInstanceOf(ConfigError)
      return (error as ConfigError).issues
    }
    throw new Error('expected a ConfigError')
  }

  it.each([
    [{ port: 0 }, 'port: must be 1..65535'],
    [{ port: 70000 }, 'port: must be 1..65535'],
    [{ port: 'abc' }, 'port: must be a number'],
    [{ 'request-retry': -1 }, 'request-retry: must be >= 0'],
    [{ routing: { strategy: 'random' } }, 'routing.strategy: must be round-robin, fill-first or quota-aware'],
    [{ debug: 'yes' }, 'debug: must be true or false'],
    [{ 'compat-provider': [{ name: 'x', 'base-url': 'not a url' }] }, 'compat-provider[0].base-url: must be an http(s) URL'],
    [{ 'beta-api-key': [{ 'api-key': '' }] }, 'beta-api-key[0].api-key: must be a non-empty key'],
  ])('%j -> %s', (raw, expected) => {
    expect(issues(raw)).toContain(expected)
  })

  it('reports every bad path at once, in a message without a stack', () => {
    try {
      validate({ port: 0, tls: { enable: 'x' } })
    } catch (error) {
      expect((error as ConfigError).issues).toEqual(['port: must be 1..65535', 'tls.enable: must be true or false'])
      expect((error as Error).message).toBe('invalid config:\n  - port: must be 1..65535\n  - tls.enable: must be true or false')
    }
  })
})
