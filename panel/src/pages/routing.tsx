import { useEffect, useRef, useState } from 'preact/hooks'
import { del, get, put } from '../api.ts'
import { changedFields, rebased, valuesChanged } from '../fresh-values.ts'
import { useAction, useLoad } from '../hooks.ts'
import { CheckField, Section, SelectField, TextField } from '../components/field.tsx'
import { ErrorLine, NoticeLine } from '../components/notice.tsx'
import { CredentialWindows } from '../components/credential-windows.tsx'
import { RoutePreview } from '../components/route-preview.tsx'

/** Settings with their own single-field endpoint: URL path, where the value sits in `GET /config`, kind. */
const fields = [
  ['/routing/strategy', ['routing', 'strategy'], 'choice'],
  ['/request-retry', ['request-retry'], 'int'],
  ['/max-retry-interval', ['max-retry-interval'], 'int'],
  ['/quota-exceeded/switch-project', ['quota-exceeded', 'switch-project'], 'bool'],
  ['/quota-exceeded/switch-preview-model', ['quota-exceeded', 'switch-preview-model'], 'bool'],
  ['/proxy-url', ['proxy-url'], 'text'],
  ['/usage-statistics-enabled', ['usage-statistics-enabled'], 'bool'],
  ['/logging-to-file', ['logging-to-file'], 'bool'],
  ['/request-log', ['request-log'], 'bool'],
  ['/logs-max-total-size-mb', ['logs-max-total-size-mb'], 'int'],
  ['/error-logs-max-files', ['error-logs-max-files'], 'int'],
  ['/debug', ['debug'], 'bool'],
] as const
type Path = typeof fields[number][0]
type Values = Record<Path, string | boolean>

const read = (config: Record<string, any>, path: readonly string[]) => path.reduce<any>((node, key) => node?.[key], config)

/** The form's values in a `GET /config` answer. */
const valuesIn = (config: Record<string, any>): Values => Object.fromEntries(fields.map(([route, path, kind]) => {
  const value = read(config, path)
  return [route, kind === 'bool' ? Boolean(value) : String(value ?? '')]
})) as Values

/**
 * Routing and quota behaviour plus the operational switches; only changed fields are sent, and only
 * when the server still has the values the page shows (fresh-values.ts).
 */
