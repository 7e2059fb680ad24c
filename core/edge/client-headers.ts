/**
 * The client's request headers among `names` (lower case), for a provider to pass on: vendor headers that
 * change what its upstream does. Credentials never travel this way (the provider sets its own).
 */
export function pickClientHeaders(client: Headers | undefined, names: readonly string[]): Record<string, string> {
  const picked: Record<string, string> = {}
  if (!client) return picked
  for (const name of names) {
    const value = client.get(name)
    if (value !== null) picked[name] = value
  }
  return picked
}
