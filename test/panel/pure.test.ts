import { describe, expect, it } from 'vitest'
import { upstreamToForm as compatToForm, formToUpstream as formToCompat, formToKeyEntry, keyEntryToForm, needsReplace, splitList } from '../../panel/src/entries.ts'
import { filterLines, mergeTail, nextAfter, emptyTail } from '../../panel/src/log-tail.ts'
import { daySeries, hourSeries, topSeries } from '../../panel/src/usage-series.ts'
import { formsToRules, ruleWarnings, rulesToForms } from '../../panel/src/payload-rules.ts'
import { checkYaml } from '../../panel/src/config-check.ts'
import { formatCountdown, formatUptime } from '../../panel/src/format.ts'
import { changedFields, rebased } from '../../panel/src/fresh-values.ts'

describe('provider entries <-> forms', () => {
  it.each([
    [{ 'api-key': 'k1', prefix: '', 'base-url': '', 'excluded-models': [], models: [], headers: {}, priority: 0 }],
    [{ 'api-key': 'k2', prefix: 'team', 'base-url': 'http://h/v1', 'excluded-models': ['a-*', '*b'], models: [{ name: 'm', alias: 'x' }], headers: { 'x-a': '1' }, priority: 5, 'proxy-url': '' }],
    [{ 'api-key': 'k3', prefix: '', 'base-url': '', 'excluded-models': [], models: [], headers: {}, priority: -1, 'proxy-url': 'socks5://h:1080' }],
  ])('key entry %j round-trips', (entry) => {
    expect(formToKeyEntry(keyEntryToForm(entry))).toEqual(entry)
  })
  it('compat provider round-trips, keys with and without their own proxy', () => {
    const entry = { name: 'p', 'base-url': 'http://h/v1', 'api-key-entries': [{ 'api-key': 'a' }, { 'api-key': 'b', 'proxy-url': '' }], models: [{ name: 'm', alias: '' }], headers: {}, prefix: '', 'excluded-models': [], priority: 2 }
    expect(formToCompat(compatToForm(entry))).toEqual(entry)
  })
  it.each([
    ['a, b\n c,,', ['a', 'b', 'c']],
    ['', []],
  ])('splitList(%j)', (text, list) => expect(splitList(text)).toEqual(list))
  it.each([
    [{ 'proxy-url': 'x' }, {}, true],
    [{ 'proxy-url': 'x' }, { 'proxy-url': '' }, false],
    [{}, {}, false],
    [{ 'api-key-entries': [{ 'proxy-url': '' }] }, { 'api-key-entries': [{}] }, true],
  ])('needsReplace(%j, %j) = %s', (before, after, expected) => expect(needsReplace(before, after)).toBe(expected))
  it('a priority that is not a number is sent as typed, for the server to name', () => {
    expect(formToKeyEntry({ ...keyEntryToForm({ 'api-key': 'k' }), priority: 'high' }).priority).toBe('high')
  })
})

describe('log tail', () => {
  const line = (s: number, text: string, level = 'INFO') => `[2026-11-22 10:00:${String(s).padStart(2, '0')}] ${level}: ${text}`
  it('keeps lines written later in the boundary second and drops the ones it has', () => {
    let tail = mergeTail(emptyTail, [line(1, 'a'), line(2, 'b')])
    expect(tail.lines).toHaveLength(2)
    const after = nextAfter(tail)
    expect(after).toBe(tail.latest - 1)
    tail = mergeTail(tail, [line(2, 'b'), line(2, 'c'), line(3, 'd')])
    expect(tail.lines.map(l => l.slice(-1))).toEqual(['a', 'b', 'c', 'd'])
    tail = mergeTail(tail, [line(3, 'd'), line(3, 'd')])
    expect(tail.lines.map(l => l.slice(-1))).toEqual(['a', 'b', 'c', 'd', 'd'])
  })
  it('filters by level and text', () => {
    const lines = [line(1, 'hello'), line(2, 'boom', 'ERROR'), line(3, 'Hello again', 'WARN')]
    expect(filterLines(lines, 'ERROR', '')).toEqual([lines[1]])
    expect(filterLines(lines, '', 'hello')).toEqual([lines[0], lines[2]])
  })
})

