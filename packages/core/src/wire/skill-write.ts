/**
 * Wire schemas of the writing skill routes: add, update, delete (the OpenAPI document: `POST /api/v1/skills`, `PUT /api/v1/skills/{name}`, `DELETE /api/v1/skills/{name}`).
 */
import { z } from 'zod';
import { looseOptional, TelemetryRequestSchema } from './envelope.js';

/** One validation issue as sent on the wire. @see the OpenAPI document: `POST /api/v1/skills/validate` */
export const SkillIssueSchema = z
  .object({
    rule: z.string().meta({
      description:
        'Stable rule id, e.g. `yaml_format`, `name_required`, `description_required`, ' +
        '`name_matches_directory`, `name_max_length`, `name_allowed_characters`, `name_leading_hyphen`, ' +
        '`name_reserved_filename`, ' +
        '`description_max_length`, `body_max_lines`, `name_kebab_case`, `description_too_short` ' +
        '',
      example: 'name_kebab_case',
    }),
    severity: z
      .enum(['error', 'warning'])
      .optional()
      .meta({
        description:
          '`error` blocks add/update (400 `SKILL_INVALID`); `warning` never does. In validate results ' +
          'the list an issue sits in (`errors` or `warnings`) says the same.',
      }),
    message: z.string().meta({
      description: 'Human-readable explanation of the problem and how to fix it',
      example:
        '"name" "My_Skill" is not lowercase kebab-case (e.g. "search-web"), which agents and folders handle best.',
    }),
    field: z
      .string()
      .nullable()
      .meta({
        description:
          'The frontmatter key the issue is about (`name`, `description`, `allowed-tools`, …), `body`, ' +
          'or null when it concerns the whole document',
        example: 'name',
      }),
    line: z.number().int().optional().meta({
      description: '1-based line in the SKILL.md text as given (absent when the issue has no position)',
      example: 2,
    }),
    column: z.number().int().optional().meta({
      description: '1-based column, counted in Unicode code points (absent when unknown)',
      example: 7,
    }),
    fix: z.string().optional().meta({
      description: 'A suggested replacement value (e.g. the kebab-case name), when one exists',
      example: 'my-skill',
    }),
  })
  .meta({
    id: 'SkillIssue',
    description:
      'One validation issue, located where possible: `{rule, severity?, message, field, line?, column?, fix?}` ' +
      '',
  });

/** Counts of the caller's processing jobs. */
export const QueueStatusSchema = z
  .object({
    pending: z
      .number()
      .int()
      .meta({ description: 'Jobs waiting to run (including failed jobs awaiting a retry)' }),
    processing: z.number().int().meta({ description: 'Jobs running now' }),
    completed: z.number().int().meta({ description: 'Jobs finished successfully' }),
    failed: z.number().int().meta({ description: 'Jobs that failed for good (retries exhausted)' }),
  })
  .meta({
    id: 'QueueStatus',
    description:
      "Counts of processing jobs (L1 overview and search index) by state: the caller's jobs for " +
      "`system/wait` and `observer/queue`, this request's job for add/update with `wait=true` " +
      '',
    example: { pending: 0, processing: 0, completed: 1, failed: 0 },
  });

/** `data` of add/update/validate: SKILL.md text, an MCP tool (has `inputSchema`) or a structured skill. */
export const SkillDataSchema = z.union([z.string(), z.record(z.string(), z.unknown())]).meta({
  id: 'SkillData',
  description:
    'The skill, detected in this order: (1) a string is SKILL.md text — a ' +
    'one-line string that looks like a host path (has `/` or `\\`, or starts `./`, `../`, `~/`, `X:\\`) ' +
    'is refused with 403 `PERMISSION_DENIED`; (2) an object with `inputSchema` is an MCP tool ' +
    '`{name, description?, inputSchema}`, converted to a skill (name in kebab-case, Parameters and Usage sections); (3) any other object is a ' +
    'structured skill `{name, description?, content?, tags?, allowed_tools?, …}` (extra keys become ' +
    'frontmatter).',
  example: '---\nname: my-skill\ndescription: My custom skill\n---\n\n# My Skill\n\nSkill content here.',
});

