/** Longer than any model id a vendor serves (theirs stay under 100 characters). */
const shownLength = 200

/**
 * A model name as the client sent it, cut for what the proxy keeps or says back: usage records, log
 * lines, error messages. A client may send megabytes as `model`; kept whole, each request stored them in
 * usage and echoed them in its 404. Names up to 200 characters are returned as they are.
 */
export function shownModelName(name: string): string {
  return name.length <= shownLength ? name : `${name.slice(0, shownLength)}…(${name.length} characters)`
}
