/**
 * The order of a model listing: by id as people read it (`localeCompare`), ties between distinct ids (two
 * spellings of one letter) broken by code unit, so the order is total. Paged listings place their cursors
 * with it: every model comes exactly once across the pages.
 */
export function compareModelIds(a: string, b: string): number {
  return a.localeCompare(b) || (a < b ? -1 : a > b ? 1 : 0)
}
