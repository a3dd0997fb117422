/** A duration the way Tekton writes one (Go's time.Duration): 500ms, 5s, 1.5s, 1m30s, 1h. */
export function formatDuration(ms: number): string {
  if (ms < 1000) return `${Math.round(ms)}ms`;
  const hours = Math.floor(ms / 3_600_000);
  const minutes = Math.floor((ms % 3_600_000) / 60_000);
  const seconds = (ms % 60_000) / 1000;
  let out = '';
  if (hours > 0) out += `${hours}h`;
  if (minutes > 0) out += `${minutes}m`;
  if (seconds > 0 || out === '') out += `${Number(seconds.toFixed(3))}s`;
  return out;
}
