/**
 * Keys that walk out of a plain object into its prototype chain: a path or merge that follows one of
 * them from a JSON object reaches `Object.prototype` and changes every object in the process.
 */
export const unsafeKeys: ReadonlySet<string> = new Set(['__proto__', 'constructor', 'prototype'])

export const isUnsafeKey = (key: PropertyKey): boolean => typeof key === 'string' && unsafeKeys.has(key)

/** The first unsafe segment of a path, if any. */
export const unsafeSegment = (path: readonly PropertyKey[]): string | undefined => path.find(isUnsafeKey) as string | undefined


/** The first unsafe segment of a dotted JSON path (`a.b[0].c`), if any. */
export const unsafePathSegment = (path: string): string | undefined => unsafeSegment(path.split(/[.[\]]/))

/** The message a refused path gets, wherever it is refused. */
export const unsafePathMessage = (path: string, segment: string) =>
  `${JSON.stringify(path)}: a path segment may not be ${segment} (__proto__, constructor and prototype reach the prototype chain)`

/**
 * `record[key]` when the record itself holds `key`: a lookup keyed by a name a client chose (a model
 * called `toString` or `constructor`) must not find what every object inherits.
 */
export const ownValue = <T>(record: Readonly<Record<string, T>> | undefined, key: string): T | undefined =>
  record && Object.hasOwn(record, key) ? record[key] : undefined
