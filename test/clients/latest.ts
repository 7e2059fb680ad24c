// `npm run clients:latest`: installs the newest release of every client into a temp folder, runs the
// client lab (test/clients) against them and prints a client x family matrix. Exit code 1 when a cell
// is red. KEEP_CLIENTS=1 keeps the folder; CLIENTS_DIR=<folder> reuses one instead of installing.
import { spawnSync } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { clientPackages, labTitlePattern, repoRoot } from './lab/clients.ts'
import { families } from '../helpers/family-proxy.ts'

interface Assertion { ancestorTitles: string[]; title: string; status: string; failureMessages: string[] }
interface Report { numPassedTests: number; numFailedTests: number; testResults: Array<{ name: string; assertionResults: Assertion[]; message?: string }> }

const reuse = process.env.CLIENTS_DIR
const dir = reuse || mkdtempSync(join(tmpdir(), 'clients-latest-'))
const packages = [...new Set(Object.values(clientPackages))]

function installedVersion(folder: string, name: string): string {
  try { return (JSON.parse(readFileSync(join(folder, 'node_modules', name, 'package.json'), 'utf8')) as { version: string }).version } catch { return '-' }
}

if (!reuse) {
  console.log(`Installing the newest release of ${packages.length} clients into ${dir} ...`)
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'clients-latest', private: true }))
  const install = spawnSync('npm', ['install', '--no-audit', '--no-fund', '--loglevel=error', ...packages.map(name => `${name}@latest`)], { cwd: dir, stdio: 'inherit' })
  if (install.status !== 0) {
    console.error('npm install failed')
    process.exit(1)
  }
}
console.log('\n| package | this repo | newest |\n|---|---|---|')
for (const name of packages) console.log(`| ${name} | ${installedVersion(repoRoot, name)} | ${installedVersion(dir, name)} |`)

const reportFile = join(dir, 'lab-report.json')
const vitest = join(repoRoot, 'node_modules', 'vitest', 'vitest.mjs')
console.log('\nRunning the client lab against them ...')
spawnSync(process.execPath, [vitest, 'run', '--reporter=dot', '--reporter=json', `--outputFile.json=${reportFile}`], { cwd: repoRoot, stdio: 'inherit', env: { ...process.env, CLIENTS_DIR: dir } })

let report: Report
try { report = JSON.parse(readFileSync(reportFile, 'utf8')) as Report } catch (error) {
  console.error(`no lab report: ${(error as Error).message}`)
  process.exit(1)
}

// Rows and cells from the lab titles: `[lab] <row> -> <family>`.
const cells = new Map<string, Map<string, { passed: number; failed: number; failures: string[] }>>()
const broken: string[] = []
for (const file of report.testResults) {
  if (!file.assertionResults.length && file.message) broken.push(`${file.name}: ${file.message.split('\n')[0]}`)
  for (const test of file.assertionResults) {
    const match = test.ancestorTitles.map(title => labTitlePattern.exec(title)).find(Boolean)
    if (!match) continue
    const [, row, family] = match as unknown as [string, string, string]
    const byFamily = cells.get(row) ?? cells.set(row, new Map()).get(row)!
    const cell = byFamily.get(family) ?? byFamily.set(family, { passed: 0, failed: 0, failures: [] }).get(family)!
    if (test.status === 'passed') cell.passed++
    else if (test.status === 'failed') {
      cell.failed++
      cell.failures.push(`${test.title}: ${(test.failureMessages[0] ?? '').split('\n')[0]!.slice(0, 200)}`)
    }
  }
}

const rows = [...cells.keys()].sort()
const width = Math.max(...rows.map(row => row.length), 6)
console.log(`\nClient x family (${new Date().toISOString().slice(0, 10)}): ✓ every case passed, ✗ a case failed, · not run\n`)
console.log(`${'client'.padEnd(width)}  ${families.map(family => family.padEnd(6)).join(' ')}`)
for (const row of rows) {
  const marks = families.map((family) => {
    const cell = cells.get(row)!.get(family)
    return (!cell ? '·' : cell.failed ? '✗' : '✓').padEnd(6)
  })
  console.log(`${row.padEnd(width)}  ${marks.join(' ')}`)
}
const failures = rows.flatMap(row => [...cells.get(row)!].flatMap(([family, cell]) => cell.failures.map(failure => `${row} -> ${family}: ${failure}`)))
if (failures.length || broken.length) console.log(`\nFailures:\n${[...broken, ...failures].map(line => `  ${line}`).join('\n')}`)
console.log(`\n${report.numPassedTests} passed, ${report.numFailedTests} failed`)

if (!reuse && process.env.KEEP_CLIENTS !== '1') rmSync(dir, { recursive: true, force: true })
else console.log(`clients kept in ${dir}`)
process.exit(report.numFailedTests || broken.length ? 1 : 0)
