// `npm run screenshots`: runs scripts/panel-screenshots.ts through jiti, as the CLI runs (the proxy loads
// its plugins through jiti too, which `node --import jiti/register` does not combine with).
import { createJiti } from 'jiti'

const jiti = createJiti(import.meta.url, { interopDefault: false })
const { takeScreenshots } = await jiti.import('./panel-screenshots.ts')
await takeScreenshots()
