/** A path with the given query parameters; empty and missing values are left out. */
export function withParams(path: string, params: Record<string, string | null | undefined>): string {
  const query = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) if (v) query.set(k, v);
  const s = query.toString();
  return s ? `${path}?${s}` : path;
}
