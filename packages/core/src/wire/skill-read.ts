/**
 * Wire schemas of the reading skill routes: list, find, get, validate
 * (the OpenAPI document: `GET /api/v1/skills`, `POST /api/v1/skills/find`, `GET /api/v1/skills/{name}`, `POST /api/v1/skills/validate`).
 */
import { z } from 'zod';
import { looseOptional, TelemetryRequestSchema } from './envelope.js';
import { SkillDataSchema, SkillIssueSchema } from './skill-write.js';

/** A query flag: `true`/`false`/`1`/`0` (absent = the route's default). */
export const QueryFlagSchema = z
  .enum(['true', 'false', '1', '0', 'True', 'False'])
  .transform((v) => v === 'true' || v === '1' || v === 'True');

/** One skill of list and find. */
export const SkillListItemSchema = z
  .object({
    type: z.literal('skill').meta({ description: 'Always `skill`' }),
    name: z
      .string()
      .meta({ description: 'Skill name (the folder name under its root)', example: 'search-web' }),
    uri: z.string().meta({
      description: 'URI of the skill: `<root_uri>/<name>`',
      example: 'viking://user/alice/skills/search-web',
    }),
    root_uri: z.string().meta({
      description: 'The skill root holding it: `viking://user/{user_id}/skills` or `viking://agent/skills`',
      example: 'viking://user/alice/skills',
    }),
    skill_md_uri: z.string().meta({
      description: 'URI of its SKILL.md (level 2): `<uri>/SKILL.md`',
      example: 'viking://user/alice/skills/search-web/SKILL.md',
    }),
    description: z.string().meta({
      description: 'The frontmatter `description`',
      example: 'Search the web for current information',
    }),
    tags: z.array(z.string()).meta({
      description: 'Frontmatter `tags` as a list (a string value is split on commas); empty when none',
      example: ['web', 'search'],
    }),
    allowed_tools: z.array(z.string()).meta({
      description:
        'Frontmatter `allowed_tools` / `allowed-tools` as a list (a string is split on whitespace and ' +
        'commas outside parentheses); empty when none',
      example: ['Bash(git add:*)', 'Read'],
    }),
    level: z.number().int().meta({
      description: 'Context level of the item: always 0 (the abstract) in list results',
      example: 0,
    }),
    revision: z.string().meta({
      description: "Current revision: sha-256 (64 lowercase hex) of the skill's file manifest",
    }),
    updated_at: z.string().meta({
      description: 'When the skill was last written, ISO 8601 UTC with milliseconds',
      example: '2026-01-31T09:30:00.000Z',
    }),
  })
  .meta({
    id: 'SkillListItem',
    description: 'One skill in list results',
  });

/** A skill deleted since the change feed's position (`GET /api/v1/skills?updated_since=…`). */
export const DeletedSkillItemSchema = z
  .object({
    type: z.literal('deleted').meta({ description: 'Always `deleted`' }),
    name: z.string().meta({ description: 'Name the deleted skill had', example: 'search-web' }),
    uri: z.string().meta({
      description: 'URI the deleted skill had: `<root_uri>/<name>`',
      example: 'viking://user/alice/skills/search-web',
    }),
    root_uri: z.string().meta({
      description: 'The skill root it was deleted from',
      example: 'viking://user/alice/skills',
    }),
    revision: z.string().meta({ description: 'The last revision it had before the deletion' }),
    deleted_at: z.string().meta({
      description: 'When it was deleted, ISO 8601 UTC with milliseconds',
      example: '2026-01-31T09:30:00.000Z',
    }),
  })
  .meta({
    id: 'DeletedSkillItem',
    description:
      'A deletion reported by the change feed. A skill deleted and added again is reported once, by its ' +
      'latest state (in `skills`).',
  });

