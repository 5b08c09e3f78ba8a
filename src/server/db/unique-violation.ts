/**
 * The unique constraint or index a failed INSERT or UPDATE broke (SQLSTATE 23505), or null when it
 * failed for another reason. Drizzle wraps the driver's error, so the chain of causes is followed.
 */
export function brokenUniqueConstraint(error: unknown): string | null {
  let current: unknown = error;
  for (let depth = 0; current && depth < 5; depth += 1) {
    const { code, constraint } = current as { code?: unknown; constraint?: unknown };
    if (code === '23505' && typeof constraint === 'string') return constraint;
    current = (current as { cause?: unknown }).cause;
  }
  return null;
}
