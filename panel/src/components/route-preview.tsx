import { useEffect, useState } from 'preact/hooks'
import { get, post } from '../api.ts'
import { useAction } from '../hooks.ts'
import type { ModelsAnswer } from '../pages/models.tsx'
import { NoticeLine } from './notice.tsx'
import { Section } from './field.tsx'

/** A messages request for `model`: the form's starting body. */
const exampleFor = (model: string) => JSON.stringify({ model, max_tokens: 512, messages: [{ role: 'user', content: 'Write a title for this chat' }] }, null, 2)

/** Dry run of routing (`POST /route-preview`): which rule, model, candidates and session a request body would get, for a client key if one is given. */
export function RoutePreview() {
  const [body, setBody] = useState('')
  // The starting body asks for a model this proxy serves (the first one listed), so the first preview shows a route.
  useEffect(() => {
    get<ModelsAnswer>('/models').then(
      answer => setBody(current => current || exampleFor(answer.models.find(m => m.available)?.id ?? answer.models[0]?.id ?? 'your-model')),
      () => setBody(current => current || exampleFor('your-model')),
    )
  }, [])
  const [headers, setHeaders] = useState('{}')
  const [key, setKey] = useState('')
  const [result, setResult] = useState<unknown>()
  const { notice, busy, act } = useAction()
  const run = (event: Event) => { event.preventDefault(); void act(async () => {
    let request: unknown
    let sent: unknown
    try { request = JSON.parse(body) } catch { throw new Error('the request body is not JSON') }
    try { sent = JSON.parse(headers || '{}') } catch { throw new Error('the headers are not JSON') }
    setResult(await post('/route-preview', { request, headers: sent, ...(key.trim() && { 'client-key': key.trim() }) }))
  }) }
  return (
    <Section title="Route preview">
      <form onSubmit={run}>
        <div class="field">
          <label for="preview-body">Request body (any client format)</label>
          <textarea id="preview-body" rows={8} value={body} onInput={e => setBody((e.target as HTMLTextAreaElement).value)} />
        </div>
        <div class="field">
          <label for="preview-headers">Request headers (JSON, e.g. a session id)</label>
          <input id="preview-headers" value={headers} onInput={e => setHeaders((e.target as HTMLInputElement).value)} />
        </div>
        <div class="field">
          <label for="preview-key">Client key (optional: a key, or a named key's name; rules and fallbacks it may not use are shown skipped)</label>
          <input id="preview-key" type="password" autocomplete="off" value={key} onInput={e => setKey((e.target as HTMLInputElement).value)} />
        </div>
        <div class="actions"><button type="submit" disabled={busy}>Preview</button></div>
      </form>
      <NoticeLine notice={notice} />
      {typeof (result as { explanation?: unknown } | undefined)?.explanation === 'string' && <p class="notice" data-preview="explanation">{(result as { explanation: string }).explanation}</p>}
      {result !== undefined && <pre data-preview="result">{JSON.stringify(result, null, 2)}</pre>}
    </Section>
  )
}
