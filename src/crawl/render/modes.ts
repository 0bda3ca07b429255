/** A job's rendering: none, pages that look like application shells, or every page (docs/decisions/rendering.md). */
export const RENDER_MODES = ['never', 'auto', 'always'] as const;
export type RenderMode = (typeof RENDER_MODES)[number];
