import type { Document } from 'yaml'
import { hashSecret, isBcryptHash } from './secret.ts'

const path = ['remote-management', 'secret-key']

/** A plain `secret-key` in a document becomes its bcrypt hash (the file never keeps the plain secret). */
export async function hashPlainSecretIn(doc: Document): Promise<boolean> {
  const value = doc.getIn(path)
  if (typeof value !== 'string' || !value || isBcryptHash(value)) return false
  doc.setIn(path, await hashSecret(value))
  return true
}
