import { describe, expect, it } from 'vitest'
import { Counter, Histogram, Registry } from 'prom-client'
import { CounterTally, HistogramTally } from './tally.ts'

/** The tallies must print exactly what prom-client's own metrics print for the same observations. */
describe('metric tallies', () => {
  const observations = [0.01, 0.05, 0.3, 0.3, 2, 99, 500]
  const bounds = [0.05, 0.25, 1, 10, 120]

  it.each([
    ['one label', ['provider'], [['a'], ['b'], ['a']]],
    ['two labels', ['provider', 'status'], [['a', '200'], ['a', '500'], ['b', '200']]],
  ] as const)('histogram with %s prints as prom-client does', async (_name, labelNames, labelSets) => {
    const ours = new Registry()
    const theirs = new Registry()
    const tally = new HistogramTally('h_seconds', 'help text', labelNames, bounds)
    ours.registerMetric(tally as never)
    const reference = new Histogram({ name: 'h_seconds', help: 'help text', labelNames: [...labelNames], buckets: [...bounds], registers: [theirs] })
    labelSets.forEach((values, i) => {
      for (const value of observations.slice(i)) {
        tally.observe([...values], value)
        reference.observe(Object.fromEntries(labelNames.map((name, j) => [name, values[j]!])), value)
      }
    })
    expect(await ours.metrics()).toBe(await theirs.metrics())
  })

  it('counter prints as prom-client does, including increments by more than one', async () => {
    const ours = new Registry()
    const theirs = new Registry()
    const tally = new CounterTally('c_total', 'help', ['model', 'type'])
    ours.registerMetric(tally as never)
    const reference = new Counter({ name: 'c_total', help: 'help', labelNames: ['model', 'type'], registers: [theirs] })
    for (const [model, type, by] of [['m', 'input', 10], ['m', 'output', 3], ['m', 'input', 5], ['n', 'input', 1]] as const) {
      tally.inc([model, type], by)
      reference.inc({ model, type }, by)
    }
    expect(await ours.metrics()).toBe(await theirs.metrics())
    tally.reset()
    expect(await ours.metrics()).toBe('# HELP c_total help\n# TYPE c_total counter\n')
  })
})