describe('usage series', () => {
  const now = Date.UTC(2026, 10, 22, 15, 30)
  const t = (requests: number) => ({ requests, success: requests, failure: 0, total_tokens: requests * 10, input_tokens: 0, output_tokens: 0, latency_ms_avg: 0 })
  it('fills the last 24 hours with zeros where there was no traffic', () => {
    const series = hourSeries({ '2026-11-22T15:00': t(3), '2026-11-22T13:00': t(1), '2026-11-20T15:00': t(9) }, 'requests', now)
    expect(series).toHaveLength(24)
    expect(series.at(-1)).toMatchObject({ key: '2026-11-22T15:00', value: 3 })
    expect(series.at(-3)).toMatchObject({ key: '2026-11-22T13:00', value: 1 })
    expect(series.reduce((s, p) => s + p.value, 0)).toBe(4)
  })
  it('days and top groups', () => {
    expect(daySeries({ '2026-11-21': t(2) }, 'total_tokens', now).at(-2)).toMatchObject({ key: '2026-11-21', value: 20 })
    expect(topSeries({ a: t(1), b: t(5), c: t(5) }, 'requests', 2).map(p => p.key)).toEqual(['b', 'c'])
  })
})

describe('payload rules <-> rows', () => {
  it.each([
    ['default', [{ models: [{ name: 'gemini-*', protocol: 'proto_alpha' }], params: { 'generationConfig.thinkingConfig.thinkingBudget': 8192, 'a.b': 'text', flag: true } }]],
    ['override-raw', [{ models: [{ name: '*' }], params: { stream_options: '{"include_usage":true}' } }]],
    ['filter', [{ models: [{ name: '*-mini' }], params: ['temperature', 'top_p'] }]],
  ] as const)('%s rules round-trip', (section, rules) => {
    expect(formsToRules(section, rulesToForms(section, rules as never))).toEqual(rules)
  })
  it('warns about raw values that are not JSON and rules with no model', () => {
    expect(ruleWarnings('override-raw', [{ models: [{ name: '', protocol: '' }], params: [{ path: 'x', value: '{nope' }] }])).toEqual([
      'payload.override-raw[0]: no model pattern, the rule never applies',
      'payload.override-raw[0] x: not valid JSON text',
    ])
    // A value typed with no path is dropped at save: said before, not lost silently. An empty row is not a problem.
    expect(ruleWarnings('override', [{ models: [{ name: 'm', protocol: '' }], params: [{ path: ' ', value: '0.3' }, { path: '', value: '' }] }])).toEqual([
      'payload.override[0]: a value with no path is not saved',
    ])
  })
})

describe('config check before saving', () => {
  it.each([
    ['port: 8080\n', []],
    ['port: 70000\n', [{ line: 1, text: 'port: must be 1..65535' }]],
    ['api-keys: [a]\ncompat-provider:\n  - name: x\n    base-url: nope\n', [{ line: 4, text: 'compat-provider[0].base-url: must be an http(s) URL' }]],
  // The families' keys as GET /v0/management/providers names them (the panel passes that list).
  ])('%j', (yaml, problems) => expect(checkYaml(yaml, [{ 'config-key': 'compat-provider', editor: 'named-upstreams' }])).toEqual(problems))
  it('reports YAML syntax errors with their line', () => {
    const [problem] = checkYaml('a: 1\nb: [1, 2\n')
    expect(problem!.line).toBeGreaterThanOrEqual(2)
    expect(problem!.text).toMatch(/flow|collection|end/i)
  })
})

describe('formatting', () => {
  it.each([[5, '5s'], [65, '1m 5s'], [3700, '1h 1m'], [93784, '1d 2h 3m']])('uptime %d -> %s', (s, text) => expect(formatUptime(s)).toBe(text))
  it.each([[9_000, '9s'], [65_000, '1m 05s'], [3_720_000, '1h 02m'], [-5, '0s']])('countdown %d -> %s', (ms, text) => expect(formatCountdown(ms, 0)).toBe(text))
})

describe('settings saved from a stale view (fresh-values.ts)', () => {
  const seen = { retry: '1', debug: false, strategy: 'round-robin' }
  it('names the fields the server changed since the page read them', () => {
    expect(changedFields(seen, seen)).toEqual([])
    expect(changedFields(seen, { ...seen, retry: '3', debug: true })).toEqual(['retry', 'debug'])
  })
  it.each([
    ['no edit: the fresh values', seen, { ...seen, retry: '3' }, { ...seen, retry: '3' }],
    ['an edit of a field the server kept: the edit stays', { ...seen, debug: true }, { ...seen, retry: '3' }, { ...seen, retry: '3', debug: true }],
    ['an edit of a field the server changed: the fresh value', { ...seen, retry: '5' }, { ...seen, retry: '3' }, { ...seen, retry: '3' }],
    ['an edit the server already has: the same', { ...seen, retry: '3' }, { ...seen, retry: '3' }, { ...seen, retry: '3' }],
  ])('%s', (_name, values, now, expected) => {
    expect(rebased(values, seen, now)).toEqual(expected)
  })
})
