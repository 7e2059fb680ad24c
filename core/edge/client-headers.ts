/** The client's headers among `names` (lower case) for a provider to pass on; credentials never travel this way. */
export function pickClientHeaders(client: Headers | undefined, names: readonly string[]): Record<string, string> {
  const picked: Record<string, string> = {}
  if (!client) return picked
  for (const name of names) {
    const value = client.get(name)
    if (value !== null) picked[name] = value
  }
  return picked
}
