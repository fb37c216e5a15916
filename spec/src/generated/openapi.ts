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
        /** List accounts (root: all; admin: its own) */
        get: operations["adminListAccounts"];
        put?: never;
        /** Create an account (root) */
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
        /** List the API keys of an account (never the secrets) */
        get: operations["adminListKeys"];
        put?: never;
        /** Create an API key for a user (the key is returned once) */
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
        /** Revoke an API key */
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
        /** List the users of an account */
        get: operations["adminListUsers"];
        put?: never;
        /** Create a user in an account */
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
        /** The caller's queue counts */
        get: operations["observeQueue"];
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
        /** Upload a zipped skill folder or one SKILL.md; returns an id for add/update (consumed once) */
        post: operations["tempUpload"];
        delete?: never;
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
        /** List skills of the user root and the agent root, or of one root */
        get: operations["listSkills"];
        put?: never;
        /** Add a skill (SKILL.md text, MCP tool, structured object or temp upload); replaces a same-named skill */
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
        /** Search skills (lexical, best first) */
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
        /** Validate a skill without storing it (always 200 for a readable request) */
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
        /** Read a skill at level 0 (abstract), 1 (overview), 2 (SKILL.md) or all */
        get: operations["getSkill"];
        /** Replace a skill completely; the name in the content must equal {name} */
        put: operations["updateSkill"];
        post?: never;
        /** Delete a skill and its files */
        delete: operations["deleteSkill"];
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
        /** Wait until the caller's pending jobs are done */
        post: operations["waitProcessed"];
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
        /** One of the caller's processing tasks */
        get: operations["getTask"];
        put?: never;
        post?: never;
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
        /** Liveness and auth mode; with a valid key also the caller */
        get: operations["health"];
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
        AccountResponse: {
            result: components["schemas"]["AccountResult"];
            /** @enum {string} */
            status: "ok";
            telemetry?: components["schemas"]["Telemetry"];
            /** @description Server time spent, seconds */
            time: number;
        };
        AccountResult: {
            account_id: string;
        };
        AddSkillRequest: {
            data?: components["schemas"]["SkillData"];
            source_metadata?: {
                [key: string]: unknown;
            } | null | false;
            /** @description Skill root: the user root (default), `viking://~/skills` or `viking://agent/skills` */
            target_uri?: string | null | false;
            /** @description Ask for `telemetry` in the response; `{summary: true}` adds a summary */
            telemetry?: boolean | {
                summary?: boolean | null;
            } | null;
            /** @description Id from temp_upload (zip or SKILL.md) */
            temp_file_id?: string | null | false;
            /** @description Seconds to wait, only with `wait` (0 or absent: the server limit) */
            timeout?: number | null | false;
            /** @description Wait for processing (default false) */
            wait?: boolean | null | false;
        };
        AddSkillResponse: {
            result: components["schemas"]["SkillWriteResult"];
            /** @enum {string} */
            status: "ok";
            telemetry?: components["schemas"]["Telemetry"];
            /** @description Server time spent, seconds */
            time: number;
        };
        ApiKeyInfo: {
            account_id: string;
            created_at: string;
            key_id: string;
            prefix: string;
            revoked_at: string | null;
            /** @enum {string} */
            role: "root" | "admin" | "user";
            user_id: string;
        };
        CreateAccountRequest: {
            account_id: string;
        };
        CreateApiKeyRequest: {
            /**
             * @description Default `user`
             * @enum {string}
             */
            role?: "admin" | "user";
            user_id: string;
        };
        CreateUserRequest: {
            user_id: string;
        };
        CreatedApiKey: {
            account_id: string;
            /** @description The secret; shown once, stored only as a hash */
            api_key: string;
            created_at: string;
            key_id: string;
            prefix: string;
            revoked_at: string | null;
            /** @enum {string} */
            role: "root" | "admin" | "user";
            user_id: string;
        };
        CreatedApiKeyResponse: {
            result: components["schemas"]["CreatedApiKey"];
            /** @enum {string} */
            status: "ok";
            telemetry?: components["schemas"]["Telemetry"];
            /** @description Server time spent, seconds */
            time: number;
        };
        DeleteSkillResponse: {
            result: components["schemas"]["DeleteSkillResult"];
            /** @enum {string} */
            status: "ok";
            telemetry?: components["schemas"]["Telemetry"];
            /** @description Server time spent, seconds */
            time: number;
        };
        DeleteSkillResult: {
            estimated_deleted_count: number;
            name: string;
            privacy_deleted: boolean;
            root_uri: string;
            uri: string;
        };
        ErrorBody: {
            code: components["schemas"]["ErrorCode"];
            details?: {
                [key: string]: unknown;
            };
            message: string;
        };
        /** @enum {string} */
        ErrorCode: "INVALID_ARGUMENT" | "INVALID_URI" | "SKILL_INVALID" | "UNAUTHENTICATED" | "PERMISSION_DENIED" | "NOT_FOUND" | "CONFLICT" | "PAYLOAD_TOO_LARGE" | "RESOURCE_EXHAUSTED" | "INTERNAL" | "PROCESSING_ERROR" | "UNAVAILABLE" | "DEADLINE_EXCEEDED";
        ErrorEnvelope: {
            error: components["schemas"]["ErrorBody"];
            /** @enum {string} */
            status: "error";
            /** @description Server time spent, seconds */
            time: number;
        };
        FindSkillItem: {
            allowed_tools: string[];
            description: string;
            level: number;
            match_reason: string;
            name: string;
            revision: string;
            root_uri: string;
            score: number;
            skill_md_uri: string;
            tags: string[];
            /** @enum {string} */
            type: "skill";
            /** @description ISO 8601 */
            updated_at: string;
            uri: string;
        };
        FindSkillsRequest: {
            level?: number | number[] | null | false;
            /** @description Default 10 */
            limit?: number | null | false;
            query: string;
            score_threshold?: number | null | false;
            target_uri?: string | null | false;
            /** @description Ask for `telemetry` in the response; `{summary: true}` adds a summary */
            telemetry?: boolean | {
                summary?: boolean | null;
            } | null;
        };
        FindSkillsResponse: {
            result: components["schemas"]["FindSkillsResult"];
            /** @enum {string} */
            status: "ok";
            telemetry?: components["schemas"]["Telemetry"];
            /** @description Server time spent, seconds */
            time: number;
        };
        FindSkillsResult: {
            query: string;
            root_uris: string[];
            skills: components["schemas"]["FindSkillItem"][];
            total: number;
        };
        GetSkillResponse: {
            result: components["schemas"]["GetSkillResult"];
            /** @enum {string} */
            status: "ok";
            telemetry?: components["schemas"]["Telemetry"];
            /** @description Server time spent, seconds */
            time: number;
        };
        GetSkillResult: {
            abstract?: string;
            allowed_tools: string[];
            content?: string;
            content_sha256?: string;
            created_at: string;
            description: string;
            files?: components["schemas"]["SkillFile"][];
            frontmatter: {
                [key: string]: unknown;
            };
            level?: number;
            name: string;
            overview?: string;
            revision: string;
            root_uri: string;
            skill_md_uri: string;
            source?: {
                [key: string]: unknown;
            } | null;
            tags: string[];
            updated_at: string;
            uri: string;
        };
        HealthResult: {
            account_id?: string;
            /** @enum {string} */
            auth_mode: "dev" | "api_key";
            healthy: boolean;
            /** @enum {string} */
            role?: "root" | "admin" | "user";
            /** @enum {string} */
            status: "ok";
            user_id?: string;
            version: string;
        };
        ListAccountsResponse: {
            result: components["schemas"]["ListAccountsResult"];
            /** @enum {string} */
            status: "ok";
            telemetry?: components["schemas"]["Telemetry"];
            /** @description Server time spent, seconds */
            time: number;
        };
        ListAccountsResult: {
            accounts: string[];
        };
        ListApiKeysResponse: {
            result: components["schemas"]["ListApiKeysResult"];
            /** @enum {string} */
            status: "ok";
            telemetry?: components["schemas"]["Telemetry"];
            /** @description Server time spent, seconds */
            time: number;
        };
        ListApiKeysResult: {
            keys: components["schemas"]["ApiKeyInfo"][];
        };
        ListSkillsResponse: {
            result: components["schemas"]["ListSkillsResult"];
            /** @enum {string} */
            status: "ok";
            telemetry?: components["schemas"]["Telemetry"];
            /** @description Server time spent, seconds */
            time: number;
        };
        ListSkillsResult: {
            root_uri?: string;
            root_uris?: string[];
            skills: components["schemas"]["SkillListItem"][];
            total: number;
        };
        ListUsersResponse: {
            result: components["schemas"]["ListUsersResult"];
            /** @enum {string} */
            status: "ok";
            telemetry?: components["schemas"]["Telemetry"];
            /** @description Server time spent, seconds */
            time: number;
        };
        ListUsersResult: {
            account_id: string;
            users: string[];
        };
        QueueResponse: {
            result: components["schemas"]["QueueStatus"];
            /** @enum {string} */
            status: "ok";
            telemetry?: components["schemas"]["Telemetry"];
            /** @description Server time spent, seconds */
            time: number;
        };
        QueueStatus: {
            completed: number;
            failed: number;
            pending: number;
            processing: number;
        };
        RevokeApiKeyResponse: {
            result: components["schemas"]["RevokeApiKeyResult"];
            /** @enum {string} */
            status: "ok";
            telemetry?: components["schemas"]["Telemetry"];
            /** @description Server time spent, seconds */
            time: number;
        };
        RevokeApiKeyResult: {
            key_id: string;
            revoked: boolean;
        };
        /** @description SKILL.md text; or an MCP tool object (has `inputSchema`); or a structured skill `{name, description?, content?, tags?, allowed_tools?, …}` (extra keys become frontmatter) */
        SkillData: string | {
            [key: string]: unknown;
        };
        SkillFile: {
            is_dir: boolean;
            /** @enum {string} */
            kind: "definition" | "summary" | "auxiliary" | "directory";
            name: string;
            path: string;
            sha256: string | null;
            size: number;
            uri: string;
        };
        SkillIssue: {
            column?: number;
            field: string | null;
            fix?: string;
            line?: number;
            message: string;
            rule: string;
            /** @enum {string} */
            severity?: "error" | "warning";
        };
        SkillListItem: {
            allowed_tools: string[];
            description: string;
            level: number;
            name: string;
            revision: string;
            root_uri: string;
            skill_md_uri: string;
            tags: string[];
            /** @enum {string} */
            type: "skill";
            /** @description ISO 8601 */
            updated_at: string;
            uri: string;
        };
        SkillWriteResult: {
            /** @enum {string} */
            action?: "add" | "update";
            auxiliary_files: number;
            name: string;
            queue_status?: components["schemas"]["QueueStatus"];
            revision: string;
            root_uri: string;
            /** @enum {string} */
            status: "success";
            task_id?: string;
            uri: string;
            warnings: components["schemas"]["SkillIssue"][];
        };
        TaskResponse: {
            result: components["schemas"]["TaskResult"];
            /** @enum {string} */
            status: "ok";
            telemetry?: components["schemas"]["Telemetry"];
            /** @description Server time spent, seconds */
            time: number;
        };
        TaskResult: {
            created_at: string;
            error?: string;
            result?: {
                [key: string]: unknown;
            };
            /** @enum {string} */
            status: "pending" | "running" | "completed" | "failed";
            task_id: string;
            /** @enum {string} */
            task_type: "add_skill" | "update_skill";
            updated_at: string;
        };
        Telemetry: {
            /** @description UUID of this operation */
            operation_id: string;
            summary?: {
                duration_ms: number;
                operation: string;
                /** @enum {string} */
                status: "ok" | "error";
            } & {
                [key: string]: unknown;
            };
        };
        TempUploadForm: {
            /**
             * Format: binary
             * @description A zipped skill folder or one SKILL.md
             */
            file?: string;
            /**
             * @description Default `local`
             * @enum {string}
             */
            upload_mode?: "local" | "shared";
        };
        TempUploadResponse: {
            result: components["schemas"]["TempUploadResult"];
            /** @enum {string} */
            status: "ok";
            telemetry?: components["schemas"]["Telemetry"];
            /** @description Server time spent, seconds */
            time: number;
        };
        TempUploadResult: {
            temp_file_id: string;
        };
        UpdateSkillResponse: {
            result: components["schemas"]["SkillWriteResult"];
            /** @enum {string} */
            status: "ok";
            telemetry?: components["schemas"]["Telemetry"];
            /** @description Server time spent, seconds */
            time: number;
        };
        UserResponse: {
            result: components["schemas"]["UserResult"];
            /** @enum {string} */
            status: "ok";
            telemetry?: components["schemas"]["Telemetry"];
            /** @description Server time spent, seconds */
            time: number;
        };
        UserResult: {
            account_id: string;
            user_id: string;
        };
        ValidateSkillRequest: {
            data: components["schemas"]["SkillData"];
            profile?: ("openviking" | "agentskills" | "claude") | null | false;
            skill_dir_name?: string | null | false;
            source_path?: string | null | false;
            strict?: boolean | null | false;
            /** @description Accepted and ignored */
            target_uri?: string | null | false;
            /** @description Ask for `telemetry` in the response; `{summary: true}` adds a summary */
            telemetry?: boolean | {
                summary?: boolean | null;
            } | null;
        };
        ValidateSkillResponse: {
            result: components["schemas"]["ValidateSkillResult"];
            /** @enum {string} */
            status: "ok";
            telemetry?: components["schemas"]["Telemetry"];
            /** @description Server time spent, seconds */
            time: number;
        };
        ValidateSkillResult: {
            allowed_tools: string[];
            body_lines: number;
            description: string | null;
            errors: components["schemas"]["SkillIssue"][];
            name: string | null;
            /** @enum {string} */
            profile: "openviking" | "agentskills" | "claude";
            strict: boolean;
            tags: string[];
            valid: boolean;
            warnings: components["schemas"]["SkillIssue"][];
        };
        WaitRequest: {
            /** @description Ask for `telemetry` in the response; `{summary: true}` adds a summary */
            telemetry?: boolean | {
                summary?: boolean | null;
            } | null;
            /** @description Seconds (0 or absent: the server limit) */
            timeout?: number | null | false;
        };
        WaitResponse: {
            result: components["schemas"]["QueueStatus"];
            /** @enum {string} */
            status: "ok";
            telemetry?: components["schemas"]["Telemetry"];
            /** @description Server time spent, seconds */
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
            /** @description PERMISSION_DENIED */
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
            /** @description RESOURCE_EXHAUSTED: rate limit (see Retry-After) */
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
            /** @description PERMISSION_DENIED */
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
            /** @description RESOURCE_EXHAUSTED: rate limit (see Retry-After) */
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
        };
    };
    adminListKeys: {
        parameters: {
            query?: never;
            header?: never;
            path: {
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
            /** @description PERMISSION_DENIED */
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
            /** @description RESOURCE_EXHAUSTED: rate limit (see Retry-After) */
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
        };
    };
    adminCreateKey: {
        parameters: {
            query?: never;
            header?: never;
            path: {
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
            /** @description PERMISSION_DENIED */
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
            /** @description RESOURCE_EXHAUSTED: rate limit (see Retry-After) */
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
        };
    };
    adminRevokeKey: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                account_id: string;
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
            /** @description PERMISSION_DENIED */
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
            /** @description RESOURCE_EXHAUSTED: rate limit (see Retry-After) */
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
        };
    };
    adminListUsers: {
        parameters: {
            query?: never;
            header?: never;
            path: {
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
            /** @description PERMISSION_DENIED */
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
            /** @description RESOURCE_EXHAUSTED: rate limit (see Retry-After) */
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
        };
    };
    adminCreateUser: {
        parameters: {
            query?: never;
            header?: never;
            path: {
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
            /** @description PERMISSION_DENIED */
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
            /** @description RESOURCE_EXHAUSTED: rate limit (see Retry-After) */
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
            /** @description PERMISSION_DENIED */
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
            /** @description RESOURCE_EXHAUSTED: rate limit (see Retry-After) */
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
            /** @description PERMISSION_DENIED */
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
            /** @description RESOURCE_EXHAUSTED: rate limit (see Retry-After) */
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
        };
    };
    listSkills: {
        parameters: {
            query?: {
                node_limit?: string;
                target_uri?: string;
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
            /** @description PERMISSION_DENIED */
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
            /** @description RESOURCE_EXHAUSTED: rate limit (see Retry-After) */
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
        };
    };
    addSkill: {
        parameters: {
            query?: never;
            header?: never;
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
            /** @description PERMISSION_DENIED */
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
            /** @description RESOURCE_EXHAUSTED: rate limit (see Retry-After) */
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
            /** @description DEADLINE_EXCEEDED: `wait` timed out */
            504: {
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
            /** @description PERMISSION_DENIED */
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
            /** @description RESOURCE_EXHAUSTED: rate limit (see Retry-After) */
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
            /** @description PERMISSION_DENIED */
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
            /** @description RESOURCE_EXHAUSTED: rate limit (see Retry-After) */
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
        };
    };
    getSkill: {
        parameters: {
            query?: {
                level?: "0" | "1" | "2" | "null" | "";
                include_content?: "0" | "1" | "true" | "false" | "True" | "False";
                include_files?: "0" | "1" | "true" | "false" | "True" | "False";
                include_integrity?: "0" | "1" | "true" | "false" | "True" | "False";
                include_source?: "0" | "1" | "true" | "false" | "True" | "False";
                target_uri?: string;
            };
            header?: never;
            path: {
                /** @description Skill name: 1–64 of [A-Za-z0-9_-] */
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
            /** @description PERMISSION_DENIED */
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
            /** @description RESOURCE_EXHAUSTED: rate limit (see Retry-After) */
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
        };
    };
    updateSkill: {
        parameters: {
            query?: never;
            header?: {
                /** @description Expected current revision (stale → 412) */
                "if-match"?: string;
            };
            path: {
                /** @description Skill name: 1–64 of [A-Za-z0-9_-] */
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
            /** @description PERMISSION_DENIED */
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
            /** @description RESOURCE_EXHAUSTED: rate limit (see Retry-After) */
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
            /** @description DEADLINE_EXCEEDED: `wait` timed out */
            504: {
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
                target_uri?: string;
            };
            header?: never;
            path: {
                /** @description Skill name: 1–64 of [A-Za-z0-9_-] */
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
            /** @description PERMISSION_DENIED */
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
            /** @description RESOURCE_EXHAUSTED: rate limit (see Retry-After) */
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
            /** @description PERMISSION_DENIED */
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
            /** @description RESOURCE_EXHAUSTED: rate limit (see Retry-After) */
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
            /** @description DEADLINE_EXCEEDED: `wait` timed out */
            504: {
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
            /** @description PERMISSION_DENIED */
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
            /** @description RESOURCE_EXHAUSTED: rate limit (see Retry-After) */
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
        };
    };
}
