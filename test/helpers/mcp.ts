/**
 * The official MCP server (firecrawl-mcp, pinned in package.json), unmodified, started over stdio
 * with the MCP SDK's own client and pointed at a test stack with FIRECRAWL_API_URL.
 */
import { createRequire } from 'node:module';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { TestStack } from './stack.js';

const require = createRequire(import.meta.url);

export interface McpServer {
  client: Client;
  /** Calls a tool; the MCP client has already checked structuredContent against the tool's output schema. */
  tool<T = Record<string, unknown>>(name: string, args: Record<string, unknown>): Promise<{ isError: boolean; data: T; text: string }>;
  close(): Promise<void>;
}

export async function startMcpServer(stack: TestStack): Promise<McpServer> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [require.resolve('firecrawl-mcp/dist/index.js')],
    env: { PATH: process.env.PATH ?? '', FIRECRAWL_API_URL: stack.api.url, FIRECRAWL_API_KEY: stack.key },
    stderr: 'pipe',
  });
  const client = new Client({ name: 'pagewright-contract-test', version: '1.0.0' });
  await client.connect(transport);
  return {
    client,
    async tool<T>(name: string, args: Record<string, unknown>) {
      const result = (await client.callTool({ name, arguments: args })) as { isError?: boolean; structuredContent?: T; content: { type: string; text: string }[] };
      return { isError: Boolean(result.isError), data: result.structuredContent ?? ({} as T), text: result.content.map((c) => c.text).join('\n') };
    },
    close: () => client.close(),
  };
}