/** Query of `GET /api/v1/skills`; unknown parameters are ignored. */
export const ListSkillsQuerySchema = z.object({
  node_limit: z
    .string()
    .regex(/^\d+$/, 'expected a non-negative integer')
    .optional()
    .meta({
      description:
        'Skills per page (a non-negative integer): default 100, at most 1000 — a larger value is clamped ' +
        'to 1000, and `has_more` / `next_cursor` say that more follow. Applied to the merged list of both ' +
        'roots; `total` still counts them all. In a change feed: changes per page (default and most 1000).',
      example: '100',
    }),
  target_uri: z
    .string()
    .optional()
    .meta({
      description:
        "List only this root: `viking://user/{user_id}/skills` (the caller's own), `viking://~/skills` or " +
        '`viking://agent/skills`. Absent, empty, `null` or `false`: both the user root and the agent root.',
      example: 'viking://agent/skills',
    }),
  updated_since: z
    .string()
    .optional()
    .meta({
      description:
        'Change feed: only skills written or deleted at or after this time (ISO 8601, e.g. ' +
        '`2026-01-31T09:30:00Z` or `2026-01-31`), in the order the changes were made, deletions in ' +
        '`deleted`; the page holds at most `node_limit` changes (default 1000, at most 1000) and ends ' +
        'with `next_cursor`. Absent, empty, `null` or `false`: a plain listing by name.',
      example: '2026-01-31T09:30:00Z',
    }),
  cursor: z
    .string()
    .optional()
    .meta({
      description:
        'Continue after a previous page: its `next_cursor`, passed back unchanged (opaque). A cursor of ' +
        'the listing by name continues it after the last skill returned, so pages neither repeat nor skip ' +
        'skills when others are added meanwhile. A cursor of the change feed carries the ' +
        "page's `updated_since`, so `updated_since` is not needed with it; each skill is reported by its " +
        'latest state, and one written again after the cursor comes again later, so a reader that follows ' +
        '`next_cursor` misses no change. A cursor used with another `target_uri` than its first page is ' +
        'refused with 400.',
      example: 'eyJ2IjoxLCJzIjo0Mn0',
    }),
});

/** Result of list: `root_uris` without `target_uri`, `root_uri` with it. */
export const ListSkillsResultSchema = z
  .object({
    root_uris: z
      .array(z.string())
      .optional()
      .meta({
        description: 'The roots listed, without `target_uri`: `[<user root>, "viking://agent/skills"]`',
        example: ['viking://user/alice/skills', 'viking://agent/skills'],
      }),
    root_uri: z.string().optional().meta({
      description: 'The one root listed, with `target_uri`',
      example: 'viking://agent/skills',
    }),
    skills: z.array(SkillListItemSchema).meta({
      description:
        'Skills by name, user root first, one page (at most `node_limit`); empty for an empty root (not ' +
        '404). In a change-feed page: the skills written, in change order.',
    }),
    total: z
      .number()
      .int()
      .meta({
        description:
          'Number of skills in the listed root(s), before `node_limit`; in a change-feed page, the number of ' +
          'changes in the page (`skills` plus `deleted`)',
      }),
    deleted: z.array(DeletedSkillItemSchema).optional().meta({
      description: 'Change feed only: skills deleted since the position, in change order',
    }),
    next_cursor: z
      .string()
      .optional()
      .meta({
        description:
          'The position after this page: pass it as `cursor` for the next page. A listing by name gives ' +
          'it only when more skills follow; a change feed always (present even when the page is empty: ' +
          'pass it later to get only what changed since).',
      }),
    has_more: z.boolean().optional().meta({
      description: 'True when more skills (or changes) follow this page: fetch `next_cursor` for them',
    }),
  })
  .meta({
    id: 'ListSkillsResult',
    description: 'Result of list: `root_uris` without `target_uri`, `root_uri` with it',
  });

/** Body of `POST /api/v1/skills/find`. */
export const FindSkillsRequestSchema = z
  .strictObject({
    query: z.string().trim().min(1, 'query must not be empty').meta({
      description:
        'Search text (trimmed; must not be empty), matched over name, tags, description, overview and body',
      example: 'search the web',
    }),
    limit: looseOptional(z.number().int().min(1)).meta({
      description:
        'Most hits to return: an integer of at least 1, default 10 (`null` or `false`: the default); a ' +
        'larger value than 1000 is clamped to 1000, as `node_limit` of the listing is',
      example: 10,
    }),
    score_threshold: looseOptional(z.number().min(0).max(1)).meta({
      description: 'Drop hits scoring below this, 0–1. Absent, `null` or `false`: keep every hit.',
      example: 0.3,
    }),
    target_uri: looseOptional(z.string()).meta({
      description:
        'Search only this root (`viking://user/{user_id}/skills`, `viking://~/skills` or ' +
        '`viking://agent/skills`). Absent, empty, `null` or `false`: both roots, merged and de-duplicated by name.',
      example: 'viking://agent/skills',
    }),
    level: looseOptional(
      z.union([z.number().int().min(0).max(2), z.array(z.number().int().min(0).max(2))]),
    ).meta({
      description:
        'Keep only hits whose best match is at these levels: 0 = name, tags or description; 1 = overview; ' +
        '2 = SKILL.md body. One level or a list. Absent, `null` or `false`: every level.',
      example: [0, 1],
    }),
    telemetry: TelemetryRequestSchema,
  })
  .meta({
    id: 'FindSkillsRequest',
    description: 'Body of find; unknown fields are refused with 400 `INVALID_ARGUMENT`',
    examples: [{ query: 'search the web', limit: 5 }],
  });

