import { post } from '../api.ts'
import { useAction } from '../hooks.ts'
import { NoticeLine } from './notice.tsx'
import { StableLabel } from './stable-label.tsx'

/** Block, unblock and reset-cooldown buttons for one credential id (`/credentials/*`); their widths never change. */
export function CredentialActions({ id, state, onDone }: { id: string; state: string; onDone: () => void }) {
  const { notice, busy, act } = useAction()
  const run = (path: string, done: string) => act(async () => { await post(path, { id }); onDone() }, done)
  const blocked = state === 'blocked'
  return (
    <div class="credential-actions">
      <div class="actions">
        <button type="button" class="small" disabled={busy} onClick={() => blocked ? run('/credentials/unblock', 'unblocked') : run('/credentials/block', 'blocked')}>
          <StableLabel current={blocked ? 'Unblock' : 'Block'} variants={['Block', 'Unblock']} />
        </button>
        <button type="button" class="small" disabled={busy || state !== 'cooldown'} onClick={() => run('/credentials/reset-cooldown', 'cooldown reset')}>Reset cooldown</button>
      </div>
      <NoticeLine notice={notice} />
    </div>
  )
}
