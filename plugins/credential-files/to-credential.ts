import type { Credential, ProxyConfig } from 'model-proxy'
import { ownValue } from 'model-proxy/kit/guards'
import type { CredentialFile } from './file-schema.ts'
import type { FileChannel } from './channels.ts'

/**
 * Models a file credential offers: the channel's catalog, renamed by `oauth-model-alias.<channel>`
 * (with `fork`, both names), minus `oauth-excluded-models.<channel>` (rule 4, rule 6).
 */
export function channelModels(config: ProxyConfig, channel: string, catalog: string[]): Array<{ id: string; upstream: string }> {
  const aliases = ownValue(config['oauth-model-alias'], channel) ?? []
  const models: Array<{ id: string; upstream: string }> = []
  const upstreams = new Set([...catalog, ...aliases.map(alias => alias.name)])
  for (const upstream of upstreams) {
    const renamed = aliases.filter(alias => alias.name === upstream)
    if (!renamed.length || renamed.some(alias => alias.fork)) models.push({ id: upstream, upstream })
    for (const alias of renamed) models.push({ id: alias.alias, upstream })
  }
  return models
}

/** A file of `channel`'s type as the router sees it: the family's catalog and base URL unless the file says otherwise. */
export function fileCredential(name: string, file: CredentialFile, config: ProxyConfig, channel: FileChannel): Credential {
  const attributes: Record<string, string> = Object.fromEntries(Object.entries(file.attributes ?? {}).map(([key, value]) => [key, String(value)]))
  if (file.email) attributes.email = file.email
  if (file.project_id) attributes.project = file.project_id
  if (file.account_id) attributes.account = file.account_id
  if (file.location) attributes.location = file.location
  if (file.base_url) attributes.baseUrlExplicit = 'true'
  attributes.file = name
  return {
    id: `file:${name}`,
    family: channel.family,
    provider: file.type,
    accessToken: file.access_token,
    baseUrl: (file.base_url || channel.baseUrl).replace(/\/+$/, ''),
    headers: {},
    prefix: '',
    priority: Number.parseInt(attributes.priority ?? '0', 10) || 0,
    models: channelModels(config, channel.type, channel.catalog),
    excludedModels: ownValue(config['oauth-excluded-models'], channel.type) ?? [],
    attributes,
  }
}