/** One hit of find. */
export const FindSkillItemSchema = SkillListItemSchema.extend({
  abstract: z.string().meta({
    description:
      "The skill's L0 abstract: the text `GET /api/v1/skills/{name}?level=0` returns as `abstract` " +
      '(.abstract.md: name, description, tags, allowed tools in one paragraph), as OpenViking puts it in each hit',
    example: '**search-web** — Search the web for current information. Tags: web, search.\n',
  }),
  level: z
    .number()
    .int()
    .meta({
      description:
        'Level of the best match: 0 = name, tags or description; 1 = overview; 2 = SKILL.md body (what the ' +
        "request's `level` filters on)",
      example: 0,
    }),
  score: z
    .number()
    .min(0)
    .max(1)
    .meta({
      description:
        'Relevance in [0, 1]; hits come in descending score. The scale is `r / (r + 5)` of a raw relevance ' +
        '`r`: BM25 of the matched words (plus 0.5 for any word match), plus the semantic relevance when ' +
        "embeddings are on (0 until a skill stands out from the rest of the caller's skills by more " +
        'than chance, about √(2 ln n) standard deviations of similarity to the query among n skills; ' +
        '2 deviations beyond that score 0.5 alone), plus 40 for a name match (so at least ' +
        'about 0.89). Meaning alone never lifts an unrelated skill above 0.1, but words do: a skill that ' +
        'shares one rare word with the query (in its name or description) can reach 0.4–0.5 whatever it is ' +
        'about. So `score_threshold` around 0.1–0.3 drops weak word matches and keeps the related hits; ' +
        'it does not tell a topic apart from a shared word.',
      example: 0.93,
    }),
  match_reason: z.string().meta({
    description:
      "Which signal matched: `name` (the query is the skill's name or its kebab-case form), `lexical` " +
      '(words of the query matched), `semantic` (the meaning matched, no words: needs an embeddings ' +
      'endpoint on the server) or `hybrid` (both)',
    example: 'lexical',
  }),
}).meta({
  id: 'FindSkillItem',
  description: 'One hit of find: a list item plus `abstract`, `score` and `match_reason`',
});

/** Result of find. */
export const FindSkillsResultSchema = z
  .object({
    query: z.string().meta({ description: 'The query as searched (trimmed)', example: 'search the web' }),
    root_uris: z.array(z.string()).meta({
      description: 'The roots searched: the given `target_uri`, or the user root then the agent root',
      example: ['viking://user/alice/skills', 'viking://agent/skills'],
    }),
    skills: z.array(FindSkillItemSchema).meta({
      description: 'Hits, best first, de-duplicated by name (the better-scoring one kept), at most `limit`',
    }),
    total: z.number().int().meta({ description: 'Number of hits returned (the length of `skills`)' }),
  })
  .meta({ id: 'FindSkillsResult', description: 'Result of find' });

