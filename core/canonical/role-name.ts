/**
 * Whether a message's `role` can name a role at all: a non-empty string without control characters or
 * lone surrogates. A role the decoder does not know passes on the same-format path (a vendor's newest)
 * and is dropped and named across formats; one that cannot be a name is the client's 400 everywhere
 * (every vendor refuses it), never a name written into a header.
 */
export function isRoleName(role: unknown): role is string {
  return typeof role === 'string' && role.length > 0 && !notName.test(role)
}

// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is refused
const notName = /[\u0000-\u001f\u007f]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/
