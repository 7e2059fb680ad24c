import { useEffect, useState } from 'preact/hooks'
import { parseDocument } from 'yaml'
import { loadConfigText, saveConfigText } from '../config-file.ts'
import { useAction, useLoad } from '../hooks.ts'
import { formsToRules, ruleWarnings, rulesToForms, sections, type RuleForm, type SectionName } from '../payload-rules.ts'
import { loadFamilies, payloadProtocolsOf } from '../families.ts'
import { Section } from '../components/field.tsx'
import { ErrorLine, NoticeLine } from '../components/notice.tsx'
import { RowsEditor } from '../components/rows-editor.tsx'

type Forms = Record<SectionName, RuleForm[]>
const help: Record<SectionName, string> = {
  default: 'Set where the request lacks the path. Values are JSON (8192, true, "text").',
  override: 'Always set. Values are JSON.',
  'default-raw': 'Like default, the value is JSON text kept as written.',
  'override-raw': 'Like override, the value is JSON text kept as written.',
  filter: 'Remove these paths.',
}

/**
 * Payload rules, edited as rows and saved into the YAML (`PUT /config.yaml`) with the `yaml` Document
 * API, so the file's comments and other keys stay exactly as they were.
 */
export function PayloadRules() {
  const source = useLoad(loadConfigText)
  // Protocols a rule may name: the server's families' own (GET /providers), then `proto_exp`.
  const families = useLoad(loadFamilies)
  const protocols = families.data ? payloadProtocolsOf(families.data) : []
  const [forms, setForms] = useState<Forms>()
  const { notice, busy, act } = useAction()
  useEffect(() => {
    if (source.data === undefined) return
    const payload = (parseDocument(source.data.text).toJS() ?? {}).payload ?? {}
    setForms(Object.fromEntries(sections.map(name => [name, rulesToForms(name, payload[name])])) as Forms)
  }, [source.data])

  const save = (event: Event) => {
    event.preventDefault()
    void act(async () => {
      const doc = parseDocument(source.data?.text ?? '')
      for (const name of sections) {
        const rules = formsToRules(name, forms![name])
        if (rules.length || doc.hasIn(['payload', name])) doc.setIn(['payload', name], doc.createNode(rules))
      }
      // Over the version loaded: a file changed since (412) is not overwritten with this page's old copy.
      await saveConfigText(doc.toString(), source.data?.version)
      await source.reload()
    }, 'payload rules saved')
  }

  if (!forms) return <><h1>Payload rules</h1><ErrorLine error={source.error} /></>
  const setSection = (name: SectionName, rules: RuleForm[]) => setForms({ ...forms, [name]: rules })
  const warnings = sections.flatMap(name => ruleWarnings(name, forms[name]))
  return (
    <>
      <h1>Payload rules</h1>
      <p class="muted">Edit the body sent upstream, after translation: filters, then defaults, then overrides. A rule applies when one of its model patterns matches (wildcards) and, if given, the upstream's protocol.</p>
      <ErrorLine error={source.error} />
      <form onSubmit={save}>
        {sections.map(name => (
          <Section key={name} title={`payload.${name}`} actions={<button type="button" onClick={() => setSection(name, [...forms[name], { models: [{ name: '', protocol: '' }], params: [{ path: '', value: '' }] }])}>Add rule</button>}>
            <p class="muted">{help[name]}</p>
            {!forms[name].length && <p class="muted">No rules.</p>}
            {forms[name].map((rule, i) => {
              const setRule = (patch: Partial<RuleForm>) => setSection(name, forms[name].map((r, j) => j === i ? { ...r, ...patch } : r))
              return (
                <div class="rule" key={i} data-rule={`${name}-${i}`}>
                  <fieldset class="rows">
                    <legend>Models of rule {i + 1}</legend>
                    {rule.models.map((model, m) => (
                      <div class="row" key={m}>
                        <input aria-label={`Rule ${i + 1} model ${m + 1} pattern`} placeholder="gemini-*" value={model.name} spellcheck={false}
                          onInput={e => setRule({ models: rule.models.map((x, k) => k === m ? { ...x, name: (e.target as HTMLInputElement).value } : x) })} />
                        <select aria-label={`Rule ${i + 1} model ${m + 1} protocol`} value={model.protocol}
                          onChange={e => setRule({ models: rule.models.map((x, k) => k === m ? { ...x, protocol: (e.target as HTMLSelectElement).value } : x) })}>
                          {['', ...protocols].map(p => <option key={p} value={p}>{p || 'any protocol'}</option>)}
                        </select>
                        <button type="button" class="small" onClick={() => setRule({ models: rule.models.filter((_, k) => k !== m) })}>Remove</button>
                      </div>
                    ))}
                    <button type="button" class="small" onClick={() => setRule({ models: [...rule.models, { name: '', protocol: '' }] })}>Add model</button>
                  </fieldset>
                  <RowsEditor legend={`Params of rule ${i + 1}`} addLabel="Add param" name={`${name}-${i}-param`} rows={rule.params} blank={() => ({ path: '', value: '' })}
                    columns={name === 'filter' ? [{ key: 'path', label: 'JSON path', placeholder: 'generationConfig.topP' }] : [{ key: 'path', label: 'JSON path', placeholder: 'messages.0.content' }, { key: 'value', label: 'Value' }]}
                    onChange={params => setRule({ params })} />
                  <button type="button" class="small danger" onClick={() => setSection(name, forms[name].filter((_, j) => j !== i))}>Remove rule {i + 1}</button>
                </div>
              )
            })}
          </Section>
        ))}
        {warnings.length > 0 && <ul class="notice warn" aria-label="Warnings">{warnings.map(w => <li key={w}>{w}</li>)}</ul>}
        <NoticeLine notice={notice} />
        <div class="actions"><button type="submit" class="primary" disabled={busy}>Save payload rules</button></div>
      </form>
    </>
  )
}
