// Generated file: do not edit by hand.
// Source: a draft of spec/openapi.json (the Skillport HTTP API, built from the server's route schemas).
// Regenerate with: pnpm --filter @skillport/spec generate

export interface paths {
    "/health": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: operations["health"];
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
        get: operations["listSkills"];
        put?: never;
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
        get: operations["getSkill"];
        put: operations["updateSkill"];
        post?: never;
        delete: operations["deleteSkill"];
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
        get: operations["getTask"];
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
        post: operations["waitProcessed"];
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
        get: operations["observeQueue"];
        put?: never;
        post?: never;
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
        get: operations["listKeys"];
        put?: never;
        post: operations["createKey"];
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
        delete: operations["revokeKey"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
}
export type webhooks = Record<string, never>;
export interface components {
    schemas: {
        Telemetry: {
            operation_id: string;
            summary?: {
                [key: string]: unknown;
            };
        };
        ErrorEnvelope: {
            /** @enum {string} */
            status: "error";
            error: {
                code: string;
                message: string;
                details?: {
                    [key: string]: unknown;
                };
            };
            time: number;
        };
        Issue: {
            rule: string;
            /** @enum {string} */
            severity?: "error" | "warning";
            message: string;
            field: string | null;
            line?: number;
            column?: number;
            fix?: string;
        };
        QueueStatus: {
            pending: number;
            processing: number;
            completed: number;
            failed: number;
        };
        TelemetryFlag: (boolean | {
            summary?: boolean;
        }) | null;
        AddSkillRequest: {
            data?: unknown;
            temp_file_id?: string;
            wait?: boolean | null;
            timeout?: number | null;
            target_uri?: string | null;
            telemetry?: components["schemas"]["TelemetryFlag"];
            source_metadata?: {
                [key: string]: unknown;
            } | null;
        };
        AddSkillResult: {
            /** @enum {string} */
            status: "success";
            root_uri: string;
            uri: string;
            name: string;
            auxiliary_files: number;
            revision: string;
            warnings: components["schemas"]["Issue"][];
            queue_status?: components["schemas"]["QueueStatus"];
            task_id?: string;
            /** @enum {string} */
            action?: "add" | "update";
        };
        SkillItem: {
            /** @enum {string} */
            type: "skill";
            name: string;
            uri: string;
            root_uri: string;
            skill_md_uri: string;
            description: string;
            tags: string[];
            allowed_tools: string[];
            level: number;
            revision: string;
            updated_at: string;
        };
        FoundSkill: components["schemas"]["SkillItem"] & {
            score: number;
            match_reason: string;
        };
        ListResult: {
            root_uris?: string[];
            root_uri?: string;
            skills: components["schemas"]["SkillItem"][];
            total: number;
        };
        FindRequest: {
            query: string;
            limit?: number;
            score_threshold?: number | null;
            target_uri?: string | null;
            telemetry?: components["schemas"]["TelemetryFlag"];
            level?: number[] | null;
        };
        FindResult: {
            query: string;
            root_uris: string[];
            skills: components["schemas"]["FoundSkill"][];
            total: number;
        };
        ValidateRequest: {
            data: unknown;
            strict?: boolean | null;
            /** @enum {string} */
            profile?: "openviking" | "agentskills" | "claude";
            skill_dir_name?: string | null;
            source_path?: string | null;
            target_uri?: string | null;
        };
        ValidationResult: {
            valid: boolean;
            strict: boolean;
            profile: string;
            name: string | null;
            description: string | null;
            tags: string[];
            allowed_tools: string[];
            body_lines: number;
            errors: components["schemas"]["Issue"][];
            warnings: components["schemas"]["Issue"][];
        };
        SkillFile: {
            name: string;
            uri: string;
            path: string;
            is_dir: boolean;
            /** @enum {string} */
            kind: "definition" | "summary" | "auxiliary" | "directory";
            size: number;
            sha256: string | null;
        };
        SkillDetail: {
            name: string;
            uri: string;
            root_uri: string;
            skill_md_uri: string;
            description: string;
            tags: string[];
            allowed_tools: string[];
            frontmatter: {
                [key: string]: unknown;
            };
            revision: string;
            created_at: string;
            updated_at: string;
            level?: number;
            abstract?: string;
            overview?: string;
            content?: string;
            content_sha256?: string;
            files?: components["schemas"]["SkillFile"][];
            source?: {
                [key: string]: unknown;
            } | null;
        };
        DeleteResult: {
            name: string;
            uri: string;
            root_uri: string;
            estimated_deleted_count: number;
            privacy_deleted: boolean;
        };
        TempUploadResult: {
            temp_file_id: string;
        };
        Task: {
            task_id: string;
            /** @enum {string} */
            task_type: "add_skill" | "update_skill";
            /** @enum {string} */
            status: "pending" | "running" | "completed" | "failed";
            created_at: string;
            updated_at: string;
            result?: {
                [key: string]: unknown;
            };
            error?: string;
        };
        WaitRequest: {
            timeout?: number | null;
        };
        Health: {
            status: string;
            healthy: boolean;
            version: string;
            auth_mode: string;
            account_id?: string;
            user_id?: string;
            role?: string;
        };
        ApiKey: {
            key_id: string;
            account_id: string;
            user_id: string;
            role: string;
            prefix: string;
            created_at: string;
            revoked_at: string | null;
        };
        CreateKeyRequest: {
            user_id: string;
            /** @enum {string} */
            role?: "admin" | "user";
        };
        CreatedKey: components["schemas"]["ApiKey"] & {
            api_key: string;
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
    health: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description ok */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Health"];
                };
            };
            /** @description error */
            default: {
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
                "multipart/form-data": {
                    /** Format: binary */
                    file: string;
                    /** @enum {string} */
                    upload_mode?: "local" | "shared";
                };
            };
        };
        responses: {
            /** @description ok */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        status: "ok";
                        result: components["schemas"]["TempUploadResult"];
                        telemetry?: components["schemas"]["Telemetry"];
                        time: number;
                    };
                };
            };
            /** @description error */
            default: {
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
                node_limit?: number;
                target_uri?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description ok */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        status: "ok";
                        result: components["schemas"]["ListResult"];
                        telemetry?: components["schemas"]["Telemetry"];
                        time: number;
                    };
                };
            };
            /** @description error */
            default: {
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
            /** @description ok */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        status: "ok";
                        result: components["schemas"]["AddSkillResult"];
                        telemetry?: components["schemas"]["Telemetry"];
                        time: number;
                    };
                };
            };
            /** @description error */
            default: {
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
                "application/json": components["schemas"]["FindRequest"];
            };
        };
        responses: {
            /** @description ok */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        status: "ok";
                        result: components["schemas"]["FindResult"];
                        telemetry?: components["schemas"]["Telemetry"];
                        time: number;
                    };
                };
            };
            /** @description error */
            default: {
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
                "application/json": components["schemas"]["ValidateRequest"];
            };
        };
        responses: {
            /** @description ok */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        status: "ok";
                        result: components["schemas"]["ValidationResult"];
                        telemetry?: components["schemas"]["Telemetry"];
                        time: number;
                    };
                };
            };
            /** @description error */
            default: {
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
                level?: number;
                include_content?: boolean;
                include_files?: boolean;
                include_integrity?: boolean;
                include_source?: boolean;
                target_uri?: string;
            };
            header?: never;
            path: {
                name: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description ok */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        status: "ok";
                        result: components["schemas"]["SkillDetail"];
                        telemetry?: components["schemas"]["Telemetry"];
                        time: number;
                    };
                };
            };
            /** @description error */
            default: {
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
            header?: never;
            path: {
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
            /** @description ok */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        status: "ok";
                        result: components["schemas"]["AddSkillResult"];
                        telemetry?: components["schemas"]["Telemetry"];
                        time: number;
                    };
                };
            };
            /** @description error */
            default: {
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
                name: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description ok */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        status: "ok";
                        result: components["schemas"]["DeleteResult"];
                        telemetry?: components["schemas"]["Telemetry"];
                        time: number;
                    };
                };
            };
            /** @description error */
            default: {
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
            /** @description ok */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        status: "ok";
                        result: components["schemas"]["Task"];
                        telemetry?: components["schemas"]["Telemetry"];
                        time: number;
                    };
                };
            };
            /** @description error */
            default: {
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
        requestBody: {
            content: {
                "application/json": components["schemas"]["WaitRequest"];
            };
        };
        responses: {
            /** @description ok */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        status: "ok";
                        result: components["schemas"]["QueueStatus"];
                        telemetry?: components["schemas"]["Telemetry"];
                        time: number;
                    };
                };
            };
            /** @description error */
            default: {
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
            /** @description ok */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        status: "ok";
                        result: components["schemas"]["QueueStatus"];
                        telemetry?: components["schemas"]["Telemetry"];
                        time: number;
                    };
                };
            };
            /** @description error */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    listKeys: {
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
            /** @description ok */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        status: "ok";
                        result: {
                            keys: components["schemas"]["ApiKey"][];
                        };
                        telemetry?: components["schemas"]["Telemetry"];
                        time: number;
                    };
                };
            };
            /** @description error */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    createKey: {
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
                "application/json": components["schemas"]["CreateKeyRequest"];
            };
        };
        responses: {
            /** @description ok */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        status: "ok";
                        result: components["schemas"]["CreatedKey"];
                        telemetry?: components["schemas"]["Telemetry"];
                        time: number;
                    };
                };
            };
            /** @description error */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    revokeKey: {
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
            /** @description ok */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        status: "ok";
                        result: {
                            key_id: string;
                            revoked: boolean;
                        };
                        telemetry?: components["schemas"]["Telemetry"];
                        time: number;
                    };
                };
            };
            /** @description error */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
}
