import { describe, expect, it } from 'vitest'
import { parse } from 'yaml'
import { diffValues, mergeJson, mergeYaml } from './merge.ts'

describe('diffValues', () => {
  it.each([
    ['same', { a: 1 }, { a: 1 }, []],
    ['changed scalar', { a: 1 }, { a: 2 }, [{ path: ['a'], kind: 'set' }]],
    ['added and removed keys', { a: 1, b: 2 }, { a: 1, c: 3 }, [{ path: ['b'], kind: 'delete' }, { path: ['c'], kind: 'set' }]],
    ['nested map', { r: { s: 'x', t: 1 } }, { r: { s: 'y', t: 1 } }, [{ path: ['r', 's'], kind: 'set' }]],
    ['list element, same length', { l: ['a', 'b'] }, { l: ['a', 'c'] }, [{ path: ['l', 1], kind: 'set', listLength: 2 }]],
    ['list of maps, one field', { l: [{ n: 1 }, { n: 2 }] }, { l: [{ n: 1 }, { n: 3 }] }, [{ path: ['l', 1, 'n'], kind: 'set', listLength: 2 }]],
    ['list that grew: whole list', { l: ['a'] }, { l: ['a', 'b'] }, [{ path: ['l'], kind: 'set' }]],
    ['named entries: by name', { l: [{ name: 'a', n: 1 }, { name: 'b' }] }, { l: [{ name: 'a', n: 2 }, { name: 'c' }, { name: 'd' }] },
      [{ path: ['l', { entry: 'b', at: 1, of: 2 }], kind: 'delete' }, { path: ['l', { entry: 'a', at: 0, of: 2 }, 'n'], kind: 'set' }, { path: ['l', { entry: 'c' }], kind: 'set' }, { path: ['l', { entry: 'd' }], kind: 'set' }]],
    ['named entries renamed in place: under the old name', { l: [{ name: 'a' }] }, { l: [{ name: 'b' }] }, [{ path: ['l', { entry: 'a', at: 0, of: 1, renamed: 'b' }, 'name'], kind: 'set' }]],
    ['named entries reordered: by position', { l: [{ name: 'a' }, { name: 'b' }] }, { l: [{ name: 'b' }, { name: 'a' }] },
      [{ path: ['l', 0, 'name'], kind: 'set', listLength: 2 }, { path: ['l', 1, 'name'], kind: 'set', listLength: 2 }]],
  ])('%s', (_name, base, next, changes) => {
    expect(diffValues(base, next)).toEqual(changes)
  })
})