/** Body of `POST /api/v1/skills` and `PUT /api/v1/skills/{name}`: `data` XOR `temp_file_id`. */
export const AddSkillRequestSchema = z
  .strictObject({
    data: SkillDataSchema.optional(),
    temp_file_id: looseOptional(z.string()).meta({
      description:
        '`temp_file_id` returned by `POST /api/v1/resources/temp_upload` (a zipped skill folder or one ' +
        'SKILL.md). Give exactly one of `data` and `temp_file_id`. Bound to the uploading account, ' +
        'used up once this request stores the skill (a refused add or update leaves it for a retry), expires (default 12 h). `null`, `false` or `""` mean not given.',
      example: 'tmp_5d41402abc4b2a76b9719d911017c592',
    }),
    wait: looseOptional(z.boolean()).meta({
      description:
        "Wait until this skill's processing job (L1 overview, search index) is done; the result then " +
        'carries `queue_status` instead of `task_id`. Default false (`null` or `false`: do not wait).',
      example: true,
    }),
    timeout: looseOptional(z.number().nonnegative()).meta({
      description:
        'Seconds to wait, only with `wait=true`; capped at the server limit (default 300 s). ' +
        '0, absent, `null` or `false`: the server limit. Past it → 504 `DEADLINE_EXCEEDED`; the skill is ' +
        'stored all the same, and `details` say what was stored (`name`, `uri`, `root_uri`, `revision`, …) ' +
        'and name its processing task (`task_id`, for `GET /api/v1/tasks/{task_id}`): do not send it again.',
      example: 30,
    }),
    target_uri: looseOptional(z.string()).meta({
      description:
        "Skill root to store into: the caller's user root `viking://user/{user_id}/skills` (default; " +
        "aliases `viking://~/skills` and, as OpenViking's clients spell it, `viking://user/skills`) or the " +
        'account-wide `viking://agent/skills`. Another user\'s root → 403. `null`, `false` or `""` mean not given.',
      example: 'viking://agent/skills',
    }),
    source_metadata: looseOptional(z.record(z.string(), z.unknown())).meta({
      description:
        'Free-form provenance of the skill (e.g. repository, commit), stored with it and returned by ' +
        '`GET /api/v1/skills/{name}?include_source=true` as `source`. `null` or `false` mean not given. ' +
        "For an MCP tool input the server adds `mcp_tool`, the tool's own name.",
      example: { repository: 'https://github.com/acme/skills', commit: '4f1c2a9' },
    }),
    skills: looseOptional(
      // Blank means ASCII blanks only, as for the name rule: other invisible characters are the name's.
      z.array(z.string().regex(/[^ \t\r\n]/, 'a skill name must not be empty')).max(1000),
    ).meta({
      description:
        "Names of the skills to take from the source (OpenViking's `ov add-skill --skill`). A request " +
        'stores one skill, so the name of the skill in `data` or the upload must be listed; else 400 ' +
        '`INVALID_ARGUMENT` with `details {field: "skills", missing, available}` and nothing is stored (the ' +
        'upload is kept for a retry). Each name follows the name rule (see below): ASCII blanks around ' +
        'it are trimmed; one it refuses (a no-break space or other invisible character, a character ' +
        'outside `[A-Za-z0-9_-]`) → 400 `INVALID_ARGUMENT` with `details {field: "skills", index, value, ' +
        'reason, fix?}`; under the `slug` name policy a name stands for its kebab-case spelling. ' +
        'Absent, `null`, `false` or `[]`: no selection.',
      example: ['search-web'],
    }),
    list_only: looseOptional(z.boolean()).meta({
      description:
        "Accepted for OpenViking's `ov add-skill --list`, which lists the skills of a source without " +
        'installing them: `true` is refused with 400 `INVALID_ARGUMENT` (`details {field: "list_only", ' +
        'reason: "unsupported"}`) before anything is read; check a source with ' +
        '`POST /api/v1/skills/validate` instead. `false` or `null`: not given.',
      example: false,
    }),
    telemetry: TelemetryRequestSchema,
  })
  .meta({
    id: 'AddSkillRequest',
    description:
      'Body of add (`POST /api/v1/skills`) and update (`PUT /api/v1/skills/{name}`): `data` XOR ' +
      '`temp_file_id`, plus options. Unknown fields are refused with 400 `INVALID_ARGUMENT`. ' +
      'The name rule: trimmed of ASCII blanks (spaces, tabs, line breaks; a no-break space, byte order ' +
      'mark or other invisible character is part of the name, as in the stored SKILL.md), 1–64 ' +
      'characters of `[A-Za-z0-9_-]`; a name that breaks it is refused with ' +
      '400 `INVALID_ARGUMENT`, `details {field: "name", value, reason, fix?}` (`fix`: the kebab-case ' +
      'spelling), plus `rule`, `line` and `column` of the name when it is written in SKILL.md text.',
    examples: [
      {
        data: {
          name: 'search-web',
          description: 'Search the web for current information',
          content:
            '# search-web\n\nSearch the web for current information.\n\n## Parameters\n' +
            '- **query** (string, required): Search query\n- **limit** (integer, optional): Max results, default 10',
        },
        wait: true,
      },
      { data: '---\nname: my-skill\ndescription: My custom skill\n---\n\n# My Skill\n\nSkill content here.' },
      {
        data: {
          name: 'calculator',
          description: 'Perform mathematical calculations',
          inputSchema: {
            type: 'object',
            properties: {
              expression: { type: 'string', description: 'Mathematical expression to evaluate' },
            },
            required: ['expression'],
          },
        },
      },
      { temp_file_id: 'tmp_5d41402abc4b2a76b9719d911017c592' },
    ],
  });

