import type { ProxyConfig } from 'model-proxy'
import { parsePath } from './json-path.ts'

export type RuleKind = 'filter' | 'default' | 'override'
export interface CompiledRule {
  kind: RuleKind
  /** `payload.<key>[i]`, for messages. */
  name: string
  models: Array<{ name: string; protocol?: string }>
  params: Array<{ path: Array<string | number>; value?: unknown }>
}

/**
 * Config -> rules in the order they apply: filters, then defaults, then overrides. A `-raw` value that is
 * not valid JSON, or a path the config check should have refused (`__proto__`...), drops its whole rule,
 * with a warning naming it.
 */
export function compileRules(payload: ProxyConfig['payload'], warn: (message: string) => void): CompiledRule[] {
  const rules: CompiledRule[] = []
  payload.filter.forEach((rule, i) => {
    try {
      rules.push({ kind: 'filter', name: `payload.filter[${i}]`, models: rule.models, params: rule.params.map(path => ({ path: parsePath(path) })) })
    } catch (error) {
      warn(`payload.filter[${i}] dropped: ${(error as Error).message}`)
    }
  })
  const valued = (key: 'default' | 'default-raw' | 'override' | 'override-raw', kind: RuleKind) => {
    payload[key].forEach((rule, i) => {
      const name = `payload.${key}[${i}]`
      const params: CompiledRule['params'] = []
      for (const [path, value] of Object.entries(rule.params)) {
        let segments: Array<string | number>
        try {
          segments = parsePath(path)
        } catch (error) {
          warn(`${name} dropped: ${(error as Error).message}`)
          return
        }
        if (!key.endsWith('-raw')) {
          params.push({ path: segments, value })
          continue
        }
        try {
          params.push({ path: segments, value: JSON.parse(String(value)) })
        } catch {
          warn(`${name} dropped: ${path} is not valid JSON (${String(value).slice(0, 60)})`)
          return
        }
      }
      rules.push({ kind, name, models: rule.models, params })
    })
  }
  valued('default', 'default')
  valued('default-raw', 'default')
  valued('override', 'override')
  valued('override-raw', 'override')
  return rules
}
