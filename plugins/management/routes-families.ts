import type { ProxyKernel, ProviderDef } from 'model-proxy'
import { describeFamily, describeWireFormat, keyKindOf } from 'model-proxy/kit/models'
import { addManagementRoute, type Guard } from './route.ts'

/** What the panel and operators learn of one family: no code, no secrets, only what the registry declares. */
export function familyInfo(provider: ProviderDef<any>): Record<string, unknown> {
  const file = provider.credentialFile
  return {
    family: provider.family,
    label: provider.label ?? provider.family,
    format: provider.format,
    // In a user's words: which API it speaks and where it sends, next to the identifier.
    'wire-format': describeWireFormat(provider.format),
    'default-base-url': provider.baseUrl ?? null,
    description: describeFamily(provider),
    'key-kind': keyKindOf(provider),
    models: (provider.models ?? []).map(model => model.id),
    'config-key': provider.config?.key ?? null,
    ...(provider.config && { identity: provider.config.identity ?? 'api-key', editor: provider.config.editor ?? 'key-entries' }),
    'credential-file-type': file ? file.type ?? provider.family : null,
    'sign-in': !!file?.oauth,
    'test-call': provider.testCall ?? null,
    'payload-protocol': provider.payloadProtocol ?? null,
    hosts: (provider.hosts ?? []).map(host => typeof host === 'string' ? host : host.source),
  }
}

/** `GET /providers` (our addition): the registered provider families, in registration order. */
export function addFamilyListRoute(kernel: ProxyKernel, guard: Guard): void {
  addManagementRoute(kernel, guard, 'GET', '/providers', () => ({ providers: [...kernel.providers.values()].map(familyInfo) }))
}
