import { useState } from 'preact/hooks'
import { get } from '../api.ts'
import { buildChatCall } from '../chat-formats.ts'
import { asSession } from '../client-call.ts'
import { tryPlan } from '../try-plan.ts'
import type { ModelsAnswer } from '../pages/models.tsx'

/**
 * "Try it": sends a little traffic through the proxy as the signed-in operator, so the charts, Usage
 * and Requests have something to show. Real requests to the configured upstreams (real ones cost tokens).
 */
export function TryTraffic({ onSent }: { onSent: () => void }) {
  const [state, setState] = useState<string>()
  const [busy, setBusy] = useState(false)
  const run = async () => {
    setBusy(true)
    setState('sending…')
    try {
      const models = (await get<ModelsAnswer>('/models')).models
      const plan = tryPlan(models)
      const statuses = await Promise.all(plan.map(async ({ model, format, stream }) => {
        const call = asSession(buildChatCall(format, '', { model, turns: [{ role: 'user', text: 'Say hello in five words.' }], stream, maxTokens: 64 }))
        const response = await fetch(call.path, { method: 'POST', headers: call.headers, body: JSON.stringify(call.body), cache: 'no-store' })
        await response.text()
        return response.status
      }))
      const ok = statuses.filter(status => status < 400).length
      setState(plan.length ? `sent ${plan.length} requests (${plan.map(p => p.model).join(', ')}): ${ok} answered` : 'no model is configured yet')
      onSent()
    } catch (error) {
      setState((error as Error).message)
    } finally {
      setBusy(false)
    }
  }
  return (
    <div class="try-traffic">
      <button type="button" class="primary" disabled={busy} onClick={run} data-try-it>Try it: send a little traffic</button>
      <span class="muted">one short request to a model of each family, in every client format{state && <> · <span role="status" data-try-result>{state}</span></>}</span>
    </div>
  )
}
