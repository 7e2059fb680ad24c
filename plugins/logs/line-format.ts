const pad = (n: number) => String(n).padStart(2, '0')

/** `[YYYY-MM-DD HH:MM:SS] LEVEL: message` (local time), the spec's main.log line. */
export function formatLine(date: Date, level: string, message: string): string {
  const stamp = `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())} ${pad(date.getHours())}:${pad(date.getMinutes())}:${pad(date.getSeconds())}`
  return `[${stamp}] ${level}: ${message.replace(/\r?\n/g, ' ')}`
}

/** Unix seconds of a formatted line, or undefined. */
export function lineTime(line: string): number | undefined {
  const match = /^\[(\d{4})-(\d{2})-(\d{2}) (\d{2}):(\d{2}):(\d{2})\]/.exec(line)
  if (!match) return undefined
  const [, y, mo, d, h, mi, s] = match.map(Number) as number[]
  return Math.floor(new Date(y!, mo! - 1, d!, h!, mi!, s!).getTime() / 1000)
}

/** consola types -> the spec's four levels. */
export function levelOf(type: string): 'INFO' | 'DEBUG' | 'WARN' | 'ERROR' {
  if (type === 'error' || type === 'fatal') return 'ERROR'
  if (type === 'warn') return 'WARN'
  if (type === 'debug' || type === 'trace' || type === 'verbose') return 'DEBUG'
  return 'INFO'
}
