import { z } from 'zod'

export const recorderModes = ['off', 'errors', 'sampled', 'all'] as const
export type RecorderMode = typeof recorderModes[number]

/** `recorder:` in config.yaml (docs/recorder.md). */
export const recorderConfigSchema = z.looseObject({
  recorder: z.object({
    /** off: nothing is recorded (no hook is even registered); errors: failed requests; sampled: `sample` of them; all. */
    mode: z.enum(recorderModes, { error: 'must be off, errors, sampled or all' }).default('off'),
    /** With `sampled`: the share of requests recorded, 0..1. */
    sample: z.number({ error: 'must be a number' }).min(0, { error: 'must be >= 0' }).max(1, { error: 'must be <= 1' }).default(0.1),
    /** Each body (and each stream, all its events together) is cut at this many KB. */
    'max-body-kb': z.number({ error: 'must be a number' }).int({ error: 'must be an integer' }).min(1, { error: 'must be >= 1' }).default(256),
    /** The ring: the newest this many records are kept (shared by every instance on the storage). */
    'max-records': z.number({ error: 'must be a number' }).int({ error: 'must be an integer' }).min(1, { error: 'must be >= 1' }).default(1000),
    /** Records older than this are dropped. */
    'max-age-hours': z.number({ error: 'must be a number' }).positive({ error: 'must be > 0' }).default(24),
  }).prefault({}),
})

export type RecorderConfig = z.infer<typeof recorderConfigSchema>['recorder']

export const recorderConfigOf = (config: object): RecorderConfig => (config as { recorder: RecorderConfig }).recorder
