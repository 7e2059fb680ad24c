import type { TimelineEvent } from '../recorded.ts'

/** Both streams on one clock (ms since the request began): upstream events on the left, client events on the right. */
export function StreamTimeline({ events, omitted }: { events: TimelineEvent[]; omitted: number }) {
  if (!events.length) return <p class="muted">Not a stream: the bodies above are the whole answer.</p>
  return (
    <>
      <div class="timeline-wrap">
        <table class="timeline" aria-label="Stream events">
          <thead><tr><th scope="col">ms</th><th scope="col">Upstream</th><th scope="col">Client</th></tr></thead>
          <tbody>
            {events.map((event, i) => (
              <tr key={i} data-hop={event.hop}>
                <td class="num">+{event.at.toFixed(1)}</td>
                <td>{event.hop === 'upstream' && <code>{event.data}</code>}</td>
                <td>{event.hop === 'client' && <code>{event.data}</code>}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {omitted > 0 && <p class="muted">{omitted} more chunk(s) past max-body-kb were counted, not kept.</p>}
    </>
  )
}
