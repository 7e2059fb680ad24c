import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createVerify, generateKeyPairSync } from 'node:crypto'
import { mkdirSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { startMockUpstream, type MockUpstream } from '../helpers/mock-openai-server.ts'
import { generateMock } from '../../playground/mock-upstream/generate.ts'
import { startManagedProxy, managementSecret, baseYaml, type ManagedProxy } from '../management/helpers.ts'

let vertex: MockUpstream
let tokens: MockUpstream
let managed: ManagedProxy
let authDir: string
const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048, privateKeyEncoding: { type: 'pkcs8', format: 'pem' }, publicKeyEncoding: { type: 'spki', format: 'pem' } })

beforeAll(async () => {
  // The platform's paths, answered by the generateContent mock.
  vertex = await startMockUpstream((request) => {
    const url = new URL(request.url)
    const match = /^\/v1\/(?:projects\/[^/]+\/locations\/[^/]+\/)?publishers\/google\/models\/([^/:]+):(\w+)$/.exec(url.pathname)
    if (!match) return new Response('{"error":{"code":404,"message":"no such path","status":"NOT_FOUND"}}', { status: 404 })
    return generateMock(new Request(`http://mock/v1beta/models/${match[1]}:${match[2]}${url.search}`, { method: 'POST', headers: request.headers, body: request.body, duplex: 'half' } as RequestInit))
  })
  // The token endpoint of the JWT grant: checks the assertion's signature with the account's public key.
  tokens = await startMockUpstream(async (request) => {
    const params = new URLSearchParams(await request.text())
    const [header, claims, signature] = (params.get('assertion') ?? '').split('.')
    const valid = params.get('grant_type') === 'urn:ietf:params:oauth:grant-type:jwt-bearer'
      && createVerify('RSA-SHA256').update(`${header}.${claims}`).verify(publicKey, Buffer.from(signature ?? '', 'base64url'))
    const claimSet = valid ? JSON.parse(Buffer.from(claims!, 'base64url').toString()) : {}
    if (!valid || claimSet.iss !== 'robot@proj.iam.example.test') return new Response('{"error":"invalid_grant"}', { status: 400 })
    return new Response(JSON.stringify({ access_token: 'sa-access-token', expires_in: 3600, token_type: 'Bearer' }), { headers: { 'content-type': 'application/json' } })
  })
  authDir = `/tmp/proxy-delta-${process.pid}-${Date.now()}`
  mkdirSync(authDir, { recursive: true })
  writeFileSync(join(authDir, 'robot.json'), JSON.stringify({
    type: 'delta', project_id: 'proj-7', location: 'europe-west4', base_url: vertex.url,
    service_account: { client_email: 'robot@proj.iam.example.test', private_key: privateKey, token_uri: `${tokens.url}/token` },
  }))
  // A key file exactly as the console downloads it is recognised too.
  writeFileSync(join(authDir, 'downloaded.json'), JSON.stringify({ type: 'service_account', project_id: 'proj-8', private_key: privateKey, client_email: 'other@proj.iam.example.test', token_uri: `${tokens.url}/token` }))
  const yaml = baseYaml + `auth-dir: ${authDir}
delta-api-key:
  - api-key: delta-key-1
    base-url: ${vertex.url}
    models:
      - name: gemini-2.5-flash
        alias: delta-flash
oauth-model-alias:
  delta:
    - name: gemini-2.5-pro
      alias: delta-sa-pro
`
  managed = await startManagedProxy(yaml)
  await managed.proxy.proxy.kernel.services.credentialFiles!.refreshDue()
})
afterAll(async () => {
  await managed.close()
  await Promise.all([vertex.close(), tokens.close()])
  rmSync(authDir, { recursive: true, force: true })
})

const chat = (model: string) => fetch(`${managed.proxy.url}/v1/chat/completions`, {
  method: 'POST', headers: { authorization: 'Bearer client-one', 'content-type': 'application/json' },
  body: JSON.stringify({ model, messages: [{ role: 'user', content: 'hello delta' }] }),
})

describe('delta family', () => {
  it('an API key calls the publisher model path with x-goog-api-key', async () => {
    const response = await chat('delta-flash')
    expect(response.status).toBe(200)
    expect((await response.json()).choices[0].message.content).toContain('You said: hello delta')
    const sent = vertex.requests.at(-1)!
    expect(sent.url).toBe('/v1/publishers/google/models/gemini-2.5-flash:generateContent')
    expect(sent.headers['x-goog-api-key']).toBe('delta-key-1')
  })

  it('a service account signs a JWT, gets a token, and calls the project/location path with it', async () => {
    const response = await chat('delta-sa-pro')
    expect(response.status).toBe(200)
    const sent = vertex.requests.at(-1)!
    expect(sent.url).toBe('/v1/projects/proj-7/locations/europe-west4/publishers/google/models/gemini-2.5-pro:generateContent')
    expect(sent.headers.authorization).toBe('Bearer sa-access-token')
  })

  it('a downloaded key file is listed as a delta credential; its token failure blocks it with the reason', async () => {
    const { files } = await (await fetch(`${managed.proxy.url}/v0/management/auth-files`, { headers: { authorization: `Bearer ${managementSecret}` } })).json()
    expect(files.find((f: { name: string }) => f.name === 'downloaded.json')).toMatchObject({ type: 'delta', email: 'other@proj.iam.example.test', project: 'proj-8', state: 'blocked', reason: expect.stringContaining('invalid_grant') })
    expect(JSON.stringify(files)).not.toContain('PRIVATE KEY')
  })
})
