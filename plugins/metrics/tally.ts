/**
 * Counters and histograms the hot path updates with a Map lookup; the registry reads them at scrape
 * time (they are prom-client "metrics": objects with `name` and `get()`). prom-client's own
 * `inc`/`observe` hash and validate the label object on every call, ~2% of a proxied request.
 * Label values must come from bounded sets (the plugin sees to that).
 */
interface Row { labels: Record<string, string>; value: number }
interface HistogramRow { labels: Record<string, string>; buckets: number[]; sum: number; count: number }

interface MetricValue { labels: Record<string, string | number>; value: number; metricName?: string }

const labelsOf = (names: readonly string[], values: string[]) => Object.fromEntries(names.map((name, i) => [name, values[i]!]))

export class CounterTally {
  readonly type = 'counter'
  readonly aggregator = 'sum'
  private rows = new Map<string, Row>()
  constructor(readonly name: string, readonly help: string, private labelNames: readonly string[]) {}

  inc(values: string[], by = 1): void {
    const key = values.join('\u0000')
    const row = this.rows.get(key)
    if (row) row.value += by
    else this.rows.set(key, { labels: labelsOf(this.labelNames, values), value: by })
  }

  get() {
    const values: MetricValue[] = [...this.rows.values()].map(row => ({ labels: row.labels, value: row.value }))
    return { name: this.name, help: this.help, type: this.type, values, aggregator: this.aggregator }
  }

  reset(): void { this.rows.clear() }
}

export class HistogramTally {
  readonly type = 'histogram'
  readonly aggregator = 'sum'
  private rows = new Map<string, HistogramRow>()
  constructor(readonly name: string, readonly help: string, private labelNames: readonly string[], private bounds: readonly number[]) {}

  observe(values: string[], value: number): void {
    const key = values.join('\u0000')
    let row = this.rows.get(key)
    if (!row) this.rows.set(key, row = { labels: labelsOf(this.labelNames, values), buckets: this.bounds.map(() => 0), sum: 0, count: 0 })
    // Per-bucket counts here; cumulative ones at scrape time.
    const index = this.bounds.findIndex(bound => value <= bound)
    if (index !== -1) row.buckets[index]!++
    row.sum += value
    row.count++
  }

  get() {
    const values: MetricValue[] = []
    for (const row of this.rows.values()) {
      let cumulative = 0
      this.bounds.forEach((le, i) => {
        cumulative += row.buckets[i]!
        values.push({ labels: { le, ...row.labels }, value: cumulative, metricName: `${this.name}_bucket` })
      })
      values.push({ labels: { le: '+Inf', ...row.labels }, value: row.count, metricName: `${this.name}_bucket` })
      values.push({ labels: row.labels, value: row.sum, metricName: `${this.name}_sum` })
      values.push({ labels: row.labels, value: row.count, metricName: `${this.name}_count` })
    }
    return { name: this.name, help: this.help, type: this.type, values, aggregator: this.aggregator }
  }

  reset(): void { this.rows.clear() }
}
