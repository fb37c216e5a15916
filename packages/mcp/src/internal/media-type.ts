/**
 * Media types of the files in a skill folder (SKILL.md, scripts, references, assets) for MCP
 * resources and tool results. The `mime` package knows the registered types; skill
 * folders are mostly source code, whose extensions it maps to unrelated registered types (`.ts` is
 * `video/mp2t`, `.rs` an XML type, `.bat` an executable download), so source extensions come from
 * a table here first.
 */
import mime from 'mime';

/** Source and configuration extensions, lowercase, and the type a code viewer expects. */
const SOURCE_TYPES: Readonly<Record<string, string>> = {
  md: 'text/markdown',
  markdown: 'text/markdown',
  mdx: 'text/markdown',
  ts: 'text/x-typescript',
  mts: 'text/x-typescript',
  cts: 'text/x-typescript',
  tsx: 'text/x-typescript',
  py: 'text/x-python',
  pyi: 'text/x-python',
  rb: 'text/x-ruby',
  go: 'text/x-go',
  rs: 'text/x-rust',
  java: 'text/x-java-source',
  kt: 'text/x-kotlin',
  kts: 'text/x-kotlin',
  scala: 'text/x-scala',
  swift: 'text/x-swift',
  c: 'text/x-c',
  h: 'text/x-c',
  cc: 'text/x-c++',
  cpp: 'text/x-c++',
  cxx: 'text/x-c++',
  hpp: 'text/x-c++',
  cs: 'text/x-csharp',
  php: 'text/x-php',
  pl: 'text/x-perl',
  lua: 'text/x-lua',
  r: 'text/x-r',
  sh: 'text/x-shellscript',
  bash: 'text/x-shellscript',
  zsh: 'text/x-shellscript',
  fish: 'text/x-shellscript',
  ps1: 'text/x-powershell',
  psm1: 'text/x-powershell',
  bat: 'text/x-msdos-batch',
  cmd: 'text/x-msdos-batch',
  sql: 'text/x-sql',
  vue: 'text/x-vue',
  svelte: 'text/x-svelte',
  toml: 'text/x-toml',
  ini: 'text/plain',
  cfg: 'text/plain',
  conf: 'text/plain',
  env: 'text/plain',
  lock: 'text/plain',
  log: 'text/plain',
  j2: 'text/plain',
  jinja: 'text/plain',
  tmpl: 'text/plain',
  tpl: 'text/plain',
};

/** Registered non-`text/*` types whose content is text. */
const TEXTUAL =
  /^(?:application\/(?:json|xml|yaml|javascript|ecmascript|sql|toml|x-sh|x-tex|x-latex)|[a-z]+\/[\w.+-]*\+(?:json|xml|yaml))$/;

const utf8 = new TextDecoder('utf-8', { fatal: true });

/** True when a media type (without parameters) describes text. */
function isTextual(type: string): boolean {
  return type.startsWith('text/') || TEXTUAL.test(type);
}

/** True when the bytes are UTF-8 text: they decode, and hold no NUL byte. */
function looksLikeText(content: Uint8Array): boolean {
  if (content.includes(0)) return false;
  try {
    utf8.decode(content);
    return true;
  } catch {
    return false;
  }
}

/**
 * The media type a skill file's name suggests, or null when its extension is unknown (`LICENSE`,
 * `notes.xyz`).
 *
 * @example mediaTypeFromName('scripts/run.py'); // 'text/x-python'
 */
export function mediaTypeFromName(path: string): string | null {
  const base = path.slice(path.lastIndexOf('/') + 1);
  const dot = base.lastIndexOf('.');
  if (dot <= 0 || dot === base.length - 1) return null;
  const ext = base.slice(dot + 1).toLowerCase();
  return SOURCE_TYPES[ext] ?? mime.getType(ext);
}

/** What {@link skillFileMediaType} found. */
export interface SkillFileMediaType {
  /** The media type without parameters, e.g. `text/markdown`, `image/png`, `application/octet-stream`. */
  type: string;
  /**
   * True when the bytes are UTF-8 text (they decode, and have no NUL byte): MCP clients get such a
   * file as `text`, the others as base64 `blob`.
   */
  text: boolean;
}

/**
 * The media type of a file in a skill folder, from its name and its bytes.
 *
 * - Source and configuration files (`.py`, `.ts`, `.sh`, `.toml`, …) get a `text/x-…` or `text/…`
 *   type from a table; other extensions the registered type (`mime` package): `text/markdown`,
 *   `image/png`, `application/pdf`, …
 * - The bytes decide whether the file is text: a textual type whose bytes are not UTF-8 becomes
 *   `application/octet-stream`; a binary type keeps its type (`text` says what the bytes are); an
 *   unknown or missing extension (`LICENSE`, `Makefile`) is `text/plain` when the bytes are UTF-8
 *   text, else `application/octet-stream`.
 *
 * @param path - the file's path inside the skill folder (only the last segment's extension counts)
 * @param content - the file's bytes
 * @returns `{type, text}`
 * @example
 * ```ts
 * skillFileMediaType('SKILL.md', bytes);        // { type: 'text/markdown', text: true }
 * skillFileMediaType('LICENSE', utf8Bytes);     // { type: 'text/plain', text: true }
 * ```
 */
export function skillFileMediaType(path: string, content: Uint8Array): SkillFileMediaType {
  const named = mediaTypeFromName(path);
  const text = looksLikeText(content);
  // A textual name whose bytes are not UTF-8 text (a `.txt` in Latin-1, a mislabelled binary) is
  // served as bytes; a binary name keeps its type whatever the bytes.
  if (named !== null) {
    return isTextual(named) && !text ? { type: 'application/octet-stream', text } : { type: named, text };
  }
  return text ? { type: 'text/plain', text } : { type: 'application/octet-stream', text };
}
