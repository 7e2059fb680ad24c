import { afterAll, beforeAll } from 'vitest'
import OpenAI from 'openai'
import Anthropic from '@anthropic-ai/sdk'
import { GoogleGenAI } from '@google/genai'
import { clientKey, startFamilyProxy, type FamilyProxy } from './family-proxy.ts'

export interface SdkClients { setup: FamilyProxy; openai: OpenAI; anthropic: Anthropic; genai: GoogleGenAI }

/** A family proxy for the file, with the three official SDKs pointed at it the way users do. */
export function useSdkClients(): SdkClients {
  const clients = {} as SdkClients
  beforeAll(async () => {
    clients.setup = await startFamilyProxy()
    clients.openai = new OpenAI({ baseURL: `${clients.setup.proxy.url}/v1`, apiKey: clientKey, maxRetries: 0 })
    clients.anthropic = new Anthropic({ baseURL: clients.setup.proxy.url, apiKey: clientKey, maxRetries: 0 })
    clients.genai = new GoogleGenAI({ apiKey: clientKey, httpOptions: { baseUrl: clients.setup.proxy.url } })
  })
  afterAll(() => clients.setup.close())
  return clients
}

export const weatherTool = { name: 'get_weather', description: 'Weather for a city', parameters: { type: 'object', properties: { query: { type: 'string' } }, required: ['query'] } }
