import { fakeAddressPlugin } from './helpers.ts'

/** The same plugin as a module default, for a proxy.config.ts to name by path. */
export default fakeAddressPlugin
