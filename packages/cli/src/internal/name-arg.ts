/**
 * A skill name as the positional arguments of a command line the CLI suggests: after `--` when it
 * starts with `-` (the add-time rule allows it; without `--` it would be read as an option).
 * Skill names are `[A-Za-z0-9_-]`, so no shell quoting is needed.
 *
 * @param name - a skill name
 * @param rest - positional arguments that follow the name (e.g. `<revision>`)
 * @returns `pdf-tools`, or `-- -pdf-tools` for a name starting with `-`
 * @example `skillport skills restore ${nameArgs('-x', '<revision>')}` // skillport skills restore -- -x <revision>
 */
export function nameArgs(name: string, ...rest: string[]): string {
  return [...(name.startsWith('-') ? ['--'] : []), name, ...rest].join(' ');
}
