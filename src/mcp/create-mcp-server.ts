import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  CallToolRequestSchema,
  ErrorCode,
  GetPromptRequestSchema,
  ListPromptsRequestSchema,
  ListResourcesRequestSchema,
  ListToolsRequestSchema,
  McpError,
  ReadResourceRequestSchema,
} from '@modelcontextprotocol/sdk/types.js';
import { mcpErrorOf } from './mcp-errors.ts';
import { mcpPrompts } from './mcp-prompts.ts';
import { mcpResources } from './mcp-resources.ts';
import type { ToolSource } from './tool-source.ts';
import { callTool, type ToolSession } from './tool-call.ts';

export const serverInfo = { name: 'answer-engine-analytics', version: '0.1.0' };

export interface McpServerOptions {
  readonly tools: ToolSource;
  readonly allowWrites: boolean;
  /** The caller's session; a local server resolves it once the dataset is open, so listing tools never waits for it. */
  readonly session: () => Promise<ToolSession>;
  readonly clock: () => Date;
}

/**
 * An MCP server over the registry: its tools, the data model and the organization's categories as
 * resources, and prompts for common questions. Connect it to a transport (stdio, Streamable HTTP).
 */
export function createMcpServer(options: McpServerOptions): Server {
  const server = new Server(serverInfo, {
    capabilities: { tools: {}, resources: {}, prompts: {} },
    instructions:
      'Answer Engine Analytics: how AI answer engines mention brands, cite pages and send traffic. Each report tool states its metrics’ definitions; every answer gives its window, normalized filters and fingerprint, at most 50 rows (max_rows) or 100 KB with next_cursor to continue, and empty_reason when it has no rows. Start with the resource aea://org/categories for category ids.',
  });
  const { tools } = options;
  const resources = mcpResources(tools);
  const prompts = mcpPrompts(options.clock);
  const scope = async () => (await options.session()).scope;

  server.setRequestHandler(ListToolsRequestSchema, async () => ({
    tools: (await tools.listing())
      .filter((t) => options.allowWrites || !t.write)
      .map((t) => ({
        name: t.name,
        title: t.title,
        description: t.description,
        inputSchema: t.inputSchema,
        annotations: { readOnlyHint: !t.write, openWorldHint: false },
      })),
  }));

  server.setRequestHandler(CallToolRequestSchema, async (request) => {
    const tool = await tools.tool(request.params.name);
    if (!tool)
      throw new McpError(ErrorCode.InvalidParams, `no tool ${request.params.name}`, {
        status: 404,
        code: 'unknown_tool',
      });
    try {
      const answer = await callTool(tool, await options.session(), request.params.arguments ?? {});
      return { content: [{ type: 'text' as const, text: answer.text }], structuredContent: answer.value };
    } catch (error) {
      throw mcpErrorOf(error);
    }
  });

  server.setRequestHandler(ListResourcesRequestSchema, async () => ({
    resources: resources.map((r) => ({
      uri: r.uri,
      name: r.name,
      description: r.description,
      mimeType: 'application/json',
    })),
  }));

  server.setRequestHandler(ReadResourceRequestSchema, async (request) => {
    const resource = resources.find((r) => r.uri === request.params.uri);
    if (!resource)
      throw new McpError(ErrorCode.InvalidParams, `no resource ${request.params.uri}`, {
        status: 404,
        code: 'not_found',
      });
    try {
      return {
        contents: [
          { uri: resource.uri, mimeType: 'application/json', text: JSON.stringify(await resource.read(scope)) },
        ],
      };
    } catch (error) {
      throw mcpErrorOf(error);
    }
  });

  server.setRequestHandler(ListPromptsRequestSchema, async () => ({
    prompts: prompts.map((p) => ({ name: p.name, description: p.description, arguments: [...p.arguments] })),
  }));

  server.setRequestHandler(GetPromptRequestSchema, async (request) => {
    const prompt = prompts.find((p) => p.name === request.params.name);
    if (!prompt)
      throw new McpError(ErrorCode.InvalidParams, `no prompt ${request.params.name}`, {
        status: 404,
        code: 'not_found',
      });
    const args = request.params.arguments ?? {};
    const missing = prompt.arguments.filter((a) => a.required && !args[a.name]);
    if (missing.length > 0)
      throw new McpError(
        ErrorCode.InvalidParams,
        `prompt ${prompt.name} needs ${missing.map((a) => a.name).join(', ')}`,
        { status: 422, code: 'validation_error' },
      );
    return {
      description: prompt.description,
      messages: [{ role: 'user' as const, content: { type: 'text' as const, text: prompt.text(args) } }],
    };
  });

  return server;
}
