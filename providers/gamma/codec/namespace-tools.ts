import { createHash } from 'node:crypto'
import { type ToolDef, RequestValidationError } from 'model-proxy'
import { absent, isObject, str, type Json } from './guards.ts'
import { decodeFunction, functionLosses, functionTool } from './function-tool.ts'

/** The longest tool name the chat, messages and generateContent formats all accept. */
export const maxToolName = 64

/**
 * The flat name of `tool` inside namespace `namespace`, for formats without namespaces: the join Codex
 * itself uses (`multi_agent_v1__close_agent`, `mcp__proxy__` + `echo` -> `mcp__proxy__echo`), in the
 * characters every format accepts in a tool name (`[a-zA-Z0-9_-]`). Too long, or already taken by
 * another tool: cut, with a hash of both names at its end, so the same pair always gets the same name.
 */
export function flatToolName(namespace: string, tool: string, taken?: ReadonlySet<string>): string {
  const joined = `${namespace.replace(/_+$/, '')}__${tool.replace(/^_+/, '')}`.replace(/[^a-zA-Z0-9_-]/g, '_')
  if (joined.length <= maxToolName && !taken?.has(joined)) return joined
  const suffix = `_${createHash('sha256').update(`${namespace}\0${tool}`).digest('hex').slice(0, 10)}`
  return joined.slice(0, maxToolName - suffix.length) + suffix
}

export interface DecodedNamespace {
  /** Its function tools, flattened (each keeps its namespace). */
  defs: ToolDef[]
  /** The namespace as kept for the same format: function tools as shells, other tools verbatim. */
  shell: Json
  /** Its tools of other types (`tool:custom`...): they have no place in the other formats. */
  dropped: string[]
}

const namespaceKeys = new Set(['type', 'name', 'description', 'tools'])

/** One `{type:'namespace'}` tool; `taken` holds the names used so far and gets the new ones. */
export function decodeNamespace(tool: Json, param: string, taken: Set<string>): DecodedNamespace {
  const name = str(tool.name)
  if (!name) throw new RequestValidationError(`${param}.name must be a non-empty string`, `${param}.name`)
  if (!absent(tool.tools) && !Array.isArray(tool.tools)) throw new RequestValidationError(`${param}.tools must be an array`, `${param}.tools`)
  const defs: ToolDef[] = []
  // The group's own keys beyond its name, description and tools (a newer API's) have no place elsewhere.
  const dropped: string[] = Object.keys(tool).filter(key => !namespaceKeys.has(key)).map(key => `tools.${key}`)
  const nested = ((tool.tools ?? []) as unknown[]).map((entry, i): Json => {
    const at = `${param}.tools[${i}]`
    if (!isObject(entry) || typeof entry.type !== 'string') throw new RequestValidationError(`${at} must be a tool object with a type`, at)
    if (entry.type !== 'function') {
      dropped.push(`tool:${entry.type}`)
      return entry
    }
    const { def, shell } = decodeFunction(entry, at)
    dropped.push(...functionLosses(shell))
    const flat = flatToolName(name, def.name, taken)
    taken.add(flat)
    defs.push({ ...def, name: flat, namespace: { name, tool: def.name } })
    return shell
  })
  return { defs, shell: { ...tool, tools: nested }, dropped }
}

/** The flat name of a call of `tool` in `namespace`, as the request's tools named it (else computed alone). */
export function namespacedCallName(defs: readonly ToolDef[] | undefined, namespace: string, tool: string): string {
  const def = defs?.find(d => d.namespace?.name === namespace && d.namespace.tool === tool)
  return def?.name ?? flatToolName(namespace, tool)
}

/** A kept namespace with the canonical definitions merged back into its function tools (taken from `pending`). */
export function encodeNamespace(shell: Json, pending: Map<string, ToolDef>): Json | undefined {
  const name = shell.name
  const tools: Json[] = []
  for (const entry of Array.isArray(shell.tools) ? shell.tools : []) {
    if (!isObject(entry)) continue
    if (entry.type !== 'function') { tools.push(entry); continue }
    const def = [...pending.values()].find(d => d.namespace?.name === name && d.namespace?.tool === entry.name)
    if (!def) continue
    pending.delete(def.name)
    tools.push(functionTool(def, entry, def.namespace!.tool))
  }
  return tools.length ? { ...shell, tools } : undefined
}

/** The tool a `function_call` item from an upstream names: a namespaced one by its flat name, keeping its namespace. */
export function calledTool(item: Json): { name: string; namespace?: ToolDef['namespace'] } {
  const name = str(item.name) ?? ''
  const namespace = str(item.namespace)
  return namespace ? { name: flatToolName(namespace, name), namespace: { name: namespace, tool: name } } : { name }
}
