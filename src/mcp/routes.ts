import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { errors } from '../errors.ts';
import { callerOf } from '../http/authenticate.ts';
import type { RoutePlugin } from '../http/types.ts';
import { createMcpServer, type McpDeps } from './server.ts';

export const MCP_PATH = '/mcp';

/**
 * `/mcp`, outside /api/v1 where MCP clients expect it: the Streamable HTTP transport in its
 * stateless mode (a server and transport per request, answers as JSON), so any API process can
 * answer any request and nothing is kept between them. API keys only: an agent is a third party.
 */
export const mcpRoutes: RoutePlugin<Omit<McpDeps, 'log'>> = async (app, deps) => {
  app.post(
    MCP_PATH,
    {
      config: { auth: 'apiKey' },
      // MCP clients read the tools from the server itself (tools/list), not from the REST API's OpenAPI document.
      schema: { hide: true },
    },
    async (request, reply) => {
      const server = createMcpServer({ ...deps, log: request.log }, callerOf(request).accountId);
      const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
      reply.hijack();
      reply.raw.on('close', () => {
        void transport.close();
        void server.close();
      });
      await server.connect(transport);
      await transport.handleRequest(request.raw, reply.raw, request.body);
    },
  );

  // No session, so no server-sent stream to open (GET) nor session to end (DELETE): MCP clients expect 405.
  app.route({
    method: ['GET', 'DELETE'],
    url: MCP_PATH,
    schema: { hide: true },
    handler: async () => {
      throw errors.mcpMethodNotAllowed();
    },
  });
};