/** Query of `GET /api/v1/skills/{name}`; unknown parameters are ignored. */
export const GetSkillQuerySchema = z.object({
  level: z
    .enum(['0', '1', '2', 'null', 'false', ''], {
      error:
        'level must be 0 (abstract), 1 (overview) or 2 (content); absent, empty, null or false for all three',
    })
    .optional()
    .meta({
      description:
        'Return one level only: `0` = `abstract` (.abstract.md), `1` = `overview` (.overview.md), `2` = ' +
        '`content` (SKILL.md, with `content_sha256`). Absent, empty, `null` or `false`: all three.',
      example: '2',
    }),
  include_content: QueryFlagSchema.optional().meta({
    description:
      'Flag (`true`/`false`/`1`/`0`/`True`/`False`): `true` adds `content` (SKILL.md) and `content_sha256` ' +
      'at levels 0 and 1; `false` leaves them out of a read with no `level` (abstract and overview only, as ' +
      "OpenViking's get answers it). Level 2 always carries them. Absent: content with no level or level 2.",
    example: 'true',
  }),
  include_files: QueryFlagSchema.optional().meta({
    description:
      'Flag (`true`/`false`/`1`/`0`/`True`/`False`): add `files`, the folder listing. Default true.',
    example: 'false',
  }),
  include_integrity: QueryFlagSchema.optional().meta({
    description:
      'Flag (`true`/`false`/`1`/`0`/`True`/`False`), accepted for seed clients: ' +
      'the result always carries `revision` and every file its `size` and `sha256`, so it changes nothing.',
    example: 'true',
  }),
  include_source: QueryFlagSchema.optional().meta({
    description:
      'Flag (`true`/`false`/`1`/`0`/`True`/`False`): add `source`, the `source_metadata` given at add/update ' +
      "(null when none; for an MCP tool input it also holds `mcp_tool`, the tool's own name). Default false.",
    example: 'true',
  }),
  target_uri: z
    .string()
    .optional()
    .meta({
      description:
        'Look only in this root (`viking://user/{user_id}/skills`, `viking://~/skills` or ' +
        '`viking://agent/skills`). Absent, empty, `null` or `false`: the user root, then the agent root.',
      example: 'viking://agent/skills',
    }),
  revision: z
    .string()
    .optional()
    .meta({
      description:
        'Read the skill as it was at this revision of its history (see `GET /api/v1/skills/{name}/revisions`): ' +
        'the 64-hex revision or an unambiguous prefix of at least 4. Every level and flag works as for the ' +
        'current version (`overview` is rendered from that version; `files` are its files). Works for a ' +
        'deleted skill while its history is kept. Absent or empty: the current version.',
      example: '9b1d4f0c2e8a',
    }),
});

/** One file of a skill folder. */
export const SkillFileSchema = z
  .object({
    name: z.string().meta({ description: 'Last segment of `path`', example: 'helper.py' }),
    uri: z.string().meta({
      description: 'URI of the file: `<skill uri>/<path>`',
      example: 'viking://user/alice/skills/my-skill/scripts/helper.py',
    }),
    path: z.string().meta({
      description: 'Path relative to the skill folder, `/`-separated',
      example: 'scripts/helper.py',
    }),
    is_dir: z.boolean().meta({ description: 'True for a folder entry (`kind: directory`)' }),
    kind: z.enum(['definition', 'summary', 'auxiliary', 'directory']).meta({
      description:
        '`definition` = SKILL.md; `summary` = the generated `.abstract.md` / `.overview.md`; `auxiliary` = ' +
        'any other file; `directory` = a folder',
      example: 'auxiliary',
    }),
    size: z.number().int().meta({ description: 'Size in bytes (0 for a folder)', example: 1832 }),
    sha256: z.string().nullable().meta({
      description: 'sha-256 of the content, 64 lowercase hex; null for a folder',
    }),
    executable: z
      .boolean()
      .optional()
      .meta({
        description:
          'Present, `true`, only on an executable file (uploaded in a zip from a Unix host with its ' +
          "owner's execute bit set, e.g. a `scripts/run.sh` of mode 755); absent means not executable. " +
          'Installers set the execute bits (755) of such files on POSIX systems. Part of the revision.',
        example: true,
      }),
  })
  .meta({
    id: 'SkillFile',
    description: 'One entry of a skill folder, sorted by `path`',
  });

