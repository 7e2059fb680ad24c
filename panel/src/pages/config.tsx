import { useEffect, useMemo, useState } from 'preact/hooks'
import { loadConfigText, saveConfigText } from '../config-file.ts'
import { useAction, useLoad } from '../hooks.ts'
import { checkYaml, type YamlProblem } from '../config-check.ts'
import { loadFamilies } from '../families.ts'
import { NoticeLine } from '../components/notice.tsx'

/**
 * The YAML file itself. Every edit is checked as you type (YAML syntax, then the server's own schema),
 * problems listed next to the editor; Save sends it to `PUT /config.yaml`, which validates again and
 * writes nothing when it refuses: its reason shows here and the text stays.
 */
export function ConfigEditor() {
  const source = useLoad(loadConfigText)
  const [text, setText] = useState<string>()
  const [serverProblems, setServerProblems] = useState<string[]>([])
  const { notice, busy, act } = useAction()
  useEffect(() => { if (source.data !== undefined && text === undefined) setText(source.data.text) }, [source.data])
  // The families' keys are checked too: which ones exist, the server says (GET /providers).
  const families = useLoad(loadFamilies)
  const problems: YamlProblem[] = useMemo(() => text === undefined ? [] : checkYaml(text, families.data), [text, families.data])
  const dirty = text !== undefined && text !== source.data?.text
  /** The file as saved (the server may have rewritten it, e.g. a plain secret hashed). */
  const reloadText = async () => {
    await source.reload()
    setText((await loadConfigText()).text)
  }

  const save = (event: Event) => {
    event.preventDefault()
    setServerProblems([])
    void act(async () => {
      try {
        // Saved over the version loaded: a file changed since is refused (412), never silently undone.
        const answer = await saveConfigText(text ?? '', source.data?.version)
        await reloadText()
        return answer
      } catch (error) {
        const body = (error as { body?: { error?: string; message?: string } }).body
        if (body?.message) setServerProblems(body.message.split('; '))
        throw error
      }
    }, answer => `saved; changed: ${answer.changed.join(', ') || 'nothing'}`)
  }
  if (source.error && text === undefined) return <><h1>Config</h1><p class="notice error" role="alert">{source.error}</p></>
  if (text === undefined) return <><h1>Config</h1><p class="muted">Loading…</p></>
  return (
    <>
      <h1>Config</h1>
      <form class="config-editor" onSubmit={save}>
        <div class="editor-pane">
          <label for="config-yaml">config.yaml</label>
          <textarea id="config-yaml" spellcheck={false} wrap="off" value={text ?? ''} rows={28} aria-describedby="config-problems" aria-invalid={problems.length > 0}
            onInput={(e) => { setText((e.target as HTMLTextAreaElement).value); setServerProblems([]) }} />
        </div>
        <aside id="config-problems" class="problems" aria-live="polite" aria-label="Validation">
          <h2>Validation</h2>
          {problems.length === 0 && serverProblems.length === 0 && <p class="notice ok" data-validation="ok">{dirty ? 'Valid: ready to save.' : 'Valid.'}</p>}
          {problems.length > 0 && <ul class="notice error" data-validation="client">{problems.map(p => <li key={p.text}>{p.line ? <strong>line {p.line}: </strong> : null}{p.text}</li>)}</ul>}
          {serverProblems.length > 0 && <ul class="notice error" data-validation="server" role="alert">{serverProblems.map(p => <li key={p}>{p}</li>)}</ul>}
          <p class="muted">Keys owned by plugins are checked by the server when you save.</p>
        </aside>
        <div class="actions">
          <button type="submit" class="primary" disabled={busy || !dirty}>Save</button>
          <button type="button" disabled={!dirty} onClick={() => { setText(source.data?.text); setServerProblems([]) }}>Discard changes</button>
          <button type="button" onClick={() => { setServerProblems([]); void act(reloadText, 'reloaded') }}>Reload from server</button>
        </div>
        <NoticeLine notice={notice} />
      </form>
    </>
  )
}
