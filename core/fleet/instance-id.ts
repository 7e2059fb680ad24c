import { hostname } from 'node:os'

/**
 * This instance's name in logs and in what it shares: `PROXY_INSTANCE_ID`, else the host name and the
 * port it was asked to listen on (stable across restarts), else the host name and the pid.
 */
export function instanceIdFor(port?: number, env: NodeJS.ProcessEnv = process.env): string {
  const named = env.PROXY_INSTANCE_ID?.trim()
  if (named) return named.replace(/[^\w.-]/g, '_').slice(0, 64)
  const host = hostname().split('.')[0]!.replace(/[^\w-]/g, '_').slice(0, 40) || 'host'
  return port ? `${host}-${port}` : `${host}-p${process.pid}`
}
