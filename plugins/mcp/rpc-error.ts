/** An HTTP answer holding one JSON-RPC error (what MCP clients read on a refused request). */
export function rpcError(status: number, code: number, message: string): Response {
  return new Response(JSON.stringify({ jsonrpc: '2.0', error: { code, message }, id: null }), {
    status,
    headers: { 'content-type': 'application/json' },
  })
}
