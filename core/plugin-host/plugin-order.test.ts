import { describe, expect, it } from 'vitest'
import { orderPlugins } from './plugin-order.ts'
import { ConfigError } from '../config/validate.ts'
import type { ProxyPlugin } from './plugin.ts'

const plugin = (name: string, needs?: string[], after?: string[]): ProxyPlugin => ({ name, needs, after, setup() {} })
const names = (plugins: ProxyPlugin[]) => orderPlugins(plugins).map(p => p.name)

describe('plugin order', () => {
  it.each([
    ['load order when nothing is needed', [plugin('a'), plugin('b'), plugin('c')], ['a', 'b', 'c']],
    ['a need comes first', [plugin('metrics', ['routing']), plugin('routing')], ['routing', 'metrics']],
    ['needs of needs', [plugin('c', ['b']), plugin('b', ['a']), plugin('a')], ['a', 'b', 'c']],
    ['`after` orders when present', [plugin('usage', [], ['management']), plugin('management')], ['management', 'usage']],
    ['`after` is ignored when absent', [plugin('usage', [], ['management']), plugin('x')], ['usage', 'x']],
    ['duplicates of one need are set up once', [plugin('b', ['a']), plugin('c', ['a']), plugin('a')], ['a', 'b', 'c']],
  ])('%s', (_name, plugins, expected) => {
    expect(names(plugins)).toEqual(expected)
  })

  it('a missing need names both plugins', () => {
    expect(() => orderPlugins([plugin('metrics', ['routing'])])).toThrow(ConfigError)
    expect(() => orderPlugins([plugin('metrics', ['routing'])])).toThrow('plugin "metrics" needs plugin "routing", which is not loaded')
  })

  it('a cycle names its path', () => {
    expect(() => orderPlugins([plugin('a', ['b']), plugin('b', ['a'])])).toThrow('plugins need each other in a cycle: a -> b -> a')
  })
})
