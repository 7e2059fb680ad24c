import { describe, expect, it } from 'vitest'
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { parse, parseAllDocuments } from 'yaml'
import { ConfigMap, Secret, Service } from 'kubernetes-models/v1'
import { Deployment } from 'kubernetes-models/apps/v1'
import { builtinPlugins } from '../../core/plugin-host/builtins.ts'
import { pluginSchemas } from '../../core/config/load.ts'
import { validateConfig } from '../../core/config/validate.ts'
import { loadPlugins } from '../../core/plugin-host/plugin.ts'

/**
 * The deployment files validate: the Kubernetes manifests against the API's JSON schemas (the
 * kubernetes-models validators), the config they carry against the proxy's own schema, and the drain
 * they promise adds up (the grace period outlives the drain, the probes point at the right paths).
 */
const root = fileURLToPath(new URL('../..', import.meta.url))
const kubeDir = join(root, 'deploy', 'kubernetes')
const models = { ConfigMap, Secret, Service, Deployment } as const
const manifests = readdirSync(kubeDir).filter(name => name.endsWith('.yaml')).flatMap(name =>
  parseAllDocuments(readFileSync(join(kubeDir, name), 'utf8')).map(doc => ({ file: name, object: doc.toJS() as { kind: keyof typeof models; metadata: { name: string } } & Record<string, any> })))
const byKind = (kind: string) => manifests.find(item => item.object.kind === kind)!.object
/** How long `proxy` takes past the drain before it exits by force (core/cli/serve.ts). */
const forceExitSlackSeconds = 5

describe('Kubernetes manifests', () => {
  it.each(manifests.map(item => [`${item.file}: ${item.object.kind}`, item] as const))('%s validates against the API schema', (_, { object }) => {
    const Model = models[object.kind]
    expect(Model, `a model for ${object.kind}`).toBeDefined()
    expect(() => new Model(object as never).validate()).not.toThrow()
  })

  it('a wrong type is caught (the check can fail)', () => {
    const deployment = structuredClone(byKind('Deployment'))
    deployment.spec.template.spec.terminationGracePeriodSeconds = 'thirty'
    expect(() => new Deployment(deployment as never).validate()).toThrow(/terminationGracePeriodSeconds must be integer/)
  })

  it('probes: readiness on /readyz, liveness on /healthz; the grace period outlives the drain', () => {
    const pod = byKind('Deployment').spec.template.spec
    const container = pod.containers[0]
    expect(container.readinessProbe.httpGet.path).toBe('/readyz')
    expect(container.livenessProbe.httpGet.path).toBe('/healthz')
    const drain = Number(container.env.find((item: { name: string }) => item.name === 'PROXY_DRAIN_SECONDS').value)
    const preStop = container.lifecycle?.preStop?.sleep?.seconds ?? 0
    expect(pod.terminationGracePeriodSeconds).toBeGreaterThanOrEqual(drain + preStop + forceExitSlackSeconds)
    expect(pod.securityContext.runAsNonRoot).toBe(true)
  })

  it('the ConfigMap holds no secret; its config validates with the Secret\'s values', async () => {
    const config = byKind('ConfigMap').data['config.yaml'] as string
    const secret = byKind('Secret').stringData as Record<string, string>
    for (const value of Object.values(secret)) expect(config).not.toContain(value)
    // Every ${env:NAME} reference is a key of the Secret or of the container's env.
    const env = byKind('Deployment').spec.template.spec.containers[0].env.map((item: { name: string }) => item.name)
    for (const [, name] of config.matchAll(/\$\{env:([^}]+)\}/g)) expect([...Object.keys(secret), ...env]).toContain(name)
    const saved = { ...process.env }
    Object.assign(process.env, secret)
    try {
      const plugins = await loadPlugins(builtinPlugins, root)
      const valid = validateConfig(parse(config), pluginSchemas(plugins))
      expect(valid['api-keys']).toEqual([secret.PROXY_CLIENT_KEY])
    } finally {
      for (const key of Object.keys(secret)) if (!(key in saved)) delete process.env[key]
    }
  })

  it('the Service targets the Deployment\'s pods and port', () => {
    const service = byKind('Service')
    expect(service.spec.selector).toEqual(byKind('Deployment').spec.template.metadata.labels)
    expect(service.spec.ports[0].targetPort).toBe(byKind('Deployment').spec.template.spec.containers[0].ports[0].name)
  })
})

describe('compose file and Dockerfile', () => {
  const compose = parse(readFileSync(join(root, 'compose.yaml'), 'utf8'), { merge: true })
  const dockerfile = readFileSync(join(root, 'Dockerfile'), 'utf8')

  it('two proxy instances on one Redis, with a stop grace that outlives the drain', () => {
    const proxies = Object.entries(compose.services as Record<string, any>).filter(([name]) => name.startsWith('proxy-'))
    expect(proxies).toHaveLength(2)
    for (const [, service] of proxies) {
      expect(service.environment.PROXY_STORAGE_URL).toBe('redis://redis:6379')
      expect(Number.parseInt(service.stop_grace_period, 10)).toBeGreaterThanOrEqual(Number(service.environment.PROXY_DRAIN_SECONDS) + forceExitSlackSeconds)
    }
    expect(compose.services.redis.image).toMatch(/redis/)
  })

  it('the Dockerfile: multi-stage, non-root, a health check on /healthz, the server\'s Node flags, the panel tools pinned as in package.json', () => {
    expect(dockerfile.match(/^FROM /gm)!.length).toBeGreaterThanOrEqual(2)
    expect(dockerfile).toMatch(/^USER 1000:1000$/m)
    expect(dockerfile).toMatch(/^HEALTHCHECK [^\n]*\n[^\n]*\/healthz/m)
    expect(dockerfile).toContain('"--no-memory-reducer"')
    const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'))
    expect(dockerfile).toContain(`ARG ESBUILD_VERSION=${pkg.devDependencies.esbuild.replace(/^\^/, '')}`)
    expect(dockerfile).toContain(`ARG PREACT_VERSION=${pkg.devDependencies.preact.replace(/^\^/, '')}`)
  })
})
