/**
 * Shows untrusted Markdown: rendered and sanitised by `renderMarkdown`, inserted as DOM nodes (never
 * as an HTML string). Images of the skill load through the API as blob URLs; links to the skill's
 * files open the file viewer.
 */
import { useEffect, useRef } from 'preact/hooks';
import { useApp } from '../app-context.js';
import { ANCHOR_ATTR, renderMarkdown, SKILL_FILE_ATTR } from '../lib/markdown.js';

const IMAGE_TYPES: Record<string, string> = {
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  gif: 'image/gif',
  webp: 'image/webp',
  avif: 'image/avif',
  svg: 'image/svg+xml',
};

export function MarkdownView({
  source,
  fromDir = '',
  skill,
  onOpenFile,
  testId,
}: {
  source: string;
  fromDir?: string;
  /** The skill whose files links and images name (at `revision` when given: a past revision). */
  skill?: { name: string; targetUri: string; revision?: string | null };
  onOpenFile?: (path: string) => void;
  testId?: string;
}) {
  const { client } = useApp();
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const host = ref.current;
    if (!host) return;
    host.replaceChildren(renderMarkdown(source, fromDir));
    const urls: string[] = [];
    const controller = new AbortController();
    if (skill) {
      for (const img of Array.from(host.querySelectorAll<HTMLImageElement>(`img[${SKILL_FILE_ATTR}]`))) {
        const path = img.getAttribute(SKILL_FILE_ATTR) ?? '';
        const ext = path.slice(path.lastIndexOf('.') + 1).toLowerCase();
        const type = IMAGE_TYPES[ext];
        if (!type) continue;
        client
          .getSkillFile(
            skill.name,
            path,
            { target_uri: skill.targetUri, ...(skill.revision ? { revision: skill.revision } : {}) },
            { signal: controller.signal },
          )
          .then((file) => {
            const url = URL.createObjectURL(new Blob([file.bytes as Uint8Array<ArrayBuffer>], { type }));
            urls.push(url);
            img.src = url;
          })
          .catch(() => {
            img.alt = `${img.alt || path} (not found in the skill)`;
          });
      }
    }
    return () => {
      controller.abort();
      for (const url of urls) URL.revokeObjectURL(url);
    };
  }, [source, fromDir, skill?.name, skill?.targetUri, skill?.revision, client]);

  const open = (event: Event) => {
    if (event instanceof KeyboardEvent && event.key !== 'Enter') return;
    const element = event.target as Element | null;
    const anchor = element?.closest?.(`a[${ANCHOR_ATTR}]`);
    if (anchor) {
      event.preventDefault();
      const id = anchor.getAttribute(ANCHOR_ATTR) ?? '';
      const heading = Array.from(ref.current?.querySelectorAll('[id]') ?? []).find((h) => h.id === id);
      if (heading instanceof HTMLElement) {
        heading.scrollIntoView({ block: 'start' });
        heading.tabIndex = -1;
        heading.focus({ preventScroll: true });
      }
      return;
    }
    const target = element?.closest?.(`a[${SKILL_FILE_ATTR}]`);
    if (!target || !onOpenFile) return;
    event.preventDefault();
    onOpenFile(target.getAttribute(SKILL_FILE_ATTR) ?? '');
  };
  return (
    // biome-ignore lint/a11y/noStaticElementInteractions: delegated handler of the links inside, which are focusable role=link elements
    <div ref={ref} class="markdown" data-testid={testId} onClick={open} onKeyDown={open} />
  );
}
