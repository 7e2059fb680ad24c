import { useMemo, useState } from 'preact/hooks'
import { CheckField } from './field.tsx'
import { diffCounts, foldDiff, lineDiff } from '../line-diff.ts'

export interface Side {
  title: string
  detail?: string
  text: string
  /** The same body with JSON keys sorted: what the diff compares unless key order is asked for. */
  sorted?: string
  headers?: Record<string, string>
}

/** Two hops' bodies side by side, or as a line diff of the left against the right. */
export function BodyCompare({ id, title, left, right }: { id: string; title: string; left: Side; right: Side }) {
  const [diff, setDiff] = useState(false)
  return (
    <section class="card compare" data-compare={id}>
      <div class="card-head">
        <h2>{title}</h2>
        <div class="actions">
          <button type="button" class="small" aria-pressed={!diff} onClick={() => setDiff(false)}>Side by side</button>
          <button type="button" class="small" aria-pressed={diff} onClick={() => setDiff(true)}>Diff</button>
        </div>
      </div>
      {diff
        ? <DiffView id={id} left={left} right={right} />
        : (
          <div class="pair">
            <BodyPane side={left} hop="left" />
            <BodyPane side={right} hop="right" />
          </div>
        )}
    </section>
  )
}

function BodyPane({ side, hop }: { side: Side; hop: string }) {
  const headers = Object.entries(side.headers ?? {})
  return (
    <div class="pane" data-hop={hop}>
      <h3>{side.title}</h3>
      {side.detail && <div class="muted pane-detail"><code>{side.detail}</code></div>}
      {headers.length > 0 && (
        <details class="headers">
          <summary>{headers.length} header{headers.length === 1 ? '' : 's'}</summary>
          <dl>{headers.map(([name, value]) => <div key={name}><dt>{name}</dt><dd><code>{value}</code></dd></div>)}</dl>
        </details>
      )}
      {side.text ? <pre class="body" tabIndex={0} aria-label={side.title}>{side.text}</pre> : <p class="muted">(no body)</p>}
    </div>
  )
}

function DiffView({ id, left, right }: { id: string; left: Side; right: Side }) {
  // Formats order their fields differently; sorted keys show what differs, not where it sits.
  const [keepOrder, setKeepOrder] = useState(false)
  const [a, b] = keepOrder ? [left.text, right.text] : [left.sorted ?? left.text, right.sorted ?? right.text]
  const lines = useMemo(() => lineDiff(a, b), [a, b])
  const counts = diffCounts(lines)
  const parts = foldDiff(lines)
  return (
    <div class="diff-wrap">
      <CheckField label="Keep the key order as sent (else JSON keys are sorted on both sides)" checked={keepOrder} onChange={setKeepOrder} name={`diff-order-${id}`} />
      <p class="muted diff-legend"><span class="diff-del">− {counts.del} only in {left.title}</span> · <span class="diff-add">+ {counts.add} only in {right.title}</span></p>
      <pre class="diff body" tabIndex={0} aria-label={`Diff: ${left.title} against ${right.title}`}>
        {parts.map((part, i) => part.op === 'fold'
          ? <div key={i} class="diff-fold">… {part.count} unchanged line{part.count === 1 ? '' : 's'}</div>
          : <div key={i} class={`diff-${part.op}`}>{part.op === 'del' ? '− ' : part.op === 'add' ? '+ ' : '  '}{part.text}</div>)}
      </pre>
    </div>
  )
}
