/**
 * How an AI agent reads this site's docs over MCP (issue 40): the endpoint, a client
 * configuration to paste (the API key left for the user: keys are shown only when created), and
 * which tools this site answers, since `search_docs` needs the pages a full-text generation stored.
 */
import { CopyButton } from './ui.tsx';

export function mcpConfig(origin: string): string {
  return JSON.stringify({ mcpServers: { llmstxt: { type: 'http', url: `${origin}/mcp`, headers: { Authorization: 'Bearer <your API key>' } } } }, null, 2);
}

export function McpCard({ siteId, hasFullText }: { siteId: string; hasFullText: boolean }) {
  const origin = location.origin;
  const config = mcpConfig(origin);
  return (
    <section class="card" aria-labelledby="mcp-title">
      <h2 id="mcp-title">For AI agents (MCP)</h2>
      <p>
        Coding agents read this site's docs through <code>{origin}/mcp</code> with an <a href="/keys">API key</a>. Paste this into the agent's MCP
        settings:
      </p>
      <pre data-testid="mcp-config">{config}</pre>
      <CopyButton text={config} label="Copy MCP configuration" />
      <p>
        Tools: <code>get_llms_txt</code> and <code>get_page</code> with this site's id <code>{siteId}</code>
        {hasFullText ? (
          <>
            , and <code>search_docs</code> over its stored pages.
          </>
        ) : (
          <>; <code>search_docs</code> needs a generation with llms-full.txt (its pages are stored then), so pages are read live instead.</>
        )}
      </p>
    </section>
  );
}
