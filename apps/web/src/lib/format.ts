/** Small display helpers: sizes, dates, counts. */

/** `1536` → `1.5 KB` (binary units, one decimal under 10). */
export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  const units = ['KB', 'MB', 'GB'];
  let value = bytes / 1024;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  return `${value < 10 ? value.toFixed(1) : Math.round(value)} ${units[unit]}`;
}

const RELATIVE = new Intl.RelativeTimeFormat('en', { numeric: 'auto' });
const STEPS: Array<[Intl.RelativeTimeFormatUnit, number]> = [
  ['second', 60],
  ['minute', 60],
  ['hour', 24],
  ['day', 30],
  ['month', 12],
  ['year', Number.POSITIVE_INFINITY],
];

/** An ISO time as "3 minutes ago", "yesterday", … */
export function formatRelative(iso: string, now = Date.now()): string {
  const then = Date.parse(iso);
  if (Number.isNaN(then)) return iso;
  let delta = (then - now) / 1000;
  for (const [unit, size] of STEPS) {
    if (Math.abs(delta) < size) return RELATIVE.format(Math.round(delta), unit);
    delta /= size;
  }
  return iso;
}

/** An ISO time as a full local date and time, for tooltips. */
export function formatDate(iso: string): string {
  const then = new Date(iso);
  return Number.isNaN(then.getTime()) ? iso : then.toLocaleString();
}

/** `12345` → `12,345`. */
export function formatCount(n: number): string {
  return n.toLocaleString('en');
}

/** `viking://agent/skills` → `agent`; a user root → `user`. */
export function rootKind(rootUri: string): 'agent' | 'user' {
  return rootUri.startsWith('viking://agent/') ? 'agent' : 'user';
}

/** The `target_uri` that names a root kind. */
export function rootTarget(kind: 'agent' | 'user'): string {
  return kind === 'agent' ? 'viking://agent/skills' : 'viking://~/skills';
}
