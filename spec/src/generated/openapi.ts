// Generated file: do not edit by hand.
// Source: spec/openapi.json (the Skillport HTTP API, built from the server's route schemas).
// Regenerate with: pnpm --filter @skillport/spec generate

export interface paths {
    "/api/v1/admin/accounts": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List accounts (root: all; admin: its own)
         * @description Lists account ids: every account for root keys, only the caller's own for admin keys.
         */
        get: operations["adminListAccounts"];
        put?: never;
        /**
         * Create an account (root)
         * @description Creates an account; idempotent (an existing id answers the same). Root keys only: admin and user keys get 403 `PERMISSION_DENIED`.
         */
        post: operations["adminCreateAccount"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/admin/accounts/{account_id}/keys": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List the API keys of an account (never the secrets)
         * @description Lists every key of the account, revoked ones included, with id, user, role and prefix.
         */
        get: operations["adminListKeys"];
        put?: never;
        /**
         * Create an API key for a user (the key is returned once)
         * @description Creates a key acting as an existing user of the account, with role `user` (default) or `admin`. The secret `api_key` is in this response only; it is stored as a hash. In dev mode the first key must be `admin`, and creating it ends dev mode.
         */
        post: operations["adminCreateKey"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/admin/accounts/{account_id}/keys/{key_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /**
         * Revoke an API key
         * @description Revokes a key of the account at once (later requests with it get 401); 404 when the key is not in that account. Revoking a revoked key answers `revoked: false`.
         */
        delete: operations["adminRevokeKey"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/admin/accounts/{account_id}/users": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List the users of an account
         * @description Lists the user ids of an account (root, or an admin of the account; 404 for a missing account).
         */
        get: operations["adminListUsers"];
        put?: never;
        /**
         * Create a user in an account
         * @description Creates a user (idempotent). Root, or an admin of the account; the account must exist (404 otherwise). The user's skill root is `viking://user/{user_id}/skills`.
         */
        post: operations["adminCreateUser"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/observer/queue": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The caller's queue counts
         * @description Counts of the caller's processing jobs by state, without waiting (what the seed CLI's `ov observer queue` shows).
         */
        get: operations["observeQueue"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/observer/system": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Overall server state
         * @description `{is_healthy, errors, components}` with the components `store` (the database answers), `queue` (the caller's processing jobs; `has_errors` when some failed) and `jobs` (whether this server runs processing jobs). What the seed clients' `get_status()` and `is_healthy()` read.
         */
        get: operations["observeSystem"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/resources/temp_upload": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Upload a zipped skill folder or one SKILL.md; returns an id for add/update (used once)
         * @description Multipart upload (`file`, optional `upload_mode`) for add and update (`temp_file_id`). A zip is recognised by content: the skill folder at the archive root or in its single top folder, `__MACOSX/` ignored; anything else is read as SKILL.md text. The id is bound to the uploading account, used up by the add or update that stores it (a refused one, e.g. invalid SKILL.md, leaves it for a retry), expires (default 12 h) and never names a host path. Over the size limit (default 25 MiB) → 413 `PAYLOAD_TOO_LARGE`. When the account's unused, unexpired uploads plus this one (each counted as at least 2 KiB) would pass the temp-upload quota (`SKILLPORT_TEMP_UPLOAD_QUOTA_MB`, default 256 MiB) → 507 `RESOURCE_EXHAUSTED` with `details {reason: "temp_upload_quota", limit, used, size, setting}`; nothing is stored.
         */
        post: operations["tempUpload"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/resources/temp_upload/{temp_file_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /**
         * Release a temp upload that will not be used
         * @description Deletes an unused temp upload of the caller's account before it expires, so it no longer counts toward the temp-upload quota: e.g. after the add or update naming it was refused (a refused write leaves the upload for a retry). Unknown, expired, already used, or of another account → 404 `NOT_FOUND` (`details {type: "temp_file", resource}`); nothing is deleted.
         */
        delete: operations["releaseTempUpload"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/skills": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List skills of the user root and the agent root, or of one root
         * @description Without `target_uri`: the user root then the agent root, with `root_uris`; with it: that root, with `root_uri`. Skills come by name, a page at a time: `node_limit` per page (default 100, at most 1000), `has_more`, and `next_cursor` to pass as `cursor` for the next page while more follow; `total` counts every skill of the root(s). An empty root gives an empty list, not 404. Unknown query parameters are ignored. With `updated_since` (or a cursor of a feed page) it is a change feed instead: the skills written (`skills`) and deleted (`deleted`) since that time, in the order the changes were made, each skill once with its latest state, a page at a time (`node_limit`, at most 1000) with `next_cursor` and `has_more` — for mirrors and caches that stay in sync.
         */
        get: operations["listSkills"];
        put?: never;
        /**
         * Add a skill (SKILL.md text, MCP tool, structured object or temp upload); replaces a same-named skill
         * @description Stores a skill given as `data` (SKILL.md text, MCP tool with `inputSchema`, or structured object) or as `temp_file_id` (a temp upload). It is validated with profile `openviking`: errors → 400 `SKILL_INVALID` with `details.issues` and nothing stored; warnings come back as `warnings`. A host path as `data` → 403. Adding an existing name replaces that skill completely. The processing job (overview, search index, embedding) runs after the response unless `wait=true`; a server with the deterministic overview (no summary model) renders and stores it during the write, and without embeddings the task is already `completed` when the add returns (with embeddings its job only embeds the skill). With `If-Match` (the revision read, as `GET` gives it in `ETag`, or `*`) the add only replaces the same-named skill at that revision: a skill at another revision, or none, → 412 `CONFLICT` and nothing changes, so of concurrent writers that read the same revision one wins.
         */
        post: operations["addSkill"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/skills/find": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Search skills (lexical and semantic, best first)
         * @description Ranks skills of both roots (or `target_uri`) against `query` over name, tags, description, overview and body (BM25 with field weights), fused with the similarity of meaning when the server has an embeddings endpoint (`SKILLPORT_EMBEDDINGS_URL`); hits carry `score` (0–1, descending) and `match_reason` (`name`, `lexical`, `semantic`, `hybrid`), are de-duplicated by name and cut to `limit`. Each API key has at most `SKILLPORT_MAX_FINDS_PER_KEY` finds running (default 4; MCP `find_skills` included) and 64 × as many waiting their turn; past that → 429 `RESOURCE_EXHAUSTED` with `Retry-After` (`details.reason` `finds_in_flight`).
         */
        post: operations["findSkills"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/skills/validate": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Validate a skill without storing it (always 200 for a readable request)
         * @description Runs the validator on `data` in any form (SKILL.md text, MCP tool, structured object) with a profile and strictness, and returns the verdict with located issues. A skill that fails is still a 200 with `valid: false`; only a malformed request is a 4xx.
         */
        post: operations["validateSkill"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/skills/{name}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Read a skill at level 0 (abstract), 1 (overview), 2 (SKILL.md) or all
         * @description Looks in `target_uri` if given, else the user root then the agent root; missing → 404 `NOT_FOUND` with `details {type: "skill", resource}`. Without `level` returns `abstract`, `overview` and `content` (`include_content=false`: without `content`); with one, that level only. Also returns `frontmatter`, `revision` (as the `ETag` header too) and `files`. With `revision`, the skill as it was at that revision of its history (also for a deleted skill while its history is kept). Conditional: `If-None-Match` with the current `ETag` → 304 once the skill is settled; responses carry `Cache-Control: private, no-cache` (settled) or `private, no-store` (processing job still to run) and `Vary: Authorization, X-API-Key`.
         */
        get: operations["getSkill"];
        /**
         * Replace a skill completely; the name in the content must equal {name}
         * @description Body as add. The skill must exist (404 otherwise) and the name in the new content must equal `{name}` (400 with `details {field, expected, actual}`). All files are replaced in one transaction; with `If-Match`, a stale revision → 412. The result is add's plus `action: "update"`, and the `ETag` header carries the new revision.
         */
        put: operations["updateSkill"];
        post?: never;
        /**
         * Delete a skill and its files
         * @description Deletes the skill found as get finds it (`target_uri`, else user root then agent root); a later get answers 404. Its revisions stay in the skill's history for the retention period, so a restore can bring it back; `purge=true` erases that history at once as well (also for a skill deleted earlier). With `If-Match`, a revision other than the current one → 412 and nothing is deleted.
         */
        delete: operations["deleteSkill"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/skills/{name}/files/{path}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Download one file of a skill (raw bytes)
         * @description The bytes of one file of the skill, exactly as stored: `SKILL.md`, an auxiliary file, or the generated `.abstract.md` / `.overview.md`. The skill is found as get finds it. Headers: `ETag` = the file's sha-256 (`If-None-Match` → 304; a value that is not `*` or a list of entity tags → 400 `INVALID_ARGUMENT`), `X-Skill-Revision` = the skill's revision (the one asked for with `revision`, which reads the file from the history), `Content-Disposition: attachment`. Files are untrusted content: HTML, SVG and scripts are served as `text/plain`, with `X-Content-Type-Options: nosniff` and a sandboxing Content-Security-Policy. Unknown skill or file → 404 `NOT_FOUND` with `details.type` `skill` or `file`.
         */
        get: operations["getSkillFile"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/skills/{name}/restore": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Make an earlier revision current again (a new version with the same files)
         * @description Writes the files of `revision` (from the history, full or an unambiguous prefix) as a new version of the skill — byte for byte the same files, so the same `revision` — with a new processing job, like an update. Brings back a deleted skill while its history is kept. `If-Match` guards against restoring over a change made meanwhile (412). Result as update’s, with `action: "restore"` and the `ETag` header. Unknown skill or revision → 404 (`details.type` `skill` or `revision`); an ambiguous prefix → 400 with `details.candidates`.
         */
        post: operations["restoreSkill"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/skills/{name}/revisions": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List a skill's kept revisions, newest first
         * @description Every version the server keeps of the skill (looked up as get does: `target_uri`, else the user root then the agent root), newest first: revision, when and by whom it was written, size, and whether it is current. Also answers for a deleted skill while its history is kept (`deleted: true`). How much history is kept is the server’s retention policy (by default the last 10 revisions and every revision superseded in the last 30 days, at most 100 per skill). Unknown skill → 404.
         */
        get: operations["listSkillRevisions"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/system/limits": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The limits this server enforces
         * @description Sizes and times past which requests are refused (bytes, counts, seconds), with the server setting behind each in `settings`, so a client can refuse an oversized skill folder before zipping or uploading it, and the caller's account usage against the per-account quotas (`account_usage`: stored bytes of live skills, bytes of unused temp uploads, live skills), and the name policy (`name_policy`) under which add judges a skill's name. The limits are the same for every caller; any user or admin key (or dev mode) may read it.
         */
        get: operations["getLimits"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/system/wait": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Wait until the caller's pending jobs are done
         * @description Blocks until none of the caller's jobs is pending or running, then returns the counts; past `timeout` (seconds, capped at the server limit, default 300) → 504 `DEADLINE_EXCEEDED` with `details {timeout, queue_status}`. The body is optional.
         */
        post: operations["waitProcessed"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/tasks": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The caller's processing tasks
         * @description The caller's processing jobs (L1 overview and search index), newest first, filtered by `task_type`, `status` and `resource_id` (the skill URI); at most `limit` (default 50, at most 200). The result is a bare list, as the seed clients' `list_tasks` reads it. Finished tasks are kept for a while (see the server README), then purged.
         */
        get: operations["listTasks"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/tasks/{task_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * One of the caller's processing tasks
         * @description The state of a processing job (L1 overview and search index) enqueued by add or update. Only the caller's own tasks: unknown ids and other users' tasks answer 404.
         */
        get: operations["getTask"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/tasks/{task_id}/cancel": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Cancel a pending processing task
         * @description A `pending` task becomes `cancelled` and never runs: the skill stays stored with its L0 abstract, but keeps the overview and search entry of its previous revision (a new skill is not findable until it is updated again). Cancelling a cancelled task returns it unchanged; a running or finished task answers 409 `CONFLICT` with `details {task_id, status}`; unknown ids and other users' tasks answer 404. No body.
         */
        post: operations["cancelTask"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/health": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Liveness and auth mode; with a valid key also the caller
         * @description Needs no API key and is not enveloped: `{status: "ok", healthy: true, version, auth_mode}`, plus `{account_id, user_id, role}` when a valid key is sent.
         */
        get: operations["health"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/ready": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Readiness for load balancers: database reachable, schema current, not shutting down
         * @description Needs no API key and is not enveloped. 200 `{status: "ready", ready: true, …}` when this replica can serve: the database answers a query and its schema is the version this build needs. 503 `{status: "unavailable", ready: false, reason, …}` otherwise: the database is unreachable, migrations are pending or were made by a newer build, or the replica is shutting down (it answers 503 from the moment it gets SIGTERM, while it finishes in-flight requests, so a load balancer stops sending it new ones). Use `GET /health` for liveness (restart when it fails) and `GET /ready` for routing.
         */
        get: operations["ready"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
}
export type webhooks = Record<string, never>;
export interface components {
    schemas: {
        /** @description Success envelope (HTTP 200): `{status: "ok", result: AccountResult, telemetry?, time}`; `telemetry` only when the request asked for it */
        AccountResponse: {
            result: components["schemas"]["AccountResult"];
            /**
             * @description Always `ok` for a 2xx response
             * @enum {string}
             */
            status: "ok";
            telemetry?: components["schemas"]["Telemetry"];
            /** @description Server time spent on the request, seconds (float) */
            time: number;
        };
        /** @description The created (or already existing) account */
        AccountResult: {
            /**
             * @description The account id
             * @example acme
             */
            account_id: string;
        };
        /** @description The caller's account's current usage against the quotas and the skill limit above */
        AccountUsage: {
            /**
             * @description Live skills of the caller's account, counted against `account_max_skills`
             * @example 12
             */
            skills: number;
            /**
             * @description What the caller's account stores now, bytes, counted as for `account_quota_bytes`
             * @example 52431
             */
            stored_bytes: number;
            /**
             * @description Bytes of the caller's account's unused, unexpired temp uploads, counted against `temp_upload_quota_bytes`
             * @example 0
             */
            temp_upload_bytes: number;
        };
        /**
         * @description Body of add (`POST /api/v1/skills`) and update (`PUT /api/v1/skills/{name}`): `data` XOR `temp_file_id`, plus options. Unknown fields are refused with 400 `INVALID_ARGUMENT`. The name rule: trimmed of ASCII blanks (spaces, tabs, line breaks; a no-break space, byte order mark or other invisible character is part of the name, as in the stored SKILL.md), 1–64 characters of `[A-Za-z0-9_-]`; a name that breaks it is refused with 400 `INVALID_ARGUMENT`, `details {field: "name", value, reason, fix?}` (`fix`: the kebab-case spelling), plus `rule`, `line` and `column` of the name when it is written in SKILL.md text.
         * @example {
         *       "data": {
         *         "content": "# search-web\n\nSearch the web for current information.\n\n## Parameters\n- **query** (string, required): Search query\n- **limit** (integer, optional): Max results, default 10",
         *         "description": "Search the web for current information",
         *         "name": "search-web"
         *       },
         *       "wait": true
         *     }
         * @example {
         *       "data": "---\nname: my-skill\ndescription: My custom skill\n---\n\n# My Skill\n\nSkill content here."
         *     }
         * @example {
         *       "data": {
         *         "description": "Perform mathematical calculations",
         *         "inputSchema": {
         *           "properties": {
         *             "expression": {
         *               "description": "Mathematical expression to evaluate",
         *               "type": "string"
         *             }
         *           },
         *           "required": [
         *             "expression"
         *           ],
         *           "type": "object"
         *         },
         *         "name": "calculator"
         *       }
         *     }
         * @example {
         *       "temp_file_id": "tmp_5d41402abc4b2a76b9719d911017c592"
         *     }
         */
        AddSkillRequest: {
            data?: components["schemas"]["SkillData"];
            /**
             * @description Accepted for OpenViking's `ov add-skill --list`, which lists the skills of a source without installing them: `true` is refused with 400 `INVALID_ARGUMENT` (`details {field: "list_only", reason: "unsupported"}`) before anything is read; check a source with `POST /api/v1/skills/validate` instead. `false` or `null`: not given.
             * @example false
             */
            list_only?: boolean | null | false;
            /**
             * @description Names of the skills to take from the source (OpenViking's `ov add-skill --skill`). A request stores one skill, so the name of the skill in `data` or the upload must be listed; else 400 `INVALID_ARGUMENT` with `details {field: "skills", missing, available}` and nothing is stored (the upload is kept for a retry). Each name follows the name rule (see below): ASCII blanks around it are trimmed; one it refuses (a no-break space or other invisible character, a character outside `[A-Za-z0-9_-]`) → 400 `INVALID_ARGUMENT` with `details {field: "skills", index, value, reason, fix?}`; under the `slug` name policy a name stands for its kebab-case spelling. Absent, `null`, `false` or `[]`: no selection.
             * @example [
             *       "search-web"
             *     ]
             */
            skills?: string[] | null | false;
            /**
             * @description Free-form provenance of the skill (e.g. repository, commit), stored with it and returned by `GET /api/v1/skills/{name}?include_source=true` as `source`. `null` or `false` mean not given. For an MCP tool input the server adds `mcp_tool`, the tool's own name.
             * @example {
             *       "commit": "4f1c2a9",
             *       "repository": "https://github.com/acme/skills"
             *     }
             */
            source_metadata?: {
                [key: string]: unknown;
            } | null | false;
            /**
             * @description Skill root to store into: the caller's user root `viking://user/{user_id}/skills` (default; aliases `viking://~/skills` and, as OpenViking's clients spell it, `viking://user/skills`) or the account-wide `viking://agent/skills`. Another user's root → 403. `null`, `false` or `""` mean not given.
             * @example viking://agent/skills
             */
            target_uri?: string | null | false;
            /**
             * @description Ask for `telemetry` in the response: `true` adds `{operation_id}`, `{"summary": true}` also adds `summary`. Absent, `null` or `false`: no telemetry.
             * @example true
             */
            telemetry?: boolean | {
                /** @description True adds `telemetry.summary` `{operation, status, duration_ms}` to the response */
                summary?: boolean | null;
            } | null;
            /**
             * @description `temp_file_id` returned by `POST /api/v1/resources/temp_upload` (a zipped skill folder or one SKILL.md). Give exactly one of `data` and `temp_file_id`. Bound to the uploading account, used up once this request stores the skill (a refused add or update leaves it for a retry), expires (default 12 h). `null`, `false` or `""` mean not given.
             * @example tmp_5d41402abc4b2a76b9719d911017c592
             */
            temp_file_id?: string | null | false;
            /**
             * @description Seconds to wait, only with `wait=true`; capped at the server limit (default 300 s). 0, absent, `null` or `false`: the server limit. Past it → 504 `DEADLINE_EXCEEDED`; the skill is stored all the same, and `details` say what was stored (`name`, `uri`, `root_uri`, `revision`, …) and name its processing task (`task_id`, for `GET /api/v1/tasks/{task_id}`): do not send it again.
             * @example 30
             */
            timeout?: number | null | false;
            /**
             * @description Wait until this skill's processing job (L1 overview, search index) is done; the result then carries `queue_status` instead of `task_id`. Default false (`null` or `false`: do not wait).
             * @example true
             */
            wait?: boolean | null | false;
        };
        /** @description Success envelope (HTTP 200): `{status: "ok", result: SkillWriteResult, telemetry?, time}`; `telemetry` only when the request asked for it */
        AddSkillResponse: {
            result: components["schemas"]["SkillWriteResult"];
            /**
             * @description Always `ok` for a 2xx response
             * @enum {string}
             */
            status: "ok";
            telemetry?: components["schemas"]["Telemetry"];
            /** @description Server time spent on the request, seconds (float) */
            time: number;
        };
        /** @description An API key as listed; never the secret */
        ApiKeyInfo: {
            /**
             * @description Account the key belongs to
             * @example acme
             */
            account_id: string;
            /**
             * @description When the key was created, ISO 8601 UTC with milliseconds
             * @example 2026-01-31T09:30:00.000Z
             */
            created_at: string;
            /** @description Id of the key (not the secret); use it to revoke the key */
            key_id: string;
            /** @description First 10 characters of the secret, to recognise a key; the secret itself is never stored */
            prefix: string;
            /**
             * @description When the key was revoked (ISO 8601 UTC), or null while it is live
             * @example null
             */
            revoked_at: string | null;
            /**
             * @description Role of the key: `root` > `admin` > `user`
             * @example user
             * @enum {string}
             */
            role: "root" | "admin" | "user";
            /**
             * @description User the key acts as
             * @example alice
             */
            user_id: string;
        };
        /** @description Success envelope (HTTP 200): `{status: "ok", result: TaskResult, telemetry?, time}`; `telemetry` only when the request asked for it */
        CancelTaskResponse: {
            result: components["schemas"]["TaskResult"];
            /**
             * @description Always `ok` for a 2xx response
             * @enum {string}
             */
            status: "ok";
            telemetry?: components["schemas"]["Telemetry"];
            /** @description Server time spent on the request, seconds (float) */
            time: number;
        };
        /** @description State of one server component */
        ComponentStatus: {
            /** @description Whether it reports errors (for `queue`: some of the caller’s tasks failed); not unhealthy by itself */
            has_errors: boolean;
            /** @description Whether the component works */
            is_healthy: boolean;
            /**
             * @description Component name (the key it is listed under)
             * @example queue
             */
            name: string;
            /**
             * @description One line a person can read
             * @example 0 pending, 0 processing, 12 completed, 0 failed
             */
            status: string;
        };
        /** @description Body of account creation (root keys only) */
        CreateAccountRequest: {
            /**
             * @description New account id: 1–64 characters of `[A-Za-z0-9_-]`; creating an existing one is a no-op
             * @example acme
             */
            account_id: string;
        };
        /**
         * @description Body of API key creation (root, or an admin of the account)
         * @example {
         *       "role": "user",
         *       "user_id": "alice"
         *     }
         */
        CreateApiKeyRequest: {
            /**
             * @description `user` (default): data routes only; `admin`: also manages the account's users and keys. The first key, created in dev mode, must be `admin` (it ends dev mode).
             * @example user
             * @enum {string}
             */
            role?: "admin" | "user";
            /**
             * @description The user the key acts as; must exist in the account
             * @example alice
             */
            user_id: string;
        };
        /** @description Body of user creation (root, or an admin of the account) */
        CreateUserRequest: {
            /**
             * @description New user id: up to 128 characters of `[A-Za-z0-9_.@-]`, not `.` or `..` (it names the user root `viking://user/{user_id}/skills`); creating an existing one is a no-op
             * @example alice
             */
            user_id: string;
        };
        /** @description A new API key: its listing plus the secret `api_key` */
        CreatedApiKey: {
            /**
             * @description Account the key belongs to
             * @example acme
             */
            account_id: string;
            /** @description The secret, shown this once and stored only as a hash: send it as `X-API-Key` or `Authorization: Bearer` */
            api_key: string;
            /**
             * @description When the key was created, ISO 8601 UTC with milliseconds
             * @example 2026-01-31T09:30:00.000Z
             */
            created_at: string;
            /** @description Id of the key (not the secret); use it to revoke the key */
            key_id: string;
            /** @description First 10 characters of the secret, to recognise a key; the secret itself is never stored */
            prefix: string;
            /**
             * @description When the key was revoked (ISO 8601 UTC), or null while it is live
             * @example null
             */
            revoked_at: string | null;
            /**
             * @description Role of the key: `root` > `admin` > `user`
             * @example user
             * @enum {string}
             */
            role: "root" | "admin" | "user";
            /**
             * @description User the key acts as
             * @example alice
             */
            user_id: string;
        };
        /** @description Success envelope (HTTP 200): `{status: "ok", result: CreatedApiKey, telemetry?, time}`; `telemetry` only when the request asked for it */
        CreatedApiKeyResponse: {
            result: components["schemas"]["CreatedApiKey"];
            /**
             * @description Always `ok` for a 2xx response
             * @enum {string}
             */
            status: "ok";
            telemetry?: components["schemas"]["Telemetry"];
            /** @description Server time spent on the request, seconds (float) */
            time: number;
        };
        /** @description Success envelope (HTTP 200): `{status: "ok", result: DeleteSkillResult, telemetry?, time}`; `telemetry` only when the request asked for it */
        DeleteSkillResponse: {
            result: components["schemas"]["DeleteSkillResult"];
            /**
             * @description Always `ok` for a 2xx response
             * @enum {string}
             */
            status: "ok";
            telemetry?: components["schemas"]["Telemetry"];
            /** @description Server time spent on the request, seconds (float) */
            time: number;
        };
        /** @description Result of delete; a later get of the name answers 404 */
        DeleteSkillResult: {
            /**
             * @description Number of files deleted: SKILL.md, the `.abstract.md` and `.overview.md` sidecars, and auxiliary files
             * @example 4
             */
            estimated_deleted_count: number;
            /**
             * @description Name of the deleted skill
             * @example my-skill
             */
            name: string;
            /** @description False by default: the files are gone from the live skill, but its revisions stay in the skill's history for the server's retention period (restorable). True with `purge=true`: the history and every file content only it used were erased too. */
            privacy_deleted: boolean;
            /**
             * @description The skill root it was deleted from
             * @example viking://user/alice/skills
             */
            root_uri: string;
            /**
             * @description URI the deleted skill had
             * @example viking://user/alice/skills/my-skill
             */
            uri: string;
        };
        /** @description A deletion reported by the change feed. A skill deleted and added again is reported once, by its latest state (in `skills`). */
        DeletedSkillItem: {
            /**
             * @description When it was deleted, ISO 8601 UTC with milliseconds
             * @example 2026-01-31T09:30:00.000Z
             */
            deleted_at: string;
            /**
             * @description Name the deleted skill had
             * @example search-web
             */
            name: string;
            /** @description The last revision it had before the deletion */
            revision: string;
            /**
             * @description The skill root it was deleted from
             * @example viking://user/alice/skills
             */
            root_uri: string;
            /**
             * @description Always `deleted`
             * @enum {string}
             */
            type: "deleted";
            /**
             * @description URI the deleted skill had: `<root_uri>/<name>`
             * @example viking://user/alice/skills/search-web
             */
            uri: string;
        };
        /** @description The `error` member of an error envelope */
        ErrorBody: {
            code: components["schemas"]["ErrorCode"];
            /**
             * @description Machine-readable context, by code: schema errors → `{validation_errors: [ValidationErrorItem]}`; name errors → `{field: "name"}` (update mismatch adds `expected`, `actual`); `INVALID_URI` → `{uri, reason}`; `NOT_FOUND` → `{type, resource}` (`type` is `skill` with the skill URI as `resource`, or `task`, `temp_file`, `account`, `user`, `api_key`); `SKILL_INVALID` → `{issues: [SkillIssue]}` (errors and warnings); a host path as `data` → `{field: "data", reason: "host_path"}`; `DEADLINE_EXCEEDED` → `{timeout, queue_status}`, and after a write (add, update, restore) that is stored all the same also `task_id` and the write's result fields (`name`, `uri`, `root_uri`, `revision`, …). Absent when there is nothing to add.
             * @example {
             *       "resource": "viking://user/alice/skills/my-skill",
             *       "type": "skill"
             *     }
             */
            details?: {
                [key: string]: unknown;
            };
            /**
             * @description What failed and what was expected, for humans (do not parse it; use `code` and `details`)
             * @example Skill "my-skill" not found in viking://user/alice/skills or viking://agent/skills
             */
            message: string;
        };
        /**
         * @description Machine-readable error code; it fixes the HTTP status: `INVALID_ARGUMENT`, `INVALID_URI`, `SKILL_INVALID` → 400; `UNAUTHENTICATED` → 401; `PERMISSION_DENIED` → 403; `NOT_FOUND` → 404; `CONFLICT` → 409, or 412 for a stale `If-Match`; `PAYLOAD_TOO_LARGE` → 413; `RESOURCE_EXHAUSTED` → 429; `INTERNAL`, `PROCESSING_ERROR` → 500; `UNAVAILABLE` → 503; `DEADLINE_EXCEEDED` → 504.
         * @example NOT_FOUND
         * @enum {string}
         */
        ErrorCode: "INVALID_ARGUMENT" | "INVALID_URI" | "SKILL_INVALID" | "UNAUTHENTICATED" | "PERMISSION_DENIED" | "NOT_FOUND" | "CONFLICT" | "PAYLOAD_TOO_LARGE" | "RESOURCE_EXHAUSTED" | "INTERNAL" | "PROCESSING_ERROR" | "UNAVAILABLE" | "DEADLINE_EXCEEDED";
        /** @description Body of every non-2xx response: `{status: "error", error: {code, message, details?}, time}`. The `X-Request-Id` response header names the request. */
        ErrorEnvelope: {
            error: components["schemas"]["ErrorBody"];
            /**
             * @description Always `error` for a non-2xx response
             * @enum {string}
             */
            status: "error";
            /** @description Server time spent on the request, seconds (float) */
            time: number;
        };
        /** @description One hit of find: a list item plus `abstract`, `score` and `match_reason` */
        FindSkillItem: {
            /**
             * @description The skill's L0 abstract: the text `GET /api/v1/skills/{name}?level=0` returns as `abstract` (.abstract.md: name, description, tags, allowed tools in one paragraph), as OpenViking puts it in each hit
             * @example **search-web** — Search the web for current information. Tags: web, search.
             */
            abstract: string;
            /**
             * @description Frontmatter `allowed_tools` / `allowed-tools` as a list (a string is split on whitespace and commas outside parentheses); empty when none
             * @example [
             *       "Bash(git add:*)",
             *       "Read"
             *     ]
             */
            allowed_tools: string[];
            /**
             * @description The frontmatter `description`
             * @example Search the web for current information
             */
            description: string;
            /**
             * @description Level of the best match: 0 = name, tags or description; 1 = overview; 2 = SKILL.md body (what the request's `level` filters on)
             * @example 0
             */
            level: number;
            /**
             * @description Which signal matched: `name` (the query is the skill's name or its kebab-case form), `lexical` (words of the query matched), `semantic` (the meaning matched, no words: needs an embeddings endpoint on the server) or `hybrid` (both)
             * @example lexical
             */
            match_reason: string;
            /**
             * @description Skill name (the folder name under its root)
             * @example search-web
             */
            name: string;
            /** @description Current revision: sha-256 (64 lowercase hex) of the skill's file manifest */
            revision: string;
            /**
             * @description The skill root holding it: `viking://user/{user_id}/skills` or `viking://agent/skills`
             * @example viking://user/alice/skills
             */
            root_uri: string;
            /**
             * @description Relevance in [0, 1]; hits come in descending score. The scale is `r / (r + 5)` of a raw relevance `r`: BM25 of the matched words (plus 0.5 for any word match), plus the semantic relevance when embeddings are on (0 until a skill stands out from the rest of the caller's skills by more than chance, about √(2 ln n) standard deviations of similarity to the query among n skills; 2 deviations beyond that score 0.5 alone), plus 40 for a name match (so at least about 0.89). Meaning alone never lifts an unrelated skill above 0.1, but words do: a skill that shares one rare word with the query (in its name or description) can reach 0.4–0.5 whatever it is about. So `score_threshold` around 0.1–0.3 drops weak word matches and keeps the related hits; it does not tell a topic apart from a shared word.
             * @example 0.93
             */
            score: number;
            /**
             * @description URI of its SKILL.md (level 2): `<uri>/SKILL.md`
             * @example viking://user/alice/skills/search-web/SKILL.md
             */
            skill_md_uri: string;
            /**
             * @description Frontmatter `tags` as a list (a string value is split on commas); empty when none
             * @example [
             *       "web",
             *       "search"
             *     ]
             */
            tags: string[];
            /**
             * @description Always `skill`
             * @enum {string}
             */
            type: "skill";
            /**
             * @description When the skill was last written, ISO 8601 UTC with milliseconds
             * @example 2026-01-31T09:30:00.000Z
             */
            updated_at: string;
            /**
             * @description URI of the skill: `<root_uri>/<name>`
             * @example viking://user/alice/skills/search-web
             */
            uri: string;
        };
        /**
         * @description Body of find; unknown fields are refused with 400 `INVALID_ARGUMENT`
         * @example {
         *       "limit": 5,
         *       "query": "search the web"
         *     }
         */
        FindSkillsRequest: {
            /**
             * @description Keep only hits whose best match is at these levels: 0 = name, tags or description; 1 = overview; 2 = SKILL.md body. One level or a list. Absent, `null` or `false`: every level.
             * @example [
             *       0,
             *       1
             *     ]
             */
            level?: number | number[] | null | false;
            /**
             * @description Most hits to return: an integer of at least 1, default 10 (`null` or `false`: the default); a larger value than 1000 is clamped to 1000, as `node_limit` of the listing is
             * @example 10
             */
            limit?: number | null | false;
            /**
             * @description Search text (trimmed; must not be empty), matched over name, tags, description, overview and body
             * @example search the web
             */
            query: string;
            /**
             * @description Drop hits scoring below this, 0–1. Absent, `null` or `false`: keep every hit.
             * @example 0.3
             */
            score_threshold?: number | null | false;
            /**
             * @description Search only this root (`viking://user/{user_id}/skills`, `viking://~/skills` or `viking://agent/skills`). Absent, empty, `null` or `false`: both roots, merged and de-duplicated by name.
             * @example viking://agent/skills
             */
            target_uri?: string | null | false;
            /**
             * @description Ask for `telemetry` in the response: `true` adds `{operation_id}`, `{"summary": true}` also adds `summary`. Absent, `null` or `false`: no telemetry.
             * @example true
             */
            telemetry?: boolean | {
                /** @description True adds `telemetry.summary` `{operation, status, duration_ms}` to the response */
                summary?: boolean | null;
            } | null;
        };
        /** @description Success envelope (HTTP 200): `{status: "ok", result: FindSkillsResult, telemetry?, time}`; `telemetry` only when the request asked for it */
        FindSkillsResponse: {
            result: components["schemas"]["FindSkillsResult"];
            /**
             * @description Always `ok` for a 2xx response
             * @enum {string}
             */
            status: "ok";
            telemetry?: components["schemas"]["Telemetry"];
            /** @description Server time spent on the request, seconds (float) */
            time: number;
        };
        /** @description Result of find */
        FindSkillsResult: {
            /**
             * @description The query as searched (trimmed)
             * @example search the web
             */
            query: string;
            /**
             * @description The roots searched: the given `target_uri`, or the user root then the agent root
             * @example [
             *       "viking://user/alice/skills",
             *       "viking://agent/skills"
             *     ]
             */
            root_uris: string[];
            /** @description Hits, best first, de-duplicated by name (the better-scoring one kept), at most `limit` */
            skills: components["schemas"]["FindSkillItem"][];
            /** @description Number of hits returned (the length of `skills`) */
            total: number;
        };
        /** @description Success envelope (HTTP 200): `{status: "ok", result: GetSkillResult, telemetry?, time}`; `telemetry` only when the request asked for it */
        GetSkillResponse: {
            result: components["schemas"]["GetSkillResult"];
            /**
             * @description Always `ok` for a 2xx response
             * @enum {string}
             */
            status: "ok";
            telemetry?: components["schemas"]["Telemetry"];
            /** @description Server time spent on the request, seconds (float) */
            time: number;
        };
        /** @description Result of get: the skill's metadata, the requested level(s) and its files; the `ETag` header carries `revision` */
        GetSkillResult: {
            /** @description Level 0: the one-paragraph summary (.abstract.md); present with no level or level 0 */
            abstract?: string;
            /** @description Frontmatter `allowed_tools` / `allowed-tools` as a list; empty when none */
            allowed_tools: string[];
            /** @description Level 2: SKILL.md exactly as stored (byte-for-byte as uploaded for SKILL.md input); present with level 2, with `include_content=true`, and with no level unless `include_content=false` */
            content?: string;
            /** @description sha-256 (64 lowercase hex) of the SKILL.md bytes; present with `content` */
            content_sha256?: string;
            /**
             * @description When the skill was first added, ISO 8601 UTC with milliseconds
             * @example 2026-01-31T09:30:00.000Z
             */
            created_at: string;
            /**
             * @description The frontmatter `description`
             * @example My custom skill
             */
            description: string;
            /** @description Every file and folder of the skill, sorted by path; present unless `include_files=false` */
            files?: components["schemas"]["SkillFile"][];
            /**
             * @description Every frontmatter key as parsed (YAML 1.2 core schema), unknown keys such as `license`, `version`, `metadata` included
             * @example {
             *       "description": "My custom skill",
             *       "license": "MIT",
             *       "name": "my-skill"
             *     }
             */
            frontmatter: {
                [key: string]: unknown;
            };
            /** @description The level asked for (0, 1 or 2); absent when none */
            level?: number;
            /**
             * @description Skill name
             * @example my-skill
             */
            name: string;
            /** @description Level 1: parameters and usage overview (.overview.md, rendered from the body until processing stores it); present with no level or level 1 */
            overview?: string;
            /** @description Current revision: sha-256 (64 lowercase hex) of the file manifest; also sent as the `ETag` header and accepted by update as `If-Match` */
            revision: string;
            /**
             * @description The skill root it was found in
             * @example viking://user/alice/skills
             */
            root_uri: string;
            /**
             * @description URI of its SKILL.md: `<uri>/SKILL.md`
             * @example viking://user/alice/skills/my-skill/SKILL.md
             */
            skill_md_uri: string;
            /**
             * @description The `source_metadata` given at add/update, null when none; present with `include_source=true`. A skill added from an MCP tool also has `mcp_tool`: the original tool name (`search_web` for the skill `search-web`), which its SKILL.md does not carry.
             * @example {
             *       "commit": "4f1c2a9",
             *       "repository": "https://github.com/acme/skills"
             *     }
             */
            source?: {
                [key: string]: unknown;
            } | null;
            /** @description Frontmatter `tags` as a list; empty when none */
            tags: string[];
            /**
             * @description When it was last written, ISO 8601 UTC with milliseconds
             * @example 2026-01-31T09:30:00.000Z
             */
            updated_at: string;
            /**
             * @description URI of the skill: `<root_uri>/<name>`
             * @example viking://user/alice/skills/my-skill
             */
            uri: string;
        };
        /** @description Body of `GET /health` (not enveloped, no auth needed) */
        HealthResult: {
            /**
             * @description The caller's account; only when a valid API key was sent
             * @example acme
             */
            account_id?: string;
            /**
             * @description `dev`: no API keys configured — loopback only, every request is user `default` of account `default`; `api_key`: requests need `X-API-Key` or `Authorization: Bearer`
             * @example api_key
             * @enum {string}
             */
            auth_mode: "dev" | "api_key";
            /** @description True when the server is serving requests */
            healthy: boolean;
            /**
             * @description The caller's role (`root` > `admin` > `user`); only when a valid API key was sent
             * @example user
             * @enum {string}
             */
            role?: "root" | "admin" | "user";
            /**
             * @description Always `ok`
             * @enum {string}
             */
            status: "ok";
            /**
             * @description The caller's user id; only when a valid API key was sent
             * @example alice
             */
            user_id?: string;
            /**
             * @description Server version
             * @example 0.1.0
             */
            version: string;
        };
        /** @description Success envelope (HTTP 200): `{status: "ok", result: ServerLimits, telemetry?, time}`; `telemetry` only when the request asked for it */
        LimitsResponse: {
            result: components["schemas"]["ServerLimits"];
            /**
             * @description Always `ok` for a 2xx response
             * @enum {string}
             */
            status: "ok";
            telemetry?: components["schemas"]["Telemetry"];
            /** @description Server time spent on the request, seconds (float) */
            time: number;
        };
        /** @description Success envelope (HTTP 200): `{status: "ok", result: ListAccountsResult, telemetry?, time}`; `telemetry` only when the request asked for it */
        ListAccountsResponse: {
            result: components["schemas"]["ListAccountsResult"];
            /**
             * @description Always `ok` for a 2xx response
             * @enum {string}
             */
            status: "ok";
            telemetry?: components["schemas"]["Telemetry"];
            /** @description Server time spent on the request, seconds (float) */
            time: number;
        };
        /** @description Result of listing accounts */
        ListAccountsResult: {
            /**
             * @description Account ids: every account for root keys, only the caller's own for admin keys
             * @example [
             *       "acme",
             *       "default"
             *     ]
             */
            accounts: string[];
        };
        /** @description Success envelope (HTTP 200): `{status: "ok", result: ListApiKeysResult, telemetry?, time}`; `telemetry` only when the request asked for it */
        ListApiKeysResponse: {
            result: components["schemas"]["ListApiKeysResult"];
            /**
             * @description Always `ok` for a 2xx response
             * @enum {string}
             */
            status: "ok";
            telemetry?: components["schemas"]["Telemetry"];
            /** @description Server time spent on the request, seconds (float) */
            time: number;
        };
        /** @description Result of listing the API keys of an account */
        ListApiKeysResult: {
            /** @description Every key of the account, revoked ones included */
            keys: components["schemas"]["ApiKeyInfo"][];
        };
        /** @description Success envelope (HTTP 200): `{status: "ok", result: ListSkillRevisionsResult, telemetry?, time}`; `telemetry` only when the request asked for it */
        ListSkillRevisionsResponse: {
            result: components["schemas"]["ListSkillRevisionsResult"];
            /**
             * @description Always `ok` for a 2xx response
             * @enum {string}
             */
            status: "ok";
            telemetry?: components["schemas"]["Telemetry"];
            /** @description Server time spent on the request, seconds (float) */
            time: number;
        };
        /** @description A skill's history, newest first. Older versions are dropped by the server's retention policy (see the server documentation: the last N revisions and those superseded in the last D days are kept). */
        ListSkillRevisionsResult: {
            /** @description The revision the skill has now; null when it was deleted */
            current_revision: string | null;
            /** @description True when the skill no longer exists: its history is kept for the retention period and any of these revisions can be restored */
            deleted: boolean;
            /**
             * @description Skill name
             * @example my-skill
             */
            name: string;
            /** @description Kept versions, newest first, at most `limit` */
            revisions: components["schemas"]["SkillRevision"][];
            /**
             * @description The skill root of this history
             * @example viking://user/alice/skills
             */
            root_uri: string;
            /**
             * @description Number of kept versions, before `limit`
             * @example 4
             */
            total: number;
            /**
             * @description URI of the skill: `<root_uri>/<name>`
             * @example viking://user/alice/skills/my-skill
             */
            uri: string;
        };
        /** @description Success envelope (HTTP 200): `{status: "ok", result: ListSkillsResult, telemetry?, time}`; `telemetry` only when the request asked for it */
        ListSkillsResponse: {
            result: components["schemas"]["ListSkillsResult"];
            /**
             * @description Always `ok` for a 2xx response
             * @enum {string}
             */
            status: "ok";
            telemetry?: components["schemas"]["Telemetry"];
            /** @description Server time spent on the request, seconds (float) */
            time: number;
        };
        /** @description Result of list: `root_uris` without `target_uri`, `root_uri` with it */
        ListSkillsResult: {
            /** @description Change feed only: skills deleted since the position, in change order */
            deleted?: components["schemas"]["DeletedSkillItem"][];
            /** @description True when more skills (or changes) follow this page: fetch `next_cursor` for them */
            has_more?: boolean;
            /** @description The position after this page: pass it as `cursor` for the next page. A listing by name gives it only when more skills follow; a change feed always (present even when the page is empty: pass it later to get only what changed since). */
            next_cursor?: string;
            /**
             * @description The one root listed, with `target_uri`
             * @example viking://agent/skills
             */
            root_uri?: string;
            /**
             * @description The roots listed, without `target_uri`: `[<user root>, "viking://agent/skills"]`
             * @example [
             *       "viking://user/alice/skills",
             *       "viking://agent/skills"
             *     ]
             */
            root_uris?: string[];
            /** @description Skills by name, user root first, one page (at most `node_limit`); empty for an empty root (not 404). In a change-feed page: the skills written, in change order. */
            skills: components["schemas"]["SkillListItem"][];
            /** @description Number of skills in the listed root(s), before `node_limit`; in a change-feed page, the number of changes in the page (`skills` plus `deleted`) */
            total: number;
        };
        /** @description Success envelope (HTTP 200): `{status: "ok", result: ListUsersResult, telemetry?, time}`; `telemetry` only when the request asked for it */
        ListUsersResponse: {
            result: components["schemas"]["ListUsersResult"];
            /**
             * @description Always `ok` for a 2xx response
             * @enum {string}
             */
            status: "ok";
            telemetry?: components["schemas"]["Telemetry"];
            /** @description Server time spent on the request, seconds (float) */
            time: number;
        };
        /** @description Result of listing the users of an account */
        ListUsersResult: {
            /**
             * @description The account listed
             * @example acme
             */
            account_id: string;
            /**
             * @description User ids of the account
             * @example [
             *       "alice",
             *       "bob"
             *     ]
             */
            users: string[];
        };
        /** @description Success envelope (HTTP 200): `{status: "ok", result: QueueStatus, telemetry?, time}`; `telemetry` only when the request asked for it */
        QueueResponse: {
            result: components["schemas"]["QueueStatus"];
            /**
             * @description Always `ok` for a 2xx response
             * @enum {string}
             */
            status: "ok";
            telemetry?: components["schemas"]["Telemetry"];
            /** @description Server time spent on the request, seconds (float) */
            time: number;
        };
        /**
         * @description Counts of processing jobs (L1 overview and search index) by state: the caller's jobs for `system/wait` and `observer/queue`, this request's job for add/update with `wait=true`
         * @example {
         *       "completed": 1,
         *       "failed": 0,
         *       "pending": 0,
         *       "processing": 0
         *     }
         */
        QueueStatus: {
            /** @description Jobs finished successfully */
            completed: number;
            /** @description Jobs that failed for good (retries exhausted) */
            failed: number;
            /** @description Jobs waiting to run (including failed jobs awaiting a retry) */
            pending: number;
            /** @description Jobs running now */
            processing: number;
        };
        /** @description Body of `GET /ready` (not enveloped, no auth needed): readiness for load balancers. Ready means the database answers a query, its schema is the version this build needs, and the replica is not shutting down. `GET /health` stays the liveness probe (the process is up). */
        ReadyResult: {
            /**
             * @description Storage engine of this replica: `sqlite` or `postgres`
             * @example postgres
             */
            engine: string;
            /**
             * @description Schema version this server build needs
             * @example 4
             */
            expected_schema_version: number;
            /** @description True when this replica can serve requests now */
            ready: boolean;
            /**
             * @description Why the replica is not ready: the database is unreachable, its schema is older or newer than this build, or the replica is shutting down. Absent when ready
             * @example database unreachable: connect ECONNREFUSED 127.0.0.1:5432
             */
            reason?: string;
            /**
             * @description Schema version found in the database; null when the database could not be reached
             * @example 4
             */
            schema_version: number | null;
            /**
             * @description `ready` (HTTP 200) or `unavailable` (HTTP 503)
             * @example ready
             * @enum {string}
             */
            status: "ready" | "unavailable";
            /**
             * @description Server version
             * @example 0.1.0
             */
            version: string;
        };
        /**
         * @description Body of restore: which earlier version becomes current again. Unknown fields are refused with 400.
         * @example {
         *       "revision": "9b1d4f0c2e8a",
         *       "wait": true
         *     }
         */
        RestoreSkillRequest: {
            /**
             * @description The version to restore: a `revision` from the history (64 hex) or an unambiguous prefix of at least 4
             * @example 9b1d4f0c2e8a
             */
            revision: string;
            /**
             * @description Skill root (`viking://user/{user_id}/skills`, `viking://~/skills` or `viking://agent/skills`). Absent, empty, `null` or `false`: the user root, then the agent root (the first holding that revision).
             * @example viking://agent/skills
             */
            target_uri?: string | null | false;
            /**
             * @description Ask for `telemetry` in the response: `true` adds `{operation_id}`, `{"summary": true}` also adds `summary`. Absent, `null` or `false`: no telemetry.
             * @example true
             */
            telemetry?: boolean | {
                /** @description True adds `telemetry.summary` `{operation, status, duration_ms}` to the response */
                summary?: boolean | null;
            } | null;
            /**
             * @description Longest `wait`, seconds (only with `wait`); on expiry 504 `DEADLINE_EXCEEDED`, the revision written all the same (`details`: `task_id`, `name`, `uri`, `revision`, …)
             * @example 30
             */
            timeout?: number | null | false;
            /**
             * @description Wait until the processing job (overview, search index) has run; default false
             * @example true
             */
            wait?: boolean | null | false;
        };
        /** @description Success envelope (HTTP 200): `{status: "ok", result: SkillWriteResult, telemetry?, time}`; `telemetry` only when the request asked for it */
        RestoreSkillResponse: {
            result: components["schemas"]["SkillWriteResult"];
            /**
             * @description Always `ok` for a 2xx response
             * @enum {string}
             */
            status: "ok";
            telemetry?: components["schemas"]["Telemetry"];
            /** @description Server time spent on the request, seconds (float) */
            time: number;
        };
        /** @description Success envelope (HTTP 200): `{status: "ok", result: RevokeApiKeyResult, telemetry?, time}`; `telemetry` only when the request asked for it */
        RevokeApiKeyResponse: {
            result: components["schemas"]["RevokeApiKeyResult"];
            /**
             * @description Always `ok` for a 2xx response
             * @enum {string}
             */
            status: "ok";
            telemetry?: components["schemas"]["Telemetry"];
            /** @description Server time spent on the request, seconds (float) */
            time: number;
        };
        /** @description Result of revoking an API key */
        RevokeApiKeyResult: {
            /** @description The key revoked */
            key_id: string;
            /** @description True when the key was live and is now revoked; false when it already was */
            revoked: boolean;
        };
        /** @description The limits this server enforces on requests, so clients can refuse an oversized skill before uploading it, and the caller's account usage against its quotas */
        ServerLimits: {
            /**
             * @description Most live skills of the caller's account, in all its roots (0 = none). An add or restore of one skill more → 403 `RESOURCE_EXHAUSTED` with `details {reason: "account_skill_limit", limit, used, setting}`; replacing a skill is not one more (`SKILLPORT_ACCOUNT_MAX_SKILLS`)
             * @example 1000000
             */
            account_max_skills: number;
            /**
             * @description Storage quota of the caller's account, bytes (0 = none): the file sizes of its live skills (SKILL.md, L0 abstract, auxiliary files; not the generated L1 overview, not kept history). An add, update or restore that would pass it → 507 `RESOURCE_EXHAUSTED` with `details.reason` `account_quota`. Set in MiB (`SKILLPORT_ACCOUNT_QUOTA_MB`)
             * @example 1073741824
             */
            account_quota_bytes: number;
            account_usage: components["schemas"]["AccountUsage"];
            /**
             * @description Largest JSON request body, bytes → 413 `PAYLOAD_TOO_LARGE`
             * @example 4194304
             */
            max_body_bytes: number;
            /**
             * @description Highest uncompressed/compressed ratio of one zip entry → 413
             * @example 200
             */
            max_compression_ratio: number;
            /**
             * @description Most files stored per skill: SKILL.md, the generated L0 abstract and the auxiliary files → 413
             * @example 500
             */
            max_files_per_skill: number;
            /**
             * @description Deepest nesting of a JSON request body → 400
             * @example 64
             */
            max_json_depth: number;
            /**
             * @description Most keys of one object in a JSON request body → 400
             * @example 20000
             */
            max_json_object_keys: number;
            /**
             * @description Most values in one JSON request body → 400
             * @example 200000
             */
            max_json_values: number;
            /**
             * @description Deepest auxiliary file path, in folders
             * @example 16
             */
            max_path_depth: number;
            /**
             * @description Largest SKILL.md, bytes → 413
             * @example 1048576
             */
            max_skill_md_bytes: number;
            /**
             * @description Largest total uncompressed size of an uploaded zip, bytes → 413
             * @example 67108864
             */
            max_uncompressed_bytes: number;
            /**
             * @description Largest file sent to `POST /api/v1/resources/temp_upload` (a zipped folder or one SKILL.md), bytes → 413
             * @example 26214400
             */
            max_upload_bytes: number;
            /**
             * @description Longest `wait=true` / `POST /api/v1/system/wait`, seconds (longer values are capped)
             * @example 300
             */
            max_wait_seconds: number;
            /**
             * @description Most entries in an uploaded zip → 413
             * @example 1000
             */
            max_zip_entries: number;
            /**
             * @description What add and update do with a `name` that breaks the name rule (1–64 of `[A-Za-z0-9_-]`), set by `SKILLPORT_NAME_POLICY`: `strict` (the default) refuses it with 400 `INVALID_ARGUMENT` naming the fix; `slug` stores the skill under its slug (`ElevenLabs Automation` → `elevenlabs-automation`) with a `name_slugged` warning. `POST /api/v1/skills/validate` reports the name rule as a warning under either policy; a client checks a skill against this server by validating with this policy (`namePolicy` of `validateSkill` in `@skillport/core`, `skillport skills validate --name-policy`)
             * @example strict
             * @enum {string}
             */
            name_policy: "strict" | "slug";
            /**
             * @description Longest time a request may take before 503, seconds (0 = no limit)
             * @example 60
             */
            request_timeout_seconds: number;
            /**
             * @description The server setting (environment variable) behind each limit above, so a refusal can name what an operator raises
             * @example {
             *       "max_upload_bytes": "SKILLPORT_MAX_UPLOAD_BYTES"
             *     }
             */
            settings: {
                [key: string]: string;
            };
            /**
             * @description Most bytes of unused, unexpired temp uploads per account (0 = none); past it → 507 `RESOURCE_EXHAUSTED` with `details.reason` `temp_upload_quota`. Set in MiB (`SKILLPORT_TEMP_UPLOAD_QUOTA_MB`)
             * @example 268435456
             */
            temp_upload_quota_bytes: number;
            /**
             * @description How long an unused `temp_file_id` stays valid, seconds
             * @example 43200
             */
            temp_upload_ttl_seconds: number;
        };
        /**
         * @description The skill, detected in this order: (1) a string is SKILL.md text — a one-line string that looks like a host path (has `/` or `\`, or starts `./`, `../`, `~/`, `X:\`) is refused with 403 `PERMISSION_DENIED`; (2) an object with `inputSchema` is an MCP tool `{name, description?, inputSchema}`, converted to a skill (name in kebab-case, Parameters and Usage sections); (3) any other object is a structured skill `{name, description?, content?, tags?, allowed_tools?, …}` (extra keys become frontmatter).
         * @example ---
         *     name: my-skill
         *     description: My custom skill
         *     ---
         *
         *     # My Skill
         *
         *     Skill content here.
         */
        SkillData: string | {
            [key: string]: unknown;
        };
        /** @description One entry of a skill folder, sorted by `path` */
        SkillFile: {
            /**
             * @description Present, `true`, only on an executable file (uploaded in a zip from a Unix host with its owner's execute bit set, e.g. a `scripts/run.sh` of mode 755); absent means not executable. Installers set the execute bits (755) of such files on POSIX systems. Part of the revision.
             * @example true
             */
            executable?: boolean;
            /** @description True for a folder entry (`kind: directory`) */
            is_dir: boolean;
            /**
             * @description `definition` = SKILL.md; `summary` = the generated `.abstract.md` / `.overview.md`; `auxiliary` = any other file; `directory` = a folder
             * @example auxiliary
             * @enum {string}
             */
            kind: "definition" | "summary" | "auxiliary" | "directory";
            /**
             * @description Last segment of `path`
             * @example helper.py
             */
            name: string;
            /**
             * @description Path relative to the skill folder, `/`-separated
             * @example scripts/helper.py
             */
            path: string;
            /** @description sha-256 of the content, 64 lowercase hex; null for a folder */
            sha256: string | null;
            /**
             * @description Size in bytes (0 for a folder)
             * @example 1832
             */
            size: number;
            /**
             * @description URI of the file: `<skill uri>/<path>`
             * @example viking://user/alice/skills/my-skill/scripts/helper.py
             */
            uri: string;
        };
        /** @description One validation issue, located where possible: `{rule, severity?, message, field, line?, column?, fix?}` */
        SkillIssue: {
            /**
             * @description 1-based column, counted in Unicode code points (absent when unknown)
             * @example 7
             */
            column?: number;
            /**
             * @description The frontmatter key the issue is about (`name`, `description`, `allowed-tools`, …), `body`, or null when it concerns the whole document
             * @example name
             */
            field: string | null;
            /**
             * @description A suggested replacement value (e.g. the kebab-case name), when one exists
             * @example my-skill
             */
            fix?: string;
            /**
             * @description 1-based line in the SKILL.md text as given (absent when the issue has no position)
             * @example 2
             */
            line?: number;
            /**
             * @description Human-readable explanation of the problem and how to fix it
             * @example "name" "My_Skill" is not lowercase kebab-case (e.g. "search-web"), which agents and folders handle best.
             */
            message: string;
            /**
             * @description Stable rule id, e.g. `yaml_format`, `name_required`, `description_required`, `name_matches_directory`, `name_max_length`, `name_allowed_characters`, `name_leading_hyphen`, `name_reserved_filename`, `description_max_length`, `body_max_lines`, `name_kebab_case`, `description_too_short`
             * @example name_kebab_case
             */
            rule: string;
            /**
             * @description `error` blocks add/update (400 `SKILL_INVALID`); `warning` never does. In validate results the list an issue sits in (`errors` or `warnings`) says the same.
             * @enum {string}
             */
            severity?: "error" | "warning";
        };
        /** @description One skill in list results */
        SkillListItem: {
            /**
             * @description Frontmatter `allowed_tools` / `allowed-tools` as a list (a string is split on whitespace and commas outside parentheses); empty when none
             * @example [
             *       "Bash(git add:*)",
             *       "Read"
             *     ]
             */
            allowed_tools: string[];
            /**
             * @description The frontmatter `description`
             * @example Search the web for current information
             */
            description: string;
            /**
             * @description Context level of the item: always 0 (the abstract) in list results
             * @example 0
             */
            level: number;
            /**
             * @description Skill name (the folder name under its root)
             * @example search-web
             */
            name: string;
            /** @description Current revision: sha-256 (64 lowercase hex) of the skill's file manifest */
            revision: string;
            /**
             * @description The skill root holding it: `viking://user/{user_id}/skills` or `viking://agent/skills`
             * @example viking://user/alice/skills
             */
            root_uri: string;
            /**
             * @description URI of its SKILL.md (level 2): `<uri>/SKILL.md`
             * @example viking://user/alice/skills/search-web/SKILL.md
             */
            skill_md_uri: string;
            /**
             * @description Frontmatter `tags` as a list (a string value is split on commas); empty when none
             * @example [
             *       "web",
             *       "search"
             *     ]
             */
            tags: string[];
            /**
             * @description Always `skill`
             * @enum {string}
             */
            type: "skill";
            /**
             * @description When the skill was last written, ISO 8601 UTC with milliseconds
             * @example 2026-01-31T09:30:00.000Z
             */
            updated_at: string;
            /**
             * @description URI of the skill: `<root_uri>/<name>`
             * @example viking://user/alice/skills/search-web
             */
            uri: string;
        };
        /** @description One version in a skill's history, newest first. The same `revision` appears again when a restore writes an earlier version anew. */
        SkillRevision: {
            /**
             * @description Number of its auxiliary files (every file besides SKILL.md and the generated summaries), as an add's `auxiliary_files` counts them
             * @example 1
             */
            auxiliary_files: number;
            /**
             * @description When this version was written (add, update or restore), ISO 8601 UTC with milliseconds
             * @example 2026-01-31T09:30:00.000Z
             */
            created_at: string;
            /**
             * @description User id whose write made this version; null for versions stored before authors were kept
             * @example alice
             */
            created_by: string | null;
            /** @description True for the version the skill has now */
            current: boolean;
            /**
             * @description Number of those files: SKILL.md, the auxiliary files and `.abstract.md`
             * @example 3
             */
            files: number;
            /**
             * @description The revision: sha-256 (64 lowercase hex) of that version's file manifest
             * @example 9b1d4f0c2e8a7b6d5c4e3f2a1b0c9d8e7f6a5b4c3d2e1f0a9b8c7d6e5f4a3b2c
             */
            revision: string;
            /**
             * @description Bytes of its files: SKILL.md, auxiliary files and the generated `.abstract.md` (not `.overview.md`)
             * @example 2048
             */
            size: number;
            /**
             * @description When a later write replaced it or the skill was deleted, ISO 8601 UTC; null for the current version
             * @example null
             */
            superseded_at: string | null;
            /**
             * @description What ended this version: `write` (an update, a restore or a new add replaced it), `delete` (the skill was deleted then); null for the current version
             * @example null
             * @enum {string|null}
             */
            superseded_by: "write" | "delete" | null;
        };
        /** @description Result of add and update: the stored skill, plus `queue_status` (this write's job) when `wait=true`, else `task_id` */
        SkillWriteResult: {
            /**
             * @description `update` on update results, `restore` on restore results; absent on add
             * @enum {string}
             */
            action?: "add" | "update" | "restore";
            /**
             * @description Number of stored files besides SKILL.md and the generated `.abstract.md` (0 unless uploaded as a folder)
             * @example 2
             */
            auxiliary_files: number;
            /**
             * @description The skill name, as read from the content
             * @example my-skill
             */
            name: string;
            queue_status?: components["schemas"]["QueueStatus"];
            /**
             * @description True when a skill of that name already existed in the root and was replaced; false when it is new
             * @example false
             */
            replaced: boolean;
            /**
             * @description The new revision: 64 lowercase hex characters, the sha-256 of the skill's file manifest. Send it as `If-Match` to update only this version.
             * @example 9b1d4f0c2e8a7b6d5c4e3f2a1b0c9d8e7f6a5b4c3d2e1f0a9b8c7d6e5f4a3b2c
             */
            revision: string;
            /**
             * @description The stored skill's URI, as the seed API returns it (equal to `uri`); the skill root is this URI without its last segment
             * @example viking://user/alice/skills/my-skill
             */
            root_uri: string;
            /**
             * @description Always `success` (failures are error envelopes)
             * @enum {string}
             */
            status: "success";
            /** @description Id of the processing job (see `GET /api/v1/tasks/{task_id}`); present when `wait` was not true */
            task_id?: string;
            /**
             * @description URI of the stored skill: `<skill root>/<name>`
             * @example viking://user/alice/skills/my-skill
             */
            uri: string;
            /** @description Validation warnings (profile `openviking`) and MCP conversion notes; they never block a write */
            warnings: components["schemas"]["SkillIssue"][];
        };
        /** @description Overall state of the server as seen by the caller (`is_healthy` is what `is_healthy()` of the seed clients reads) */
        SystemStatus: {
            /** @description `store` (the database answers), `queue` (the caller’s processing jobs) and `jobs` (this server runs processing jobs) */
            components: {
                [key: string]: components["schemas"]["ComponentStatus"];
            };
            /**
             * @description One message per unhealthy component (empty when healthy)
             * @example []
             */
            errors: string[];
            /** @description True when every component is healthy */
            is_healthy: boolean;
        };
        /** @description Success envelope (HTTP 200): `{status: "ok", result: SystemStatus, telemetry?, time}`; `telemetry` only when the request asked for it */
        SystemStatusResponse: {
            result: components["schemas"]["SystemStatus"];
            /**
             * @description Always `ok` for a 2xx response
             * @enum {string}
             */
            status: "ok";
            telemetry?: components["schemas"]["Telemetry"];
            /** @description Server time spent on the request, seconds (float) */
            time: number;
        };
        /** @description Success envelope (HTTP 200): `{status: "ok", result: TaskListResult, telemetry?, time}`; `telemetry` only when the request asked for it */
        TaskListResponse: {
            result: components["schemas"]["TaskListResult"];
            /**
             * @description Always `ok` for a 2xx response
             * @enum {string}
             */
            status: "ok";
            telemetry?: components["schemas"]["Telemetry"];
            /** @description Server time spent on the request, seconds (float) */
            time: number;
        };
        /** @description The caller's processing tasks, newest first (by `created_at`), at most `limit` */
        TaskListResult: components["schemas"]["TaskResult"][];
        /** @description Success envelope (HTTP 200): `{status: "ok", result: TaskResult, telemetry?, time}`; `telemetry` only when the request asked for it */
        TaskResponse: {
            result: components["schemas"]["TaskResult"];
            /**
             * @description Always `ok` for a 2xx response
             * @enum {string}
             */
            status: "ok";
            telemetry?: components["schemas"]["Telemetry"];
            /** @description Server time spent on the request, seconds (float) */
            time: number;
        };
        /** @description One of the caller's processing tasks; other users' tasks answer 404 */
        TaskResult: {
            /**
             * @description When the task was enqueued, ISO 8601 UTC with milliseconds
             * @example 2026-01-31T09:30:00.000Z
             */
            created_at: string;
            /** @description Why the last attempt failed (failed or retrying tasks) */
            error?: string;
            /**
             * @description URI of the skill the task processes (`viking://…/skills/<name>`); `null` once that skill was deleted
             * @example viking://user/alice/skills/search-web
             */
            resource_id?: string | null;
            /**
             * @description Outcome of a completed task, e.g. `{revision, overview_bytes, indexed: true}`, or `{skipped: <reason>}` when the skill was deleted or superseded before the task ran
             * @example {
             *       "indexed": true,
             *       "overview_bytes": 412,
             *       "revision": "9b1d4f0c…"
             *     }
             */
            result?: {
                [key: string]: unknown;
            };
            /**
             * @description `pending` (waiting, or waiting for a retry after a failure), `running`, `completed`, `failed` (retries exhausted), or `cancelled` (by `POST /api/v1/tasks/{task_id}/cancel` while pending)
             * @example completed
             * @enum {string}
             */
            status: "pending" | "running" | "completed" | "failed" | "cancelled";
            /** @description Id of the task, as returned by add/update as `task_id` */
            task_id: string;
            /**
             * @description What enqueued it: `add_skill` (add) or `update_skill` (update)
             * @example add_skill
             * @enum {string}
             */
            task_type: "add_skill" | "update_skill";
            /**
             * @description When its state last changed, ISO 8601 UTC with milliseconds
             * @example 2026-01-31T09:30:00.120Z
             */
            updated_at: string;
        };
        /** @description Response telemetry, present only when the request sent `telemetry: true` or `{"summary": true}` */
        Telemetry: {
            /**
             * @description UUID of this operation (new for every request)
             * @example 3f2b8c1e-9a4d-4e0f-8b6a-2d7c5e1f0a93
             */
            operation_id: string;
            /** @description Present when the request sent `telemetry: {"summary": true}`; may carry further keys */
            summary?: {
                /** @description Server time spent, milliseconds (float) */
                duration_ms: number;
                /** @description Operation name, e.g. `skills.add`, `skills.find` */
                operation: string;
                /**
                 * @description Outcome of the request: `ok` or `error`
                 * @enum {string}
                 */
                status: "ok" | "error";
            } & {
                [key: string]: unknown;
            };
        };
        /** @description Multipart form of temp upload: `file` (required) and `upload_mode` */
        TempUploadForm: {
            /**
             * Format: binary
             * @description Required. A zipped skill folder (SKILL.md at the archive root or in its single top folder; `__MACOSX/` ignored; recognised by content, whatever the file name) or one SKILL.md file. Larger than the upload limit (default 25 MiB) → 413 `PAYLOAD_TOO_LARGE`.
             */
            file?: string;
            /**
             * @description Accepted for seed clients: `local` (default) or `shared`; every upload is stored the same way, bound to the uploading account
             * @example local
             * @enum {string}
             */
            upload_mode?: "local" | "shared";
        };
        /** @description Success envelope (HTTP 200): `{status: "ok", result: TempUploadReleaseResult, telemetry?, time}`; `telemetry` only when the request asked for it */
        TempUploadReleaseResponse: {
            result: components["schemas"]["TempUploadReleaseResult"];
            /**
             * @description Always `ok` for a 2xx response
             * @enum {string}
             */
            status: "ok";
            telemetry?: components["schemas"]["Telemetry"];
            /** @description Server time spent on the request, seconds (float) */
            time: number;
        };
        /** @description Result of releasing a temp upload */
        TempUploadReleaseResult: {
            /**
             * @description Always true: the upload is deleted and no longer counts toward the temp-upload quota
             * @enum {boolean}
             */
            released: true;
            /**
             * @description The temp upload released
             * @example tmp_5d41402abc4b2a76b9719d911017c592
             */
            temp_file_id: string;
        };
        /** @description Success envelope (HTTP 200): `{status: "ok", result: TempUploadResult, telemetry?, time}`; `telemetry` only when the request asked for it */
        TempUploadResponse: {
            result: components["schemas"]["TempUploadResult"];
            /**
             * @description Always `ok` for a 2xx response
             * @enum {string}
             */
            status: "ok";
            telemetry?: components["schemas"]["Telemetry"];
            /** @description Server time spent on the request, seconds (float) */
            time: number;
        };
        /** @description Result of temp upload */
        TempUploadResult: {
            /**
             * @description Opaque id (`tmp_` + 32 hex, never a host path) to pass as `temp_file_id` to add or update. Bound to the uploading account, used up by the first add or update that stores it (one refused leaves it for a retry), expires after 12 h by default.
             * @example tmp_5d41402abc4b2a76b9719d911017c592
             */
            temp_file_id: string;
        };
        /** @description Success envelope (HTTP 200): `{status: "ok", result: SkillWriteResult, telemetry?, time}`; `telemetry` only when the request asked for it */
        UpdateSkillResponse: {
            result: components["schemas"]["SkillWriteResult"];
            /**
             * @description Always `ok` for a 2xx response
             * @enum {string}
             */
            status: "ok";
            telemetry?: components["schemas"]["Telemetry"];
            /** @description Server time spent on the request, seconds (float) */
            time: number;
        };
        /** @description Success envelope (HTTP 200): `{status: "ok", result: UserResult, telemetry?, time}`; `telemetry` only when the request asked for it */
        UserResponse: {
            result: components["schemas"]["UserResult"];
            /**
             * @description Always `ok` for a 2xx response
             * @enum {string}
             */
            status: "ok";
            telemetry?: components["schemas"]["Telemetry"];
            /** @description Server time spent on the request, seconds (float) */
            time: number;
        };
        /** @description The created user */
        UserResult: {
            /**
             * @description The account
             * @example acme
             */
            account_id: string;
            /**
             * @description The created (or already existing) user
             * @example alice
             */
            user_id: string;
        };
        /**
         * @description Body of validate: the skill in any `data` form plus options; nothing is stored
         * @example {
         *       "data": "---\nname: my-skill\ndescription: My custom skill\n---\n\n# My Skill\n\nSkill content here.",
         *       "skill_dir_name": "my-skill",
         *       "strict": true
         *     }
         */
        ValidateSkillRequest: {
            /**
             * @description The skill in any form add takes (SKILL.md text, MCP tool, structured skill). Any other JSON value (a number, a boolean, null, a list) is a 200 verdict with `valid: false` and a `yaml_format` error on `data`.
             * @example ---
             *     name: my-skill
             *     description: My custom skill
             *     ---
             *
             *     # My Skill
             *
             *     Skill content here.
             */
            data: string | {
                [key: string]: unknown;
            } | unknown[] | number | boolean | null;
            /**
             * @description Rule set: `openviking` (default; the rules add applies), `agentskills` (the Agent Skills specification: lowercase kebab names, name = folder name, …) or `claude` (agentskills plus no XML tags and no reserved words `anthropic`/`claude`). `null` or `false`: the default.
             * @example agentskills
             */
            profile?: ("openviking" | "agentskills" | "claude") | null | false;
            /**
             * @description Name of the folder the skill lives in; enables `name_matches_directory` (warning, error when strict). Absent, empty, `null` or `false`: not checked.
             * @example my-skill
             */
            skill_dir_name?: string | null | false;
            /**
             * @description Where the skill came from, for the caller's records; accepted and not used by the checks
             * @example skills/my-skill/SKILL.md
             */
            source_path?: string | null | false;
            /**
             * @description Strict mode. Profile `openviking`: `name_matches_directory`, `name_max_length`, `name_allowed_characters`, `name_leading_hyphen` (a leading `-`, read as an option on command lines), `name_reserved_filename` (`con`, `nul`, `com1`…: no such folder on Windows) and `description_max_length` become errors, and `body_max_lines` (> 500) is reported as a warning. Profiles `agentskills` / `claude`: unknown frontmatter keys and recovered YAML mistakes become errors. Default false (`null` or `false`: not strict).
             * @example true
             */
            strict?: boolean | null | false;
            /** @description Accepted for seed clients and ignored: validation stores nothing */
            target_uri?: string | null | false;
            /**
             * @description Ask for `telemetry` in the response: `true` adds `{operation_id}`, `{"summary": true}` also adds `summary`. Absent, `null` or `false`: no telemetry.
             * @example true
             */
            telemetry?: boolean | {
                /** @description True adds `telemetry.summary` `{operation, status, duration_ms}` to the response */
                summary?: boolean | null;
            } | null;
        };
        /** @description Success envelope (HTTP 200): `{status: "ok", result: ValidateSkillResult, telemetry?, time}`; `telemetry` only when the request asked for it */
        ValidateSkillResponse: {
            result: components["schemas"]["ValidateSkillResult"];
            /**
             * @description Always `ok` for a 2xx response
             * @enum {string}
             */
            status: "ok";
            telemetry?: components["schemas"]["Telemetry"];
            /** @description Server time spent on the request, seconds (float) */
            time: number;
        };
        /** @description The validator's verdict. A name that add would reject is at least a warning, so validate never promises more than add keeps. */
        ValidateSkillResult: {
            /** @description Frontmatter `allowed_tools` / `allowed-tools` as a list; empty when none */
            allowed_tools: string[];
            /**
             * @description Number of lines of the Markdown body
             * @example 3
             */
            body_lines: number;
            /**
             * @description The frontmatter `description` when it is a string, else null
             * @example My custom skill
             */
            description: string | null;
            /** @description Issues that make the skill invalid (add would refuse it with 400 `SKILL_INVALID`) */
            errors: components["schemas"]["SkillIssue"][];
            /**
             * @description The frontmatter `name` when it is a string, else null
             * @example my-skill
             */
            name: string | null;
            /**
             * @description The profile applied
             * @example openviking
             * @enum {string}
             */
            profile: "openviking" | "agentskills" | "claude";
            /**
             * @description The request's `skill_dir_name`, `""` when not given (sent by the server like `source_path`)
             * @example my-skill
             */
            skill_dir_name?: string;
            /**
             * @description The request's `source_path`, `""` when not given (the server always sends it, as OpenViking does; the local validator of the SDKs and CLI leaves it out)
             * @example skills/my-skill/SKILL.md
             */
            source_path?: string;
            /** @description Whether strict mode was applied */
            strict: boolean;
            /** @description Frontmatter `tags` as a list; empty when none */
            tags: string[];
            /** @description True when `errors` is empty */
            valid: boolean;
            /** @description Issues that do not make the skill invalid: best-practice hints, and the rules that are errors only in strict mode */
            warnings: components["schemas"]["SkillIssue"][];
        };
        /**
         * @description Body of `POST /api/v1/system/wait` (optional: no body waits up to the server limit); waits until the caller's pending and running jobs are done
         * @example {
         *       "timeout": 60
         *     }
         */
        WaitRequest: {
            /**
             * @description Ask for `telemetry` in the response: `true` adds `{operation_id}`, `{"summary": true}` also adds `summary`. Absent, `null` or `false`: no telemetry.
             * @example true
             */
            telemetry?: boolean | {
                /** @description True adds `telemetry.summary` `{operation, status, duration_ms}` to the response */
                summary?: boolean | null;
            } | null;
            /**
             * @description Longest wait, seconds (float), capped at the server limit (default 300 s). 0, absent, `null` or `false`: the server limit. Past it → 504 `DEADLINE_EXCEEDED`.
             * @example 60
             */
            timeout?: number | null | false;
        };
        /** @description Success envelope (HTTP 200): `{status: "ok", result: QueueStatus, telemetry?, time}`; `telemetry` only when the request asked for it */
        WaitResponse: {
            result: components["schemas"]["QueueStatus"];
            /**
             * @description Always `ok` for a 2xx response
             * @enum {string}
             */
            status: "ok";
            telemetry?: components["schemas"]["Telemetry"];
            /** @description Server time spent on the request, seconds (float) */
            time: number;
        };
    };
    responses: never;
    parameters: never;
    requestBodies: never;
    headers: never;
    pathItems: never;
}
export type $defs = Record<string, never>;
export interface operations {
    adminListAccounts: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Accounts */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ListAccountsResponse"];
                };
            };
            /** @description INVALID_ARGUMENT, INVALID_URI or SKILL_INVALID */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description UNAUTHENTICATED */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description PERMISSION_DENIED, or RESOURCE_EXHAUSTED when an add or a restore of a deleted skill would pass the account's skill limit (`details {reason: "account_skill_limit", limit, used, setting}`; `SKILLPORT_ACCOUNT_MAX_SKILLS`); nothing was changed */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description NOT_FOUND */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description PAYLOAD_TOO_LARGE */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description RESOURCE_EXHAUSTED: rate limit, too many wrong API keys from this address or with this key prefix, or (find) too many finds at once with this key (`details.reason` `finds_in_flight`, `SKILLPORT_MAX_FINDS_PER_KEY`); retry after `Retry-After` seconds */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description INTERNAL or PROCESSING_ERROR */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description UNAVAILABLE: retry after `Retry-After` seconds — the database is locked by another connection (`details.reason` `database_locked`), every worker thread is busy (`workers_busy`), or the server is shutting down */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description RESOURCE_EXHAUSTED: the server is out of disk space (`details.reason` `storage_full`), or the write would pass the caller's account quota (`account_quota`) or temp-upload quota (`temp_upload_quota`, with `details {limit, used, size, setting}` in bytes); nothing was changed */
            507: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    adminCreateAccount: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CreateAccountRequest"];
            };
        };
        responses: {
            /** @description Created */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AccountResponse"];
                };
            };
            /** @description INVALID_ARGUMENT, INVALID_URI or SKILL_INVALID */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description UNAUTHENTICATED */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description PERMISSION_DENIED, or RESOURCE_EXHAUSTED when an add or a restore of a deleted skill would pass the account's skill limit (`details {reason: "account_skill_limit", limit, used, setting}`; `SKILLPORT_ACCOUNT_MAX_SKILLS`); nothing was changed */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description NOT_FOUND */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description PAYLOAD_TOO_LARGE */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description RESOURCE_EXHAUSTED: rate limit, too many wrong API keys from this address or with this key prefix, or (find) too many finds at once with this key (`details.reason` `finds_in_flight`, `SKILLPORT_MAX_FINDS_PER_KEY`); retry after `Retry-After` seconds */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description INTERNAL or PROCESSING_ERROR */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description UNAVAILABLE: retry after `Retry-After` seconds — the database is locked by another connection (`details.reason` `database_locked`), every worker thread is busy (`workers_busy`), or the server is shutting down */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description RESOURCE_EXHAUSTED: the server is out of disk space (`details.reason` `storage_full`), or the write would pass the caller's account quota (`account_quota`) or temp-upload quota (`temp_upload_quota`, with `details {limit, used, size, setting}` in bytes); nothing was changed */
            507: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    adminListKeys: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Account id (1–64 characters of `[A-Za-z0-9_-]`) */
                account_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Keys */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ListApiKeysResponse"];
                };
            };
            /** @description INVALID_ARGUMENT, INVALID_URI or SKILL_INVALID */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description UNAUTHENTICATED */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description PERMISSION_DENIED, or RESOURCE_EXHAUSTED when an add or a restore of a deleted skill would pass the account's skill limit (`details {reason: "account_skill_limit", limit, used, setting}`; `SKILLPORT_ACCOUNT_MAX_SKILLS`); nothing was changed */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description NOT_FOUND */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description PAYLOAD_TOO_LARGE */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description RESOURCE_EXHAUSTED: rate limit, too many wrong API keys from this address or with this key prefix, or (find) too many finds at once with this key (`details.reason` `finds_in_flight`, `SKILLPORT_MAX_FINDS_PER_KEY`); retry after `Retry-After` seconds */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description INTERNAL or PROCESSING_ERROR */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description UNAVAILABLE: retry after `Retry-After` seconds — the database is locked by another connection (`details.reason` `database_locked`), every worker thread is busy (`workers_busy`), or the server is shutting down */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description RESOURCE_EXHAUSTED: the server is out of disk space (`details.reason` `storage_full`), or the write would pass the caller's account quota (`account_quota`) or temp-upload quota (`temp_upload_quota`, with `details {limit, used, size, setting}` in bytes); nothing was changed */
            507: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    adminCreateKey: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Account id (1–64 characters of `[A-Za-z0-9_-]`) */
                account_id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CreateApiKeyRequest"];
            };
        };
        responses: {
            /** @description Created */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CreatedApiKeyResponse"];
                };
            };
            /** @description INVALID_ARGUMENT, INVALID_URI or SKILL_INVALID */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description UNAUTHENTICATED */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description PERMISSION_DENIED, or RESOURCE_EXHAUSTED when an add or a restore of a deleted skill would pass the account's skill limit (`details {reason: "account_skill_limit", limit, used, setting}`; `SKILLPORT_ACCOUNT_MAX_SKILLS`); nothing was changed */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description NOT_FOUND */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description PAYLOAD_TOO_LARGE */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description RESOURCE_EXHAUSTED: rate limit, too many wrong API keys from this address or with this key prefix, or (find) too many finds at once with this key (`details.reason` `finds_in_flight`, `SKILLPORT_MAX_FINDS_PER_KEY`); retry after `Retry-After` seconds */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description INTERNAL or PROCESSING_ERROR */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description UNAVAILABLE: retry after `Retry-After` seconds — the database is locked by another connection (`details.reason` `database_locked`), every worker thread is busy (`workers_busy`), or the server is shutting down */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description RESOURCE_EXHAUSTED: the server is out of disk space (`details.reason` `storage_full`), or the write would pass the caller's account quota (`account_quota`) or temp-upload quota (`temp_upload_quota`, with `details {limit, used, size, setting}` in bytes); nothing was changed */
            507: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    adminRevokeKey: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Account id (1–64 characters of `[A-Za-z0-9_-]`) */
                account_id: string;
                /** @description Id of the key, as listed (`key_id`), not the secret */
                key_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Revoked */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RevokeApiKeyResponse"];
                };
            };
            /** @description INVALID_ARGUMENT, INVALID_URI or SKILL_INVALID */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description UNAUTHENTICATED */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description PERMISSION_DENIED, or RESOURCE_EXHAUSTED when an add or a restore of a deleted skill would pass the account's skill limit (`details {reason: "account_skill_limit", limit, used, setting}`; `SKILLPORT_ACCOUNT_MAX_SKILLS`); nothing was changed */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description NOT_FOUND */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description PAYLOAD_TOO_LARGE */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description RESOURCE_EXHAUSTED: rate limit, too many wrong API keys from this address or with this key prefix, or (find) too many finds at once with this key (`details.reason` `finds_in_flight`, `SKILLPORT_MAX_FINDS_PER_KEY`); retry after `Retry-After` seconds */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description INTERNAL or PROCESSING_ERROR */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description UNAVAILABLE: retry after `Retry-After` seconds — the database is locked by another connection (`details.reason` `database_locked`), every worker thread is busy (`workers_busy`), or the server is shutting down */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description RESOURCE_EXHAUSTED: the server is out of disk space (`details.reason` `storage_full`), or the write would pass the caller's account quota (`account_quota`) or temp-upload quota (`temp_upload_quota`, with `details {limit, used, size, setting}` in bytes); nothing was changed */
            507: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    adminListUsers: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Account id (1–64 characters of `[A-Za-z0-9_-]`) */
                account_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Users */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ListUsersResponse"];
                };
            };
            /** @description INVALID_ARGUMENT, INVALID_URI or SKILL_INVALID */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description UNAUTHENTICATED */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description PERMISSION_DENIED, or RESOURCE_EXHAUSTED when an add or a restore of a deleted skill would pass the account's skill limit (`details {reason: "account_skill_limit", limit, used, setting}`; `SKILLPORT_ACCOUNT_MAX_SKILLS`); nothing was changed */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description NOT_FOUND */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description PAYLOAD_TOO_LARGE */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description RESOURCE_EXHAUSTED: rate limit, too many wrong API keys from this address or with this key prefix, or (find) too many finds at once with this key (`details.reason` `finds_in_flight`, `SKILLPORT_MAX_FINDS_PER_KEY`); retry after `Retry-After` seconds */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description INTERNAL or PROCESSING_ERROR */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description UNAVAILABLE: retry after `Retry-After` seconds — the database is locked by another connection (`details.reason` `database_locked`), every worker thread is busy (`workers_busy`), or the server is shutting down */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description RESOURCE_EXHAUSTED: the server is out of disk space (`details.reason` `storage_full`), or the write would pass the caller's account quota (`account_quota`) or temp-upload quota (`temp_upload_quota`, with `details {limit, used, size, setting}` in bytes); nothing was changed */
            507: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    adminCreateUser: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Account id (1–64 characters of `[A-Za-z0-9_-]`) */
                account_id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CreateUserRequest"];
            };
        };
        responses: {
            /** @description Created */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["UserResponse"];
                };
            };
            /** @description INVALID_ARGUMENT, INVALID_URI or SKILL_INVALID */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description UNAUTHENTICATED */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description PERMISSION_DENIED, or RESOURCE_EXHAUSTED when an add or a restore of a deleted skill would pass the account's skill limit (`details {reason: "account_skill_limit", limit, used, setting}`; `SKILLPORT_ACCOUNT_MAX_SKILLS`); nothing was changed */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description NOT_FOUND */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description PAYLOAD_TOO_LARGE */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description RESOURCE_EXHAUSTED: rate limit, too many wrong API keys from this address or with this key prefix, or (find) too many finds at once with this key (`details.reason` `finds_in_flight`, `SKILLPORT_MAX_FINDS_PER_KEY`); retry after `Retry-After` seconds */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description INTERNAL or PROCESSING_ERROR */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description UNAVAILABLE: retry after `Retry-After` seconds — the database is locked by another connection (`details.reason` `database_locked`), every worker thread is busy (`workers_busy`), or the server is shutting down */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description RESOURCE_EXHAUSTED: the server is out of disk space (`details.reason` `storage_full`), or the write would pass the caller's account quota (`account_quota`) or temp-upload quota (`temp_upload_quota`, with `details {limit, used, size, setting}` in bytes); nothing was changed */
            507: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    observeQueue: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Counts */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["QueueResponse"];
                };
            };
            /** @description INVALID_ARGUMENT, INVALID_URI or SKILL_INVALID */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description UNAUTHENTICATED */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description PERMISSION_DENIED, or RESOURCE_EXHAUSTED when an add or a restore of a deleted skill would pass the account's skill limit (`details {reason: "account_skill_limit", limit, used, setting}`; `SKILLPORT_ACCOUNT_MAX_SKILLS`); nothing was changed */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description NOT_FOUND */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description PAYLOAD_TOO_LARGE */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description RESOURCE_EXHAUSTED: rate limit, too many wrong API keys from this address or with this key prefix, or (find) too many finds at once with this key (`details.reason` `finds_in_flight`, `SKILLPORT_MAX_FINDS_PER_KEY`); retry after `Retry-After` seconds */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description INTERNAL or PROCESSING_ERROR */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description UNAVAILABLE: retry after `Retry-After` seconds — the database is locked by another connection (`details.reason` `database_locked`), every worker thread is busy (`workers_busy`), or the server is shutting down */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description RESOURCE_EXHAUSTED: the server is out of disk space (`details.reason` `storage_full`), or the write would pass the caller's account quota (`account_quota`) or temp-upload quota (`temp_upload_quota`, with `details {limit, used, size, setting}` in bytes); nothing was changed */
            507: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    observeSystem: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The state */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SystemStatusResponse"];
                };
            };
            /** @description INVALID_ARGUMENT, INVALID_URI or SKILL_INVALID */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description UNAUTHENTICATED */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description PERMISSION_DENIED, or RESOURCE_EXHAUSTED when an add or a restore of a deleted skill would pass the account's skill limit (`details {reason: "account_skill_limit", limit, used, setting}`; `SKILLPORT_ACCOUNT_MAX_SKILLS`); nothing was changed */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description NOT_FOUND */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description PAYLOAD_TOO_LARGE */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description RESOURCE_EXHAUSTED: rate limit, too many wrong API keys from this address or with this key prefix, or (find) too many finds at once with this key (`details.reason` `finds_in_flight`, `SKILLPORT_MAX_FINDS_PER_KEY`); retry after `Retry-After` seconds */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description INTERNAL or PROCESSING_ERROR */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description UNAVAILABLE: retry after `Retry-After` seconds — the database is locked by another connection (`details.reason` `database_locked`), every worker thread is busy (`workers_busy`), or the server is shutting down */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description RESOURCE_EXHAUSTED: the server is out of disk space (`details.reason` `storage_full`), or the write would pass the caller's account quota (`account_quota`) or temp-upload quota (`temp_upload_quota`, with `details {limit, used, size, setting}` in bytes); nothing was changed */
            507: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    tempUpload: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "multipart/form-data": components["schemas"]["TempUploadForm"];
            };
        };
        responses: {
            /** @description Stored temporarily */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["TempUploadResponse"];
                };
            };
            /** @description INVALID_ARGUMENT, INVALID_URI or SKILL_INVALID */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description UNAUTHENTICATED */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description PERMISSION_DENIED, or RESOURCE_EXHAUSTED when an add or a restore of a deleted skill would pass the account's skill limit (`details {reason: "account_skill_limit", limit, used, setting}`; `SKILLPORT_ACCOUNT_MAX_SKILLS`); nothing was changed */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description NOT_FOUND */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description PAYLOAD_TOO_LARGE */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description RESOURCE_EXHAUSTED: rate limit, too many wrong API keys from this address or with this key prefix, or (find) too many finds at once with this key (`details.reason` `finds_in_flight`, `SKILLPORT_MAX_FINDS_PER_KEY`); retry after `Retry-After` seconds */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description INTERNAL or PROCESSING_ERROR */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description UNAVAILABLE: retry after `Retry-After` seconds — the database is locked by another connection (`details.reason` `database_locked`), every worker thread is busy (`workers_busy`), or the server is shutting down */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description RESOURCE_EXHAUSTED: the server is out of disk space (`details.reason` `storage_full`), or the write would pass the caller's account quota (`account_quota`) or temp-upload quota (`temp_upload_quota`, with `details {limit, used, size, setting}` in bytes); nothing was changed */
            507: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    releaseTempUpload: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Id returned by `POST /api/v1/resources/temp_upload` */
                temp_file_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Released */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["TempUploadReleaseResponse"];
                };
            };
            /** @description INVALID_ARGUMENT, INVALID_URI or SKILL_INVALID */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description UNAUTHENTICATED */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description PERMISSION_DENIED, or RESOURCE_EXHAUSTED when an add or a restore of a deleted skill would pass the account's skill limit (`details {reason: "account_skill_limit", limit, used, setting}`; `SKILLPORT_ACCOUNT_MAX_SKILLS`); nothing was changed */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description NOT_FOUND */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description PAYLOAD_TOO_LARGE */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description RESOURCE_EXHAUSTED: rate limit, too many wrong API keys from this address or with this key prefix, or (find) too many finds at once with this key (`details.reason` `finds_in_flight`, `SKILLPORT_MAX_FINDS_PER_KEY`); retry after `Retry-After` seconds */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description INTERNAL or PROCESSING_ERROR */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description UNAVAILABLE: retry after `Retry-After` seconds — the database is locked by another connection (`details.reason` `database_locked`), every worker thread is busy (`workers_busy`), or the server is shutting down */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description RESOURCE_EXHAUSTED: the server is out of disk space (`details.reason` `storage_full`), or the write would pass the caller's account quota (`account_quota`) or temp-upload quota (`temp_upload_quota`, with `details {limit, used, size, setting}` in bytes); nothing was changed */
            507: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    listSkills: {
        parameters: {
            query?: {
                /** @description Skills per page (a non-negative integer): default 100, at most 1000 — a larger value is clamped to 1000, and `has_more` / `next_cursor` say that more follow. Applied to the merged list of both roots; `total` still counts them all. In a change feed: changes per page (default and most 1000). */
                node_limit?: string;
                /** @description List only this root: `viking://user/{user_id}/skills` (the caller's own), `viking://~/skills` or `viking://agent/skills`. Absent, empty, `null` or `false`: both the user root and the agent root. */
                target_uri?: string;
                /** @description Change feed: only skills written or deleted at or after this time (ISO 8601, e.g. `2026-01-31T09:30:00Z` or `2026-01-31`), in the order the changes were made, deletions in `deleted`; the page holds at most `node_limit` changes (default 1000, at most 1000) and ends with `next_cursor`. Absent, empty, `null` or `false`: a plain listing by name. */
                updated_since?: string;
                /** @description Continue after a previous page: its `next_cursor`, passed back unchanged (opaque). A cursor of the listing by name continues it after the last skill returned, so pages neither repeat nor skip skills when others are added meanwhile. A cursor of the change feed carries the page's `updated_since`, so `updated_since` is not needed with it; each skill is reported by its latest state, and one written again after the cursor comes again later, so a reader that follows `next_cursor` misses no change. A cursor used with another `target_uri` than its first page is refused with 400. */
                cursor?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Skills */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ListSkillsResponse"];
                };
            };
            /** @description INVALID_ARGUMENT, INVALID_URI or SKILL_INVALID */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description UNAUTHENTICATED */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description PERMISSION_DENIED, or RESOURCE_EXHAUSTED when an add or a restore of a deleted skill would pass the account's skill limit (`details {reason: "account_skill_limit", limit, used, setting}`; `SKILLPORT_ACCOUNT_MAX_SKILLS`); nothing was changed */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description NOT_FOUND */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description PAYLOAD_TOO_LARGE */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description RESOURCE_EXHAUSTED: rate limit, too many wrong API keys from this address or with this key prefix, or (find) too many finds at once with this key (`details.reason` `finds_in_flight`, `SKILLPORT_MAX_FINDS_PER_KEY`); retry after `Retry-After` seconds */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description INTERNAL or PROCESSING_ERROR */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description UNAVAILABLE: retry after `Retry-After` seconds — the database is locked by another connection (`details.reason` `database_locked`), every worker thread is busy (`workers_busy`), or the server is shutting down */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description RESOURCE_EXHAUSTED: the server is out of disk space (`details.reason` `storage_full`), or the write would pass the caller's account quota (`account_quota`) or temp-upload quota (`temp_upload_quota`, with `details {limit, used, size, setting}` in bytes); nothing was changed */
            507: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    addSkill: {
        parameters: {
            query?: never;
            header?: {
                /** @description Optional: the revision the add, update or delete expects to be current, as returned in `revision` or the `ETag` header (quoted or not; several comma-separated match any of them), compared strongly (RFC 9110 §13.1.1): a weak tag (`W/"…"`) or an empty value never matches. `*` matches any existing skill. No match → 412 `CONFLICT` and nothing changes. A value that is neither `*` nor a list of entity tags (e.g. an unbalanced quote, `*` inside a list, spaces inside a tag) → 400 `INVALID_ARGUMENT` (`details {field: "If-Match", reason: "malformed_entity_tag"}`), before anything is evaluated. */
                "if-match"?: string;
                /** @description Optional: a key of your choosing (1–255 printable ASCII characters, e.g. a UUID) that makes a retry safe. The first request with it runs; once it succeeds its response is kept 24 h, and a retry with the same key and the same request (method, path, query, body) gets that response again with `Idempotent-Replayed: true`, changing nothing. The same key with a different request → 422 `INVALID_ARGUMENT` (`details.reason` `idempotency_key_reused`); while the first still runs → 409 `CONFLICT` (`idempotency_key_in_progress`, `Retry-After`). A failed request is not kept, except a 504 `DEADLINE_EXCEEDED` of a write whose `wait` ran out (the skill is stored: that answer is kept). Keys are per user. A write from a temp upload is compared by the upload's file name and bytes, not its `temp_file_id`: a retry that uploads the same folder or zip again (under a new id) is the same request, and its new upload is freed. */
                "idempotency-key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["AddSkillRequest"];
            };
        };
        responses: {
            /** @description Stored */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AddSkillResponse"];
                };
            };
            /** @description INVALID_ARGUMENT, INVALID_URI or SKILL_INVALID */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description UNAUTHENTICATED */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description PERMISSION_DENIED, or RESOURCE_EXHAUSTED when an add or a restore of a deleted skill would pass the account's skill limit (`details {reason: "account_skill_limit", limit, used, setting}`; `SKILLPORT_ACCOUNT_MAX_SKILLS`); nothing was changed */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description NOT_FOUND */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description PAYLOAD_TOO_LARGE */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description RESOURCE_EXHAUSTED: rate limit, too many wrong API keys from this address or with this key prefix, or (find) too many finds at once with this key (`details.reason` `finds_in_flight`, `SKILLPORT_MAX_FINDS_PER_KEY`); retry after `Retry-After` seconds */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description INTERNAL or PROCESSING_ERROR */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description UNAVAILABLE: retry after `Retry-After` seconds — the database is locked by another connection (`details.reason` `database_locked`), every worker thread is busy (`workers_busy`), or the server is shutting down */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description DEADLINE_EXCEEDED: `wait` timed out after the skill was stored. `details` carry the write's result fields (`name`, `uri`, `root_uri`, `revision`, …), `task_id` (follow it with `GET /api/v1/tasks/{task_id}`), `timeout` and `queue_status`; sending the write again would store it again. */
            504: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description RESOURCE_EXHAUSTED: the server is out of disk space (`details.reason` `storage_full`), or the write would pass the caller's account quota (`account_quota`) or temp-upload quota (`temp_upload_quota`, with `details {limit, used, size, setting}` in bytes); nothing was changed */
            507: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    findSkills: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["FindSkillsRequest"];
            };
        };
        responses: {
            /** @description Hits */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["FindSkillsResponse"];
                };
            };
            /** @description INVALID_ARGUMENT, INVALID_URI or SKILL_INVALID */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description UNAUTHENTICATED */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description PERMISSION_DENIED, or RESOURCE_EXHAUSTED when an add or a restore of a deleted skill would pass the account's skill limit (`details {reason: "account_skill_limit", limit, used, setting}`; `SKILLPORT_ACCOUNT_MAX_SKILLS`); nothing was changed */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description NOT_FOUND */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description PAYLOAD_TOO_LARGE */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description RESOURCE_EXHAUSTED: rate limit, too many wrong API keys from this address or with this key prefix, or (find) too many finds at once with this key (`details.reason` `finds_in_flight`, `SKILLPORT_MAX_FINDS_PER_KEY`); retry after `Retry-After` seconds */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description INTERNAL or PROCESSING_ERROR */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description UNAVAILABLE: retry after `Retry-After` seconds — the database is locked by another connection (`details.reason` `database_locked`), every worker thread is busy (`workers_busy`), or the server is shutting down */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description RESOURCE_EXHAUSTED: the server is out of disk space (`details.reason` `storage_full`), or the write would pass the caller's account quota (`account_quota`) or temp-upload quota (`temp_upload_quota`, with `details {limit, used, size, setting}` in bytes); nothing was changed */
            507: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    validateSkill: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["ValidateSkillRequest"];
            };
        };
        responses: {
            /** @description Verdict */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidateSkillResponse"];
                };
            };
            /** @description INVALID_ARGUMENT, INVALID_URI or SKILL_INVALID */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description UNAUTHENTICATED */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description PERMISSION_DENIED, or RESOURCE_EXHAUSTED when an add or a restore of a deleted skill would pass the account's skill limit (`details {reason: "account_skill_limit", limit, used, setting}`; `SKILLPORT_ACCOUNT_MAX_SKILLS`); nothing was changed */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description NOT_FOUND */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description PAYLOAD_TOO_LARGE */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description RESOURCE_EXHAUSTED: rate limit, too many wrong API keys from this address or with this key prefix, or (find) too many finds at once with this key (`details.reason` `finds_in_flight`, `SKILLPORT_MAX_FINDS_PER_KEY`); retry after `Retry-After` seconds */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description INTERNAL or PROCESSING_ERROR */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description UNAVAILABLE: retry after `Retry-After` seconds — the database is locked by another connection (`details.reason` `database_locked`), every worker thread is busy (`workers_busy`), or the server is shutting down */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description RESOURCE_EXHAUSTED: the server is out of disk space (`details.reason` `storage_full`), or the write would pass the caller's account quota (`account_quota`) or temp-upload quota (`temp_upload_quota`, with `details {limit, used, size, setting}` in bytes); nothing was changed */
            507: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    getSkill: {
        parameters: {
            query?: {
                /** @description Return one level only: `0` = `abstract` (.abstract.md), `1` = `overview` (.overview.md), `2` = `content` (SKILL.md, with `content_sha256`). Absent, empty, `null` or `false`: all three. */
                level?: "0" | "1" | "2" | "null" | "false" | "";
                /** @description Flag (`true`/`false`/`1`/`0`/`True`/`False`): `true` adds `content` (SKILL.md) and `content_sha256` at levels 0 and 1; `false` leaves them out of a read with no `level` (abstract and overview only, as OpenViking's get answers it). Level 2 always carries them. Absent: content with no level or level 2. */
                include_content?: "0" | "1" | "true" | "false" | "True" | "False";
                /** @description Flag (`true`/`false`/`1`/`0`/`True`/`False`): add `files`, the folder listing. Default true. */
                include_files?: "0" | "1" | "true" | "false" | "True" | "False";
                /** @description Flag (`true`/`false`/`1`/`0`/`True`/`False`), accepted for seed clients: the result always carries `revision` and every file its `size` and `sha256`, so it changes nothing. */
                include_integrity?: "0" | "1" | "true" | "false" | "True" | "False";
                /** @description Flag (`true`/`false`/`1`/`0`/`True`/`False`): add `source`, the `source_metadata` given at add/update (null when none; for an MCP tool input it also holds `mcp_tool`, the tool's own name). Default false. */
                include_source?: "0" | "1" | "true" | "false" | "True" | "False";
                /** @description Look only in this root (`viking://user/{user_id}/skills`, `viking://~/skills` or `viking://agent/skills`). Absent, empty, `null` or `false`: the user root, then the agent root. */
                target_uri?: string;
                /** @description Read the skill as it was at this revision of its history (see `GET /api/v1/skills/{name}/revisions`): the 64-hex revision or an unambiguous prefix of at least 4. Every level and flag works as for the current version (`overview` is rendered from that version; `files` are its files). Works for a deleted skill while its history is kept. Absent or empty: the current version. */
                revision?: string;
            };
            header?: {
                /** @description Optional: the `ETag` of a copy the client holds (`"<revision>"`; several comma-separated, `W/` ignored, `*` any). When it names the current revision and the skill is settled → 304 without a body. A response sent before the skill's processing job ran (`Cache-Control: private, no-store`: its overview is rendered on the fly) is never confirmed by a 304. A value that is neither `*` nor a list of entity tags → 400 `INVALID_ARGUMENT` (`details {field: "If-None-Match", reason: "malformed_entity_tag"}`). */
                "if-none-match"?: string;
            };
            path: {
                /** @description Skill name: trimmed, 1–64 characters of `[A-Za-z0-9_-]` (else 400 with `details.field = "name"`) */
                name: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The skill (ETag = revision) */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["GetSkillResponse"];
                };
            };
            /** @description Not modified: `If-None-Match` named the current revision and the skill is settled (its processing job has run); no body */
            304: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description INVALID_ARGUMENT, INVALID_URI or SKILL_INVALID */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description UNAUTHENTICATED */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description PERMISSION_DENIED, or RESOURCE_EXHAUSTED when an add or a restore of a deleted skill would pass the account's skill limit (`details {reason: "account_skill_limit", limit, used, setting}`; `SKILLPORT_ACCOUNT_MAX_SKILLS`); nothing was changed */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description NOT_FOUND */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description PAYLOAD_TOO_LARGE */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description RESOURCE_EXHAUSTED: rate limit, too many wrong API keys from this address or with this key prefix, or (find) too many finds at once with this key (`details.reason` `finds_in_flight`, `SKILLPORT_MAX_FINDS_PER_KEY`); retry after `Retry-After` seconds */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description INTERNAL or PROCESSING_ERROR */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description UNAVAILABLE: retry after `Retry-After` seconds — the database is locked by another connection (`details.reason` `database_locked`), every worker thread is busy (`workers_busy`), or the server is shutting down */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description RESOURCE_EXHAUSTED: the server is out of disk space (`details.reason` `storage_full`), or the write would pass the caller's account quota (`account_quota`) or temp-upload quota (`temp_upload_quota`, with `details {limit, used, size, setting}` in bytes); nothing was changed */
            507: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    updateSkill: {
        parameters: {
            query?: never;
            header?: {
                /** @description Optional: the revision the add, update or delete expects to be current, as returned in `revision` or the `ETag` header (quoted or not; several comma-separated match any of them), compared strongly (RFC 9110 §13.1.1): a weak tag (`W/"…"`) or an empty value never matches. `*` matches any existing skill. No match → 412 `CONFLICT` and nothing changes. A value that is neither `*` nor a list of entity tags (e.g. an unbalanced quote, `*` inside a list, spaces inside a tag) → 400 `INVALID_ARGUMENT` (`details {field: "If-Match", reason: "malformed_entity_tag"}`), before anything is evaluated. */
                "if-match"?: string;
                /** @description Optional: a key of your choosing (1–255 printable ASCII characters, e.g. a UUID) that makes a retry safe. The first request with it runs; once it succeeds its response is kept 24 h, and a retry with the same key and the same request (method, path, query, body) gets that response again with `Idempotent-Replayed: true`, changing nothing. The same key with a different request → 422 `INVALID_ARGUMENT` (`details.reason` `idempotency_key_reused`); while the first still runs → 409 `CONFLICT` (`idempotency_key_in_progress`, `Retry-After`). A failed request is not kept, except a 504 `DEADLINE_EXCEEDED` of a write whose `wait` ran out (the skill is stored: that answer is kept). Keys are per user. A write from a temp upload is compared by the upload's file name and bytes, not its `temp_file_id`: a retry that uploads the same folder or zip again (under a new id) is the same request, and its new upload is freed. */
                "idempotency-key"?: string;
            };
            path: {
                /** @description Skill name: trimmed, 1–64 characters of `[A-Za-z0-9_-]` (else 400 with `details.field = "name"`) */
                name: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["AddSkillRequest"];
            };
        };
        responses: {
            /** @description Replaced */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["UpdateSkillResponse"];
                };
            };
            /** @description INVALID_ARGUMENT, INVALID_URI or SKILL_INVALID */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description UNAUTHENTICATED */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description PERMISSION_DENIED, or RESOURCE_EXHAUSTED when an add or a restore of a deleted skill would pass the account's skill limit (`details {reason: "account_skill_limit", limit, used, setting}`; `SKILLPORT_ACCOUNT_MAX_SKILLS`); nothing was changed */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description NOT_FOUND */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description CONFLICT: stale `If-Match` revision */
            412: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description PAYLOAD_TOO_LARGE */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description RESOURCE_EXHAUSTED: rate limit, too many wrong API keys from this address or with this key prefix, or (find) too many finds at once with this key (`details.reason` `finds_in_flight`, `SKILLPORT_MAX_FINDS_PER_KEY`); retry after `Retry-After` seconds */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description INTERNAL or PROCESSING_ERROR */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description UNAVAILABLE: retry after `Retry-After` seconds — the database is locked by another connection (`details.reason` `database_locked`), every worker thread is busy (`workers_busy`), or the server is shutting down */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description DEADLINE_EXCEEDED: `wait` timed out after the skill was stored. `details` carry the write's result fields (`name`, `uri`, `root_uri`, `revision`, …), `task_id` (follow it with `GET /api/v1/tasks/{task_id}`), `timeout` and `queue_status`; sending the write again would store it again. */
            504: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description RESOURCE_EXHAUSTED: the server is out of disk space (`details.reason` `storage_full`), or the write would pass the caller's account quota (`account_quota`) or temp-upload quota (`temp_upload_quota`, with `details {limit, used, size, setting}` in bytes); nothing was changed */
            507: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    deleteSkill: {
        parameters: {
            query?: {
                /** @description Skill root to delete from (`viking://user/{user_id}/skills`, `viking://~/skills` or `viking://agent/skills`). Absent, empty, `null` or `false`: the user root, then the agent root. */
                target_uri?: string;
                /** @description Flag (`true`/`false`/`1`/`0`/`True`/`False`): also erase the skill's history at once, and with it every file content no other skill or revision uses (the deletion can then not be undone by a restore; `privacy_deleted` is true). Default false: the history is kept for the server's retention period, so the skill can be restored. */
                purge?: "0" | "1" | "true" | "false" | "True" | "False";
            };
            header?: {
                /** @description Optional: the revision the add, update or delete expects to be current, as returned in `revision` or the `ETag` header (quoted or not; several comma-separated match any of them), compared strongly (RFC 9110 §13.1.1): a weak tag (`W/"…"`) or an empty value never matches. `*` matches any existing skill. No match → 412 `CONFLICT` and nothing changes. A value that is neither `*` nor a list of entity tags (e.g. an unbalanced quote, `*` inside a list, spaces inside a tag) → 400 `INVALID_ARGUMENT` (`details {field: "If-Match", reason: "malformed_entity_tag"}`), before anything is evaluated. */
                "if-match"?: string;
            };
            path: {
                /** @description Skill name: trimmed, 1–64 characters of `[A-Za-z0-9_-]` (else 400 with `details.field = "name"`) */
                name: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Deleted */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DeleteSkillResponse"];
                };
            };
            /** @description INVALID_ARGUMENT, INVALID_URI or SKILL_INVALID */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description UNAUTHENTICATED */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description PERMISSION_DENIED, or RESOURCE_EXHAUSTED when an add or a restore of a deleted skill would pass the account's skill limit (`details {reason: "account_skill_limit", limit, used, setting}`; `SKILLPORT_ACCOUNT_MAX_SKILLS`); nothing was changed */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description NOT_FOUND */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description CONFLICT: stale `If-Match` revision */
            412: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description PAYLOAD_TOO_LARGE */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description RESOURCE_EXHAUSTED: rate limit, too many wrong API keys from this address or with this key prefix, or (find) too many finds at once with this key (`details.reason` `finds_in_flight`, `SKILLPORT_MAX_FINDS_PER_KEY`); retry after `Retry-After` seconds */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description INTERNAL or PROCESSING_ERROR */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description UNAVAILABLE: retry after `Retry-After` seconds — the database is locked by another connection (`details.reason` `database_locked`), every worker thread is busy (`workers_busy`), or the server is shutting down */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description RESOURCE_EXHAUSTED: the server is out of disk space (`details.reason` `storage_full`), or the write would pass the caller's account quota (`account_quota`) or temp-upload quota (`temp_upload_quota`, with `details {limit, used, size, setting}` in bytes); nothing was changed */
            507: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    getSkillFile: {
        parameters: {
            query?: {
                /** @description Look only in this root (`viking://user/{user_id}/skills`, `viking://~/skills` or `viking://agent/skills`). Absent, empty, `null` or `false`: the user root, then the agent root. */
                target_uri?: string;
                /** @description Read the file as it was at this revision of the skill's history (see `GET /api/v1/skills/{name}/revisions`): the 64-hex revision or an unambiguous prefix of at least 4. Works for a deleted skill while its history is kept; such a response never changes, so it is cacheable for good. Absent or empty: the current version. */
                revision?: string;
            };
            header?: never;
            path: {
                /** @description Skill name: 1–64 characters of `[A-Za-z0-9_-]` */
                name: string;
                /** @description File path inside the skill folder as listed in get `files[].path`; may contain `/` (sent as is, or percent-encoded). Empty, `.` and `..` segments, backslashes and control characters → 400. */
                path: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The file (type from its extension; unknown → `application/octet-stream`) */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/octet-stream": string;
                };
            };
            /** @description Not modified (`If-None-Match` matched the ETag) */
            304: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description INVALID_ARGUMENT, INVALID_URI or SKILL_INVALID */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description UNAUTHENTICATED */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description PERMISSION_DENIED, or RESOURCE_EXHAUSTED when an add or a restore of a deleted skill would pass the account's skill limit (`details {reason: "account_skill_limit", limit, used, setting}`; `SKILLPORT_ACCOUNT_MAX_SKILLS`); nothing was changed */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description NOT_FOUND */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description PAYLOAD_TOO_LARGE */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description RESOURCE_EXHAUSTED: rate limit, too many wrong API keys from this address or with this key prefix, or (find) too many finds at once with this key (`details.reason` `finds_in_flight`, `SKILLPORT_MAX_FINDS_PER_KEY`); retry after `Retry-After` seconds */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description INTERNAL or PROCESSING_ERROR */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description UNAVAILABLE: retry after `Retry-After` seconds — the database is locked by another connection (`details.reason` `database_locked`), every worker thread is busy (`workers_busy`), or the server is shutting down */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description RESOURCE_EXHAUSTED: the server is out of disk space (`details.reason` `storage_full`), or the write would pass the caller's account quota (`account_quota`) or temp-upload quota (`temp_upload_quota`, with `details {limit, used, size, setting}` in bytes); nothing was changed */
            507: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    restoreSkill: {
        parameters: {
            query?: never;
            header?: {
                /** @description Optional: the revision the add, update or delete expects to be current, as returned in `revision` or the `ETag` header (quoted or not; several comma-separated match any of them), compared strongly (RFC 9110 §13.1.1): a weak tag (`W/"…"`) or an empty value never matches. `*` matches any existing skill. No match → 412 `CONFLICT` and nothing changes. A value that is neither `*` nor a list of entity tags (e.g. an unbalanced quote, `*` inside a list, spaces inside a tag) → 400 `INVALID_ARGUMENT` (`details {field: "If-Match", reason: "malformed_entity_tag"}`), before anything is evaluated. */
                "if-match"?: string;
                /** @description Optional: a key of your choosing (1–255 printable ASCII characters, e.g. a UUID) that makes a retry safe. The first request with it runs; once it succeeds its response is kept 24 h, and a retry with the same key and the same request (method, path, query, body) gets that response again with `Idempotent-Replayed: true`, changing nothing. The same key with a different request → 422 `INVALID_ARGUMENT` (`details.reason` `idempotency_key_reused`); while the first still runs → 409 `CONFLICT` (`idempotency_key_in_progress`, `Retry-After`). A failed request is not kept, except a 504 `DEADLINE_EXCEEDED` of a write whose `wait` ran out (the skill is stored: that answer is kept). Keys are per user. A write from a temp upload is compared by the upload's file name and bytes, not its `temp_file_id`: a retry that uploads the same folder or zip again (under a new id) is the same request, and its new upload is freed. */
                "idempotency-key"?: string;
            };
            path: {
                /** @description Skill name: trimmed, 1–64 characters of `[A-Za-z0-9_-]` (else 400 with `details.field = "name"`) */
                name: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["RestoreSkillRequest"];
            };
        };
        responses: {
            /** @description Restored */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RestoreSkillResponse"];
                };
            };
            /** @description INVALID_ARGUMENT, INVALID_URI or SKILL_INVALID */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description UNAUTHENTICATED */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description PERMISSION_DENIED, or RESOURCE_EXHAUSTED when an add or a restore of a deleted skill would pass the account's skill limit (`details {reason: "account_skill_limit", limit, used, setting}`; `SKILLPORT_ACCOUNT_MAX_SKILLS`); nothing was changed */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description NOT_FOUND */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description CONFLICT: stale `If-Match` revision */
            412: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description PAYLOAD_TOO_LARGE */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description RESOURCE_EXHAUSTED: rate limit, too many wrong API keys from this address or with this key prefix, or (find) too many finds at once with this key (`details.reason` `finds_in_flight`, `SKILLPORT_MAX_FINDS_PER_KEY`); retry after `Retry-After` seconds */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description INTERNAL or PROCESSING_ERROR */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description UNAVAILABLE: retry after `Retry-After` seconds — the database is locked by another connection (`details.reason` `database_locked`), every worker thread is busy (`workers_busy`), or the server is shutting down */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description DEADLINE_EXCEEDED: `wait` timed out after the skill was stored. `details` carry the write's result fields (`name`, `uri`, `root_uri`, `revision`, …), `task_id` (follow it with `GET /api/v1/tasks/{task_id}`), `timeout` and `queue_status`; sending the write again would store it again. */
            504: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description RESOURCE_EXHAUSTED: the server is out of disk space (`details.reason` `storage_full`), or the write would pass the caller's account quota (`account_quota`) or temp-upload quota (`temp_upload_quota`, with `details {limit, used, size, setting}` in bytes); nothing was changed */
            507: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    listSkillRevisions: {
        parameters: {
            query?: {
                /** @description Look only in this root (`viking://user/{user_id}/skills`, `viking://~/skills` or `viking://agent/skills`). Absent, empty, `null` or `false`: the user root, then the agent root (the first holding a skill or a history of that name). */
                target_uri?: string;
                /** @description Most revisions to return, newest first (default 100, at most 1000); `total` counts all kept */
                limit?: string;
            };
            header?: never;
            path: {
                /** @description Skill name: trimmed, 1–64 characters of `[A-Za-z0-9_-]` (else 400 with `details.field = "name"`) */
                name: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The history */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ListSkillRevisionsResponse"];
                };
            };
            /** @description INVALID_ARGUMENT, INVALID_URI or SKILL_INVALID */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description UNAUTHENTICATED */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description PERMISSION_DENIED, or RESOURCE_EXHAUSTED when an add or a restore of a deleted skill would pass the account's skill limit (`details {reason: "account_skill_limit", limit, used, setting}`; `SKILLPORT_ACCOUNT_MAX_SKILLS`); nothing was changed */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description NOT_FOUND */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description PAYLOAD_TOO_LARGE */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description RESOURCE_EXHAUSTED: rate limit, too many wrong API keys from this address or with this key prefix, or (find) too many finds at once with this key (`details.reason` `finds_in_flight`, `SKILLPORT_MAX_FINDS_PER_KEY`); retry after `Retry-After` seconds */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description INTERNAL or PROCESSING_ERROR */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description UNAVAILABLE: retry after `Retry-After` seconds — the database is locked by another connection (`details.reason` `database_locked`), every worker thread is busy (`workers_busy`), or the server is shutting down */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description RESOURCE_EXHAUSTED: the server is out of disk space (`details.reason` `storage_full`), or the write would pass the caller's account quota (`account_quota`) or temp-upload quota (`temp_upload_quota`, with `details {limit, used, size, setting}` in bytes); nothing was changed */
            507: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    getLimits: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The limits */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["LimitsResponse"];
                };
            };
            /** @description INVALID_ARGUMENT, INVALID_URI or SKILL_INVALID */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description UNAUTHENTICATED */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description PERMISSION_DENIED, or RESOURCE_EXHAUSTED when an add or a restore of a deleted skill would pass the account's skill limit (`details {reason: "account_skill_limit", limit, used, setting}`; `SKILLPORT_ACCOUNT_MAX_SKILLS`); nothing was changed */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description NOT_FOUND */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description PAYLOAD_TOO_LARGE */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description RESOURCE_EXHAUSTED: rate limit, too many wrong API keys from this address or with this key prefix, or (find) too many finds at once with this key (`details.reason` `finds_in_flight`, `SKILLPORT_MAX_FINDS_PER_KEY`); retry after `Retry-After` seconds */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description INTERNAL or PROCESSING_ERROR */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description UNAVAILABLE: retry after `Retry-After` seconds — the database is locked by another connection (`details.reason` `database_locked`), every worker thread is busy (`workers_busy`), or the server is shutting down */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description RESOURCE_EXHAUSTED: the server is out of disk space (`details.reason` `storage_full`), or the write would pass the caller's account quota (`account_quota`) or temp-upload quota (`temp_upload_quota`, with `details {limit, used, size, setting}` in bytes); nothing was changed */
            507: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    waitProcessed: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": components["schemas"]["WaitRequest"];
            };
        };
        responses: {
            /** @description Queue drained */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WaitResponse"];
                };
            };
            /** @description INVALID_ARGUMENT, INVALID_URI or SKILL_INVALID */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description UNAUTHENTICATED */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description PERMISSION_DENIED, or RESOURCE_EXHAUSTED when an add or a restore of a deleted skill would pass the account's skill limit (`details {reason: "account_skill_limit", limit, used, setting}`; `SKILLPORT_ACCOUNT_MAX_SKILLS`); nothing was changed */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description NOT_FOUND */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description PAYLOAD_TOO_LARGE */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description RESOURCE_EXHAUSTED: rate limit, too many wrong API keys from this address or with this key prefix, or (find) too many finds at once with this key (`details.reason` `finds_in_flight`, `SKILLPORT_MAX_FINDS_PER_KEY`); retry after `Retry-After` seconds */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description INTERNAL or PROCESSING_ERROR */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description UNAVAILABLE: retry after `Retry-After` seconds — the database is locked by another connection (`details.reason` `database_locked`), every worker thread is busy (`workers_busy`), or the server is shutting down */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description DEADLINE_EXCEEDED: `wait` timed out */
            504: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description RESOURCE_EXHAUSTED: the server is out of disk space (`details.reason` `storage_full`), or the write would pass the caller's account quota (`account_quota`) or temp-upload quota (`temp_upload_quota`, with `details {limit, used, size, setting}` in bytes); nothing was changed */
            507: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    listTasks: {
        parameters: {
            query?: {
                /** @description Only tasks of this type: `add_skill` or `update_skill` (any other value matches none) */
                task_type?: string;
                /** @description Only tasks in this state: `pending`, `running`, `completed`, `failed` or `cancelled` (any other value matches none) */
                status?: string;
                /** @description Only tasks of this skill, by URI (`viking://…/skills/<name>`) */
                resource_id?: string;
                /** @description Most tasks returned, 1–200 (default 50) */
                limit?: string;
                /** @description Accepted for seed clients and ignored: Skillport has no internal tasks */
                include_internal?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The tasks */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["TaskListResponse"];
                };
            };
            /** @description INVALID_ARGUMENT, INVALID_URI or SKILL_INVALID */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description UNAUTHENTICATED */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description PERMISSION_DENIED, or RESOURCE_EXHAUSTED when an add or a restore of a deleted skill would pass the account's skill limit (`details {reason: "account_skill_limit", limit, used, setting}`; `SKILLPORT_ACCOUNT_MAX_SKILLS`); nothing was changed */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description NOT_FOUND */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description PAYLOAD_TOO_LARGE */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description RESOURCE_EXHAUSTED: rate limit, too many wrong API keys from this address or with this key prefix, or (find) too many finds at once with this key (`details.reason` `finds_in_flight`, `SKILLPORT_MAX_FINDS_PER_KEY`); retry after `Retry-After` seconds */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description INTERNAL or PROCESSING_ERROR */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description UNAVAILABLE: retry after `Retry-After` seconds — the database is locked by another connection (`details.reason` `database_locked`), every worker thread is busy (`workers_busy`), or the server is shutting down */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description RESOURCE_EXHAUSTED: the server is out of disk space (`details.reason` `storage_full`), or the write would pass the caller's account quota (`account_quota`) or temp-upload quota (`temp_upload_quota`, with `details {limit, used, size, setting}` in bytes); nothing was changed */
            507: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    getTask: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Id of the task, as returned by add/update (`task_id`) */
                task_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The task */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["TaskResponse"];
                };
            };
            /** @description INVALID_ARGUMENT, INVALID_URI or SKILL_INVALID */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description UNAUTHENTICATED */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description PERMISSION_DENIED, or RESOURCE_EXHAUSTED when an add or a restore of a deleted skill would pass the account's skill limit (`details {reason: "account_skill_limit", limit, used, setting}`; `SKILLPORT_ACCOUNT_MAX_SKILLS`); nothing was changed */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description NOT_FOUND */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description PAYLOAD_TOO_LARGE */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description RESOURCE_EXHAUSTED: rate limit, too many wrong API keys from this address or with this key prefix, or (find) too many finds at once with this key (`details.reason` `finds_in_flight`, `SKILLPORT_MAX_FINDS_PER_KEY`); retry after `Retry-After` seconds */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description INTERNAL or PROCESSING_ERROR */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description UNAVAILABLE: retry after `Retry-After` seconds — the database is locked by another connection (`details.reason` `database_locked`), every worker thread is busy (`workers_busy`), or the server is shutting down */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description RESOURCE_EXHAUSTED: the server is out of disk space (`details.reason` `storage_full`), or the write would pass the caller's account quota (`account_quota`) or temp-upload quota (`temp_upload_quota`, with `details {limit, used, size, setting}` in bytes); nothing was changed */
            507: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    cancelTask: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Id of the task, as returned by add/update (`task_id`) */
                task_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The cancelled task */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CancelTaskResponse"];
                };
            };
            /** @description INVALID_ARGUMENT, INVALID_URI or SKILL_INVALID */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description UNAUTHENTICATED */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description PERMISSION_DENIED, or RESOURCE_EXHAUSTED when an add or a restore of a deleted skill would pass the account's skill limit (`details {reason: "account_skill_limit", limit, used, setting}`; `SKILLPORT_ACCOUNT_MAX_SKILLS`); nothing was changed */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description NOT_FOUND */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description PAYLOAD_TOO_LARGE */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description RESOURCE_EXHAUSTED: rate limit, too many wrong API keys from this address or with this key prefix, or (find) too many finds at once with this key (`details.reason` `finds_in_flight`, `SKILLPORT_MAX_FINDS_PER_KEY`); retry after `Retry-After` seconds */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description INTERNAL or PROCESSING_ERROR */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description UNAVAILABLE: retry after `Retry-After` seconds — the database is locked by another connection (`details.reason` `database_locked`), every worker thread is busy (`workers_busy`), or the server is shutting down */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description RESOURCE_EXHAUSTED: the server is out of disk space (`details.reason` `storage_full`), or the write would pass the caller's account quota (`account_quota`) or temp-upload quota (`temp_upload_quota`, with `details {limit, used, size, setting}` in bytes); nothing was changed */
            507: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    health: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Healthy */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HealthResult"];
                };
            };
            /** @description RESOURCE_EXHAUSTED: a wrong API key after too many from this address or with this key prefix (the same throttle as `/api/v1`; see Retry-After). Without a key, or with a valid one, never. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    ready: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Ready */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ReadyResult"];
                };
            };
            /** @description Not ready; `reason` says why */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ReadyResult"];
                };
            };
        };
    };
}