export function RoutingSettings() {
  const config = useLoad(() => get<Record<string, any>>('/config'))
  const [values, setValues] = useState<Values>()
  const { notice, busy, act } = useAction()
  const initial = (): Values | undefined => config.data && valuesIn(config.data)
  // What the form was last read from: a fresh read keeps the operator's edits of fields it did not change.
  const seen = useRef<Values | undefined>(undefined)
  useEffect(() => {
    const now = initial()
    setValues(current => current && seen.current && now ? rebased(current, seen.current, now) : now)
    seen.current = now
  }, [config.data])

  const save = (event: Event) => { event.preventDefault(); void act(async () => {
    const before = initial()!
    // Each setting has its own call: every value is checked before the first is sent, so a refused form
    // saves nothing; the proxy URL, the one value only the server checks, goes first for the same reason.
    const changes = fields.filter(([route]) => values![route] !== before[route])
      .sort(([a], [b]) => Number(b === '/proxy-url') - Number(a === '/proxy-url'))
    for (const [route, , kind] of changes) {
      const text = String(values![route]).trim()
      if (kind === 'int' && !(/^\d+$/.test(text) && Number.isSafeInteger(Number(text)))) throw new Error(`${route.slice(1)}: must be a whole number ≥ 0`)
    }
    // Saved from a stale view, a value set meanwhile elsewhere would be overwritten unseen.
    const stale = changedFields(before, valuesIn(await get<Record<string, any>>('/config')))
    if (stale.length) {
      await config.reload()
      throw valuesChanged(stale.map(route => route.slice(1)))
    }
    const saved: string[] = []
    for (const [route, , kind] of changes) {
      const value = values![route]
      try {
        if (route === '/proxy-url' && value === '') await del('/proxy-url')
        else await put(route, { value: kind === 'int' ? Number(String(value).trim()) : value })
      } catch (error) {
        throw saved.length ? new Error(`${(error as Error).message} (saved before it: ${saved.join(', ')})`) : error
      }
      saved.push(route.slice(1))
    }
    await config.reload()
    if (!changes.length) throw new Error('nothing changed')
  }, 'settings saved') }

  const strategies = [['round-robin', 'Rotate over the credentials.'], ['fill-first', 'The first eligible credential in config order.'], ['quota-aware', 'The most headroom in the quota windows upstreams report.']] as const
  if (!values) return <><h1>Routing &amp; quota</h1><ErrorLine error={config.error} /></>
  const set = (route: Path, value: string | boolean) => setValues({ ...values, [route]: value })
  const text = (route: Path) => String(values[route])
  const bool = (route: Path) => Boolean(values[route])
  return (
    <>
      <h1>Routing &amp; quota</h1>
      <ErrorLine error={config.error} />
      <form onSubmit={save}>
        <Section title="Routing">
          <div class="grid">
            <SelectField label="Strategy" name="strategy" value={text('/routing/strategy')} onChange={v => set('/routing/strategy', v)}
              options={strategies.map(([id]) => [id, id])} hint={strategies.find(([id]) => id === text('/routing/strategy'))?.[1]} />
            <TextField label="Request retries" name="request-retry" value={text('/request-retry')} onInput={v => set('/request-retry', v)} hint="Extra attempts after a retryable failure." />
            <TextField label="Max retry interval (s)" name="max-retry-interval" value={text('/max-retry-interval')} onInput={v => set('/max-retry-interval', v)} hint="Wait at most this long for a cooling credential." />
            <TextField label="Outbound proxy URL" name="proxy-url" value={text('/proxy-url')} placeholder="socks5://host:1080" onInput={v => set('/proxy-url', v)} hint="Empty = direct." />
          </div>
        </Section>
        <Section title="Quota exceeded">
          <CheckField label="Switch to the next credential (switch-project)" name="switch-project" checked={bool('/quota-exceeded/switch-project')} onChange={v => set('/quota-exceeded/switch-project', v)} />
          <CheckField label="Try the -preview model first (switch-preview-model)" name="switch-preview-model" checked={bool('/quota-exceeded/switch-preview-model')} onChange={v => set('/quota-exceeded/switch-preview-model', v)} />
        </Section>
        <Section title="Statistics and logs">
          <CheckField label="Usage statistics" name="usage-statistics-enabled" checked={bool('/usage-statistics-enabled')} onChange={v => set('/usage-statistics-enabled', v)} />
          <CheckField label="Logging to file" name="logging-to-file" checked={bool('/logging-to-file')} onChange={v => set('/logging-to-file', v)} />
          <CheckField label="Log every request (request-log)" name="request-log" checked={bool('/request-log')} onChange={v => set('/request-log', v)} />
          <CheckField label="Debug" name="debug" checked={bool('/debug')} onChange={v => set('/debug', v)} />
          <div class="grid">
            <TextField label="Logs size cap (MB, 0 = none)" name="logs-max-total-size-mb" value={text('/logs-max-total-size-mb')} onInput={v => set('/logs-max-total-size-mb', v)} />
            <TextField label="Error logs kept" name="error-logs-max-files" value={text('/error-logs-max-files')} onInput={v => set('/error-logs-max-files', v)} />
          </div>
        </Section>
        <NoticeLine notice={notice} />
        <div class="actions">
          <button type="submit" class="primary" disabled={busy}>Save settings</button>
          <button type="button" onClick={() => setValues(initial())}>Undo changes</button>
        </div>
      </form>
      <CredentialWindows />
      <RoutePreview />
    </>
  )
}