/** Result of add and update. */
export const SkillWriteResultSchema = z
  .object({
    status: z.literal('success').meta({ description: 'Always `success` (failures are error envelopes)' }),
    root_uri: z.string().meta({
      description:
        "The stored skill's URI, as the seed API returns it (equal to `uri`); the skill root is this " +
        'URI without its last segment',
      example: 'viking://user/alice/skills/my-skill',
    }),
    uri: z.string().meta({
      description: 'URI of the stored skill: `<skill root>/<name>`',
      example: 'viking://user/alice/skills/my-skill',
    }),
    name: z.string().meta({ description: 'The skill name, as read from the content', example: 'my-skill' }),
    auxiliary_files: z.number().int().meta({
      description:
        'Number of stored files besides SKILL.md and the generated `.abstract.md` (0 unless uploaded as a folder)',
      example: 2,
    }),
    revision: z.string().meta({
      description:
        "The new revision: 64 lowercase hex characters, the sha-256 of the skill's file manifest. Send it " +
        'as `If-Match` to update only this version.',
      example: '9b1d4f0c2e8a7b6d5c4e3f2a1b0c9d8e7f6a5b4c3d2e1f0a9b8c7d6e5f4a3b2c',
    }),
    warnings: z.array(SkillIssueSchema).meta({
      description:
        'Validation warnings (profile `openviking`) and MCP conversion notes; they never block a write',
    }),
    replaced: z.boolean().meta({
      description:
        'True when a skill of that name already existed in the root and was replaced; false when it is new',
      example: false,
    }),
    action: z
      .enum(['add', 'update', 'restore'])
      .optional()
      .meta({ description: '`update` on update results, `restore` on restore results; absent on add' }),
    task_id: z.string().optional().meta({
      description:
        'Id of the processing job (see `GET /api/v1/tasks/{task_id}`); present when `wait` was not true',
    }),
    queue_status: QueueStatusSchema.optional(),
  })
  .meta({
    id: 'SkillWriteResult',
    description:
      "Result of add and update: the stored skill, plus `queue_status` (this write's job) when " +
      '`wait=true`, else `task_id`',
  });

/** Query of `DELETE /api/v1/skills/{name}`. */
export const DeleteSkillQuerySchema = z.object({
  target_uri: z
    .string()
    .optional()
    .meta({
      description:
        'Skill root to delete from (`viking://user/{user_id}/skills`, `viking://~/skills` or ' +
        '`viking://agent/skills`). Absent, empty, `null` or `false`: the user root, then the agent root.',
      example: 'viking://agent/skills',
    }),
  purge: z
    .enum(['true', 'false', '1', '0', 'True', 'False'])
    .optional()
    .meta({
      description:
        "Flag (`true`/`false`/`1`/`0`/`True`/`False`): also erase the skill's history at once, and with it " +
        'every file content no other skill or revision uses (the deletion can then not be undone by a ' +
        "restore; `privacy_deleted` is true). Default false: the history is kept for the server's " +
        'retention period, so the skill can be restored.',
      example: 'true',
    }),
});

/** Result of delete. */
export const DeleteSkillResultSchema = z
  .object({
    name: z.string().meta({ description: 'Name of the deleted skill', example: 'my-skill' }),
    uri: z.string().meta({
      description: 'URI the deleted skill had',
      example: 'viking://user/alice/skills/my-skill',
    }),
    root_uri: z.string().meta({
      description: 'The skill root it was deleted from',
      example: 'viking://user/alice/skills',
    }),
    estimated_deleted_count: z.number().int().meta({
      description:
        'Number of files deleted: SKILL.md, the `.abstract.md` and `.overview.md` sidecars, and auxiliary files',
      example: 4,
    }),
    privacy_deleted: z.boolean().meta({
      description:
        "False by default: the files are gone from the live skill, but its revisions stay in the skill's " +
        "history for the server's retention period (restorable). True with `purge=true`: the history and " +
        'every file content only it used were erased too.',
    }),
  })
  .meta({
    id: 'DeleteSkillResult',
    description: 'Result of delete; a later get of the name answers 404',
  });

export type SkillIssueWire = z.infer<typeof SkillIssueSchema>;
export type QueueStatus = z.infer<typeof QueueStatusSchema>;
export type AddSkillRequest = z.infer<typeof AddSkillRequestSchema>;
export type SkillWriteResult = z.infer<typeof SkillWriteResultSchema>;
export type DeleteSkillResult = z.infer<typeof DeleteSkillResultSchema>;
