/**
 * Waits out the end of a clock minute when fewer than `marginMs` are left: rpm and tpm windows are clock
 * minutes, so a test that spends a window and then reads it must do both inside one.
 */
export async function awayFromMinuteEdge(marginMs = 3000): Promise<void> {
  const left = 60_000 - (Date.now() % 60_000)
  if (left < marginMs) await new Promise(resolve => setTimeout(resolve, left + 50))
}
