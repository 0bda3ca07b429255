/** What a running generation job is doing, as its status shows it: a phase and its page counts. */
import { Type } from 'typebox';
import { Nullable } from '../shapes.ts';

export const JOB_PHASES = ['discovering', 'fetching', 'describing', 'writing'] as const;
export type JobPhase = (typeof JOB_PHASES)[number];

/** Stored in generation_jobs.stage while the job runs. */
export interface JobStage {
  phase: JobPhase;
  /** discovering: URLs found; fetching: pages fetched; describing: pages described; writing: null */
  done: number | null;
  /** discovering: the most it may find (maxUrls); fetching, describing: pages to do; writing: null */
  total: number | null;
}

/** A progress report: the percentage and, with it, the stage. */
export interface JobProgress {
  percent: number;
  stage: JobStage;
}

export const JobStageFields = {
  phase: Nullable(Type.String({ description: `While processing, one of ${JOB_PHASES.join(', ')} (discovering: finding URLs); null otherwise` })),
  pagesDone: Nullable(Type.Integer({ description: "The phase's count so far: URLs found, pages fetched or described (null while writing)" })),
  pagesTotal: Nullable(Type.Integer({ description: "What the phase's count goes up to (discovering: maxUrls; null while writing)" })),
};

/** The stage of a job that is processing; nulls once it is not. */
export function stageView(status: string, stage: unknown) {
  const current = status === 'processing' ? (stage as JobStage | null) : null;
  return { phase: current?.phase ?? null, pagesDone: current?.done ?? null, pagesTotal: current?.total ?? null };
}
