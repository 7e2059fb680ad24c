import { useState } from 'preact/hooks'
import { get } from '../api.ts'
import { useLoad } from '../hooks.ts'
import { formatNumber } from '../format.ts'
import { Section, SelectField } from '../components/field.tsx'
import { ErrorLine } from '../components/notice.tsx'
import { FamilyLegend, FamilyName } from '../components/family-name.tsx'
import { UnpricedModels } from '../components/unpriced-models.tsx'

interface ModelUpstream { family: string; provider: string; model: string; credentials: number }
export interface ModelView { id: string; 'alias-of': string[]; upstreams: ModelUpstream[]; 'context-window'?: number; 'max-output'?: number; available: boolean }
interface KeyRules { name: string; owner?: string; models: string[]; rpm?: number; tpm?: number; budget?: { usd: number; period: string }; state: string }
/** `GET /v0/management/models[?key=name]`. */
export interface ModelsAnswer { key?: string; 'api-keys': number; keys: KeyRules[]; models: ModelView[] }

const tokens = (n: number | undefined) => n === undefined ? '—' : n >= 1000 ? `${formatNumber(Math.round(n / 1000))}k` : String(n)

/** The models a client can use: every model for the `api-keys`, or what one named client key may use, with its limits. */
export function Models() {
  const [key, setKey] = useState('')
  const answer = useLoad(() => get<ModelsAnswer>(`/models${key ? `?key=${encodeURIComponent(key)}` : ''}`), 5000, [key])
  const data = answer.data
  const rules = data?.keys.find(k => k.name === key)
  const families = [...new Set((data?.models ?? []).flatMap(m => m.upstreams.map(u => u.family)))]
  return (
    <>
      <h1>Models</h1>
      <ErrorLine error={answer.error} />
      <Section title="Client key">
        <div class="toolbar">
          <SelectField label="Models for" name="models-key" value={key} onChange={setKey}
            options={[['', `api-keys (${data?.['api-keys'] ?? 0}): every model`], ...(data?.keys ?? []).map(k => [k.name, `${k.name}${k.owner ? ` (${k.owner})` : ''}`] as [string, string])]} />
        </div>
        {rules
          ? (
            <dl class="limits" data-key-rules={rules.name}>
              <div><dt>State</dt><dd><span class={`badge state-${rules.state === 'active' ? 'ready' : 'disabled'}`}>{rules.state}</span></dd></div>
              <div><dt>Models allowed</dt><dd>{rules.models.length ? rules.models.join(', ') : 'every model'}</dd></div>
              <div><dt>Requests / min</dt><dd>{rules.rpm ?? 'no limit'}</dd></div>
              <div><dt>Tokens / min</dt><dd>{rules.tpm ? formatNumber(rules.tpm) : 'no limit'}</dd></div>
              <div><dt>Budget</dt><dd>{rules.budget ? `$${rules.budget.usd} per ${rules.budget.period}` : 'none'}</dd></div>
            </dl>
          )
          : <p class="muted">Keys in <code>api-keys</code> have no rules: they may use every model below. Pick a named client key to see what it may use.</p>}
      </Section>
      <Section title={`${data?.models.length ?? 0} model(s)`}>
        {data && !data.models.length && <p class="muted">{key ? 'This key may use none of the served models.' : 'No model is served yet: add a provider.'}</p>}
        {data && data.models.length > 0 && (
          <div class="table-wrap">
            <table class="models-table stack">
              <thead><tr><th scope="col">Model</th><th scope="col">Family</th><th scope="col">Upstream</th><th scope="col">Context</th><th scope="col">Max output</th><th scope="col">Now</th></tr></thead>
              <tbody>
                {data.models.map(m => (
                  <tr key={m.id} data-model={m.id}>
                    <th scope="row"><code>{m.id}</code>{m['alias-of'].length > 0 && <div class="muted">alias of {m['alias-of'].join(', ')}</div>}</th>
                    <td data-label="Family">{[...new Set(m.upstreams.map(u => u.family))].map((f, i) => <span key={f}>{i > 0 && ', '}<FamilyName family={f} /></span>)}</td>
                    <td data-label="Upstream">{m.upstreams.map(u => <div key={`${u.provider}/${u.model}`}>{u.provider}: <code>{u.model}</code> <span class="muted">({u.credentials} credential{u.credentials === 1 ? '' : 's'})</span></div>)}</td>
                    <td data-label="Context">{tokens(m['context-window'])}</td>
                    <td data-label="Max output">{tokens(m['max-output'])}</td>
                    <td data-label="Now"><span class={`badge state-${m.available ? 'ready' : 'cooldown'}`}>{m.available ? 'available' : 'unavailable'}</span></td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
        <FamilyLegend only={families} />
      </Section>
      <UnpricedModels />
    </>
  )
}
