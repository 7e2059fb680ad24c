import { sleep } from './sleep.ts'

const newline = new TextEncoder().encode('\n')

/**
 * `nonstream-keepalive-interval` (spec Events 3): if the answer is not ready within `seconds`, commit to
 * 200 and send a blank line every `seconds` until it is, then the JSON body. Leading whitespace keeps the
 * body valid JSON for clients; an answer ready in time goes out unchanged, with its real status.
 */
export async function withNonStreamKeepalive(run: Promise<Response>, seconds: number): Promise<Response> {
  const early = await Promise.race([run, sleep(seconds * 1000).then(() => undefined)])
  if (early) return early
  let timer: NodeJS.Timeout | undefined
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(newline)
      timer = setInterval(() => controller.enqueue(newline), seconds * 1000)
      run.then(async (response) => {
        clearInterval(timer)
        controller.enqueue(new Uint8Array(await response.arrayBuffer()))
        controller.close()
      }, (error) => {
        clearInterval(timer)
        controller.error(error)
      })
    },
    cancel() { clearInterval(timer) },
  })
  return new Response(body, { status: 200, headers: { 'content-type': 'application/json' } })
}
