import { get } from '../api.ts'
import { useLoad } from '../hooks.ts'
import { Section } from './field.tsx'
import { ErrorLine } from './notice.tsx'

interface UnpricedModel { model: string; upstreams: string[]; served: boolean; refused?: number; allowed?: number; 'last-seen'?: string }
/** `GET /v0/management/unpriced-models`. */
export interface UnpricedAnswer { policy: { 'on-error': string; 'unpriced-models': 'refuse' | 'allow' }; 'keys-with-budget': string[]; models: UnpricedModel[] }

/**
 * Served models without a price: a budget cannot count what they cost, so keys with a budget are
 * refused there (or served at $0 when the policy allows). Says which setting fixes it.
 */
export function UnpricedModels() {
  const answer = useLoad(() => get<UnpricedAnswer>('/unpriced-models'), 5000, [])
  const data = answer.data
  if (answer.error) return <ErrorLine error={answer.error} />
  if (!data || !data.models.length) return null
  const refuse = data.policy['unpriced-models'] === 'refuse'
  const budgets = data['keys-with-budget']
  return (
    <Section title={`${data.models.length} model(s) without a price`}>
      <p class="muted" data-unpriced-policy={data.policy['unpriced-models']}>
        {budgets.length
          ? `Keys with a budget (${budgets.join(', ')}) are ${refuse ? 'refused' : 'served at $0'} on these models (client-key-policy.unpriced-models: ${data.policy['unpriced-models']}). `
          : 'No key has a budget now; a key with one would be refused on these models. '}
        Add them to <code>model-prices</code> (USD per million tokens) to count their cost.
      </p>
      <div class="table-wrap">
        <table class="stack" data-unpriced-table>
          <thead><tr><th scope="col">Model</th><th scope="col">Upstream without a price</th><th scope="col">Refused</th><th scope="col">Allowed at $0</th><th scope="col">Last seen</th></tr></thead>
          <tbody>
            {data.models.map(m => (
              <tr key={m.model} data-unpriced={m.model}>
                <th scope="row"><code>{m.model}</code>{!m.served && <div class="muted">no longer served</div>}</th>
                <td data-label="Upstream">{m.upstreams.map(u => <div key={u}><code>{u}</code></div>)}</td>
                <td data-label="Refused">{m.refused ?? 0}</td>
                <td data-label="Allowed">{m.allowed ?? 0}</td>
                <td data-label="Last seen">{m['last-seen'] ? new Date(m['last-seen']).toLocaleString() : '—'}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </Section>
  )
}
