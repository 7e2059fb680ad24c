import type { ProxyKernel } from 'model-proxy'
import { signInTtlMs, type SignIn } from './signin.ts'

const key = (state: string) => `signin:${state}`

/**
 * Sign-ins in progress. With Redis they are shared: the vendor's redirect (or a pasted callback URL)
 * may reach any instance, and the status is seen from every one. Kept in memory too, so an instance
 * whose Redis is away still finishes the sign-ins it started.
 */
export class SignInStore {
  private local = new Map<string, SignIn>()

  constructor(private kernel: ProxyKernel) {}

  private get shared(): boolean { return this.kernel.fleet.shared && this.kernel.fleet.health().up }

  private purge(): void {
    for (const [state, signIn] of this.local) if (Date.now() - signIn.createdAt > signInTtlMs) this.local.delete(state)
  }

  async get(state: string): Promise<SignIn | undefined> {
    this.purge()
    if (this.shared) {
      const stored = await this.kernel.storage.getItem<SignIn>(key(state)).catch(() => null)
      if (stored && Date.now() - stored.createdAt <= signInTtlMs) return stored
    }
    return this.local.get(state)
  }

  async set(state: string, signIn: SignIn): Promise<void> {
    this.local.set(state, signIn)
    if (this.shared) await this.kernel.storage.setItem(key(state), signIn, { ttl: Math.ceil(signInTtlMs / 1000) }).catch(() => {})
  }
}
