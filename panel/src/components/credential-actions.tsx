import { post } from '../api.ts'
import { useAction } from '../hooks.ts'
import { NoticeLine } from './notice.tsx'

/** Block, unblock and reset-cooldown buttons for one credential id (`/credentials/*`). */
export function CredentialActions({ id, state, onDone }: { id: string; state: string; onDone: () => void }) {
  const { notice, busy, act } = useAction()
  const run = (path: string, done: string) => act(async () => { await post(path, { id }); onDone() }, done)
  return (
    <div class="actions">
      {state === 'blocked'
        ? <button type="button" class="small" disabled={busy} onClick={() => run('/credentials/unblock', 'unblocked')}>Unblock</button>
        : <button type="button" class="small" disabled={busy} onClick={() => run('/credentials/block', 'blocked')}>Block</button>}
      <button type="button" class="small" disabled={busy || state !== 'cooldown'} onClick={() => run('/credentials/reset-cooldown', 'cooldown reset')}>Reset cooldown</button>
      <NoticeLine notice={notice} />
    </div>
  )
}
