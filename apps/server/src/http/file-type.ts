/**
 * The `Content-Type` a stored skill file is served with. Skill files are untrusted: nothing is ever
 * served as a type a browser would run or render actively (HTML, SVG, XML, JavaScript), so those go
 * out as `text/plain`.
 */

const TEXT = 'text/plain; charset=utf-8';

const TYPES: Record<string, string> = {
  md: 'text/markdown; charset=utf-8',
  markdown: 'text/markdown; charset=utf-8',
  json: 'application/json',
  csv: 'text/csv; charset=utf-8',
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  gif: 'image/gif',
  webp: 'image/webp',
  avif: 'image/avif',
  pdf: 'application/pdf',
  zip: 'application/zip',
  gz: 'application/gzip',
  wasm: 'application/wasm',
};

/** Extensions of text files served as `text/plain` (source code, configuration, markup). */
const PLAIN = new Set(
  (
    'txt text log py sh bash zsh fish ps1 bat cmd js mjs cjs ts mts cts jsx tsx go rs rb php java kt ' +
    'swift c h cc cpp hpp cs lua pl r sql yaml yml toml ini cfg conf env tex rst adoc org ' +
    'html htm xhtml svg xml xsl css scss less vue svelte graphql gql proto tf hcl dockerfile makefile'
  ).split(' '),
);

/**
 * The content type to serve a skill file with, from its path.
 *
 * @param path - the file path inside the skill folder, e.g. `scripts/run.py`
 * @returns a MIME type; `application/octet-stream` for unknown extensions
 * @example contentTypeOf('docs/guide.md'); // 'text/markdown; charset=utf-8'
 */
export function contentTypeOf(path: string): string {
  const base = path.slice(path.lastIndexOf('/') + 1).toLowerCase();
  const dot = base.lastIndexOf('.');
  const ext = dot >= 0 ? base.slice(dot + 1) : base;
  return TYPES[ext] ?? (PLAIN.has(ext) ? TEXT : 'application/octet-stream');
}
