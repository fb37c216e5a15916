/** A small set of stroke icons (inline SVG elements; no markup strings). */
import type { JSX } from 'preact';

const PATHS: Record<string, string[]> = {
  logo: ['M5 8.5 12 4l7 4.5v7L12 20l-7-4.5z', 'M12 12v8', 'M5 8.5l7 3.5 7-3.5'],
  plus: ['M12 5v14', 'M5 12h14'],
  key: ['M15 7a4 4 0 1 1-3.9 5H9v2H7v2H4v-3l6.1-6.1A4 4 0 0 1 15 7z', 'M16 10h.01'],
  sun: [
    'M12 4V2',
    'M12 22v-2',
    'M4 12H2',
    'M22 12h-2',
    'M5.6 5.6 4.2 4.2',
    'M19.8 19.8l-1.4-1.4',
    'M5.6 18.4l-1.4 1.4',
    'M19.8 4.2l-1.4 1.4',
    'M12 8a4 4 0 1 0 0 8 4 4 0 0 0 0-8z',
  ],
  moon: ['M20 14.5A8 8 0 1 1 9.5 4a6.5 6.5 0 0 0 10.5 10.5z'],
  contrast: ['M12 3a9 9 0 1 0 0 18 9 9 0 0 0 0-18z', 'M12 3v18'],
  search: ['M11 4a7 7 0 1 0 0 14 7 7 0 0 0 0-14z', 'M20 20l-4-4'],
  copy: ['M9 9h10v10H9z', 'M5 15V5h10'],
  check: ['M5 12.5l4.5 4.5L19 7.5'],
  download: ['M12 4v11', 'M7 10.5l5 5 5-5', 'M5 20h14'],
  trash: ['M4 7h16', 'M9 7V4h6v3', 'M6 7l1 13h10l1-13'],
  file: ['M6 3h8l4 4v14H6z', 'M14 3v4h4'],
  folder: ['M3 6h6l2 2h10v11H3z'],
  upload: ['M12 20V9', 'M7 13.5l5-5 5 5', 'M5 4h14'],
  edit: ['M4 20h4L19 9l-4-4L4 16z'],
  alert: ['M12 3 2 20h20z', 'M12 10v4', 'M12 17h.01'],
  info: ['M12 3a9 9 0 1 0 0 18 9 9 0 0 0 0-18z', 'M12 11v5', 'M12 8h.01'],
  x: ['M6 6l12 12', 'M18 6 6 18'],
  chevronLeft: ['M15 6l-6 6 6 6'],
  chevronRight: ['M9 6l6 6-6 6'],
  history: ['M4 12a8 8 0 1 0 2.3-5.7', 'M4 4v4h4', 'M12 8v4l3 2'],
  users: [
    'M9 11a3 3 0 1 0 0-6 3 3 0 0 0 0 6z',
    'M3 20a6 6 0 0 1 12 0',
    'M16 5a3 3 0 0 1 0 6',
    'M18 14a6 6 0 0 1 3 6',
  ],
  user: ['M12 11a4 4 0 1 0 0-8 4 4 0 0 0 0 8z', 'M4 21a8 8 0 0 1 16 0'],
};

export function Icon({ name, label }: { name: keyof typeof PATHS | string; label?: string }): JSX.Element {
  const paths = PATHS[name] ?? [];
  return (
    <svg
      class="icon"
      viewBox="0 0 24 24"
      width="18"
      height="18"
      fill="none"
      stroke="currentColor"
      stroke-width="2"
      stroke-linecap="round"
      stroke-linejoin="round"
      aria-hidden={label ? undefined : 'true'}
      role={label ? 'img' : undefined}
      aria-label={label}
      focusable="false"
    >
      {paths.map((d) => (
        <path key={d} d={d} />
      ))}
    </svg>
  );
}
