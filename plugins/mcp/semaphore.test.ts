import { describe, expect, it } from 'vitest'
import { Semaphore } from './semaphore.ts'

const tick = () => new Promise(resolve => setImmediate(resolve))

describe('Semaphore', () => {
  it('a raised limit lets the waiters in at once', async () => {
    const slots = new Semaphore(1)
    await slots.acquire()
    let entered = 0
    for (let i = 0; i < 3; i++) void slots.acquire().then(() => { entered++ })
    await tick()
    expect(entered).toBe(0)
    slots.limit = 3
    await tick()
    expect(entered).toBe(2)
    expect(slots.active).toBe(3)
  })

  it('a lowered limit lets no waiter in until the holders are under it', async () => {
    const slots = new Semaphore(3)
    const releases = await Promise.all([slots.acquire(), slots.acquire(), slots.acquire()])
    let entered = false
    void slots.acquire().then(() => { entered = true })
    slots.limit = 1
    releases[0]()
    releases[1]()
    await tick()
    expect(entered).toBe(false)
    releases[2]()
    await tick()
    expect(entered).toBe(true)
    expect(slots.active).toBe(1)
  })
})
