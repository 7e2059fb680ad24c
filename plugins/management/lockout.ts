import type { ProxyConfig } from 'model-proxy'

/**
 * Why a config written through the management API would shut out the operator writing it, or
 * undefined. The write is answered, then every later call is a 404 (no secret) or a 403 (a remote
 * operator, remote access off), and only an edit of the file on the machine brings the API back; so
 * such a write is refused, as an empty document is. Turning the API off stays possible by editing the
 * file. `MANAGEMENT_PASSWORD` keeps the API on and open to remote clients whatever the file says.
 */
export function lockoutProblem(next: ProxyConfig, writer: { remote: boolean; envPassword: boolean }): string | undefined {
  if (writer.envPassword) return undefined
  const settings = next['remote-management']
  if (!settings['secret-key']) return 'remote-management.secret-key: this config has no management secret, so it would turn the management API off (every call a 404) right after this write; to turn it off, edit the file itself'
  if (writer.remote && !settings['allow-remote']) return 'remote-management.allow-remote: this config refuses remote management, so it would shut you (a remote client) out right after this write; to change that, edit the file itself or write it from the machine'
  return undefined
}
