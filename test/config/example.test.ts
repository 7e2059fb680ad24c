import { afterAll, describe, expect, it } from 'vitest'
import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { parse } from 'yaml'
import { readYamlConfig } from '../../core/config/yaml-layers.ts'
import { validateConfig } from '../../core/config/validate.ts'
import { startTestProxy, type TestProxy } from '../helpers/proxy-server.ts'

// The file a newcomer copies to config.yaml: it must stay valid as the schema moves on.
const examplePath = fileURLToPath(new URL('../../config.example.yaml', import.meta.url))

describe('config.example.yaml', () => {
  let running: TestProxy | undefined
  afterAll(() => running?.close())

  it('parses and validates against the config schema', async () => {
    const config = await readYamlConfig(examplePath)
    expect(config['api-keys']).toEqual(['change-me'])
    expect((config['compat-provider'] as Array<Record<string, unknown>>)[0]).toMatchObject({ name: 'my-openai-compatible', 'base-url': 'https://api.example.com/v1' })
  })

  it('is accepted by every built-in plugin and serves its model to its client key', async () => {
    const raw = parse(readFileSync(examplePath, 'utf8')) as Record<string, unknown>
    running = await startTestProxy(raw)
    expect(() => validateConfig(raw, [...running!.proxy.kernel.configSchemas])).not.toThrow()
    const models = await fetch(`${running.url}/v1/models`, { headers: { authorization: 'Bearer change-me' } })
    expect(models.status).toBe(200)
    expect((await models.json() as { data: Array<{ id: string }> }).data.map(model => model.id)).toContain('my-model')
    const wrongKey = await fetch(`${running.url}/v1/models`, { headers: { authorization: 'Bearer not-the-key' } })
    expect(wrongKey.status).toBe(401)
  })
})
