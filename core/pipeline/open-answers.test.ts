import { describe, expect, it } from 'vitest'
import { OpenAnswers, type OpenAnswer } from './open-answers.ts'

const answer = (name: string, ended: string[]): OpenAnswer => ({ end: () => { ended.push(name) } })

describe('OpenAnswers', () => {
  it('adds and deletes in any order, each once', () => {
    const ended: string[] = []
    const open = new OpenAnswers()
    const [a, b, c, d] = ['a', 'b', 'c', 'd'].map(name => answer(name, ended))
    for (const entry of [a!, b!, c!, d!]) open.add(entry)
    open.delete(b!)
    open.delete(b!)
    open.delete(a!)
    expect(open.size).toBe(2)
    open.add(b!)
    for (const entry of open.list()) entry.end('', 503)
    expect(ended.sort()).toEqual(['b', 'c', 'd'])
    open.delete(d!)
    open.delete(c!)
    open.delete(b!)
    expect(open.size).toBe(0)
    expect(open.list()).toEqual([])
  })

  it('ignores an answer it never held, and hands out a copy', () => {
    const open = new OpenAnswers()
    const held = answer('held', [])
    open.add(held)
    open.delete(answer('stranger', []))
    const listed = open.list()
    open.delete(held)
    expect(listed).toEqual([held])
    expect(open.size).toBe(0)
  })
})
