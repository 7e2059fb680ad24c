import { describe, expect, it } from 'vitest'
import { maskValues } from './credential.ts'

const secret = 'up-key-0123456789abcdef/Zq+x9'
/** No 12 characters of the secret, or of its encodings, left in `text`. */
const clean = (text: string) => [secret, encodeURIComponent(secret), Buffer.from(secret).toString('base64').slice(0, 24)].every(form => !text.includes(form.slice(4, 16)))

describe('maskValues', () => {
  it('masks a secret quoted plain, URL-encoded or base64-encoded at any offset', () => {
    expect(maskValues(`bad key ${secret}`, [secret])).toBe('bad key up-k...q+x9')
    expect(clean(maskValues(`https://x.example/?key=${encodeURIComponent(secret)}&a=1`, [secret]))).toBe(true)
    expect(clean(maskValues(`https://x.example/login?next=${encodeURIComponent(`https://y.example/?key=${encodeURIComponent(secret)}`)}`, [secret]))).toBe(true)
    expect(maskValues(`?sig=${encodeURIComponent(Buffer.from(`Bearer ${secret}`).toString('base64'))}`, [secret])).not.toContain(encodeURIComponent(Buffer.from(secret.slice(2)).toString('base64')).slice(0, 20))
    expect(clean(maskValues(`refresh_token=${new URLSearchParams({ t: secret }).toString().slice(2)}`, [secret]))).toBe(true)
    for (const prefix of ['', 'B', 'Be', 'Bearer ']) {
      for (const form of ['base64', 'base64url'] as const) {
        const blob = Buffer.from(`${prefix}${secret} and more`).toString(form)
        const masked = maskValues(`header ${blob}`, [secret])
        expect(masked, `${prefix} ${form}`).not.toBe(`header ${blob}`)
        expect(Buffer.from(masked.slice(7), form).toString('latin1')).not.toContain(secret.slice(6, 18))
      }
    }
  })

  it('masks a secret in JSON text written with escaped slashes', () => {
    expect(maskValues(`{"error":"bad key ${secret.replaceAll('/', '\\/')}"}`, [secret])).toBe('{"error":"bad key up-k...q+x9"}')
  })

  it('leaves text without the secret as it was', () => {
    expect(maskValues('nothing to see, dXAta2V5', [secret])).toBe('nothing to see, dXAta2V5')
  })
})
