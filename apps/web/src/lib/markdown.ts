/**
 * Untrusted Markdown → safe DOM. Skills are written by anyone, so rendering is two locks deep:
 * markdown-it with raw HTML switched off (any `<script>` or `<img onerror>` in a skill comes out as
 * text) and then DOMPurify over its output (no script, no event handler, no `javascript:` or other
 * non-web URL survives, even if the renderer had a bug). The page's Content-Security-Policy is the
 * third lock. Images load only from the skill itself (its auxiliary files) or `data:` URLs; a remote
 * image becomes a link the reader may follow, so reading a skill never tells a third party.
 */
import DOMPurify from 'dompurify';
import MarkdownIt from 'markdown-it';

const md = new MarkdownIt({ html: false, linkify: true, typographer: false, breaks: false });

/** What the renderer found that the page must resolve: files of the skill linked or shown. */
export const SKILL_FILE_ATTR = 'data-skill-file';
/** In-document links (`#section`): the id of the heading they go to. */
export const ANCHOR_ATTR = 'data-anchor';
/** Heading ids carry this prefix, so a skill can never clobber the page's own ids or globals. */
export const HEADING_ID_PREFIX = 'md-';

/** GitHub-style heading slug: lowercase, spaces to `-`, punctuation dropped. */
export function slugify(text: string): string {
  return text
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');
}

const SAFE_DATA_IMAGE = /^data:image\/(png|jpe?g|gif|webp|avif);/i;

function isExternal(href: string): boolean {
  return /^(https?:|mailto:)/i.test(href);
}

const SKILL_DIR_VARIABLE = /^\$\{CLAUDE_SKILL_DIR\}\//;

/**
 * A path inside the skill folder for a relative link (or one starting `${CLAUDE_SKILL_DIR}/`), or null
 * (`../` escaping it, absolute, …).
 */
export function resolveSkillPath(href: string, fromDir = ''): string | null {
  if (href === '' || href.startsWith('#') || href.startsWith('/') || /^[a-z][a-z0-9+.-]*:/i.test(href)) {
    return null;
  }
  const clean = href.split('#')[0]?.split('?')[0] ?? '';
  let decoded: string;
  try {
    decoded = decodeURIComponent(clean);
  } catch {
    return null;
  }
  // `${CLAUDE_SKILL_DIR}` is the folder of the skill's SKILL.md (Claude Code substitutes it), whatever
  // file the link is in.
  const fromSkillDir = SKILL_DIR_VARIABLE.test(decoded);
  const relative = fromSkillDir ? decoded.replace(SKILL_DIR_VARIABLE, '') : decoded;
  const parts = fromDir && !fromSkillDir ? fromDir.split('/') : [];
  for (const segment of relative.split('/')) {
    if (segment === '' || segment === '.') continue;
    if (segment === '..') {
      if (parts.length === 0) return null;
      parts.pop();
    } else parts.push(segment);
  }
  return parts.length > 0 ? parts.join('/') : null;
}

function remoteImagePlaceholder(doc: Document, img: HTMLImageElement, src: string): HTMLElement {
  const box = doc.createElement('span');
  box.className = 'md-remote-image';
  let host = src;
  try {
    host = new URL(src).host;
  } catch {
    // keep the raw text
  }
  const label = img.getAttribute('alt') || 'image';
  if (/^https?:/i.test(src)) {
    const link = doc.createElement('a');
    link.href = src;
    link.target = '_blank';
    link.rel = 'noopener noreferrer nofollow ugc';
    link.textContent = `${label} (remote image on ${host}, not loaded)`;
    box.append(link);
  } else {
    box.textContent = `${label} (image not loaded)`;
  }
  return box;
}

/**
 * Characters of a Markdown document rendered at first (UTF-16 code units). Rendering, sanitising and
 * laying out is linear but heavy in a browser — ~0.7 s for a 200,000-character list, ~3 s for a 1 MB
 * one in Chromium, during which the tab does not respond — so a longer document (only a hostile or
 * generated one: the largest of 1,880 published skills is 160,000 characters) shows this much first,
 * with a button that renders the rest.
 */
