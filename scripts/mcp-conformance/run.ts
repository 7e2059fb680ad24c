// The MCP conformance suite's server scenarios against the gateway's /mcp (docs/mcp.md, "Conformance"):
// a proxy on a random loopback port fronting the reference `everything` server, then the suite.
// Run: node --import jiti/register scripts/mcp-conformance/run.ts
import { spawn } from 'node:child_process'
import { createRequire } from 'node:module'
import { fileURLToPath } from 'node:url'
import { startTestProxy } from '../../test/helpers/proxy-server.ts'
import { referenceServers, until } from '../../test/mcp/servers.ts'

const require = createRequire(import.meta.url)
const proxy = await startTestProxy({ 'mcp-servers': [referenceServers('/tmp')[0]] })
await until(() => proxy.proxy.kernel.services.mcpGateway!.servers.get('everything')!.state === 'up')
const suite = require.resolve('@modelcontextprotocol/conformance/dist/index.js')
const hooks = fileURLToPath(new URL('./register.mjs', import.meta.url))
// A child process the proxy's own event loop keeps serving while it runs.
const child = spawn(process.execPath, ['--import', hooks, suite, 'server', '--url', `${proxy.url}/mcp`, ...process.argv.slice(2)], { stdio: 'inherit' })
const code: number = await new Promise(resolve => child.on('exit', resolve))
await proxy.close()
process.exit(code)
