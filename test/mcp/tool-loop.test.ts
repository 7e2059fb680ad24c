import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import OpenAI from 'openai'
import Anthropic from '@anthropic-ai/sdk'
import type { TestProxy } from '../helpers/proxy-server.ts'
import { startMockUpstream, type MockUpstream } from '../helpers/mock-openai-server.ts'
import { loopProxy, scriptedChat, scriptedGenerate } from './scripted-model.ts'

/**
 * MCP tools for families whose upstream cannot call MCP servers: the responses API's `mcp` tool and
 * the messages API's `mcp_servers`, sent to a chat and a generateContent upstream, get the tool's real
 * result (a reference MCP server behind the gateway) in their own format, streamed or not.
 */
let proxy: TestProxy
let chat: MockUpstream
let generate: MockUpstream
let vendor: MockUpstream
const vendorBodies: Array<Record<string, any>> = []
const models = { chat: 'via-chat', generate: 'via-generate' } as const

beforeAll(async () => {
  chat = await startMockUpstream(scriptedChat)
  generate = await startMockUpstream(scriptedGenerate)
  // A responses upstream calls MCP servers itself: it must get the client's mcp tool as sent.
  vendor = await startMockUpstream(async (request) => {
    const body = await request.json() as Record<string, any>
    vendorBodies.push(body)
    return Response.json({ id: 'resp_1', object: 'response', created_at: 1, status: 'completed', model: body.model, output: [{ type: 'message', id: 'msg_1', role: 'assistant', status: 'completed', content: [{ type: 'output_text', text: 'vendor did it', annotations: [] }] }], usage: { input_tokens: 1, output_tokens: 1, total_tokens: 2 } })
  })
  proxy = await loopProxy(chat.url, generate.url, {
    'api-keys': ['loop-key'],
    'gamma-api-key': [{ 'api-key': 'up', 'base-url': `${vendor.url}/v1`, models: [{ name: 'vendor-model', alias: 'via-vendor' }] }],
  })
}, 60_000)

afterAll(async () => {
  await proxy?.close()
  await chat?.close()
  await generate?.close()
  await vendor?.close()
})

const openai = () => new OpenAI({ baseURL: `${proxy.url}/v1`, apiKey: 'loop-key', maxRetries: 0 })
const anthropic = () => new Anthropic({ baseURL: proxy.url, apiKey: 'loop-key', maxRetries: 0 })
const mcpTool = { type: 'mcp' as const, server_label: 'everything', server_url: 'https://mcp.example/unused', require_approval: 'never' as const }

describe.each(Object.entries(models))('responses client, %s upstream', (_, model) => {
  it('gets mcp_list_tools, mcp_call with the real result, and the answer', async () => {
    const response = await openai().responses.create({ model, input: 'echo ping', tools: [mcpTool] })
    const types = response.output.map(item => item.type)
    expect(types).toEqual(['mcp_list_tools', 'mcp_call', 'message'])
    const call = response.output[1] as OpenAI.Responses.ResponseOutputItem.McpCall
    expect(call).toMatchObject({ server_label: 'everything', name: 'echo', status: 'completed' })
    expect(call.output).toContain('Echo: ping')
    expect(response.output_text).toContain('Echo: ping')
    expect(response.usage!.input_tokens).toBe(20)
  })

  it('streamed', async () => {
    const stream = openai().responses.stream({ model, input: 'echo ping', tools: [mcpTool] })
    const final = await stream.finalResponse()
    expect(final.output.map(item => item.type)).toEqual(['mcp_list_tools', 'mcp_call', 'message'])
    expect(final.output_text).toContain('Echo: ping')
  })
})

describe.each(Object.entries(models))('messages client, %s upstream', (_, model) => {
  const request = { model, max_tokens: 100, betas: ['mcp-client-2025-11-20'], messages: [{ role: 'user' as const, content: 'echo ping' }], mcp_servers: [{ type: 'url' as const, name: 'everything', url: 'https://mcp.example/unused' }], tools: [{ type: 'mcp_toolset' as const, mcp_server_name: 'everything' }] }

  it('gets mcp_tool_use and mcp_tool_result blocks, and the answer', async () => {
    const message = await anthropic().beta.messages.create(request)
    expect(message.content.map(block => block.type)).toEqual(['mcp_tool_use', 'mcp_tool_result', 'text'])
    expect(message.content[0]).toMatchObject({ name: 'echo', server_name: 'everything', input: { message: 'ping' } })
    expect(JSON.stringify(message.content[1])).toContain('Echo: ping')
    expect((message.content[2] as { text: string }).text).toContain('Echo: ping')
  })

  it('streamed', async () => {
    const final = await anthropic().beta.messages.stream(request).finalMessage()
    expect(final.content.map(block => block.type)).toEqual(['mcp_tool_use', 'mcp_tool_result', 'text'])
    expect((final.content[2] as { text: string }).text).toContain('Echo: ping')
  })
})

describe('approvals and refusals', () => {
  it('asks for approval by default, and runs the call once approved', async () => {
    const asked = await openai().responses.create({ model: models.chat, input: 'echo ping', tools: [{ ...mcpTool, require_approval: 'always' }] })
    const request = asked.output.find(item => item.type === 'mcp_approval_request') as OpenAI.Responses.ResponseOutputItem.McpApprovalRequest
    expect(request).toMatchObject({ name: 'echo', server_label: 'everything' })
    const approved = await openai().responses.create({
      model: models.chat,
      tools: [{ ...mcpTool, require_approval: 'always' }],
      input: [{ role: 'user', content: 'echo ping' }, ...asked.output as any, { type: 'mcp_approval_response', approval_request_id: request.id, approve: true }],
    })
    const call = approved.output.find(item => item.type === 'mcp_call') as OpenAI.Responses.ResponseOutputItem.McpCall
    expect(call.approval_request_id).toBe(request.id)
    expect(call.output).toContain('Echo: ping')
    expect(approved.output_text).toContain('Echo: ping')
  })

  it('a server the gateway does not have is a 400 in the client\'s format', async () => {
    await expect(openai().responses.create({ model: models.chat, input: 'x', tools: [{ ...mcpTool, server_label: 'elsewhere' }] })).rejects.toMatchObject({ status: 400, message: expect.stringMatching(/not a server of this proxy's gateway/) })
  })

  it('an upstream of the client\'s own format gets the mcp tool untouched', async () => {
    const response = await openai().responses.create({ model: 'via-vendor', input: 'x', tools: [{ ...mcpTool, headers: { 'x-team': 'a' } }] })
    expect(response.output_text).toBe('vendor did it')
    expect(vendorBodies.at(-1)!.tools).toEqual([{ ...mcpTool, headers: { 'x-team': 'a' } }])
  })

  it('a request without MCP tools goes its usual way', async () => {
    const response = await openai().responses.create({ model: models.chat, input: 'hello' })
    expect(response.output_text).toBe('no tool offered')
  })
})
