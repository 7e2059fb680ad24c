/**
 * Text cut into pieces a BPE tokenizer can count one by one, in time linear in the text.
 *
 * A tokenizer first splits text into pre-tokens (words, runs of spaces, runs of punctuation) and then
 * merges byte pairs inside each; the merge is quadratic in a pre-token's length, so one 60 KB "word"
 * (a run of CJK characters, of spaces, of `=`) took seconds. Pieces end where a pre-token ends for sure
 * (before a space that follows a non-space: no pre-token pattern of o200k/cl100k spans "x y"), so counts
 * of ordinary text are exact; a stretch with no such place for `maxRun` characters is cut every `maxRun`
 * characters, which miscounts by at most a token per cut.
 */
export interface PieceOptions {
  /** Longest stretch without a safe cut before it is cut anyway (bounds one merge's cost). */
  maxRun?: number
  /** Pieces are batched up to about this length (fewer tokenizer calls). */
  batch?: number
}

const isWhitespace = (code: number) => code === 32 || (code >= 9 && code <= 13) || code === 0xa0 || code === 0x3000 || code === 0x2028 || code === 0x2029

/** The next safe cut after `from`: a space whose previous character is not whitespace (or the end). */
function nextSafeCut(text: string, from: number): number {
  let at = text.indexOf(' ', from + 1)
  while (at !== -1 && isWhitespace(text.charCodeAt(at - 1))) at = text.indexOf(' ', at + 1)
  return at === -1 ? text.length : at
}

/** Never cut between the halves of a surrogate pair. */
const unsplit = (text: string, at: number) => {
  const code = text.charCodeAt(at)
  return code >= 0xdc00 && code <= 0xdfff ? at - 1 : at
}

export function* countingPieces(text: string, options: PieceOptions = {}): Generator<string> {
  const maxRun = options.maxRun ?? 256
  const batch = options.batch ?? 4096
  let start = 0 // the pending batch: [start, last)
  let last = 0 // the last safe cut
  while (last < text.length) {
    const next = nextSafeCut(text, last)
    if (next - last > maxRun) {
      if (last > start) yield text.slice(start, last)
      let at = last
      while (next - at > maxRun) {
        const cut = unsplit(text, at + maxRun)
        yield text.slice(at, cut)
        at = cut
      }
      start = at
    }
    last = next
    if (last - start >= batch) {
      yield text.slice(start, last)
      start = last
    }
  }
  if (start < text.length) yield text.slice(start)
}
