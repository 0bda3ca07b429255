import type { Config } from '../config.ts';
import { createLlmDescriber, type Describer } from '../llms-txt/index.ts';

/** The model that writes `enhanced` descriptions, as LLM_* configures it; null for the built-in describer. */
export function describerFromConfig(llm: Config['llm']): Describer | null {
  if (llm.provider === 'none' || !llm.model) return null;
  return createLlmDescriber({
    provider: llm.provider,
    baseURL: llm.baseUrl ?? undefined,
    apiKey: llm.apiKey ?? undefined,
    model: llm.model,
    timeoutMs: llm.timeoutMs,
  });
}
