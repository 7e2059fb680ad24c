import { createHash, timingSafeEqual } from 'node:crypto'
import bcrypt from 'bcryptjs'

export const isBcryptHash = (value: string) => /^\$2[aby]\$\d{2}\$.{53}$/.test(value)

export const hashSecret = (plain: string) => bcrypt.hash(plain, 10)

const digest = (value: string) => createHash('sha256').update(value).digest()

/**
 * Checks a presented key against the env password (constant-time) or the configured bcrypt hash.
 * bcrypt costs ~50 ms, so verified keys are remembered by digest for the life of the hash.
 */
export function createSecretVerifier() {
  const verified = new Map<string, boolean>()
  return async (presented: string, envPassword: string | undefined, hash: string): Promise<boolean> => {
    if (envPassword) {
      return timingSafeEqual(digest(presented), digest(envPassword))
    }
    if (!hash) return false
    const key = `${hash}\u0000${digest(presented).toString('hex')}`
    const known = verified.get(key)
    if (known !== undefined) return known
    const ok = isBcryptHash(hash) ? await bcrypt.compare(presented, hash) : timingSafeEqual(digest(presented), digest(hash))
    if (verified.size > 1000) verified.clear()
    verified.set(key, ok)
    return ok
  }
}
