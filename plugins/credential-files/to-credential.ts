import type { Credential, ProxyConfig } from 'model-proxy'
import type { CredentialFile, CredentialType } from './file-schema.ts'

export interface ChannelDefaults { family: string; baseUrl: string; catalog: string[]; channel: string }

/** Which provider family sends with each file type, and where. */
export const channelDefaults: Record<CredentialType, ChannelDefaults> = {
  beta: { family: 'beta', baseUrl: 'https://api.anthropic.com', channel: 'beta', catalog: ['claude-opus-4-5', 'claude-sonnet-4-5', 'claude-haiku-4-5', 'claude-opus-4-1', 'claude-sonnet-4-0'] },
  gamma: { family: 'gamma', baseUrl: 'https://chatgpt.com/backend-api/codex', channel: 'gamma', catalog: ['gpt-5.1-codex', 'gpt-5.1-codex-mini', 'gpt-5.1', 'gpt-5-codex', 'gpt-5'] },
  alpha: { family: 'alpha', baseUrl: 'https://generativelanguage.googleapis.com', channel: 'alpha', catalog: ['gemini-3-pro-preview', 'gemini-2.5-pro', 'gemini-2.5-flash', 'gemini-2.5-flash-lite'] },
  'alpha-cli': { family: 'alpha-cli', baseUrl: 'https://cloudcode-pa.googleapis.com', channel: 'alpha-cli', catalog: ['gemini-3-pro-preview', 'gemini-2.5-pro', 'gemini-2.5-flash', 'gemini-2.5-flash-lite'] },
  delta: { family: 'delta', baseUrl: 'https://aiplatform.googleapis.com', channel: 'delta', catalog: ['gemini-2.5-pro', 'gemini-2.5-flash'] },
}

/**
 * Models a file credential offers: the channel's catalog, renamed by `oauth-model-alias.<channel>`
 * (with `fork`, both names), minus `oauth-excluded-models.<channel>` (rule 4, rule 6).
 */
export function channelModels(config: ProxyConfig, channel: string, catalog: string[]): Array<{ id: string; upstream: string }> {
  const aliases = config['oauth-model-alias'][channel] ?? []
  const models: Array<{ id: string; upstream: string }> = []
  const upstreams = new Set([...catalog, ...aliases.map(alias => alias.name)])
  for (const upstream of upstreams) {
    const renamed = aliases.filter(alias => alias.name === upstream)
    if (!renamed.length || renamed.some(alias => alias.fork)) models.push({ id: upstream, upstream })
    for (const alias of renamed) models.push({ id: alias.alias, upstream })
  }
  return models
}

export function fileCredential(name: string, file: CredentialFile, config: ProxyConfig): Credential {
  const defaults = channelDefaults[file.type]
  const attributes: Record<string, string> = Object.fromEntries(Object.entries(file.attributes ?? {}).map(([key, value]) => [key, String(value)]))
  if (file.email) attributes.email = file.email
  if (file.project_id) attributes.project = file.project_id
  if (file.account_id) attributes.account = file.account_id
  if (file.location) attributes.location = file.location
  if (file.base_url) attributes.baseUrlExplicit = 'true'
  attributes.file = name
  return {
    id: `file:${name}`,
    family: defaults.family,
    provider: file.type,
    accessToken: file.access_token,
    baseUrl: (file.base_url || defaults.baseUrl).replace(/\/+$/, ''),
    headers: {},
    prefix: '',
    priority: Number.parseInt(attributes.priority ?? '0', 10) || 0,
    models: channelModels(config, defaults.channel, defaults.catalog),
    excludedModels: config['oauth-excluded-models'][defaults.channel] ?? [],
    attributes,
  }
}
