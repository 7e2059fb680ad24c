/** An HTTP answer holding one JSON-RPC error (what MCP clients read on a refused request). */
export function rpcError(status: number, code: number, message: string, data?: unknown, id: string | number | null = null): Response {
  const error = data === undefined ? { code, message } : { code, message, data }
  return new Response(JSON.stringify({ jsonrpc: '2.0', error, id }), {
    status,
    headers: { 'content-type': 'application/json' },
  })
}
