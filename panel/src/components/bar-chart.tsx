import type { Point } from '../usage-series.ts'
import { formatNumber } from '../format.ts'

const width = 600

/** Vertical bars over time (hours, days): plain SVG, scales with its box; every bar has a tooltip. */
export function BarChart({ title, points, height = 160, id }: { title: string; points: Point[]; height?: number; id?: string }) {
  const max = Math.max(1, ...points.map(p => p.value))
  const slot = width / Math.max(1, points.length)
  const every = Math.ceil(points.length / 12)
  const total = points.reduce((sum, p) => sum + p.value, 0)
  return (
    <figure class="chart" data-chart={id}>
      <figcaption>{title} <span class="muted">(total {formatNumber(total)})</span></figcaption>
      <svg viewBox={`0 0 ${width} ${height + 22}`} role="img" aria-label={`${title}: total ${total}, peak ${Math.max(0, ...points.map(p => p.value))}`}>
        <line x1="0" y1={height} x2={width} y2={height} class="axis" />
        {points.map((p, i) => {
          const h = p.value ? Math.max(2, (p.value / max) * (height - 16)) : 0
          return (
            <g key={p.key}>
              <rect x={i * slot + slot * 0.15} y={height - h} width={slot * 0.7} height={h} class="bar" data-key={p.key} data-value={p.value}>
                <title>{`${p.key}: ${formatNumber(p.value)}`}</title>
              </rect>
              {p.value > 0 && points.length <= 31 && <text x={i * slot + slot / 2} y={height - h - 3} class="value" text-anchor="middle">{p.value}</text>}
              {i % every === 0 && <text x={i * slot + slot / 2} y={height + 16} class="label" text-anchor="middle">{p.label}</text>}
            </g>
          )
        })}
      </svg>
    </figure>
  )
}

/** Horizontal bars for named groups (models, credentials, client keys): long names get their own line. */
export function RankChart({ title, points, id }: { title: string; points: Point[]; id?: string }) {
  // Narrower drawing box than the time charts: these sit three to a row, and the text must stay legible.
  const width = 340
  const max = Math.max(1, ...points.map(p => p.value))
  const row = 36
  if (!points.length) return <figure class="chart" data-chart={id}><figcaption>{title}</figcaption><p class="muted">No requests yet.</p></figure>
  return (
    <figure class="chart" data-chart={id}>
      <figcaption>{title}</figcaption>
      <svg viewBox={`0 0 ${width} ${points.length * row}`} role="img" aria-label={`${title}: ${points.map(p => `${p.label} ${p.value}`).join(', ')}`}>
        {points.map((p, i) => (
          <g key={p.key}>
            <text x="0" y={i * row + 12} class="label">{p.label}</text>
            <rect x="0" y={i * row + 16} width={Math.max(2, (p.value / max) * (width - 70))} height="12" class="bar" data-key={p.key} data-value={p.value}>
              <title>{`${p.label}: ${formatNumber(p.value)}`}</title>
            </rect>
            <text x={Math.max(2, (p.value / max) * (width - 70)) + 6} y={i * row + 27} class="value">{formatNumber(p.value)}</text>
          </g>
        ))}
      </svg>
    </figure>
  )
}
