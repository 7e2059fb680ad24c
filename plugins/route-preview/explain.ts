/** The preview's answer in one sentence, so an empty candidate list says why. Pure. */
export interface ExplainInput {
  model: string
  servedModel: string
  rule?: string | null
  candidates: Array<{ credential: string; family: string; state: string }>
  fallbacks: Array<{ model: string; candidates: unknown[] }>
  strategy: string
}

export function explainPreview({ model, servedModel, rule, candidates, fallbacks, strategy }: ExplainInput): string {
  if (!model) return 'The request names no model: put one in `model` (or the URL, for generateContent); GET /v1/models lists them.'
  const changed = servedModel !== model ? ` Routing rule ${rule ? `"${rule}"` : ''} sends it to ${servedModel}.`.replace('rule  ', 'rule ') : ''
  if (!candidates.length) {
    const fallback = fallbacks.find(f => f.candidates.length)
    const why = `No configured provider serves ${servedModel}, so the request would get a 404 (model not found); GET /v1/models lists the models this proxy serves.`
    return `${changed.trim()}${changed ? ' ' : ''}${why}${fallback ? ` Its fallback ${fallback.model} has ${fallback.candidates.length} candidate(s).` : ''}`
  }
  const ready = candidates.filter(c => c.state === 'ready')
  const first = ready[0] ?? candidates[0]!
  const states = ready.length === candidates.length ? 'all ready' : `${ready.length} ready`
  return `${changed.trim()}${changed ? ' ' : ''}${candidates.length} candidate(s) serve ${servedModel} (${states}); with ${strategy}, the next request would try ${first.credential} (${first.family}) first.`
}
