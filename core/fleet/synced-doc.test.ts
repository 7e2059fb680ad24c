import { describe, expect, it } from 'vitest'
import { parse } from 'yaml'
import { changeCount, mergeYaml } from '../config/merge.ts'
import { nextStamp, type SharedVersion } from './shared-docs.ts'
import { reconcileDoc, type DocStore, type LocalCopy } from './synced-doc.ts'
import { FileChangedError } from '../config/atomic-write.ts'
import type { SyncBase } from './base-store.ts'

/** The fleet's store in memory, with Redis's compare-and-set semantics. */
function memoryStore(): DocStore & { docs: Map<string, SharedVersion> } {
  const docs = new Map<string, SharedVersion>()
  return {
    docs,
    async read(name) { return docs.get(name) },
    async commit(name, expected, text, atLeast = 0) {
      const current = docs.get(name)?.stamp ?? ''
      if (current !== (expected ?? '')) return { ok: false, current }
      const version = { stamp: nextStamp(expected, atLeast), text, origin: 'test', at: Date.now() }
      docs.set(name, version)
      return { ok: true, version }
    },
  }
}

/** One instance: its file (a string) and its bases. */
function instance(text: string | undefined) {
  const state = { text, bases: new Map<string, SyncBase>(), history: [] as SyncBase[], afterRead: undefined as undefined | (() => void) }
  const copy: LocalCopy = {
    read: async () => {
      const now = state.text
      const hook = state.afterRead
      state.afterRead = undefined
      hook?.()
      return now
    },
    write: async (next, expected) => {
      if (state.text !== expected) throw new FileChangedError('config')
      state.text = next ?? undefined
    },
    check: (next) => { if (parse(next)?.invalid) throw new Error('invalid') },
    merge: mergeYaml,
    distance: changeCount,
    deletable: false,
  }
  const bases = {
    get: (name: string) => state.bases.get(name),
    set: async (name: string, base: SyncBase | undefined) => {
      const previous = state.bases.get(name)
      if (previous && previous.stamp !== base?.stamp) state.history.unshift(previous)
      if (base) state.bases.set(name, base)
    },
    recent: () => state.history,
  }
  return { state, sync: (store: DocStore) => reconcileDoc(store, 'config', copy, bases) }
}

describe('reconcileDoc', () => {
  it('first instance pushes, a joining one takes the fleet\'s version, a change on either reaches the other', async () => {
    const store = memoryStore()
    const a = instance('retry: 1\n')
    const b = instance('retry: 9\n')
    expect((await a.sync(store)).kind).toBe('pushed')
    expect((await b.sync(store)).kind).toBe('replaced')
    expect(b.state.text).toBe('retry: 1\n')
    b.state.text = 'retry: 2\n'
    expect((await b.sync(store)).kind).toBe('pushed')
    expect((await a.sync(store)).kind).toBe('pulled')
    expect(a.state.text).toBe('retry: 2\n')
    expect((await a.sync(store)).kind).toBe('in-sync')
  })

  it('changes made on both sides meanwhile are merged, both kept', async () => {
    const store = memoryStore()
    const a = instance('retry: 1\ndebug: false\n')
    const b = instance(undefined)
    await a.sync(store)
    await b.sync(store)
    a.state.text = 'retry: 5\ndebug: false\n'
    b.state.text = 'retry: 1\ndebug: true\n'
    await a.sync(store)
    expect((await b.sync(store)).kind).toBe('merged')
    expect(parse(b.state.text!)).toEqual({ retry: 5, debug: true })
    await a.sync(store)
    expect(a.state.text).toBe(b.state.text)
  })

  it('a store that came back older (an old snapshot) or empty is seeded again with the newer version', async () => {
    const store = memoryStore()
    const a = instance('retry: 1\n')
    await a.sync(store)
    const old = store.docs.get('config')!
    a.state.text = 'retry: 2\n'
    await a.sync(store)
    store.docs.set('config', old)
    expect((await a.sync(store)).kind).toBe('pushed')
    expect(store.docs.get('config')).toMatchObject({ text: 'retry: 2\n', stamp: expect.stringMatching(/:3$/) })
    store.docs.clear()
    expect((await a.sync(store)).kind).toBe('pushed')
    expect(store.docs.get('config')).toMatchObject({ text: 'retry: 2\n', stamp: expect.stringMatching(/:4$/) })
  })

  it('an edit saved from a version this instance had just replaced is replayed, not taken as a revert', async () => {
    const store = memoryStore()
    const a = instance('x: 1\ny: 1\n')
    const b = instance(undefined)
    await a.sync(store)
    await b.sync(store)
    // An editor on a reads its file (x: 1, y: 1); b changes y; a pulls it; then the editor saves x: 2.
    const editorCopy = a.state.text!
    b.state.text = 'x: 1\ny: 2\n'
    await b.sync(store)
    await a.sync(store)
    a.state.text = editorCopy.replace('x: 1', 'x: 2')
    expect((await a.sync(store)).kind).toBe('merged')
    expect(parse(a.state.text!)).toEqual({ x: 2, y: 2 })
  })

  it('an invalid local file is not shared', async () => {
    const store = memoryStore()
    const a = instance('retry: 1\n')
    await a.sync(store)
    a.state.text = 'invalid: true\n'
    expect((await a.sync(store)).kind).toBe('invalid-local')
    expect(store.docs.get('config')?.text).toBe('retry: 1\n')
  })

  it('a file written meanwhile starts the round again from what it holds now', async () => {
    const store = memoryStore()
    const a = instance('retry: 1\n')
    const b = instance(undefined)
    await a.sync(store)
    await b.sync(store)
    a.state.text = 'retry: 2\n'
    await a.sync(store)
    // Someone writes b's file right after the round read it: the write is refused, the round retried.
    b.state.afterRead = () => { b.state.text = 'retry: 1\nextra: 1\n' }
    const outcome = await b.sync(store)
    expect(['merged', 'pulled']).toContain(outcome.kind)
    expect(parse(b.state.text!)).toEqual({ retry: 2, extra: 1 })
  })
})
