import { execFile, spawn, type ChildProcess } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { freePort } from './redis-server.ts'

export interface OwnRedisCluster {
  /** `host:port` of every node (all masters). */
  nodes: string[]
  close(): Promise<void>
}

const run = promisify(execFile)

/**
 * A real Redis Cluster of `size` masters on loopback random ports (redis-server in cluster mode, joined
 * by `redis-cli --cluster create`), no persistence, in a temp folder removed on close.
 */
export async function startOwnRedisCluster(size = 3): Promise<OwnRedisCluster> {
  const dir = mkdtempSync(join(tmpdir(), 'proxy-redis-cluster-'))
  const ports = await Promise.all(Array.from({ length: size }, () => freePort()))
  const children: ChildProcess[] = []
  const close = async () => {
    await Promise.all(children.map(child => child.exitCode === null ? new Promise(resolve => { child.once('exit', resolve); child.kill('SIGKILL') }) : undefined))
    rmSync(dir, { recursive: true, force: true })
  }
  try {
    await Promise.all(ports.map((port, i) => new Promise<void>((resolve, reject) => {
      const child = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--cluster-enabled', 'yes', '--cluster-config-file', join(dir, `nodes-${i}.conf`),
        '--cluster-node-timeout', '2000', '--save', '', '--appendonly', 'no', '--dir', dir], { stdio: ['ignore', 'pipe', 'pipe'] })
      children.push(child)
      let out = ''
      child.stdout!.on('data', (chunk: Buffer) => {
        out += chunk.toString()
        if (out.includes('Ready to accept connections')) resolve()
      })
      child.once('exit', code => reject(new Error(`redis-server exited (${code}): ${out}`)))
    })))
    const nodes = ports.map(port => `127.0.0.1:${port}`)
    await run('redis-cli', ['--cluster', 'create', ...nodes, '--cluster-replicas', '0', '--cluster-yes'], { timeout: 30_000 })
    // Created is not yet agreed: wait until every node says the cluster is ok.
    for (const port of ports) {
      for (let i = 0; ; i++) {
        const { stdout } = await run('redis-cli', ['-p', String(port), 'cluster', 'info'])
        if (stdout.includes('cluster_state:ok')) break
        if (i > 100) throw new Error(`cluster not ok on ${port}: ${stdout}`)
        await new Promise(resolve => setTimeout(resolve, 100))
      }
    }
    return { nodes, close }
  } catch (error) {
    await close()
    throw error
  }
}
