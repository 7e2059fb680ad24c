import type { OAuthTokenSource } from './oauth-token.ts'

type Fetch = (input: string | URL, init?: RequestInit) => Promise<Response>

/**
 * A fetch for the SDK's transports that sends the held access token, and on a 401 forgets it, gets a
 * new one and sends the request once more (a token revoked or expired early); a second 401 is the
 * server's answer. The SDK's bodies are strings, so the request can be sent twice.
 */
export function withOAuth(source: OAuthTokenSource, base: Fetch = fetch): Fetch {
  const send = async (input: string | URL, init: RequestInit | undefined, token: string) => {
    const headers = new Headers(init?.headers)
    headers.set('authorization', `Bearer ${token}`)
    return base(input, { ...init, headers })
  }
  return async (input, init) => {
    const token = await source.token()
    const response = await send(input, init, token)
    if (response.status !== 401) return response
    source.invalidate(token)
    await response.body?.cancel().catch(() => {})
    return send(input, init, await source.token())
  }
}
