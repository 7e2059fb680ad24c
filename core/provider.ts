import type { WireFormat } from './canonical/codec.ts'
import type { ProxyConfig } from './config/schema.ts'
import type { Credential } from './credential.ts'
import type { UpstreamHttpRequest } from './http/upstream.ts'
import type { ModelInfo } from './model-info.ts'

export interface UpstreamCall {
  credential: Credential
  /** Upstream model name. */
  model: string
  /** Body in the provider's wire format, model field already set where the format has one. */
  body: Record<string, unknown>
  stream: boolean
  /** Client endpoint kind (`chat`, `completions`, `count_tokens`...). */
  endpoint: string
  /**
   * The client's request headers: a provider forwards the ones of its own vendor that change what the
   * upstream does (docs/clients.md, "Headers"), never credentials.
   */
  clientHeaders?: Headers
}

/** A provider family: how it reads its credentials from config and how it addresses its upstream. */
export interface ProviderDef {
  /** Family id, also the prefix of its credential ids. */
  family: string
  /** Wire format its upstream speaks. */
  format: WireFormat
  /**
   * false = the upstream wraps or alters its wire format (an envelope), so answers always go through the
   * codec even when the client speaks the same format.
   */
  passthrough?: boolean
  /** Built-in model catalog (limits, thinking ranges): used to clamp reasoning budgets and in model listings. */
  models?: ModelInfo[]
  /** Credentials from the config's entries (API keys); OAuth files come through the credential store. */
  credentials(config: ProxyConfig): Credential[]
  /**
   * The HTTP request for one call (URL, method, headers with auth, body). Put `body` in `json` as it is,
   * or a new object: never edit it in place (an unchanged body is sent as the client's own bytes).
   */
  buildRequest(call: UpstreamCall): UpstreamHttpRequest
}

export function defineProvider<T extends ProviderDef>(def: T): T {
  return def
}
