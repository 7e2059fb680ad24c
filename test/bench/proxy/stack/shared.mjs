/** The request body, read whole. */
export function readWhole(req) {
  return new Promise((resolve, reject) => {
    const chunks = []
    let size = 0
    req.on('data', (chunk) => { chunks.push(chunk); size += chunk.length })
    req.on('end', () => resolve(Buffer.concat(chunks, size)))
    req.on('error', reject)
  })
}

/** What a messages upstream needs: the vendor's headers, a credential, the body's length. */
export const upstreamHeaders = (req, body) => ({
  'content-type': 'application/json',
  'content-length': String(body.length),
  accept: req.headers.accept ?? '*/*',
  'anthropic-version': req.headers['anthropic-version'] ?? '2023-06-01',
  'x-api-key': 'up',
})

// Exit on the bench's SIGTERM instead of being killed: `--cpu-prof` writes its profile only at exit.
process.once('SIGTERM', () => process.exit(0))
