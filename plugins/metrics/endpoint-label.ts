/**
 * The client endpoint as a metric label. The matched route pattern is used, so labels stay a short,
 * fixed list; in generateContent paths the model becomes `{model}` and the method is kept.
 */
export function endpointLabel(pathname: string, route?: string): string {
  if (!route) return pathname
  if (!route.endsWith('/**')) return route
  const method = /\/models\/[^/]+(:[A-Za-z]+)$/.exec(pathname)
  return method ? `${route.slice(0, -2)}{model}${method[1]}` : route
}
