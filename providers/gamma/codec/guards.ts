/** Narrowing helpers for untrusted JSON: decoders read client and upstream bodies through these only. */

export type Json = Record<string, unknown>

export function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

/** The value when it is a string, else undefined. */
export function str(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined
}

/** The value when it is a finite number, else undefined. */
export function num(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) ? value : undefined
}

/** `v === undefined || v === null`: the format treats an explicit null like an absent field. */
export function absent(value: unknown): value is undefined | null {
  return value === undefined || value === null
}

/** Fields of `body` whose names are not in `known`, as own properties (safe for `__proto__`). */
export function unknownFields(body: Json, known: ReadonlySet<string>): Json {
  return Object.fromEntries(Object.entries(body).filter(([key]) => !known.has(key)))
}
