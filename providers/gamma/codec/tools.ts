import { type ToolChoice, type ToolDef, RequestValidationError } from 'model-proxy'
import { absent, isObject, type Json } from './guards.ts'
import { decodeFunction, functionLosses, functionTool } from './function-tool.ts'
import { decodeNamespace, encodeNamespace } from './namespace-tools.ts'

/**
 * `tools` -> canonical function tools, plus the wire list kept in extensions: built-in tools verbatim and
 * function tools as shells without description/parameters. The shells keep what ToolDef lacks (`strict`,
 * the list order) so a same-format round trip gives back the same list. A namespace's function tools
 * become flat-named tools that keep their namespace; its other tools are `dropped` for other formats.
 */
export function decodeTools(value: unknown): { tools?: ToolDef[]; wire?: Json[]; dropped?: string[] } {
  if (absent(value)) return {}
  if (!Array.isArray(value)) throw new RequestValidationError('tools must be an array', 'tools')
  const tools: ToolDef[] = []
  const dropped: string[] = []
  // Plain names first: a namespaced tool never takes the name of a plain one, wherever it stands.
  const taken = new Set(value.flatMap(tool => isObject(tool) && tool.type === 'function' && typeof tool.name === 'string' ? [tool.name] : []))
  const wire = value.map((tool, i): Json => {
    const param = `tools[${i}]`
    if (!isObject(tool) || typeof tool.type !== 'string') throw new RequestValidationError(`${param} must be a tool object with a type`, param)
    if (tool.type === 'namespace') {
      const namespace = decodeNamespace(tool, param, taken)
      tools.push(...namespace.defs)
      dropped.push(...namespace.dropped)
      return namespace.shell
    }
    if (tool.type !== 'function') return tool
    const { def, shell } = decodeFunction(tool, param)
    dropped.push(...functionLosses(shell))
    tools.push(def)
    return shell
  })
  return dropped.length ? { tools, wire, dropped } : { tools, wire }
}

/** Canonical tools merged back into the kept wire list: order, namespaces and built-in tools survive, edits win. */
export function encodeTools(defs: ToolDef[] = [], wire: unknown = []): Json[] {
  const pending = new Map(defs.map(def => [def.name, def]))
  const out: Json[] = []
  for (const entry of Array.isArray(wire) ? wire : []) {
    if (!isObject(entry)) continue
    if (entry.type === 'namespace') {
      const namespace = encodeNamespace(entry, pending)
      if (namespace) out.push(namespace)
      continue
    }
    if (entry.type !== 'function') { out.push(entry); continue }
    const def = pending.get(entry.name as string)
    if (!def || def.namespace) continue
    pending.delete(def.name)
    out.push(functionTool(def, entry))
  }
  // Tools added since (by a plugin), and namespaced ones whose namespace is gone: plain, by their flat names.
  for (const def of pending.values()) out.push(functionTool(def))
  return out
}

/** `tool_choice`: choices of built-in tools (`{type:'web_search'}`, `allowed_tools`...) go to extensions. */
export function decodeToolChoice(value: unknown): { choice?: ToolChoice; wire?: Json; dropped?: string[] } {
  if (absent(value)) return {}
  if (value === 'none' || value === 'auto' || value === 'required') return { choice: value }
  // Keys beside the function's name (a newer API's) have no canonical place: named.
  if (isObject(value) && value.type === 'function' && typeof value.name === 'string') {
    const dropped = Object.keys(value).filter(key => key !== 'type' && key !== 'name').map(key => `tool_choice.${key}`)
    return { choice: { name: value.name }, ...(dropped.length && { dropped }) }
  }
  if (isObject(value) && typeof value.type === 'string' && value.type !== 'function') return { wire: value }
  throw new RequestValidationError("tool_choice must be 'none', 'auto', 'required' or a tool object", 'tool_choice')
}

export function encodeToolChoice(choice: ToolChoice | undefined): unknown {
  if (choice === undefined || typeof choice === 'string') return choice
  return { type: 'function', name: choice.name }
}
