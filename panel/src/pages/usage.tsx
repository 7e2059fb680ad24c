import { useState } from 'preact/hooks'
import { call, download, get, put } from '../api.ts'
import { useAction, useLoad } from '../hooks.ts'
import { formatNumber, formatPercent } from '../format.ts'
import { CacheTable } from '../components/cache-table.tsx'
import { daySeries, hourSeries, topSeries, type Metric, type Totals } from '../usage-series.ts'
import { Section, SelectField } from '../components/field.tsx'
import { ErrorLine, NoticeLine } from '../components/notice.tsx'
import { BarChart, RankChart } from '../components/bar-chart.tsx'

interface UsageAnswer {
  enabled: boolean
  usage: Totals & { cached_tokens: number; cache_write_tokens?: number; reasoning_tokens: number; estimated_requests?: number; cache_hit_ratio?: number } & Record<'by_model' | 'by_credential' | 'by_client_key' | 'by_hour' | 'by_day', Record<string, Totals & { cached_tokens: number }>> & { by_session?: Record<string, Totals & { cached_tokens: number }> }
}

/** Usage statistics: totals, charts per hour, day, model, credential and client key; export and import. */
export function Usage() {
  const usage = useLoad(() => get<UsageAnswer>('/usage'), 5000)
  const [metric, setMetric] = useState<Metric>('requests')
  const { notice, busy, act } = useAction()
  const u = usage.data?.usage
  const now = Date.now()

  const importFile = (event: Event) => {
    const input = event.target as HTMLInputElement
    const file = input.files?.[0]
    if (!file) return
    void act(async () => {
      let body: unknown
      try { body = JSON.parse(await file.text()) } catch { throw new Error(`${file.name} is not JSON`) }
      const answer = await call<{ added: number; skipped: number }>('POST', '/usage/import', body)
      input.value = ''
      await usage.reload()
      return answer
    }, answer => `imported ${file.name}: ${answer.added} added, ${answer.skipped} skipped`)
  }
  return (
    <>
      <h1>Usage</h1>
      <ErrorLine error={usage.error} />
      {usage.data && !usage.data.enabled && (
        <p class="notice warn">Usage statistics are off: nothing new is recorded.{' '}
          <button type="button" class="small" onClick={() => act(async () => { await put('/usage-statistics-enabled', { value: true }); await usage.reload() }, 'usage statistics on')}>Turn on</button>
        </p>
      )}
      <NoticeLine notice={notice} />
      {u && (
        <>
          <div class="stats">
            <div class="stat" data-stat="usage-requests"><div class="stat-label">Requests</div><div class="stat-value">{formatNumber(u.requests)}</div>
              <div class="stat-detail muted">{formatNumber(u.success)} ok · {formatNumber(u.failure)} failed ({formatPercent(u.requests ? u.failure / u.requests : 0)})</div></div>
            <div class="stat"><div class="stat-label">Tokens</div><div class="stat-value">{formatNumber(u.total_tokens)}</div>
              <div class="stat-detail muted">{formatNumber(u.input_tokens)} in · {formatNumber(u.output_tokens)} out · {formatNumber(u.cached_tokens)} cached · {formatNumber(u.cache_write_tokens ?? 0)} written to cache</div>
              {!!u.estimated_requests && <div class="stat-detail muted" data-stat="estimated">{formatNumber(u.estimated_requests)} request(s) estimated: the upstream reported no usage, or the answer was cut</div>}</div>
            <div class="stat" data-stat="usage-latency"><div class="stat-label">Average latency</div><div class="stat-value">{u.requests ? `${formatNumber(u.latency_ms_avg)} ms` : '—'}</div></div>
            <div class="stat" data-stat="cache-hit-ratio"><div class="stat-label">Prompt cache hit ratio</div><div class="stat-value">{formatPercent(u.cache_hit_ratio ?? 0)}</div>
              <div class="stat-detail muted">input tokens read from the upstream's cache</div></div>
          </div>
          <div class="toolbar">
            <SelectField label="Chart" name="usage-metric" value={metric} onChange={v => setMetric(v as Metric)}
              options={[['requests', 'Requests'], ['total_tokens', 'Tokens'], ['failure', 'Failed requests']]} />
            <button type="button" onClick={() => usage.reload()}>Refresh</button>
            <button type="button" disabled={busy} onClick={() => act(() => download('/usage/export', 'usage-export.json'), 'export downloaded')}>Export</button>
            <div class="field">
              <label for="usage-import">Import an export</label>
              <input id="usage-import" type="file" accept=".json,application/json" onChange={importFile} />
            </div>
          </div>
          <Section title="Over time">
            <div class="charts">
              <BarChart id="hour" title="Last 24 hours" points={hourSeries(u.by_hour, metric, now)} />
              <BarChart id="day" title="Last 14 days" points={daySeries(u.by_day, metric, now)} />
            </div>
          </Section>
          <Section title="Breakdown">
            <div class="charts">
              <RankChart id="model" title="By model" points={topSeries(u.by_model, metric)} />
              <RankChart id="credential" title="By credential" points={topSeries(u.by_credential, metric)} />
              <RankChart id="client-key" title="By client key" points={topSeries(u.by_client_key, metric)} />
            </div>
          </Section>
          <Section title="Prompt cache">
            <div class="charts">
              <CacheTable id="credential" title="By credential" rows={u.by_credential} />
              <CacheTable id="session" title="By session" rows={u.by_session} />
            </div>
          </Section>
        </>
      )}
    </>
  )
}
