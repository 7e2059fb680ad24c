/**
 * `payload.*` rules <-> the payload editor's rows. Pure. Values of `default` and `override` are JSON
 * typed as the operator writes them (`8192`, `true`, `"text"`, `{...}`); a value that is not JSON is
 * kept as a string. `-raw` values are JSON text and stay text; `filter` params are plain paths.
 */
export const sections = ['default', 'override', 'default-raw', 'override-raw', 'filter'] as const
export type SectionName = typeof sections[number]

export interface ModelMatch { name: string; protocol: string }
export interface ParamRow { path: string; value: string }
export interface RuleForm { models: ModelMatch[]; params: ParamRow[] }

type Rule = { models?: Array<{ name: string; protocol?: string }>; params?: Record<string, unknown> | string[] }

const valueText = (section: SectionName, value: unknown) =>
  section.endsWith('-raw') ? (typeof value === 'string' ? value : JSON.stringify(value)) : JSON.stringify(value)

export function rulesToForms(section: SectionName, rules: Rule[] | undefined): RuleForm[] {
  return (rules ?? []).map(rule => ({
    models: (rule.models ?? []).map(model => ({ name: model.name, protocol: model.protocol ?? '' })),
    params: Array.isArray(rule.params)
      ? rule.params.map(path => ({ path, value: '' }))
      : Object.entries(rule.params ?? {}).map(([path, value]) => ({ path, value: section === 'filter' ? '' : valueText(section, value) })),
  }))
}

function parseValue(text: string): unknown {
  try { return JSON.parse(text) } catch { return text }
}

export function formsToRules(section: SectionName, forms: RuleForm[]): Rule[] {
  return forms.map((form) => {
    const models = form.models.filter(m => m.name.trim()).map(m => ({ name: m.name.trim(), ...(m.protocol && { protocol: m.protocol }) }))
    const rows = form.params.filter(p => p.path.trim())
    const params = section === 'filter'
      ? rows.map(p => p.path.trim())
      : Object.fromEntries(rows.map(p => [p.path.trim(), section.endsWith('-raw') ? p.value : parseValue(p.value)]))
    return { models, params }
  })
}

/** Problems the server would only warn about (a `-raw` value that is not JSON drops its rule). */
export function ruleWarnings(section: SectionName, forms: RuleForm[]): string[] {
  const out: string[] = []
  forms.forEach((form, i) => {
    if (!form.models.some(m => m.name.trim())) out.push(`payload.${section}[${i}]: no model pattern, the rule never applies`)
    // A row is saved by its path: a value typed with none would vanish at save without a word.
    if (form.params.some(p => !p.path.trim() && p.value.trim())) out.push(`payload.${section}[${i}]: a value with no path is not saved`)
    if (section.endsWith('-raw')) {
      for (const p of form.params) {
        if (!p.path.trim()) continue
        try { JSON.parse(p.value) } catch { out.push(`payload.${section}[${i}] ${p.path}: not valid JSON text`) }
      }
    }
  })
  return out
}
