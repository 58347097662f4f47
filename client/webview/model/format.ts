/** Numbers as the response view writes them: `2,500 items`, `721 KB`, `1.0 s`. Pure. */

export function formatCount(n: number, one: string, many: string): string {
  return `${n.toLocaleString('en-US')} ${n === 1 ? one : many}`;
}

export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  const kb = bytes / 1024;
  if (kb < 1024) return `${kb < 10 ? kb.toFixed(1) : Math.round(kb).toLocaleString('en-US')} KB`;
  const mb = kb / 1024;
  return `${mb < 10 ? mb.toFixed(1) : Math.round(mb).toLocaleString('en-US')} MB`;
}

export function formatDuration(ms: number): string {
  if (ms < 1000) return `${Math.round(ms)} ms`;
  return ms < 60_000
    ? `${(ms / 1000).toFixed(1)} s`
    : `${Math.floor(ms / 60_000)} min ${Math.round((ms % 60_000) / 1000)} s`;
}

/** An issue group as one line: `$[*].x_internal_rank · undocumented × 2,500`. */
export function groupLabel(group: { pattern: string; kind: string; count: number }): string {
  return `${group.pattern} · ${group.kind}${group.count > 1 ? ` × ${group.count.toLocaleString('en-US')}` : ''}`;
}
