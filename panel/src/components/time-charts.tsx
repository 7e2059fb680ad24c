import { axisLabel, bucketLabel, niceMax, outcomes, type SeriesAnswer } from '../series.ts'

const width = 600
const height = 170
const left = 58
const plot = width - left - 6

/** Time axis labels under a chart: about eight of them, whatever the bucket count. */
function TimeAxis({ series }: { series: SeriesAnswer }) {
  const slot = plot / series.buckets.length
  const every = Math.ceil(series.buckets.length / 8)
  return (
    <g>
      <line x1={left} y1={height} x2={width} y2={height} class="axis" />
      {series.buckets.map((b, i) => i % every === 0 && <text key={b.time} x={left + i * slot + slot / 2} y={height + 16} class="label" text-anchor="middle">{bucketLabel(b.time, series.bucket_ms)}</text>)}
    </g>
  )
}

function YAxis({ top, unit = '' }: { top: number; unit?: string }) {
  return (
    <g>
      {[0, 0.5, 1].map(f => (
        <g key={f}>
          <line x1={left} x2={width} y1={height - f * (height - 10)} y2={height - f * (height - 10)} class="grid" />
          <text x={left - 4} y={height - f * (height - 10) + 4} class="label" text-anchor="end">{axisLabel(Math.round(top * f), unit)}</text>
        </g>
      ))}
    </g>
  )
}

/** Requests per bucket, stacked by outcome: answered, client mistakes, upstream and proxy failures. */
export function OutcomeChart({ series, title = 'Requests by outcome', id = 'outcomes' }: { series: SeriesAnswer; title?: string; id?: string }) {
  const top = niceMax(Math.max(...series.buckets.map(b => b.requests)))
  const slot = plot / series.buckets.length
  const scale = (n: number) => (n / top) * (height - 10)
  return (
    <figure class="chart" data-chart={id}>
      <figcaption>{title}</figcaption>
      <svg viewBox={`0 0 ${width} ${height + 22}`} role="img" aria-label="Requests per interval, stacked by outcome">
        <YAxis top={top} />
        {series.buckets.map((b, i) => {
          let y = height
          return (
            <g key={b.time} data-bucket={b.time}>
              {outcomes.map(([key]) => {
                const h = scale(b[key])
                if (!h) return null
                y -= h
                return <rect key={key} x={left + i * slot + slot * 0.12} y={y} width={Math.max(1, slot * 0.76)} height={h} class={`bar outcome-${key}`} data-outcome={key} data-value={b[key]}><title>{`${bucketLabel(b.time, series.bucket_ms)}: ${b[key]} ${key}`}</title></rect>
              })}
            </g>
          )
        })}
        <TimeAxis series={series} />
      </svg>
      <ul class="chart-legend">{outcomes.map(([key, text]) => <li key={key}><span class={`swatch outcome-${key}`} />{text}</li>)}</ul>
    </figure>
  )
}

/** Latency of answered requests per bucket: p50 and p95 lines (a gap where a bucket had none). */
export function LatencyChart({ series, title = 'Latency of answered requests', id = 'latency' }: { series: SeriesAnswer; title?: string; id?: string }) {
  const top = niceMax(Math.max(0, ...series.buckets.map(b => b.p95_ms ?? 0)))
  const slot = plot / series.buckets.length
  const line = (key: 'p50_ms' | 'p95_ms') => {
    const parts: string[] = []
    let pen = 'M'
    series.buckets.forEach((b, i) => {
      const value = b[key]
      if (value === null) { pen = 'M'; return }
      parts.push(`${pen}${(left + i * slot + slot / 2).toFixed(1)},${(height - (value / top) * (height - 10)).toFixed(1)}`)
      pen = 'L'
    })
    return parts.join(' ')
  }
  return (
    <figure class="chart" data-chart={id}>
      <figcaption>{title}</figcaption>
      <svg viewBox={`0 0 ${width} ${height + 22}`} role="img" aria-label="Latency p50 and p95 per interval, in milliseconds">
        <YAxis top={top} unit=" ms" />
        {(['p95_ms', 'p50_ms'] as const).map(key => <path key={key} d={line(key)} class={`line ${key}`} data-line={key} />)}
        {series.buckets.map((b, i) => b.p95_ms !== null && (
          <g key={b.time} data-p95={b.p95_ms} data-p50={b.p50_ms ?? ''}>
            <title>{`${bucketLabel(b.time, series.bucket_ms)}: p50 ${b.p50_ms} ms, p95 ${b.p95_ms} ms`}</title>
            {(['p50_ms', 'p95_ms'] as const).map(key => <circle key={key} cx={left + i * slot + slot / 2} cy={height - ((b[key] ?? 0) / top) * (height - 10)} r="2.5" class={`dot ${key}`} />)}
          </g>
        ))}
        <TimeAxis series={series} />
      </svg>
      <ul class="chart-legend"><li><span class="swatch p50_ms" />p50 (median)</li><li><span class="swatch p95_ms" />p95</li></ul>
    </figure>
  )
}
