import { hash, randomBytes } from 'node:crypto'

const prefix = 'sha256:'

/** A stored key: `sha256:<hex>` (the plain key is never kept once hashed). */
export const isKeyHash = (value: string) => /^sha256:[0-9a-f]{64}$/.test(value)

// One-shot `hash` (no Hash object): ~2.4x cheaper per call than createHash, and this runs per request.
export const hashClientKey = (plain: string) => `${prefix}${hash('sha256', plain, 'hex')}`

/** The stored form of an entry's key: its hash either way. */
export const storedHash = (key: string) => isKeyHash(key) ? key : hashClientKey(key)

/** A new key: 32 random bytes (sha256 without salt is then safe to store: nothing to guess). */
export const generateClientKey = () => `sk-proxy-${randomBytes(32).toString('base64url')}`
