/**
 * Renders a {@link SchemaView} tree as the Markdown bullets of a skill's `## Parameters` section:
 *
 * ```
 * - **query** (string) (required): Search query
 * - **filters** (object) (optional): Filter options
 *   - **sort_by** (string, nullable) (optional): Sort order. One of: `"new"`, `"top"`. Default: `"new"`.
 * - **items** (array of object | object) (optional): Items to update
 *   - *option 1* (object)
 *     - **node_id** (string) (required): The node ID
 * ```
 *
 * Nested properties and union variants are indented two spaces per level. A multi-line description
 * continues on indented lines (blank lines dropped) so the list stays one list.
 */
import type { SchemaView, ViewChild } from './schema-view.js';

const INDENT = '  ';

/**
 * Renders the children of a view (the parameters of the tool at the top level).
 *
 * @param children - the properties or variants to render
 * @param depth - nesting level (0 for the tool's parameters)
 * @returns the bullet lines, without trailing newlines
 */
export function renderChildren(children: ViewChild[], depth = 0): string[] {
  const lines: string[] = [];
  renderChildrenInto(lines, children, depth);
  return lines;
}

/**
 * Appends the bullet lines to `lines`, one at a time: spreading a description of hundreds of
 * thousands of lines into `push` overflowed the stack (a RangeError instead of a skill).
 */
function renderChildrenInto(lines: string[], children: ViewChild[], depth: number): void {
  const pad = INDENT.repeat(depth);
  for (const child of children) {
    const { view } = child;
    const type = view.nullable ? `${view.label}, nullable` : view.label;
    const head =
      child.kind === 'property'
        ? `${pad}- **${inlineName(child.name)}** (${type}) (${child.required ? 'required' : 'optional'})`
        : `${pad}- *option ${child.index + 1}* (${type})`;
    renderText(lines, head, view, `${pad}${INDENT}`);
    renderChildrenInto(lines, view.children, depth + 1);
  }
}

/**
 * A property name as one token of its bullet line: line breaks and other control characters are
 * written as JSON escapes (`\n`, `\u0007`), so a name cannot start a heading or a new list in the
 * body. The name itself is kept whole in the `## Input schema` block, which `toMcpTool` reads.
 */
function inlineName(name: string): string {
  return name.replace(/[\u0000-\u001f\u007f\u0085\u2028\u2029]/g, (c) =>
    c === '\n'
      ? '\\n'
      : c === '\r'
        ? '\\r'
        : c === '\t'
          ? '\\t'
          : `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}

function renderText(out: string[], head: string, view: SchemaView, continuation: string): void {
  const descriptionLines =
    view.description === null
      ? []
      : view.description
          .split(/\r\n|\n|\r/)
          .map((line, i) => (i === 0 ? line : line.trim()))
          .filter((line, i) => i === 0 || line !== '');
  while (descriptionLines.length > 0 && descriptionLines[0]?.trim() === '') descriptionLines.shift();
  const extras = view.extras.join(' ');
  const last = descriptionLines.length - 1;
  // One line: the extras follow on it, so end the description as a sentence first.
  if (extras !== '' && last === 0 && !/[.!?:;。！？：；]$/.test(descriptionLines[last]?.trimEnd() ?? '.')) {
    descriptionLines[last] = `${descriptionLines[last]?.trimEnd()}.`;
  }
  if (descriptionLines.length <= 1) {
    const text = [descriptionLines[0] ?? '', extras].filter((part) => part !== '').join(' ');
    out.push(text === '' ? head : `${head}: ${text}`);
    return;
  }
  out.push(`${head}: ${descriptionLines[0]}`);
  for (let i = 1; i < descriptionLines.length; i++) out.push(`${continuation}${descriptionLines[i]}`);
  if (extras !== '') out.push(`${continuation}${extras}`);
}
