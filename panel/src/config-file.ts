import { call } from './api.ts'

/** The YAML file as read, and which version of it that is (the server's ETag). */
export interface ConfigText { text: string; version?: string }

export async function loadConfigText(): Promise<ConfigText> {
  const response = await call<Response>('GET', '/config.yaml', undefined, { raw: true })
  return { text: await response.text(), version: response.headers.get('etag') ?? undefined }
}

/**
 * The whole file saved over the version it was edited from: if the file changed meanwhile (another
 * operator, a script, a hand edit), the server answers 412 and writes nothing, rather than this save
 * undoing those changes.
 */
export function saveConfigText(text: string, version: string | undefined) {
  return call<{ changed: string[] }>('PUT', '/config.yaml', undefined, { text, contentType: 'application/yaml', headers: version ? { 'if-match': version } : {} })
}
