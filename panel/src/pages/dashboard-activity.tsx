import { useState } from 'preact/hooks'
import { get, put } from '../api.ts'
import { useAction, useLoad } from '../hooks.ts'
import { formatNumber } from '../format.ts'
import { spans, splits, sumBuckets, type SeriesAnswer } from '../series.ts'
import { Section, SelectField } from '../components/field.tsx'
import { ErrorLine, NoticeLine } from '../components/notice.tsx'
import { LatencyChart, OutcomeChart } from '../components/time-charts.tsx'
import { GroupTable } from '../components/group-table.tsx'
import { FamilyName } from '../components/family-name.tsx'
import { TryTraffic } from '../components/try-traffic.tsx'

/**
 * Charts over time and per family, credential and client key, from the usage records
 * (`GET /usage/series`): the same records `GET /usage` and its export serve.
 */
export function Activity() {
  const [span, setSpan] = useState('1h')
  const [split, setSplit] = useState('')
  const series = useLoad(() => get<SeriesAnswer>(`/usage/series?span=${span}`), 5000, [span])
  const { notice, act } = useAction()
  const s = series.data
  const total = s && sumBuckets(s.buckets)
  return (
    <Section title="Activity" actions={<>
      <SelectField label="Span" name="series-span" value={span} options={spans} onChange={setSpan} />
      <SelectField label="Charts for" name="series-split" value={split} options={splits} onChange={setSplit} />
    </>}>
      <ErrorLine error={series.error} />
      <NoticeLine notice={notice} />
      {s && !s.enabled && (
        <p class="notice warn">Usage statistics are off: the charts show only what was recorded before.{' '}
          <button type="button" class="small" onClick={() => act(async () => { await put('/usage-statistics-enabled', { value: true }); await series.reload() }, 'usage statistics on')}>Turn on</button>
        </p>
      )}
      <TryTraffic onSent={() => void series.reload()} />
      {s && total && (
        <>
          <p class="muted activity-totals" data-activity-totals>
            {formatNumber(total.requests)} requests · {formatNumber(total.ok)} answered · <span data-total="client">{formatNumber(total.client)}</span> client mistakes ·{' '}
            <span data-total="upstream">{formatNumber(total.upstream)}</span> upstream failures · <span data-total="proxy">{formatNumber(total.proxy)}</span> proxy failures
          </p>
          {!split && (
            <div class="charts">
              <OutcomeChart series={s} />
              <LatencyChart series={s} />
            </div>
          )}
          {(split === 'family' || split === 'credential') && Object.entries(s.over_time[split]).map(([key, buckets]) => (
            <div class="charts split" key={key} data-split={key}>
              <OutcomeChart series={{ ...s, buckets }} id={`outcomes:${key}`} title={`${key === 'none' ? 'not routed' : key}: requests by outcome`} />
              <LatencyChart series={{ ...s, buckets }} id={`latency:${key}`} title={`${key === 'none' ? 'not routed' : key}: latency`} />
            </div>
          ))}
          <div class="groups">
            <GroupTable id="family" title="By family" rows={s.by_family} name={key => key === 'none' ? <span class="muted">not routed</span> : <FamilyName family={key} />} />
            <GroupTable id="credential" title="By credential" rows={s.by_credential} name={key => key === 'none' ? <span class="muted">not routed</span> : <code>{key}</code>} />
            <GroupTable id="key" title="By client key" rows={s.by_key} name={key => key === 'anonymous' ? <span class="muted">no client key (the panel, replays)</span> : <code>{key}</code>} />
          </div>
        </>
      )}
    </Section>
  )
}
