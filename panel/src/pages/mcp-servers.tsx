import { useState } from 'preact/hooks'
import { get, post, put } from '../api.ts'
import { useAction, useLoad } from '../hooks.ts'
import { Section } from '../components/field.tsx'
import { ErrorLine, NoticeLine } from '../components/notice.tsx'

interface McpServerRow {
  name: string
  state: 'starting' | 'up' | 'down' | 'disabled'
  transport?: string
  where?: string
  error?: string
  since?: number
  failures?: number
  nextRetryAt?: number
  tools?: number
  resources?: number
  prompts?: number
  activeCalls?: number
}

interface McpToolRow { name: string; namespaced: string; description?: string; enabled: boolean; keys: string[] }

const ago = (ms?: number) => ms === undefined ? '' : `${Math.max(0, Math.round((Date.now() - ms) / 1000))} s ago`

/** One server's tools: enable/disable each (written to the config), and which keys may call it. */
function ServerTools({ name, busy, act }: { name: string; busy: boolean; act: ReturnType<typeof useAction>['act'] }) {
  const tools = useLoad(() => get<{ tools: McpToolRow[] }>(`/mcp/servers/${encodeURIComponent(name)}/tools`).then(body => body.tools), 0, [name])
  const toggle = (tool: McpToolRow) => act(async () => {
    await put(`/mcp/servers/${encodeURIComponent(name)}/tools/${encodeURIComponent(tool.name)}`, { enabled: !tool.enabled })
    await tools.reload()
  }, `${tool.namespaced} ${tool.enabled ? 'disabled' : 'enabled'}`)
  return (
    <>
      <ErrorLine error={tools.error} />
      <table class="stack" data-mcp-tools={name}>
        <thead><tr><th scope="col">Tool</th><th scope="col">Keys that may call it</th><th scope="col">Actions</th></tr></thead>
        <tbody>
          {(tools.data ?? []).map(tool => (
            <tr key={tool.name} data-tool={tool.namespaced}>
              <td><code>{tool.namespaced}</code><div class="muted">{tool.description?.slice(0, 140)}</div></td>
              <td data-label="Keys">{tool.enabled ? (tool.keys.join(', ') || 'none') : <span class="muted">disabled</span>}</td>
              <td><button type="button" class="small" disabled={busy} onClick={() => { void toggle(tool) }}>{tool.enabled ? 'Disable' : 'Enable'}</button></td>
            </tr>
          ))}
        </tbody>
      </table>
    </>
  )
}

/** The MCP gateway's servers (`/mcp`): health, restarts, tools and who may call them. */
export function McpServers() {
  const servers = useLoad(() => get<{ servers: McpServerRow[] }>('/mcp/servers').then(body => body.servers), 5000)
  const { notice, busy, act } = useAction()
  const [open, setOpen] = useState<string>()
  const restart = (name: string) => act(async () => { await post(`/mcp/servers/${encodeURIComponent(name)}/restart`, {}); await servers.reload() }, `${name} restarting`)
  const list = servers.data ?? []
  return (
    <>
      <h1>MCP servers</h1>
      <p class="muted">The MCP servers behind the gateway at <code>/mcp</code> (config: <code>mcp-servers</code>). Clients connect with their client key and see the tools their key may call, named <code>server__tool</code>.</p>
      <ErrorLine error={servers.error} />
      <NoticeLine notice={notice} />
      <Section title={`Servers (${list.length})`}>
        {!list.length && <p class="muted">No MCP servers configured.</p>}
        <table class="stack" data-mcp-servers>
          <thead><tr><th scope="col">Server</th><th scope="col">State</th><th scope="col">Offers</th><th scope="col">Calls now</th><th scope="col">Actions</th></tr></thead>
          <tbody>
            {list.map(server => (
              <tr key={server.name} data-server={server.name} data-state={server.state}>
                <td><strong>{server.name}</strong><div class="muted">{server.transport} {server.where}</div></td>
                <td data-label="State">
                  <span class={server.state === 'up' ? 'ok' : 'warn'}>{server.state}</span> <span class="muted">{ago(server.since)}</span>
                  {server.error && <div class="muted">{server.error}</div>}
                  {server.state === 'down' && server.nextRetryAt && <div class="muted">retry in {Math.max(0, Math.round((server.nextRetryAt - Date.now()) / 1000))} s (failures: {server.failures})</div>}
                </td>
                <td data-label="Offers">{server.tools ?? 0} tools, {server.resources ?? 0} resources, {server.prompts ?? 0} prompts</td>
                <td data-label="Calls now">{server.activeCalls ?? 0}</td>
                <td>
                  {server.state !== 'disabled' && <button type="button" class="small" onClick={() => setOpen(open === server.name ? undefined : server.name)}>{open === server.name ? 'Hide tools' : 'Tools'}</button>}
                  {server.state !== 'disabled' && <button type="button" class="small" disabled={busy} onClick={() => { void restart(server.name) }}>Restart</button>}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </Section>
      {open && <Section title={`Tools of ${open}`}><ServerTools name={open} busy={busy} act={act} /></Section>}
    </>
  )
}
