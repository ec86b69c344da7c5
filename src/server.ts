export { createServer, analyticsApi, type ServerOptions } from './http/create-server.ts';
export { ApiKeys, type ApiKeyRecord, type CreatedKey } from './state/api-keys.ts';
export { mcpServerFor, type McpServerForOptions } from './mcp/embed.ts';
