// The conformance suite imports `fs.globSync` (Node 22+); on Node 20 this load hook gives its module a
// stand-in (it lists nothing) so the server scenarios, which never glob, run.
export async function load(url, context, next) {
  const result = await next(url, context)
  if (!url.includes('@modelcontextprotocol/conformance/dist/')) return result
  let source = String(result.source ?? '')
  const match = /globSync as (\w+),/.exec(source)
  if (!match) return result
  source = source.replace(match[0], '').replace(/^#!.*\n/, '')
  source = `import{globSync as ${match[1]}}from"data:text/javascript,export function globSync(){return []}";${source}`
  return { ...result, source, shortCircuit: true }
}
