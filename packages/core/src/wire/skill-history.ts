/**
 * Wire schemas of a skill's history: the revision list and restore (reading at a revision is the
 * `revision` query parameter of get and of the file route).
 */
import { z } from 'zod';
import { looseOptional, TelemetryRequestSchema } from './envelope.js';

/** A revision as a request names it: the full 64-hex revision or an unambiguous prefix of it. */
export const RevisionRefSchema = z
  .string()
  .trim()
  .regex(
    /^[0-9a-fA-F]{4,64}$/,
    'expected a revision: 4 to 64 hexadecimal characters (the full sha-256 or an unambiguous prefix)',
  )
  .transform((v) => v.toLowerCase());

/** One entry of a skill's history. */
export const SkillRevisionSchema = z
  .object({
    revision: z.string().meta({
      description: "The revision: sha-256 (64 lowercase hex) of that version's file manifest",
      example: '9b1d4f0c2e8a7b6d5c4e3f2a1b0c9d8e7f6a5b4c3d2e1f0a9b8c7d6e5f4a3b2c',
    }),
    created_at: z.string().meta({
      description: 'When this version was written (add, update or restore), ISO 8601 UTC with milliseconds',
      example: '2026-01-31T09:30:00.000Z',
    }),
    created_by: z.string().nullable().meta({
      description: 'User id whose write made this version; null for versions stored before authors were kept',
      example: 'alice',
    }),
    superseded_at: z.string().nullable().meta({
      description:
        'When a later write replaced it or the skill was deleted, ISO 8601 UTC; null for the current version',
      example: null,
    }),
    superseded_by: z
      .enum(['write', 'delete'])
      .nullable()
      .meta({
        description:
          'What ended this version: `write` (an update, a restore or a new add replaced it), `delete` (the ' +
          'skill was deleted then); null for the current version',
        example: null,
      }),
    current: z.boolean().meta({ description: 'True for the version the skill has now' }),
    size: z.number().int().meta({
      description:
        'Bytes of its files: SKILL.md, auxiliary files and the generated `.abstract.md` (not `.overview.md`)',
      example: 2048,
    }),
    files: z.number().int().meta({
      description: 'Number of those files: SKILL.md, the auxiliary files and `.abstract.md`',
      example: 3,
    }),
    auxiliary_files: z
      .number()
      .int()
      .meta({
        description:
          'Number of its auxiliary files (every file besides SKILL.md and the generated summaries), as an ' +
          "add's `auxiliary_files` counts them",
        example: 1,
      }),
  })
  .meta({
    id: 'SkillRevision',
    description:
      "One version in a skill's history, newest first. The same `revision` appears again when a restore " +
      'writes an earlier version anew.',
  });

/** Query of `GET /api/v1/skills/{name}/revisions`. */
export const ListSkillRevisionsQuerySchema = z.object({
  target_uri: z
    .string()
    .optional()
    .meta({
      description:
        'Look only in this root (`viking://user/{user_id}/skills`, `viking://~/skills` or ' +
        '`viking://agent/skills`). Absent, empty, `null` or `false`: the user root, then the agent root ' +
        '(the first holding a skill or a history of that name).',
      example: 'viking://agent/skills',
    }),
  limit: z.string().regex(/^\d+$/, 'expected a non-negative integer').optional().meta({
    description:
      'Most revisions to return, newest first (default 100, at most 1000); `total` counts all kept',
    example: '20',
  }),
});

/** Result of `GET /api/v1/skills/{name}/revisions`. */
export const ListSkillRevisionsResultSchema = z
  .object({
    name: z.string().meta({ description: 'Skill name', example: 'my-skill' }),
    uri: z.string().meta({
      description: 'URI of the skill: `<root_uri>/<name>`',
      example: 'viking://user/alice/skills/my-skill',
    }),
    root_uri: z
      .string()
      .meta({ description: 'The skill root of this history', example: 'viking://user/alice/skills' }),
    deleted: z.boolean().meta({
      description:
        'True when the skill no longer exists: its history is kept for the retention period and any of ' +
        'these revisions can be restored',
    }),
    current_revision: z.string().nullable().meta({
      description: 'The revision the skill has now; null when it was deleted',
    }),
    revisions: z
      .array(SkillRevisionSchema)
      .meta({ description: 'Kept versions, newest first, at most `limit`' }),
    total: z.number().int().meta({ description: 'Number of kept versions, before `limit`', example: 4 }),
  })
  .meta({
    id: 'ListSkillRevisionsResult',
    description:
      "A skill's history, newest first. Older versions are dropped by the server's retention policy " +
      '(see the server documentation: the last N revisions and those superseded in the last D days are kept).',
  });

/** Body of `POST /api/v1/skills/{name}/restore`. */
export const RestoreSkillRequestSchema = z
  .strictObject({
    revision: RevisionRefSchema.meta({
      description:
        'The version to restore: a `revision` from the history (64 hex) or an unambiguous prefix of at least 4',
      example: '9b1d4f0c2e8a',
    }),
    target_uri: looseOptional(z.string()).meta({
      description:
        'Skill root (`viking://user/{user_id}/skills`, `viking://~/skills` or `viking://agent/skills`). ' +
        'Absent, empty, `null` or `false`: the user root, then the agent root (the first holding that revision).',
      example: 'viking://agent/skills',
    }),
    wait: looseOptional(z.boolean()).meta({
      description: 'Wait until the processing job (overview, search index) has run; default false',
      example: true,
    }),
    timeout: looseOptional(z.number().positive()).meta({
      description:
        'Longest `wait`, seconds (only with `wait`); on expiry 504 `DEADLINE_EXCEEDED`, the revision ' +
        'written all the same (`details`: `task_id`, `name`, `uri`, `revision`, …)',
      example: 30,
    }),
    telemetry: TelemetryRequestSchema,
  })
  .meta({
    id: 'RestoreSkillRequest',
    description:
      'Body of restore: which earlier version becomes current again. Unknown fields are refused with 400.',
    examples: [{ revision: '9b1d4f0c2e8a', wait: true }],
  });

export type SkillRevision = z.infer<typeof SkillRevisionSchema>;
export type ListSkillRevisionsResult = z.infer<typeof ListSkillRevisionsResultSchema>;
export type RestoreSkillRequest = z.infer<typeof RestoreSkillRequestSchema>;