/** Result of get. */
export const GetSkillResultSchema = z
  .object({
    name: z.string().meta({ description: 'Skill name', example: 'my-skill' }),
    uri: z.string().meta({
      description: 'URI of the skill: `<root_uri>/<name>`',
      example: 'viking://user/alice/skills/my-skill',
    }),
    root_uri: z.string().meta({
      description: 'The skill root it was found in',
      example: 'viking://user/alice/skills',
    }),
    skill_md_uri: z.string().meta({
      description: 'URI of its SKILL.md: `<uri>/SKILL.md`',
      example: 'viking://user/alice/skills/my-skill/SKILL.md',
    }),
    description: z
      .string()
      .meta({ description: 'The frontmatter `description`', example: 'My custom skill' }),
    tags: z.array(z.string()).meta({ description: 'Frontmatter `tags` as a list; empty when none' }),
    allowed_tools: z.array(z.string()).meta({
      description: 'Frontmatter `allowed_tools` / `allowed-tools` as a list; empty when none',
    }),
    frontmatter: z.record(z.string(), z.unknown()).meta({
      description:
        'Every frontmatter key as parsed (YAML 1.2 core schema), unknown keys such as `license`, `version`, ' +
        '`metadata` included',
      example: { name: 'my-skill', description: 'My custom skill', license: 'MIT' },
    }),
    revision: z.string().meta({
      description:
        'Current revision: sha-256 (64 lowercase hex) of the file manifest; also sent as the `ETag` header ' +
        'and accepted by update as `If-Match`',
    }),
    created_at: z.string().meta({
      description: 'When the skill was first added, ISO 8601 UTC with milliseconds',
      example: '2026-01-31T09:30:00.000Z',
    }),
    updated_at: z.string().meta({
      description: 'When it was last written, ISO 8601 UTC with milliseconds',
      example: '2026-01-31T09:30:00.000Z',
    }),
    level: z
      .number()
      .int()
      .optional()
      .meta({ description: 'The level asked for (0, 1 or 2); absent when none' }),
    abstract: z.string().optional().meta({
      description: 'Level 0: the one-paragraph summary (.abstract.md); present with no level or level 0',
    }),
    overview: z
      .string()
      .optional()
      .meta({
        description:
          'Level 1: parameters and usage overview (.overview.md, rendered from the body until processing ' +
          'stores it); present with no level or level 1',
      }),
    content: z
      .string()
      .optional()
      .meta({
        description:
          'Level 2: SKILL.md exactly as stored (byte-for-byte as uploaded for SKILL.md input); present with ' +
          'level 2, with `include_content=true`, and with no level unless `include_content=false`',
      }),
    content_sha256: z.string().optional().meta({
      description: 'sha-256 (64 lowercase hex) of the SKILL.md bytes; present with `content`',
    }),
    files: z.array(SkillFileSchema).optional().meta({
      description: 'Every file and folder of the skill, sorted by path; present unless `include_files=false`',
    }),
    source: z
      .record(z.string(), z.unknown())
      .nullable()
      .optional()
      .meta({
        description:
          'The `source_metadata` given at add/update, null when none; present with `include_source=true`. A skill ' +
          'added from an MCP tool also has `mcp_tool`: the original tool name (`search_web` for the skill ' +
          '`search-web`), which its SKILL.md does not carry.',
        example: { repository: 'https://github.com/acme/skills', commit: '4f1c2a9' },
      }),
  })
  .meta({
    id: 'GetSkillResult',
    description:
      "Result of get: the skill's metadata, the requested level(s) and its files; the `ETag` header carries " +
      '`revision`',
  });

/**
 * `data` of validate: the forms add takes ({@link SkillDataSchema}) or any other JSON value, which is
 * answered with a verdict (`yaml_format` on `data`), not a 400, as OpenViking's validate answers it.
 */
export const ValidateSkillDataSchema = z
  .union([SkillDataSchema, z.array(z.unknown()), z.number(), z.boolean(), z.null()])
  .meta({
    description:
      'The skill in any form add takes (SKILL.md text, MCP tool, structured skill). Any other JSON value ' +
      '(a number, a boolean, null, a list) is a 200 verdict with `valid: false` and a `yaml_format` error on ' +
      '`data`.',
    example: '---\nname: my-skill\ndescription: My custom skill\n---\n\n# My Skill\n\nSkill content here.',
  });

