/**
 * What a family says about credential files and sign-in (plugins/credential-files reads it from the
 * registry): the file `type` that selects the family, where such credentials send, and the OAuth client
 * of its sign-in. Vendor knowledge stays in the family's folder; the plugin only runs the protocol.
 */

/** An OAuth client (authorization code + PKCE): the vendor's endpoints and its CLI's public client id. */
export interface OAuthClient {
  'token-url': string
  'client-id': string
  'client-secret'?: string
  'authorize-url'?: string
  scopes?: string
  /** Extra authorize-URL parameters the vendor needs (offline access and the like). */
  'authorize-params'?: Record<string, string>
  /** How the token endpoint wants its body: form-encoded (OAuth's default) or JSON. */
  'token-format'?: 'form' | 'json'
}

/** A credential file's fields as the credential-files plugin has read them (unknown fields kept). */
export type CredentialFileData = Record<string, unknown> & { type: string; access_token?: string; base_url?: string; project_id?: string }

/** A step a file needs before its first request (an account's project found and written into the file). */
export interface CredentialFilePrepare {
  /** Names the step in logs and in the blocked reason (`project discovery failed: ...`). */
  name: string
  needed(file: CredentialFileData): boolean
  /** Fields to write into the file; `baseUrl` is the file's own or the family's default. */
  run(file: CredentialFileData, baseUrl: string): Promise<Record<string, unknown>>
  /** The log line after success. */
  done?(fields: Record<string, unknown>): string
}

export interface CredentialFileDef {
  /**
   * The files' `type` (default: the family), also the sign-in's path segment (`GET /<type>/callback`,
   * `GET /v0/management/<type>-auth-url`) and the channel of `oauth-model-alias` / `oauth-excluded-models`.
   */
  type?: string
  /** Where file credentials send when the file names no `base_url` (an account endpoint may differ from the API's). */
  baseUrl?: string
  /** The sign-in the panel offers; absent = files only. `oauth-clients.<type>` overrides any field. */
  oauth?: OAuthClient
  /**
   * A cloud service-account key file (`"type": "service_account"`, as a console downloads it) is a
   * credential of this family: tokens come from the JWT-bearer grant with this scope.
   */
  serviceAccount?: { scope: string; tokenUrl: string }
  prepare?: CredentialFilePrepare
}
