#!/usr/bin/env node
// The CLI is TypeScript: jiti runs it directly, no build step.
import { createJiti } from 'jiti'

const jiti = createJiti(import.meta.url)
await jiti.import('./main.ts')
