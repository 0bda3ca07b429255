/**
 * What the checker can find, how much each costs, and the score: 100 less each kind's cost
 * (per finding, up to the kind's cap), never below 0. A file that cannot be read scores 0.
 */
export interface Finding {
  code: FindingCode;
  /** 1-based line of the file; null for what concerns the whole file. */
  line: number | null;
  message: string;
}

export type Severity = 'error' | 'warning' | 'notice';

interface Rule {
  severity: Severity;
  /** points per finding */
  cost: number;
  /** the most this kind of finding takes off */
  cap: number;
}

export const RULES = {
  'file-unreadable': { severity: 'error', cost: 100, cap: 100 },
  'missing-h1': { severity: 'error', cost: 30, cap: 30 },
  'no-sections': { severity: 'error', cost: 30, cap: 30 },
  'missing-summary': { severity: 'warning', cost: 10, cap: 10 },
  'multiple-h1': { severity: 'warning', cost: 5, cap: 10 },
  'misplaced-heading': { severity: 'warning', cost: 3, cap: 10 },
  'bad-link-line': { severity: 'warning', cost: 3, cap: 15 },
  'empty-section': { severity: 'warning', cost: 5, cap: 10 },
  'optional-not-last': { severity: 'warning', cost: 5, cap: 5 },
  'duplicate-link': { severity: 'warning', cost: 2, cap: 10 },
  'broken-link': { severity: 'error', cost: 5, cap: 30 },
  'link-refused': { severity: 'error', cost: 5, cap: 20 },
  'link-disallowed': { severity: 'warning', cost: 1, cap: 5 },
  'missing-key-page': { severity: 'warning', cost: 2, cap: 10 },
  'changed-after-file': { severity: 'warning', cost: 2, cap: 10 },
  'not-checked': { severity: 'notice', cost: 0, cap: 0 },
} as const satisfies Record<string, Rule>;

export type FindingCode = keyof typeof RULES;

/** Findings of one kind shown at most; the rest are counted in one more finding. */
export const MAX_SHOWN_PER_CODE = 20;

export function score(findings: Finding[]): number {
  const counts = new Map<FindingCode, number>();
  for (const finding of findings) counts.set(finding.code, (counts.get(finding.code) ?? 0) + 1);
  let lost = 0;
  for (const [code, count] of counts) lost += Math.min(RULES[code].cap, RULES[code].cost * count);
  return Math.max(0, 100 - lost);
}

export interface ReportedFinding extends Finding {
  severity: Severity;
}

/** Findings as answered: each with its severity, in file order, at most MAX_SHOWN_PER_CODE of a kind. */
export function reportFindings(findings: Finding[]): ReportedFinding[] {
  const shown = new Map<FindingCode, number>();
  const kept: ReportedFinding[] = [];
  for (const finding of findings) {
    const count = (shown.get(finding.code) ?? 0) + 1;
    shown.set(finding.code, count);
    if (count <= MAX_SHOWN_PER_CODE) kept.push({ ...finding, severity: RULES[finding.code].severity });
  }
  for (const [code, count] of shown) {
    if (count > MAX_SHOWN_PER_CODE) kept.push({ code, line: null, severity: RULES[code].severity, message: `${count - MAX_SHOWN_PER_CODE} more like this (${count} in all)` });
  }
  return kept.sort((a, b) => (a.line ?? Number.MAX_SAFE_INTEGER) - (b.line ?? Number.MAX_SAFE_INTEGER));
}
