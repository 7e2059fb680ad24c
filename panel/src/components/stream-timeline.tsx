import type { TimelineEvent } from '../recorded.ts'

/** Both streams on one clock (ms since the request began): upstream events on the left, client events on the right. */
export function StreamTimeline({ events, omitted }: { events: TimelineEvent[]; omitted: number }) {
  if (!events.length) return <p class="muted">Not a stream: the bodies above are the whole answer.</p>
  return (
    <>
      <div class="timeline" role="table" aria-label="Stream events">
        <div class="timeline-row head" role="row"><span role="columnheader">ms</span><span role="columnheader">Upstream</span><span role="columnheader">Client</span></div>
        {events.map((event, i) => (
          <div key={i} class="timeline-row" role="row" data-hop={event.hop}>
            <span role="cell" class="num">+{event.at.toFixed(1)}</span>
            <span role="cell">{event.hop === 'upstream' && <code>{event.data}</code>}</span>
            <span role="cell">{event.hop === 'client' && <code>{event.data}</code>}</span>
          </div>
        ))}
      </div>
      {omitted > 0 && <p class="muted">{omitted} more chunk(s) past max-body-kb were counted, not kept.</p>}
    </>
  )
}
