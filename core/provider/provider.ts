import type { z } from 'zod'
import type { WireFormat } from '../canonical/codec.ts'
import type { ProxyConfig } from '../config/schema.ts'
import type { Credential } from './credential.ts'
import type { UpstreamHttpRequest } from '../upstream/send.ts'
import type { JsonBody } from '../json/index.ts'
import type { ModelInfo } from '../models/model-info.ts'
import type { CredentialFileDef } from './provider-files.ts'

export interface UpstreamCall {
  credential: Credential
  /** Upstream model name. */
  model: string
  /**
   * Body in the provider's wire format, model field already set where the format has one: a handle
   * (core/json/json-body.ts) to put in `json` as it is, or after `body.edit(...)`; untouched, the
   * client's own bytes are sent.
   */
  body: JsonBody
  stream: boolean
  /** Client endpoint kind (`chat`, `completions`, `count_tokens`...). */
  endpoint: string
  /**
   * The client's request headers: a provider forwards the ones of its own vendor that change what the
   * upstream does (docs/clients.md, "Headers"), never credentials.
   */
  clientHeaders?: Headers
}

/**
 * The family's own top-level config key. Its schema joins the config schema before the YAML is validated
 * (core/config/family-schemas.ts), the management API serves `GET|PUT|PATCH|DELETE /v0/management/<key>`
 * for it, and the panel edits it.
 */
export interface ProviderConfigKey<T = unknown> {
  /** The YAML key, e.g. `alpha-api-key`. */
  key: string
  /** The value's schema, default included (e.g. `z.array(entry).default([])`). */
  schema: z.ZodType<T>
  /** One list entry (management PUT and PATCH check each entry with it); absent = the key is not a list. */
  entry?: z.ZodType
  /** The entry field PATCH `{match}` and DELETE `?<field>=` find an entry by. Default `api-key`. */
  identity?: string
  /** The panel form: one key per entry, or named upstreams with several keys each. Default `key-entries`. */
  editor?: 'key-entries' | 'named-upstreams'
}

/** A cheap authenticated call on the upstream, for the panel's one-click test (`POST /v0/management/api-call`). */
export interface ProviderTestCall { method?: 'GET' | 'POST'; path: string }

/** A provider family: everything the proxy knows about one vendor, read from the registry by the kernel and plugins. */
export interface ProviderDef<T = unknown> {
  /** Family id, also the prefix of its credential ids. */
  family: string
  /** Display name (panel, listings). Default: the family. */
  label?: string
  /** Wire format its upstream speaks. */
  format: WireFormat
  /**
   * false = the upstream wraps or alters its wire format (an envelope), so answers always go through the
   * codec even when the client speaks the same format.
   */
  passthrough?: boolean
  /** Built-in model catalog (limits, thinking ranges): offered by its credentials, used to clamp reasoning budgets and in listings. */
  models?: ModelInfo[]
  /** Where its API-key credentials send when the entry names no `base-url`. */
  baseUrl?: string
  /** Its config key, when credentials come from the YAML. */
  config?: ProviderConfigKey<T>
  /** Credential files of this family (OAuth sign-in, service accounts). */
  credentialFile?: CredentialFileDef
  /**
   * Hosts it reaches by default (API and sign-in): `api-call` may go there, and its credentials may be
   * sent there besides their own base-URL host. A RegExp matches regional host names.
   */
  hosts?: Array<string | RegExp>
  /** The panel's one-click test. */
  testCall?: ProviderTestCall
  /** The `protocol` a payload rule names to match this family's requests (`proto_chat`...). */
  payloadProtocol?: string
  /**
   * Credentials from the config (API keys); OAuth files come through the credential store. `own` is
   * the validated value of `config.key`.
   */
  credentials(config: ProxyConfig, own: T): Credential[]
  /**
   * The HTTP request for one call (URL, method, headers with auth, body). Put `body` in `json`, changed
   * through its handle (`edit`, `replace`, `set`) when the family needs it changed.
   */
  buildRequest(call: UpstreamCall): UpstreamHttpRequest
}

export function defineProvider<T = unknown>(def: ProviderDef<T>): ProviderDef<T> {
  return def
}

/** The value of a family's own config key (undefined when it has none). */
export function ownConfig<T>(provider: ProviderDef<T>, config: ProxyConfig): T {
  return (provider.config ? (config as Record<string, unknown>)[provider.config.key] : undefined) as T
}
