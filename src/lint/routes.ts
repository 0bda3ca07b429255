import { Type } from 'typebox';
import type { Config } from '../config.ts';
import { errorAnswers } from '../http/schemas.ts';
import { Nullable } from '../shapes.ts';
import { parseTargetUrl, refuseUnreachableTarget, TargetUrl } from '../job-input/target-url.ts';
import type { RoutePlugin } from '../http/types.ts';
import { lintUrl, LINT_BOUNDS, type LintDeps } from './checker.ts';
import { RULES } from './findings.ts';

const FindingView = Type.Object({
  code: Type.Union(Object.keys(RULES).map((code) => Type.Literal(code))),
  severity: Type.Union([Type.Literal('error'), Type.Literal('warning'), Type.Literal('notice')]),
  message: Type.String(),
  line: Nullable(Type.Integer({ description: '1-based line of the file; null for the whole file' })),
});

const LintView = Type.Object({
  fileUrl: Nullable(Type.String()),
  site: Nullable(Type.String({ description: 'the origin whose navigation and sitemap were compared with the file' })),
  score: Type.Integer({ minimum: 0, maximum: 100 }),
  findings: Type.Array(FindingView),
  links: Type.Object({ listed: Type.Integer(), checked: Type.Integer() }),
});

export const lintRoutes: RoutePlugin<LintDeps & { config: Config }> = async (app, deps) => {
  app.post(
    '/lint',
    {
      config: { auth: 'any', rateLimit: { max: deps.config.rateLimits.jobStarts } },
      schema: {
        tags: ['Lint'],
        summary: 'Check an llms.txt against llmstxt.org, its links and its site; free',
        description: `\`url\`: the llms.txt (or any text file), or any page of the site (then \`<origin>/llms.txt\` is checked). Structure, duplicates, each link's status (at most ${LINT_BOUNDS.maxLinks}), key pages of the site's navigation and sitemap the file lacks, listed pages changed after the file; a 0-100 score. Answers within ${LINT_BOUNDS.budgetMs / 1000} s; counted against the job-start rate limit.`,
        body: Type.Object({ url: TargetUrl }, { additionalProperties: false }),
        response: { 200: LintView, ...errorAnswers(400, 401, 429) },
      },
    },
    async (request) => {
      const url = parseTargetUrl(request.body.url);
      await refuseUnreachableTarget(url, deps.crawl);
      return lintUrl(deps, url);
    },
  );
};
