import { formatCountdown } from '../format.ts'
import { useNow } from '../hooks.ts'

/** ready / cooldown / blocked / disabled / invalid, colour-coded and spelled out (not colour alone). */
export function StateBadge({ state }: { state: string }) {
  return <span class={`badge state-${state}`}>{state}</span>
}

/** Time left until the soonest cooldown ends, ticking every second. */
export function Countdown({ until }: { until: number }) {
  const now = useNow()
  return <span class="countdown" data-until={until}>{until > now ? `${formatCountdown(until, now)} left` : 'ending…'}</span>
}
