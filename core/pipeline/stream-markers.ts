import type { StreamMarker } from '../canonical/codec.ts'

/**
 * What the usage tap (usage-tap.ts) looks for in a same-format stream's events without decoding them:
 * the codec's markers, the usage-only frame, pings and `[DONE]`.
 */

/** The text a marker stands for: with its value's first byte after `:` or `: ` when it names one. */
function needlesOf(marker: StreamMarker): string[] {
  if (!marker.value) return [marker.text]
  const open = marker.value === 'object' ? '{' : '"'
  return [`${marker.text}:${open}`, `${marker.text}: ${open}`]
}

/**
 * Whether a text holds any of the needles, as one regular expression: ~200 ns an event where
 * `String.includes` once per needle costs ~280 ns a needle (a chat codec has seven).
 */
export function anyOf(needles: string[]): (text: string) => boolean {
  if (!needles.length) return () => false
  const pattern = new RegExp(needles.map(escapeRegExp).join('|'))
  return text => pattern.test(text)
}

export const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')

/** A codec's markers as needles, worked out once per codec. */
const needleCache = new WeakMap<StreamMarker[], { eager: Needles; last: Needles }>()
export type Needles = (text: string) => boolean
export function needlesFor(markers: StreamMarker[]): { eager: Needles; last: Needles } {
  let needles = needleCache.get(markers)
  if (!needles) {
    const eager: string[] = []
    const last: string[] = []
    for (const marker of markers) (marker.last ? last : eager).push(...needlesOf(marker))
    needles = { eager: anyOf(eager), last: anyOf(last) }
    needleCache.set(markers, needles)
  }
  return needles
}

/** The usage-only frame of a format with a usage option has no choices: found by these (then checked whole). */
export const emptyChoices = anyOf(['"choices":[]', '"choices": []'])

/** Whether `[]` occurs in the bytes (both needles above hold it): a one-byte search per `]`, ~20 ns each, where a multi-byte `indexOf` costs ~250 ns. */
export function hasEmptyList(bytes: Buffer): boolean {
  for (let at = bytes.indexOf(0x5d, 1); at !== -1; at = bytes.indexOf(0x5d, at + 1)) if (bytes[at - 1] === 0x5b) return true
  return false
}

/** An event that is no marker's: a comment (no data) or a ping. */
export const isPing = anyOf(['"type":"ping"', '"type": "ping"'])
export const isDone = anyOf(['data: [DONE]', 'data:[DONE]'])
