/**
 * What this process is. A server started by the CLI (`proxy start`, `proxy dev`, a built server) owns
 * its stdout: request lines go there by default. A proxy built in code (an embedding app, a test) does
 * not: its stdout is someone else's.
 */
export const processRole = { cliServer: false }
