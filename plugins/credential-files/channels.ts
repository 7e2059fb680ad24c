import type { ProviderDef, CredentialFileDef } from 'model-proxy'

/** One credential-file type and the family that sends with it (read from the registry). */
export interface FileChannel {
  /** The files' `type`: also the sign-in path segment and the alias/exclusion channel. */
  type: string
  family: string
  /** Where its credentials send when the file names no `base_url`. */
  baseUrl: string
  /** The family's catalog: the models a file credential offers before aliases and exclusions. */
  catalog: string[]
  def: CredentialFileDef
}

/** Every family that takes credential files, by file type. */
export function fileChannels(providers: Iterable<ProviderDef<any>>): Map<string, FileChannel> {
  const channels = new Map<string, FileChannel>()
  for (const provider of providers) {
    const def = provider.credentialFile
    if (!def) continue
    const type = def.type ?? provider.family
    channels.set(type, { type, family: provider.family, baseUrl: (def.baseUrl ?? provider.baseUrl ?? '').replace(/\/+$/, ''), catalog: (provider.models ?? []).map(model => model.id), def })
  }
  return channels
}

/** The type whose family turns a cloud service-account key file into a credential, if one does. */
export function serviceAccountType(channels: Map<string, FileChannel>): string | undefined {
  for (const channel of channels.values()) if (channel.def.serviceAccount) return channel.type
  return undefined
}
