import type { Config } from '../config.ts';
import type { Describer } from '../llms-txt/index.ts';

/** An AI provider is configured: `enhanced` runs it; without one, `enhanced` runs as `simple` (pricing.ts). */
export const hasAiProvider = (llm: Config['llm']): boolean => llm.provider !== 'none' && Boolean(llm.model);

/**
 * The model that writes `enhanced` descriptions, as LLM_* configures it; null for the built-in describer.
 * The AI SDK and its providers load with the first enhanced job, not with the service: a service
 * without a model never pays their memory.
 */
export function describerFromConfig(llm: Config['llm']): Describer | null {
  // Spelled out (not hasAiProvider) so the types narrow.
  if (llm.provider === 'none' || !llm.model) return null;
  const options = { provider: llm.provider, baseURL: llm.baseUrl ?? undefined, apiKey: llm.apiKey ?? undefined, model: llm.model, timeoutMs: llm.timeoutMs };
  let describer: Promise<Describer> | undefined;
  return {
    kind: 'llm',
    async describe(site, pages, describeOptions) {
      describer ??= import('../llms-txt/llm-describer.ts').then(({ createLlmDescriber }) => createLlmDescriber(options));
      return (await describer).describe(site, pages, describeOptions);
    },
  };
}
