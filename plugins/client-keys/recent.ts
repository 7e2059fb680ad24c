/** One request of a key, as the panel lists it. */
export interface RecentRequest {
  time: number; model: string; status: number; inputTokens: number; outputTokens: number; costUsd: number
  /** The tokens are the proxy's estimate, not what the upstream reported (the label `/usage` counts too). */
  estimated?: true
}

const perKey = 50

/** The last requests of each key on this instance (the fleet's history is in `/usage`). */
export class RecentRequests {
  private lists = new Map<string, RecentRequest[]>()

  add(name: string, request: RecentRequest): void {
    let list = this.lists.get(name)
    if (!list) this.lists.set(name, list = [])
    list.push(request)
    if (list.length > perKey) list.shift()
  }

  of(name: string): RecentRequest[] { return [...(this.lists.get(name) ?? [])].reverse() }
}
