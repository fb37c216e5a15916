/**
 * Shows untrusted Markdown: rendered and sanitised by `renderMarkdown`, inserted as DOM nodes (never
 * as an HTML string). Images of the skill load through the API as blob URLs; links to the skill's
 * files open the file viewer.
 */
import { useEffect, useRef, useState } from 'preact/hooks';
import { useApp } from '../app-context.js';
import { formatBytes } from '../lib/format.js';
import { ANCHOR_ATTR, renderablePart, renderMarkdown, SKILL_FILE_ATTR } from '../lib/markdown.js';

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
  // A very long document is rendered in part until the reader asks for the rest (see
  // `MARKDOWN_RENDER_LIMIT`); another document starts in part again.
  const [whole, setWhole] = useState<string | null>(null);
  const part = whole === source ? { text: source, cut: false } : renderablePart(source);
  useEffect(() => {
    const host = ref.current;
    if (!host) return;
    host.replaceChildren(renderMarkdown(part.text, fromDir));
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
  }, [part.text, fromDir, skill?.name, skill?.targetUri, skill?.revision, client]);

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
  const size = (text: string) => formatBytes(new TextEncoder().encode(text).byteLength);
  return (
    <>
      {/* biome-ignore lint/a11y/noStaticElementInteractions: delegated handler of the links inside, which are focusable role=link elements */}
      <div ref={ref} class="markdown" data-testid={testId} onClick={open} onKeyDown={open} />
      {part.cut && (
        <p class="md-cut" role="note" data-testid="markdown-cut">
          This document is {size(source)}; the first {size(part.text)} are shown. Rendering all of it can keep
          this page busy for a few seconds.{' '}
          <button type="button" class="button" onClick={() => setWhole(source)}>
            Render all
          </button>
        </p>
      )}
    </>
  );
}