export const MARKDOWN_RENDER_LIMIT = 200_000;

/**
 * The part of `source` rendered at first: all of it when it is at most `limit` characters, else up
 * to the last line break within the limit (so no line is cut; a hard cut when the last 10% holds
 * none), never between the two halves of a surrogate pair.
 *
 * @param source - Markdown text
 * @param limit - most characters (default {@link MARKDOWN_RENDER_LIMIT})
 * @returns the text to render and whether it was cut
 */
export function renderablePart(
  source: string,
  limit = MARKDOWN_RENDER_LIMIT,
): { text: string; cut: boolean } {
  if (source.length <= limit) return { text: source, cut: false };
  let end = source.lastIndexOf('\n', limit - 1) + 1;
  if (end < limit * 0.9) {
    end = limit;
    const code = source.charCodeAt(end - 1);
    if (code >= 0xd800 && code <= 0xdbff) end--;
  }
  return { text: source.slice(0, end), cut: true };
}

/**
 * Renders Markdown to a sanitised fragment.
 *
 * - links to web pages open in a new tab without referrer; relative links that name a file of the
 *   skill get `data-skill-file` (the page turns them into its file viewer);
 * - relative images get `data-skill-file` and no `src` (the page loads them through the API);
 *   `data:` raster images stay; remote images are replaced by a link.
 *
 * @param source - Markdown text (untrusted)
 * @param fromDir - folder of the document inside the skill (for relative paths), '' for SKILL.md
 */
export function renderMarkdown(source: string, fromDir = ''): DocumentFragment {
  const html = md.render(source);
  const fragment = DOMPurify.sanitize(html, {
    USE_PROFILES: { html: true },
    FORBID_TAGS: ['style', 'form', 'input', 'button', 'textarea', 'select', 'iframe', 'object', 'embed'],
    FORBID_ATTR: ['style', 'srcset', 'action', 'formaction'],
    ALLOW_DATA_ATTR: false,
    RETURN_DOM_FRAGMENT: true,
  });
  const doc = fragment.ownerDocument;
  const seen = new Map<string, number>();
  for (const heading of Array.from(fragment.querySelectorAll('h1, h2, h3, h4, h5, h6'))) {
    const base = slugify(heading.textContent ?? '');
    if (!base) continue;
    const count = seen.get(base) ?? 0;
    seen.set(base, count + 1);
    heading.id = `${HEADING_ID_PREFIX}${count === 0 ? base : `${base}-${count}`}`;
  }
  for (const link of Array.from(fragment.querySelectorAll('a'))) {
    const href = link.getAttribute('href') ?? '';
    if (isExternal(href)) {
      link.target = '_blank';
      link.rel = 'noopener noreferrer nofollow ugc';
      continue;
    }
    if (href.startsWith('#')) {
      let target = href.slice(1);
      try {
        target = decodeURIComponent(target);
      } catch {
        // keep it raw
      }
      link.setAttribute(ANCHOR_ATTR, `${HEADING_ID_PREFIX}${target.toLowerCase()}`);
      link.removeAttribute('href');
      link.setAttribute('role', 'link');
      link.tabIndex = 0;
      continue;
    }
    const path = resolveSkillPath(href, fromDir);
    if (path !== null) {
      link.setAttribute(SKILL_FILE_ATTR, path);
      link.removeAttribute('href');
      link.setAttribute('role', 'link');
      link.tabIndex = 0;
    } else {
      link.removeAttribute('href');
    }
  }
  for (const img of Array.from(fragment.querySelectorAll('img'))) {
    const src = img.getAttribute('src') ?? '';
    img.loading = 'lazy';
    if (SAFE_DATA_IMAGE.test(src)) continue;
    const path = resolveSkillPath(src, fromDir);
    if (path !== null) {
      img.removeAttribute('src');
      img.setAttribute(SKILL_FILE_ATTR, path);
      continue;
    }
    img.replaceWith(remoteImagePlaceholder(doc, img, src));
  }
  return fragment;
}
