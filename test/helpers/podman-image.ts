import { execFile, spawnSync } from 'node:child_process'
import { cpSync, existsSync, mkdirSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { promisify } from 'node:util'

export const run = promisify(execFile)
const has = (command: string, args = ['--version']) => spawnSync(command, args, { stdio: 'ignore' }).status === 0

/** Why the image cannot be built and run here, or undefined when it can. */
export function imageTestBlocker(): string | undefined {
  if (process.env.PROXY_IMAGE_TEST !== '1') return 'the image test builds a container image (minutes): run it with `npm run test:image` (PROXY_IMAGE_TEST=1)'
  if (!has('podman')) return 'podman is not installed (apt-get install podman)'
  if (process.getuid?.() !== 0) return 'starting the image\'s filesystem under chroot needs root'
  if (!process.env.PROXY_IMAGE_TEST_ROOTFS && !has('debootstrap', ['--version']) && !imageExists(buildBaseTag)) return 'debootstrap is not installed (apt-get install debootstrap): it makes the stand-in Node base image'
  return undefined
}

/** The stand-in for the official Node image: Debian (debootstrap minbase) plus this machine's Node and npm. */
export const buildBaseTag = `localhost/model-proxy-test/node-build:${process.version}`

export function imageExists(tag: string): boolean {
  return spawnSync('podman', ['image', 'exists', tag], { stdio: 'ignore' }).status === 0
}

/**
 * No image registry is reachable here: the build stage's base is made from a debootstrap root (or
 * PROXY_IMAGE_TEST_ROOTFS, one made before) with this machine's node, npm and CA bundle (npm reaches the
 * registry through it), imported with `podman import`. Kept in podman's store: made once per Node version.
 */
export async function ensureBuildBase(): Promise<string> {
  if (imageExists(buildBaseTag)) return buildBaseTag
  const work = mkdtempSync(join(tmpdir(), 'proxy-base-'))
  try {
    let rootfs = process.env.PROXY_IMAGE_TEST_ROOTFS
    if (!rootfs) {
      rootfs = join(work, 'rootfs')
      await run('debootstrap', ['--variant=minbase', 'bookworm', rootfs, 'http://deb.debian.org/debian'], { timeout: 600_000, maxBuffer: 64 << 20 })
    }
    const npmDir = join(dirname(dirname(process.execPath)), 'lib', 'node_modules', 'npm')
    cpSync(process.execPath, join(rootfs, 'usr/local/bin/node'))
    cpSync(npmDir, join(rootfs, 'usr/local/lib/node_modules/npm'), { recursive: true })
    rmSync(join(rootfs, 'usr/local/bin/npm'), { force: true })
    symlinkSync('../lib/node_modules/npm/bin/npm-cli.js', join(rootfs, 'usr/local/bin/npm'))
    const ca = process.env.NODE_EXTRA_CA_CERTS || '/etc/ssl/certs/ca-certificates.crt'
    mkdirSync(join(rootfs, 'etc/ssl/certs'), { recursive: true })
    if (existsSync(ca)) cpSync(ca, join(rootfs, 'etc/ssl/certs/ca-certificates.crt'))
    const tar = join(work, 'rootfs.tar')
    await run('tar', ['-C', rootfs, '-cf', tar, '.'], { maxBuffer: 64 << 20 })
    await run('podman', ['import', '--change', 'ENV PATH=/usr/local/bin:/usr/bin:/bin', '--change', 'ENV NODE_EXTRA_CA_CERTS=/etc/ssl/certs/ca-certificates.crt', tar, buildBaseTag], { timeout: 300_000 })
    return buildBaseTag
  } finally {
    rmSync(work, { recursive: true, force: true })
  }
}

/** The image's filesystem, as `podman create` + `podman export` give it, unpacked into `dir`. */
export async function exportImage(tag: string, dir: string): Promise<void> {
  const { stdout } = await run('podman', ['create', tag])
  const id = stdout.trim()
  try {
    const tar = `${dir}.tar`
    await run('podman', ['export', '-o', tar, id], { timeout: 300_000 })
    mkdirSync(dir, { recursive: true })
    await run('tar', ['-C', dir, '-xf', tar], { maxBuffer: 64 << 20 })
    rmSync(tar, { force: true })
  } finally {
    await run('podman', ['rm', id]).catch(() => {})
  }
}