describe('mergeYaml', () => {
  const base = `# top comment
debug: false
request-retry: 1 # retries
routing:
  strategy: round-robin
api-keys:
  - one # first
  - two
`
  it.each([
    ['changes to different keys both survive',
      base.replace('debug: false', 'debug: true'),
      base.replace('request-retry: 1', 'request-retry: 5'),
      { debug: true, 'request-retry': 5 }],
    ['the same key changed on both sides: local (the newer write) wins',
      base.replace('request-retry: 1', 'request-retry: 2'),
      base.replace('request-retry: 1', 'request-retry: 3'),
      { 'request-retry': 2 }],
    ['different entries of one list both survive',
      base.replace('- one # first', '- uno # first'),
      base.replace('- two', '- dos'),
      { 'api-keys': ['uno', 'dos'] }],
    ['a list that changed length on the other side is replaced whole by local',
      base.replace('- two', '- dos'),
      base.replace('- two', '- two\n  - three'),
      { 'api-keys': ['one', 'dos'] }],
    ['a key removed locally is removed',
      base.replace('debug: false\n', ''),
      base.replace('routing:\n  strategy: round-robin', 'routing:\n  strategy: fill-first'),
      { routing: { strategy: 'fill-first' } }],
  ])('%s', (_name, local, remote, expected) => {
    const merged = mergeYaml(base, local, remote)
    expect(parse(merged)).toMatchObject(expected)
    expect(merged).toContain('# top comment')
  })

  it('named entries: each side\'s additions, removals and edits survive, whatever the lengths', () => {
    // Instance a (during an outage) raised k1's rpm and deleted k3; b disabled k2 and added k4.
    const keys = (...lines: string[]) => `client-keys:\n${lines.map(line => `  - ${line}`).join('\n')}\n`
    const base = keys('{ name: k1, rpm: 100 } # first', '{ name: k2 }', '{ name: k3 }')
    const local = keys('{ name: k1, rpm: 5 } # first', '{ name: k2 }')
    const remote = keys('{ name: k1, rpm: 100 } # first', '{ name: k2, disabled: true }', '{ name: k3 }', '{ name: k4 }')
    const merged = mergeYaml(base, local, remote)
    expect(parse(merged)['client-keys']).toEqual([{ name: 'k1', rpm: 5 }, { name: 'k2', disabled: true }, { name: 'k4' }])
    expect(merged).toContain('# first')
    // An entry added here joins the other side's list; an edit of one the other side removed is moot.
    expect(parse(mergeYaml(base, keys('{ name: k1, rpm: 100 } # first', '{ name: k2 }', '{ name: k3, rpm: 1 }', '{ name: k5 }'), keys('{ name: k1, rpm: 100 }', '{ name: k2 }')))['client-keys'])
      .toEqual([{ name: 'k1', rpm: 100 }, { name: 'k2' }, { name: 'k5' }])
    // An entry added here keeps its place (after the one it follows here, or first), order may matter.
    expect(parse(mergeYaml(base, keys('{ name: k0 }', '{ name: k1, rpm: 100 } # first', '{ name: k2 }', '{ name: k2a }', '{ name: k3 }'), `debug: true\n${keys('{ name: k1, rpm: 100 }', '{ name: k2 }', '{ name: k3 }', '{ name: k9 }')}`))['client-keys'].map((entry: { name: string }) => entry.name))
      .toEqual(['k0', 'k1', 'k2', 'k2a', 'k3', 'k9'])
    // Removed there, another added (same length): the edit of the removed one does not land on another.
    expect(parse(mergeYaml(base, keys('{ name: k1, rpm: 100 } # first', '{ name: k2, rpm: 7 }', '{ name: k3 }'), keys('{ name: k1, rpm: 100 }', '{ name: k3 }', '{ name: k4 }')))['client-keys'])
      .toEqual([{ name: 'k1', rpm: 100 }, { name: 'k3' }, { name: 'k4' }])
    // Renamed on the other side (same length): the edit follows the entry to its place, as before.
    expect(parse(mergeYaml(base, keys('{ name: k1, rpm: 100 } # first', '{ name: k2, rpm: 7 }', '{ name: k3 }'), keys('{ name: k1, rpm: 100 }', '{ name: k2b }', '{ name: k3 }')))['client-keys'])
      .toEqual([{ name: 'k1', rpm: 100 }, { name: 'k2b', rpm: 7 }, { name: 'k3' }])
  })

  it('one name or one key claimed on both sides at once: the side committed first keeps it', () => {
    const keys = (...lines: string[]) => `client-keys:\n${lines.map(line => `  - ${line}`).join('\n')}\n`
    const base = keys('{ name: k1, key: h1 }', '{ name: k2, key: h2 }')
    const merged = (local: string, remote: string) => parse(mergeYaml(base, local, remote))['client-keys']
    // One secret added under two names: the other side's entry stays, this side's is not added.
    expect(merged(keys('{ name: k1, key: h1 }', '{ name: k2, key: h2 }', '{ name: mine, key: h9 }'), keys('{ name: k1, key: h1 }', '{ name: k2, key: h2 }', '{ name: theirs, key: h9 }')))
      .toEqual([{ name: 'k1', key: 'h1' }, { name: 'k2', key: 'h2' }, { name: 'theirs', key: 'h9' }])
    // Renamed here onto a name the other side added meanwhile: the rename (with its other changes) is not made, nor is their key lost.
    expect(merged(keys('{ name: k1, key: h1 }', '{ name: k3, key: h2, rpm: 5 }'), keys('{ name: k1, key: h1 }', '{ name: k2, key: h2 }', '{ name: k3, key: h3 }')))
      .toEqual([{ name: 'k1', key: 'h1' }, { name: 'k2', key: 'h2' }, { name: 'k3', key: 'h3' }])
    // Renamed here onto a name the other side renamed another entry to: the same.
    expect(merged(keys('{ name: k1, key: h1 }', '{ name: k3, key: h2 }'), keys('{ name: k3, key: h1 }', '{ name: k2, key: h2 }')))
      .toEqual([{ name: 'k3', key: 'h1' }, { name: 'k2', key: 'h2' }])
    // A rename onto a free name replays onto a list the other side grew, keeping their edit of the entry.
    expect(merged(keys('{ name: k1, key: h1 }', '{ name: k3, key: h2 }'), keys('{ name: k1, key: h1 }', '{ name: k2, key: h2, rpm: 9 }', '{ name: k4, key: h4 }')))
      .toEqual([{ name: 'k1', key: 'h1' }, { name: 'k3', key: 'h2', rpm: 9 }, { name: 'k4', key: 'h4' }])
  })

  it('keeps the other side\'s comments and brings the replayed value\'s own', () => {
    const local = base.replace('request-retry: 1 # retries', 'request-retry: 4 # raised by hand')
    const remote = base.replace('debug: false', 'debug: true # turned on remotely')
    const merged = mergeYaml(base, local, remote)
    expect(merged).toContain('# turned on remotely')
    expect(merged).toContain('# raised by hand')
    expect(merged).toContain('# first')
    expect(parse(merged)).toMatchObject({ debug: true, 'request-retry': 4 })
    expect(parse(merged)).not.toHaveProperty('debug', false)
  })
})

describe('mergeJson', () => {
  it('merges credential files field by field', () => {
    const base = JSON.stringify({ type: 'beta', access_token: 'a', refresh_token: 'r', disabled: false })
    const local = JSON.stringify({ type: 'beta', access_token: 'b', refresh_token: 'r2', disabled: false })
    const remote = JSON.stringify({ type: 'beta', access_token: 'a', refresh_token: 'r', disabled: true })
    expect(JSON.parse(mergeJson(base, local, remote))).toEqual({ type: 'beta', access_token: 'b', refresh_token: 'r2', disabled: true })
  })
})
