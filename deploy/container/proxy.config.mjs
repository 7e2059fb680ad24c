// The image's project file: built-in plugins, fs storage under /data unless config.yaml's `storage`
// or PROXY_STORAGE_* say otherwise (e.g. PROXY_STORAGE_URL=redis://redis:6379).
export default { storage: { driver: 'fs', base: '/data' } }
