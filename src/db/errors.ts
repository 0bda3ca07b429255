/** True when the error (or what it wraps) is PostgreSQL's unique_violation, optionally on one constraint. */
export function isUniqueViolation(error: unknown, constraint?: string): boolean {
  for (let e: any = error; e; e = e.cause) {
    if (e.code === '23505') return !constraint || e.constraint === constraint || String(e.message).includes(constraint);
  }
  return false;
}