/** Body of `POST /api/v1/skills/validate`. */
export const ValidateSkillRequestSchema = z
  .strictObject({
    data: ValidateSkillDataSchema,
    strict: looseOptional(z.boolean()).meta({
      description:
        'Strict mode. Profile `openviking`: `name_matches_directory`, `name_max_length`, ' +
        '`name_allowed_characters`, `name_leading_hyphen` (a leading `-`, read as an option on command ' +
        'lines), `name_reserved_filename` (`con`, `nul`, `com1`…: no such folder on Windows) and ' +
        '`description_max_length` become errors, and `body_max_lines` ' +
        '(> 500) is reported as a warning. Profiles `agentskills` / `claude`: unknown frontmatter keys and ' +
        'recovered YAML mistakes become errors. Default false (`null` or `false`: not strict).',
      example: true,
    }),
    profile: looseOptional(z.enum(['openviking', 'agentskills', 'claude'])).meta({
      description:
        'Rule set: `openviking` (default; the rules add applies), `agentskills` (the Agent Skills ' +
        'specification: lowercase kebab names, name = folder name, …) or `claude` (agentskills plus no XML ' +
        'tags and no reserved words `anthropic`/`claude`). `null` or `false`: the default.',
      example: 'agentskills',
    }),
    skill_dir_name: looseOptional(z.string()).meta({
      description:
        'Name of the folder the skill lives in; enables `name_matches_directory` (warning, error when strict). ' +
        'Absent, empty, `null` or `false`: not checked.',
      example: 'my-skill',
    }),
    source_path: looseOptional(z.string()).meta({
      description: "Where the skill came from, for the caller's records; accepted and not used by the checks",
      example: 'skills/my-skill/SKILL.md',
    }),
    target_uri: looseOptional(z.string()).meta({
      description: 'Accepted for seed clients and ignored: validation stores nothing',
    }),
    telemetry: TelemetryRequestSchema,
  })
  .meta({
    id: 'ValidateSkillRequest',
    description: 'Body of validate: the skill in any `data` form plus options; nothing is stored',
    examples: [
      {
        data: '---\nname: my-skill\ndescription: My custom skill\n---\n\n# My Skill\n\nSkill content here.',
        strict: true,
        skill_dir_name: 'my-skill',
      },
    ],
  });

/** Result of validate. */
export const ValidateSkillResultSchema = z
  .object({
    valid: z.boolean().meta({ description: 'True when `errors` is empty' }),
    strict: z.boolean().meta({ description: 'Whether strict mode was applied' }),
    profile: z.enum(['openviking', 'agentskills', 'claude']).meta({
      description: 'The profile applied',
      example: 'openviking',
    }),
    name: z.string().nullable().meta({
      description: 'The frontmatter `name` when it is a string, else null',
      example: 'my-skill',
    }),
    description: z.string().nullable().meta({
      description: 'The frontmatter `description` when it is a string, else null',
      example: 'My custom skill',
    }),
    tags: z.array(z.string()).meta({ description: 'Frontmatter `tags` as a list; empty when none' }),
    allowed_tools: z.array(z.string()).meta({
      description: 'Frontmatter `allowed_tools` / `allowed-tools` as a list; empty when none',
    }),
    body_lines: z.number().int().meta({ description: 'Number of lines of the Markdown body', example: 3 }),
    errors: z.array(SkillIssueSchema).meta({
      description: 'Issues that make the skill invalid (add would refuse it with 400 `SKILL_INVALID`)',
    }),
    warnings: z.array(SkillIssueSchema).meta({
      description:
        'Issues that do not make the skill invalid: best-practice hints, and the rules that are errors only in strict mode',
    }),
    source_path: z
      .string()
      .optional()
      .meta({
        description:
          'The request\'s `source_path`, `""` when not given (the server always sends it, as OpenViking does; ' +
          'the local validator of the SDKs and CLI leaves it out)',
        example: 'skills/my-skill/SKILL.md',
      }),
    skill_dir_name: z.string().optional().meta({
      description:
        'The request\'s `skill_dir_name`, `""` when not given (sent by the server like `source_path`)',
      example: 'my-skill',
    }),
  })
  .meta({
    id: 'ValidateSkillResult',
    description:
      "The validator's verdict. A name that add would reject is at least a warning, " +
      'so validate never promises more than add keeps.',
  });

export type SkillListItem = z.infer<typeof SkillListItemSchema>;
export type DeletedSkillItem = z.infer<typeof DeletedSkillItemSchema>;
export type ListSkillsResult = z.infer<typeof ListSkillsResultSchema>;
export type FindSkillsRequest = z.infer<typeof FindSkillsRequestSchema>;
export type FindSkillItem = z.infer<typeof FindSkillItemSchema>;
export type FindSkillsResult = z.infer<typeof FindSkillsResultSchema>;
export type SkillFile = z.infer<typeof SkillFileSchema>;
export type GetSkillResult = z.infer<typeof GetSkillResultSchema>;
export type ValidateSkillRequest = z.infer<typeof ValidateSkillRequestSchema>;
export type ValidateSkillResult = z.infer<typeof ValidateSkillResultSchema>;
