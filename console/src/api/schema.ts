// Generated from the served OpenAPI document (GET /api/openapi.json) by openapi-typescript:
// do not edit. After a change of the API: npm run console:api
export interface paths {
    "/api/health": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Liveness and readiness */
        get: operations["getHealth"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/health/ready": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Readiness for load balancers */
        get: operations["getReadiness"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/me": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The organization and key (or session user) behind the request (extension) */
        get: operations["getAccount"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/api-keys": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The organization's keys that are not revoked (never the key itself) */
        get: operations["listKeys"];
        put?: never;
        /** Make an API key, with scopes, agents and limits (the key is shown once) */
        post: operations["createKey"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/api-keys/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /** Revoke a key: every process refuses it at once */
        delete: operations["revokeKey"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/auth/login": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Sign in with e-mail and password; sets the agentdesk_session cookie */
        post: operations["login"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/auth/logout": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** End the session (everywhere at once) and clear its cookie */
        post: operations["logout"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/auth/session": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The signed-in user, their organizations and the active one */
        get: operations["getSession"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        /** Choose the organization requests act in when they send no X-Organization-Id */
        patch: operations["switchOrganization"];
        trace?: never;
    };
    "/api/auth/setup": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Make the first owner with the one-time setup link's token */
        post: operations["setupFirstOwner"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/auth/password-reset": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Mail a password reset link (the same answer whether the e-mail is known or not) */
        post: operations["requestPasswordReset"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/auth/password-reset/{token}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Set a new password with a reset link (once, within the hour); ends every session */
        post: operations["resetPassword"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/auth/providers": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The ways to sign in here: whether single sign-on (OIDC) is on */
        get: operations["listSignInProviders"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/auth/oidc/login": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Start single sign-on: redirects the browser to the OpenID provider */
        get: operations["startOidcLogin"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/auth/oidc/callback": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Where the OpenID provider sends the browser back: signs in and redirects to /console */
        get: operations["finishOidcLogin"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/audit-events": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The organization's security events, newest first */
        get: operations["listAuditEvents"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/organizations/{id}/members": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The organization's members with their roles, oldest first */
        get: operations["listMembers"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/organizations/{id}/members/{userId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /** Remove a member (an owner or admin may remove themselves: leave) */
        delete: operations["removeMember"];
        options?: never;
        head?: never;
        /** Change a member's role; only an owner may give or take the owner role */
        patch: operations["changeMemberRole"];
        trace?: never;
    };
    "/api/organizations/{id}/invitations": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The organization's pending invitations, newest first (never their links) */
        get: operations["listInvitations"];
        put?: never;
        /** Invite someone by e-mail (mailed when SMTP_URL is set; 7 days, single use) */
        post: operations["inviteMember"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/organizations/{id}/invitations/{invitationId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /** Revoke a pending invitation: its link stops working */
        delete: operations["revokeInvitation"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/auth/invitations/{token}/accept": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Join the organization of an invitation: signed in as its e-mail, with that account's password, or as a new account */
        post: operations["acceptInvitation"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/organizations/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The organization's name and conversation retention (any member) */
        get: operations["getOwnOrganization"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        /** Rename the organization or change how long its conversations are kept (owners and admins) */
        patch: operations["updateOwnOrganization"];
        trace?: never;
    };
    "/api/organizations": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Make an organization whose owner is the signed-in user (active if the session had none) */
        post: operations["createOwnOrganization"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/auth/signup": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** With SIGNUP=open: make an account and its own organization, signed in (sets the cookie) */
        post: operations["signUp"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/consumption-events": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List consumption events, newest first by default */
        get: operations["listConsumptionEvents"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/consumption-events/summary": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Credits, tokens and event counts grouped by an entity or a UTC period */
        get: operations["getConsumptionSummary"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/credits/balance": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Credit balance, canRun and blockReason (403 text/plain Forbidden without a key) */
        get: operations["getCreditBalance"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/usage/increment-agent-queries": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Record credit spend; 402 when the organization cannot run */
        post: operations["incrementAgentQueries"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/annotations": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List annotations, newest first, 20 per page
         * @description Pass the id of the last item as `cursor` for the next page. The `x-next-cursor` response header (extension) carries it when another page exists.
         */
        get: operations["listAnnotations"];
        put?: never;
        /** Create or update the annotation of an agent message (upsert by messageId) */
        post: operations["upsertAnnotation"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/annotations/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** One annotation with its message and the whole conversation */
        get: operations["getAnnotation"];
        put?: never;
        post?: never;
        /** Delete an annotation */
        delete: operations["deleteAnnotation"];
        options?: never;
        head?: never;
        /** Change the status of an annotation */
        patch: operations["updateAnnotationStatus"];
        trace?: never;
    };
    "/api/annotation-statuses": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The statuses annotations of this organization may take (extension) */
        get: operations["getAnnotationStatuses"];
        /** Replace the statuses annotations of this organization may take (extension) */
        put: operations["setAnnotationStatuses"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/annotation-tags": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The organization's annotation tags, by name */
        get: operations["listAnnotationTags"];
        put?: never;
        /** Create an annotation tag; names are unique per organization in any case */
        post: operations["createAnnotationTag"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/datastores": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List datastores */
        get: operations["listDatastores"];
        put?: never;
        /** Create a datastore */
        post: operations["createDatastore"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/datastores/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Get a datastore */
        get: operations["getDatastore"];
        put?: never;
        post?: never;
        /** Delete a datastore with its datasources, chunks and queued jobs */
        delete: operations["deleteDatastore"];
        options?: never;
        head?: never;
        /** Update a datastore (name, description, type; visibility and embedder as extensions) */
        patch: operations["updateDatastore"];
        trace?: never;
    };
    "/api/datastores/{id}/query": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Retrieve the most similar fragments (public datastores need no key) */
        post: operations["queryDatastore"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/datasources/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Get a datasource with its status and error message */
        get: operations["getDatasource"];
        put?: never;
        post?: never;
        /** Delete a datasource, its chunks, queued jobs and (for a web_site) its pages */
        delete: operations["deleteDatasource"];
        options?: never;
        head?: never;
        /** Set or remove the re-sync schedule of a web_page or web_site */
        patch: operations["updateDatasource"];
        trace?: never;
    };
    "/api/datasources/{id}/synch": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Sync a datasource again (a web_site re-lists its pages and drops vanished ones) */
        post: operations["syncDatasource"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/datastores/{id}/datasources": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List the datasources of a datastore (web_site pages carry the site's id in groupId) */
        get: operations["listDatasources"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/datastores/update/{datastoreId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Replace the text of a datasource and re-index it (deprecated)
         * @deprecated
         */
        post: operations["updateDatasourceText"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/agents": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List the agents of the organization */
        get: operations["listAgents"];
        put?: never;
        /** Create an agent */
        post: operations["createAgent"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/agents/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** One agent */
        get: operations["getAgent"];
        put?: never;
        post?: never;
        /** Delete an agent with its conversations; returns what was deleted */
        delete: operations["deleteAgent"];
        options?: never;
        head?: never;
        /** Change some fields of an agent */
        patch: operations["updateAgent"];
        trace?: never;
    };
    "/api/agents/{id}/versions": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The versions of an agent, newest first */
        get: operations["listAgentVersions"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/agents/{id}/versions/{version}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** One version of an agent */
        get: operations["getAgentVersion"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/agents/{id}/versions/{version}/restore": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Give the agent a version's fields again; this makes a new version */
        post: operations["restoreAgentVersion"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/agents/{id}/query": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Send a user message to an agent (JSON, or Server-Sent Events with streaming) */
        post: operations["queryAgent"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/agents/{id}/query-agent": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Append an agent-authored message to a conversation (no AI answer) */
        post: operations["postAgentMessage"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/agents/{id}/conversations-export": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** CSV export of an agent's conversation messages */
        get: operations["exportConversations"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/conversations": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Conversations of the organization, newest first, filtered, with their last message
         * @description The inbox: every filter given must hold. `nextCursor` is null on the last page. A conversation that moves in the order while a client pages (sort=lastActivity) shows up again at the top of a new first page.
         */
        get: operations["listConversations"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/conversations/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** One conversation with its messages in the order they were written */
        get: operations["getConversation"];
        put?: never;
        post?: never;
        /** Erase a conversation: its messages, annotations and webhook records; its consumption events are kept without the conversation (docs/retention.md) */
        delete: operations["deleteConversation"];
        options?: never;
        head?: never;
        /**
         * Take over a conversation, hand it back to the AI, resolve or assign it
         * @description aiEnabled false (taking over) sets HUMAN_REQUESTED; RESOLVED turns aiEnabled back on unless the body says otherwise; assigneeId names a member, null unassigns.
         */
        patch: operations["updateConversation"];
        trace?: never;
    };
    "/api/contacts/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /** Erase a contact and every conversation linked to it; consumption events are kept without them (docs/retention.md) */
        delete: operations["deleteContact"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/events": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The organization's live events: messages and conversation changes (SSE)
         * @description A text/event-stream that does not end: one frame per event, `event: <name>`, `id: <id>` and `data: <JSON>` whose `conversationId` and `agentId` name the conversation. Send the last id received as Last-Event-ID (or `lastEventId`) to resume after it: events are kept an hour. Lines starting with `:` are keep-alive comments. Events: message.created, conversation.updated, conversation.human_requested. A key scoped to agents gets only their events.
         */
        get: operations["streamEvents"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/datasources": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Create a datasource: a file (multipart/form-data) or a web page / web site (JSON)
         * @description multipart/form-data fields: file (required), type=file, datastoreId, fileName, custom_id. JSON: {datastoreId, type: web_page|web_site, name, config: {source_url} | {sitemap, source_url}, syncSchedule: hourly|daily|weekly|null}.
         */
        post: operations["createDatasource"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/transcribe-audio": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Transcribe a short audio file for a public agent
         * @description multipart/form-data with `file` (audio/wav, audio/webm or Ogg Opus audio/ogg, recognised from its own bytes) and `agentId` (a public agent). No API key: the agent's organization is charged per second of audio. Rate limited per client IP.
         */
        post: operations["transcribeAudio"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/public/agents/{agentId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** What a site visitor may see of a public agent (no API key) */
        get: operations["getPublicAgent"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/public/agents/{agentId}/chat": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * A site visitor asks a public agent (no API key; JSON, or SSE with streaming)
         * @description The query endpoint's answer and stream, charged to the agent's organization, on the website channel. Rate limited per visitorId and per client IP.
         */
        post: operations["publicChat"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/public/agents/{agentId}/conversations/{conversationId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** A visitor's own conversation with a public agent, oldest message first */
        get: operations["getPublicConversation"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/public/agents/{agentId}/conversations/{conversationId}/events": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * A visitor's conversation as it happens: new messages and changes (SSE)
         * @description A text/event-stream that does not end: one frame per event, `event: <name>`, `id: <id>` and `data: <JSON>` whose `conversationId` and `agentId` name the conversation. Send the last id received as Last-Event-ID (or `lastEventId`) to resume after it: events are kept an hour. Lines starting with `:` are keep-alive comments. Events: message.created (data.message: id, from, text, createdAt, operator: {name} or null) and conversation.updated (status, aiEnabled).
         */
        get: operations["streamPublicConversationEvents"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/public/agents/{agentId}/conversations/{conversationId}/messages/{messageId}/annotation": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * A visitor marks an answer helpful or not (the spec's annotation, no API key)
         * @description Creates or replaces the annotation of an answer of the agent, in a conversation this visitor started here, as POST /api/annotations does for a public agent.
         */
        post: operations["annotatePublicAnswer"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/public/agents/{agentId}/transcribe-audio": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * A visitor's voice message as text (POST /api/transcribe-audio, no API key)
         * @description multipart/form-data with `file` (audio/wav, audio/webm or Ogg Opus audio/ogg); the agent is the one of the path. Charged to the agent's organization per second of audio.
         */
        post: operations["transcribePublicAudio"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/conversations/{id}/webhook-deliveries": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Webhook deliveries of a conversation (conversational mode), oldest first */
        get: operations["listWebhookDeliveries"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/agents/{id}/follow-up/query": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Preview the follow-up message an agent would send to a quiet conversation */
        post: operations["queryFollowUp"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/conversations/{id}/messages": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * An operator's reply, sent through the conversation's channel
         * @description Stored as an agent message with the operator as `user`; the AI stops answering in the conversation (aiEnabled false). `delivery` follows the channel's send.
         */
        post: operations["replyToConversation"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/event-subscriptions": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The organization's event subscriptions, newest first */
        get: operations["listEventSubscriptions"];
        put?: never;
        /**
         * Send the organization's events to a URL
         * @description Each event is POSTed as JSON `{event, createdAt, agentId?, conversationId?, data}` with `X-Service-Event` (its name), `X-Service-Delivery`, and when WEBHOOK_SIGNING_SECRET is set `X-Service-Timestamp` and `X-Service-Signature`, retried like the agents' webhooks.
         */
        post: operations["createEventSubscription"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/event-subscriptions/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** One subscription with its latest 20 deliveries */
        get: operations["getEventSubscription"];
        put?: never;
        post?: never;
        /** Stop sending events to this URL (retries still pending are dropped) */
        delete: operations["deleteEventSubscription"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/eval-sets": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The organization's eval sets, newest first */
        get: operations["listEvalSets"];
        put?: never;
        /** Create an eval set: the regression cases of one agent */
        post: operations["createEvalSet"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/eval-sets/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** One eval set */
        get: operations["getEvalSet"];
        put?: never;
        post?: never;
        /** Delete an eval set with its cases and runs */
        delete: operations["deleteEvalSet"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/eval-sets/{id}/cases": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The set's cases, in the order they were added */
        get: operations["listEvalCases"];
        put?: never;
        /** Add a case: a question and what its answer must (not) say or cite */
        post: operations["createEvalCase"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/eval-sets/{id}/cases/{caseId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /** Delete a case (runs that replayed it keep its result) */
        delete: operations["deleteEvalCase"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/eval-sets/{id}/import": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Make cases of the agent's annotated answers
         * @description A `bad` annotation's comment becomes the case's expectedAnswer; a `good` one pins the approved answer as expectedAnswer and its sources as expectedSources. The question is the customer's message before the answer, the history what came before. An annotation is imported into a set once; `skipped` counts those that made no case (a bad one without comment, no customer message, no room left in the set).
         */
        post: operations["importEvalCases"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/eval-runs": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The latest 100 runs, newest first, with their summaries */
        get: operations["listEvalRuns"];
        put?: never;
        /**
         * Replay an eval set's cases and check the answers, in the background
         * @description Each case is answered through the agent's answer pipeline (the version and overrides asked for), never stored as a conversation, charged as feature `evaluation`. Poll GET /api/eval-runs/{id} for progress and results.
         */
        post: operations["startEvalRun"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/eval-runs/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** A run: its status, summary and the results of the cases done so far */
        get: operations["getEvalRun"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/eval-runs/{id}/comparison": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The run beside an earlier run of the same set, case by case */
        get: operations["compareEvalRuns"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/agents/{agentId}/channels": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The agent's channels */
        get: operations["listChannels"];
        put?: never;
        /** Connect the agent to a messaging platform */
        post: operations["createChannel"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/channels/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** One channel, with its status, last error and last event */
        get: operations["getChannel"];
        put?: never;
        post?: never;
        /** Delete a channel and remove its webhook from the platform */
        delete: operations["deleteChannel"];
        options?: never;
        head?: never;
        /** Rename, enable or disable a channel, or change its settings */
        patch: operations["updateChannel"];
        trace?: never;
    };
    "/channels/{type}/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The platform's webhook verification (WhatsApp: hub.mode, hub.challenge) */
        get: operations["verifyChannelWebhook"];
        put?: never;
        /** Events from the platform, signed as the platform signs them (raw body) */
        post: operations["receiveChannelEvent"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/models": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The organization's agents as OpenAI models */
        get: operations["listModels"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/models/{model}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** One agent as an OpenAI model, by id or handle */
        get: operations["getModel"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/chat/completions": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Ask an agent, as an OpenAI chat completion (JSON or Server-Sent Events) */
        post: operations["createChatCompletion"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/responses": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Ask an agent, as an OpenAI Responses API response (JSON or Server-Sent Events) */
        post: operations["createResponse"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/mcp": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Model Context Protocol server (Streamable HTTP): list_agents, query_agent, …
         * @description A Model Context Protocol server (Streamable HTTP transport, stateless: no session id, every POST stands alone, responses as application/json). Send JSON-RPC messages with `Accept: application/json, text/event-stream`; any MCP client does. Tools: `list_agents` (id, name, description), `query_agent` (agentId, query, optional conversationId: the answer, charged and stored like POST /api/agents/{id}/query), `search_datastore` (datastoreId, query, optional topK: the passages and their sources, like POST /api/datastores/{id}/query). Unknown ids, a usage limit or a provider failure are tool results with `isError: true`. A notification alone is answered 202 with no body; a request without both accepted media types 406 with a JSON-RPC error.
         */
        post: operations["mcp"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/admin/organizations": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List organizations, newest first */
        get: operations["listOrganizations"];
        put?: never;
        /** Create an organization with its owner and a first API key */
        post: operations["createOrganization"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/admin/organizations/{id}/api-keys": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List an organization's API keys (never the keys themselves) */
        get: operations["listApiKeys"];
        put?: never;
        /** Issue another API key (shown once) */
        post: operations["issueApiKey"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/admin/leads": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List stored leads, newest first */
        get: operations["listLeads"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/admin/leads/export": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Every lead the filters select as CSV, newest first, streamed */
        get: operations["exportLeads"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/admin/leads/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /** Delete a lead */
        delete: operations["deleteLead"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/admin/organizations/{id}/api-keys/{keyId}": {
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
        delete: operations["revokeApiKey"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/admin/organizations/{id}/credits": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Grant a bucket of credits */
        post: operations["grantCredits"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/admin/organizations/{id}/billing": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        /** Change billing model, plan, subscription status or query limit */
        patch: operations["updateBilling"];
        trace?: never;
    };
    "/api/admin/organizations/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        /** Change an organization's settings: how long its conversations are kept */
        patch: operations["updateOrganization"];
        trace?: never;
    };
    "/api/admin/retention/run": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Run the daily retention sweep now and wait for it: erases the conversations idle longer than their organization's conversationRetentionDays */
        post: operations["runRetention"];
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
        Error: {
            /** @description What went wrong, safe to show */
            error: string;
            /** @enum {string} */
            type: "INVALID_REQUEST" | "UNAUTHORIZED" | "USAGE_LIMIT" | "FORBIDDEN" | "NOT_FOUND" | "CONVERSATION_NOT_FOUND" | "METHOD_NOT_ALLOWED" | "CONFLICT" | "PAYLOAD_TOO_LARGE" | "UNSUPPORTED_MEDIA_TYPE" | "RATE_LIMITED" | "INTERNAL" | "BAD_GATEWAY" | "SERVICE_UNAVAILABLE";
            /** @description The request's id, also in the x-request-id header and the logs */
            requestId: string;
            /** @description Each invalid field of a 400 */
            details?: {
                path: string;
                message: string;
            }[];
        };
        OpenAIError: {
            error: {
                /** @description What went wrong, safe to show */
                message: string;
                /** @description invalid_request_error, insufficient_quota, server_error… */
                type: string;
                /** @description The request field at fault, when one is */
                param: string | null;
                /** @description model_not_found, invalid_api_key…, or null */
                code: string | null;
            };
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
    getHealth: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        status: "ok";
                    };
                };
            };
            /** @description Unexpected failure; the body carries the request id to find it in the logs */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not ready: the database does not answer, or the worker is down */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getReadiness: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Readiness, with the state of each part */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        status: "ok" | "unavailable";
                        checks: {
                            /**
                             * @description The database answers a query within 2 s
                             * @enum {string}
                             */
                            database: "ok" | "down" | "unknown";
                            /**
                             * @description The database has recorded the latest migration of this build; unknown while it is down
                             * @enum {string}
                             */
                            migrations: "ok" | "down" | "unknown";
                            /**
                             * @description This process's job queue is started and not stopped
                             * @enum {string}
                             */
                            jobs: "ok" | "down" | "unknown";
                            /**
                             * @description Redis answers PING within 2 s; present only where REDIS_URL is set (not on a worker)
                             * @enum {string}
                             */
                            redis?: "ok" | "down" | "unknown";
                        };
                    };
                };
            };
            /** @description Unexpected failure; the body carries the request id to find it in the logs */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Readiness, with the state of each part */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        status: "ok" | "unavailable";
                        checks: {
                            /**
                             * @description The database answers a query within 2 s
                             * @enum {string}
                             */
                            database: "ok" | "down" | "unknown";
                            /**
                             * @description The database has recorded the latest migration of this build; unknown while it is down
                             * @enum {string}
                             */
                            migrations: "ok" | "down" | "unknown";
                            /**
                             * @description This process's job queue is started and not stopped
                             * @enum {string}
                             */
                            jobs: "ok" | "down" | "unknown";
                            /**
                             * @description Redis answers PING within 2 s; present only where REDIS_URL is set (not on a worker)
                             * @enum {string}
                             */
                            redis?: "ok" | "down" | "unknown";
                        };
                    };
                };
            };
        };
    };
    getAccount: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        organization: {
                            id: string;
                            name: string;
                        };
                        userId: string;
                        apiKeyId: string | null;
                    };
                };
            };
            /** @description No valid API key or session */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unexpected failure; the body carries the request id to find it in the logs */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listKeys: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        id: string;
                        name: string;
                        /** @description The key's first characters, to recognise it */
                        prefix: string;
                        /** @description null: every scope */
                        scopes: ("agents:read" | "agents:write" | "query" | "knowledge:read" | "knowledge:write" | "conversations:read" | "conversations:write" | "annotations" | "usage:read" | "channels:write")[] | null;
                        /** @description null: every agent */
                        agentIds: string[] | null;
                        rateLimitPerMinute: number | null;
                        monthlyCreditBudget: number | null;
                        expiresAt: string | null;
                        createdAt: string;
                        lastUsedAt: string | null;
                    }[];
                };
            };
            /** @description No valid API key or session */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The caller's role or key scopes do not allow keys:write, or the key may not use this agent; or The role or the key may not manage keys */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unexpected failure; the body carries the request id to find it in the logs */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    createKey: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    name: string;
                    /** @description What the key may do; absent: everything (as the keys issued with organizations) */
                    scopes?: ("agents:read" | "agents:write" | "query" | "knowledge:read" | "knowledge:write" | "conversations:read" | "conversations:write" | "annotations" | "usage:read" | "channels:write")[];
                    /** @description The only agents the key may use; absent: every agent of the organization */
                    agentIds?: string[];
                    rateLimitPerMinute?: number;
                    /** @description Credits the key may spend per calendar month (UTC); absent: no budget */
                    monthlyCreditBudget?: number;
                    /**
                     * Format: date-time
                     * @description When the key stops working; in the future
                     */
                    expiresAt?: string;
                };
            };
        };
        responses: {
            /** @description Default Response */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        id: string;
                        name: string;
                        /** @description The key's first characters, to recognise it */
                        prefix: string;
                        /** @description null: every scope */
                        scopes: ("agents:read" | "agents:write" | "query" | "knowledge:read" | "knowledge:write" | "conversations:read" | "conversations:write" | "annotations" | "usage:read" | "channels:write")[] | null;
                        /** @description null: every agent */
                        agentIds: string[] | null;
                        rateLimitPerMinute: number | null;
                        monthlyCreditBudget: number | null;
                        expiresAt: string | null;
                        createdAt: string;
                        /** @description The key itself, shown only here */
                        key: string;
                    };
                };
            };
            /** @description Invalid body, an agent that is not the organization's, or a past expiresAt */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No valid API key or session */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The caller's role or key scopes do not allow keys:write, or the key may not use this agent; or The role or the key may not manage keys */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is larger than this endpoint accepts */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body's content type is not one this endpoint reads */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unexpected failure; the body carries the request id to find it in the logs */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    revokeKey: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Revoked */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Invalid request: a parameter or a field of the body is missing, malformed or invalid */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No valid API key or session */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The caller's role or key scopes do not allow keys:write, or the key may not use this agent; or The role or the key may not manage keys */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No key with this id in the organization (or it was already revoked) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unexpected failure; the body carries the request id to find it in the logs */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    login: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    email: string;
                    password: string;
                };
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        user: {
                            id: string;
                            email: string | null;
                            name: string | null;
                        };
                        organizations: {
                            id: string;
                            name: string;
                            /** @enum {string} */
                            role: "owner" | "admin" | "member" | "viewer";
                        }[];
                    };
                };
            };
            /** @description Invalid request: a parameter or a field of the body is missing, malformed or invalid */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The e-mail or the password is wrong (the same answer for both) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is larger than this endpoint accepts */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body's content type is not one this endpoint reads */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description More than 10 failed logins for this e-mail or from this address in 15 minutes */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unexpected failure; the body carries the request id to find it in the logs */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    logout: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Done */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Signed in, but sent from another site's page (Origin) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unexpected failure; the body carries the request id to find it in the logs */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getSession: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        user: {
                            id: string;
                            email: string | null;
                            name: string | null;
                        };
                        organizations: {
                            id: string;
                            name: string;
                            /** @enum {string} */
                            role: "owner" | "admin" | "member" | "viewer";
                        }[];
                        activeOrganizationId: string | null;
                    };
                };
            };
            /** @description Not signed in */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unexpected failure; the body carries the request id to find it in the logs */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    switchOrganization: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    activeOrganizationId: string;
                };
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        user: {
                            id: string;
                            email: string | null;
                            name: string | null;
                        };
                        organizations: {
                            id: string;
                            name: string;
                            /** @enum {string} */
                            role: "owner" | "admin" | "member" | "viewer";
                        }[];
                        activeOrganizationId: string | null;
                    };
                };
            };
            /** @description Invalid request: a parameter or a field of the body is missing, malformed or invalid */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not signed in */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not a member of that organization */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is larger than this endpoint accepts */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body's content type is not one this endpoint reads */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unexpected failure; the body carries the request id to find it in the logs */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    setupFirstOwner: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    token: string;
                    email: string;
                    name: string;
                    password: string;
                };
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        user: {
                            id: string;
                            email: string | null;
                            name: string | null;
                        };
                        organizations: {
                            id: string;
                            name: string;
                            /** @enum {string} */
                            role: "owner" | "admin" | "member" | "viewer";
                        }[];
                    };
                };
            };
            /** @description The token is invalid, used or expired, or the password too short */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is larger than this endpoint accepts */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body's content type is not one this endpoint reads */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unexpected failure; the body carries the request id to find it in the logs */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    requestPasswordReset: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    email: string;
                };
            };
        };
        responses: {
            /** @description Default Response */
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {boolean} */
                        accepted: true;
                    };
                };
            };
            /** @description Invalid request: a parameter or a field of the body is missing, malformed or invalid */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is larger than this endpoint accepts */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body's content type is not one this endpoint reads */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unexpected failure; the body carries the request id to find it in the logs */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description This server sends no e-mail (SMTP_URL is not set) */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    resetPassword: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                token: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    password: string;
                };
            };
        };
        responses: {
            /** @description Done */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description The link is invalid, used or expired, or the password too short */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found in the caller's organization */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is larger than this endpoint accepts */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body's content type is not one this endpoint reads */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unexpected failure; the body carries the request id to find it in the logs */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listSignInProviders: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        sso: {
                            /** @description Whether GET /api/auth/oidc/login starts a sign-in */
                            enabled: boolean;
                        };
                    };
                };
            };
            /** @description Unexpected failure; the body carries the request id to find it in the logs */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    startOidcLogin: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description To the provider's authorization endpoint (Location); sets a short-lived cookie that binds the sign-in to this browser */
            302: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Single sign-on is not configured (OIDC_ISSUER is not set) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unexpected failure; the body carries the request id to find it in the logs */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The OpenID provider could not be reached or did not describe itself */
            502: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    finishOidcLogin: {
        parameters: {
            query?: {
                code?: string;
                state?: string;
                iss?: string;
                error?: string;
                error_description?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Signed in: the agentdesk_session cookie is set; Location is /console */
            302: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Invalid request: a parameter or a field of the body is missing, malformed or invalid */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Refused, as an HTML page that says why: the e-mail is not verified, there is no account or invitation for it, its domain is not allowed, the sign-in expired or was started in another browser, or the provider refused */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "text/html": string;
                };
            };
            /** @description Single sign-on is not configured (OIDC_ISSUER is not set) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unexpected failure; the body carries the request id to find it in the logs */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The OpenID provider could not be reached */
            502: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listAuditEvents: {
        parameters: {
            query?: {
                limit?: number;
                /** @description nextCursor of the previous page */
                cursor?: string;
                action?: string;
                actorId?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: {
                            id: string;
                            /** @description e.g. login.succeeded, member.invited, key.revoked */
                            action: string;
                            actor: {
                                /** @enum {string} */
                                type: "user" | "key" | "admin" | "system";
                                id: string | null;
                                email?: string;
                            };
                            target: {
                                type: string;
                                id: string;
                            } | null;
                            ip: string | null;
                            userAgent: string | null;
                            at: string;
                            /** @description Never a password, token or key */
                            details: {
                                [key: string]: unknown;
                            };
                        }[];
                        nextCursor: string | null;
                    };
                };
            };
            /** @description Invalid query parameters (a bad limit or cursor) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No valid API key or session */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The caller's role or key scopes do not allow audit:read, or the key may not use this agent */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unexpected failure; the body carries the request id to find it in the logs */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listMembers: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: {
                            userId: string;
                            email: string | null;
                            name: string | null;
                            /** @enum {string} */
                            role: "owner" | "admin" | "member" | "viewer";
                            /** @description When the user became a member (ISO 8601) */
                            joinedAt: string;
                        }[];
                    };
                };
            };
            /** @description Invalid request: a parameter or a field of the body is missing, malformed or invalid */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No valid API key or session */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The caller's role or key scopes do not allow members:read, or the key may not use this agent; or Not a member of this organization, or a key of another one */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found in the caller's organization */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unexpected failure; the body carries the request id to find it in the logs */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    removeMember: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
                userId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Removed */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Invalid request: a parameter or a field of the body is missing, malformed or invalid */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No valid API key or session */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The caller's role or key scopes do not allow members:write, or the key may not use this agent; or Removing an owner without being an owner */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The user is not a member of this organization */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The organization's last owner cannot be removed */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unexpected failure; the body carries the request id to find it in the logs */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    changeMemberRole: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
                userId: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @enum {string} */
                    role: "owner" | "admin" | "member" | "viewer";
                };
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        userId: string;
                        email: string | null;
                        name: string | null;
                        /** @enum {string} */
                        role: "owner" | "admin" | "member" | "viewer";
                        /** @description When the user became a member (ISO 8601) */
                        joinedAt: string;
                    };
                };
            };
            /** @description Invalid request: a parameter or a field of the body is missing, malformed or invalid */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No valid API key or session */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The caller's role or key scopes do not allow members:write, or the key may not use this agent; or Giving or taking the owner role without being an owner */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The user is not a member of this organization */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The organization's last owner cannot be demoted */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is larger than this endpoint accepts */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body's content type is not one this endpoint reads */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unexpected failure; the body carries the request id to find it in the logs */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listInvitations: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: {
                            id: string;
                            email: string;
                            /** @enum {string} */
                            role: "owner" | "admin" | "member" | "viewer";
                            /** @description The user who invited; null for the operator */
                            invitedById: string | null;
                            createdAt: string;
                            expiresAt: string;
                        }[];
                    };
                };
            };
            /** @description Invalid request: a parameter or a field of the body is missing, malformed or invalid */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No valid API key or session */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The caller's role or key scopes do not allow members:read, or the key may not use this agent; or Not a member of this organization, or a key of another one */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found in the caller's organization */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unexpected failure; the body carries the request id to find it in the logs */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    inviteMember: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    email: string;
                    /** @enum {string} */
                    role: "owner" | "admin" | "member" | "viewer";
                };
            };
        };
        responses: {
            /** @description Default Response */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        id: string;
                        email: string;
                        /** @enum {string} */
                        role: "owner" | "admin" | "member" | "viewer";
                        /** @description 7 days after now (ISO 8601) */
                        expiresAt: string;
                        /** @description The one-time link to accept; only shown here (and mailed) */
                        acceptUrl: string;
                        /**
                         * @description sent: mailed; failed: the mail server refused it (the invitation stands, pass the link on); disabled: no SMTP_URL
                         * @enum {string}
                         */
                        mail: "sent" | "failed" | "disabled";
                    };
                };
            };
            /** @description Invalid request: a parameter or a field of the body is missing, malformed or invalid */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No valid API key or session */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The caller's role or key scopes do not allow members:write, or the key may not use this agent; or Inviting an owner without being an owner */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found in the caller's organization */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The e-mail is already a member */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is larger than this endpoint accepts */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body's content type is not one this endpoint reads */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unexpected failure; the body carries the request id to find it in the logs */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    revokeInvitation: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
                invitationId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Revoked */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Invalid request: a parameter or a field of the body is missing, malformed or invalid */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No valid API key or session */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The caller's role or key scopes do not allow members:write, or the key may not use this agent */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No pending invitation with this id in this organization */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unexpected failure; the body carries the request id to find it in the logs */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    acceptInvitation: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                token: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description A new account's password (at least 10 characters), or the existing one's */
                    password?: string;
                    /** @description A new account's name */
                    name?: string;
                };
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        user: {
                            id: string;
                            email: string | null;
                            name: string | null;
                        };
                        organizations: {
                            id: string;
                            name: string;
                            /** @enum {string} */
                            role: "owner" | "admin" | "member" | "viewer";
                        }[];
                    };
                };
            };
            /** @description The link is invalid, used, expired or revoked; or a password is missing or too short */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The existing account's password is wrong */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Signed in as another e-mail than the invitation's (or from another site's page) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found in the caller's organization */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description An account with the invitation's e-mail was made meanwhile: sign in first */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is larger than this endpoint accepts */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body's content type is not one this endpoint reads */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description More than 10 failed logins for this e-mail or from this address in 15 minutes */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unexpected failure; the body carries the request id to find it in the logs */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getOwnOrganization: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        id: string;
                        name: string;
                        /** @description Days an idle conversation is kept before the daily sweep erases it; null: forever */
                        conversationRetentionDays: number | null;
                        createdAt: string;
                    };
                };
            };
            /** @description Invalid request: a parameter or a field of the body is missing, malformed or invalid */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No valid API key or session */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The caller's role or key scopes do not allow members:read, or the key may not use this agent; or Not a member of this organization, or a key of another one */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found in the caller's organization */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unexpected failure; the body carries the request id to find it in the logs */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    updateOwnOrganization: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    name?: string;
                    /** @description Conversations idle (no new message) longer than this many days are erased by the daily sweep; null keeps them forever */
                    conversationRetentionDays?: number | null;
                };
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        id: string;
                        name: string;
                        /** @description Days an idle conversation is kept before the daily sweep erases it; null: forever */
                        conversationRetentionDays: number | null;
                        createdAt: string;
                    };
                };
            };
            /** @description An empty or too long name, a retention outside 1 to 36500 days, or nothing to change */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No valid API key or session */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The caller's role or key scopes do not allow settings:write, or the key may not use this agent; or Not an owner or admin of this organization, a key with scopes, or a key of another one */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found in the caller's organization */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is larger than this endpoint accepts */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body's content type is not one this endpoint reads */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unexpected failure; the body carries the request id to find it in the logs */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    createOwnOrganization: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    name: string;
                };
            };
        };
        responses: {
            /** @description Default Response */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        id: string;
                        name: string;
                        /** @enum {string} */
                        role: "owner";
                    };
                };
            };
            /** @description Invalid request: a parameter or a field of the body is missing, malformed or invalid */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not signed in */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is larger than this endpoint accepts */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body's content type is not one this endpoint reads */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unexpected failure; the body carries the request id to find it in the logs */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    signUp: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    email: string;
                    name: string;
                    password: string;
                    /** @description Default: "<name>'s organization" */
                    organizationName?: string;
                };
            };
        };
        responses: {
            /** @description Default Response */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        user: {
                            id: string;
                            email: string | null;
                            name: string | null;
                        };
                        organizations: {
                            id: string;
                            name: string;
                            /** @enum {string} */
                            role: "owner" | "admin" | "member" | "viewer";
                        }[];
                    };
                };
            };
            /** @description The password is shorter than 10 characters */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Sign-up is closed (SIGNUP=invite) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description An account with this e-mail exists */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is larger than this endpoint accepts */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body's content type is not one this endpoint reads */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unexpected failure; the body carries the request id to find it in the logs */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listConsumptionEvents: {
        parameters: {
            query?: {
                /** @description ISO 8601 date or date-time (UTC without an offset), years 1970 to 9999 */
                startDate?: string;
                /** @description ISO 8601 date or date-time (UTC without an offset), years 1970 to 9999 */
                endDate?: string;
                agentId?: string;
                feature?: string;
                provider?: string;
                /** @description Filter by model name */
                model?: string;
                conversationId?: string;
                page?: number;
                limit?: number;
                orderBy?: "occurredAt_asc" | "occurredAt_desc" | "creditsCharged_asc" | "creditsCharged_desc";
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: {
                            id: string;
                            organizationId: string;
                            agentId: string | null;
                            feature: string;
                            provider: string;
                            modelName: string;
                            inputTokens: number;
                            outputTokens: number;
                            units: number | null;
                            creditsCharged: number;
                            creditsChargedRaw: number;
                            billingCoefficient: number;
                            occurredAt: string;
                            metadata: {
                                [key: string]: unknown;
                            };
                            conversationId: string | null;
                            messageId: string | null;
                            agent: {
                                id: string;
                                name: string | null;
                            } | null;
                        }[];
                        pagination: {
                            page: number;
                            limit: number;
                            total: number;
                            totalPages: number;
                        };
                    };
                };
            };
            /** @description Invalid request: a parameter or a field of the body is missing, malformed or invalid */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No valid API key or session */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The caller's role or key scopes do not allow usage:read, or the key may not use this agent */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unexpected failure; the body carries the request id to find it in the logs */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getConsumptionSummary: {
        parameters: {
            query: {
                /** @description ISO 8601 date or date-time (UTC without an offset), years 1970 to 9999 */
                startDate: string;
                /** @description ISO 8601 date or date-time (UTC without an offset), years 1970 to 9999 */
                endDate: string;
                groupBy: "agent" | "feature" | "provider" | "model" | "day" | "week" | "month";
                agentId?: string;
                feature?: string;
                provider?: string;
                /** @description Extension: with groupBy day, week or month, each period is also split by this key (its `stacks`), e.g. credits by day stacked by agent */
                stackBy?: "agent" | "feature" | "provider" | "model";
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        groupBy: string;
                        /**
                         * @description Extension: only when asked for
                         * @enum {string}
                         */
                        stackBy?: "agent" | "feature" | "provider" | "model";
                        startDate: string;
                        endDate: string;
                        data: {
                            groupKey: string | null;
                            /** @description Only when groupBy is agent */
                            agentName?: string | null;
                            totalCreditsCharged: number;
                            totalInputTokens: number;
                            totalOutputTokens: number;
                            eventCount: number;
                            /** @description Extension, only with stackBy: the period's amounts by that key, most credits first; they add up to the period's */
                            stacks?: {
                                stackKey: string | null;
                                /** @description Only when stackBy is agent */
                                agentName?: string | null;
                                totalCreditsCharged: number;
                                totalInputTokens: number;
                                totalOutputTokens: number;
                                eventCount: number;
                            }[];
                        }[];
                    };
                };
            };
            /** @description Invalid request: a parameter or a field of the body is missing, malformed or invalid */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No valid API key or session */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The caller's role or key scopes do not allow usage:read, or the key may not use this agent */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unexpected failure; the body carries the request id to find it in the logs */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getCreditBalance: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        billingModel: "credits" | "legacy";
                        credits: {
                            total: number;
                            used: number;
                            remaining: number;
                        } | null;
                        canRun: boolean;
                        blockReason: ("payment_overdue" | "no_credits" | "query_limit" | "free_plan_limit") | null;
                        /** @description Extension: on the free plan (no credits granted yet), its included agent messages: how many, used and left; null otherwise */
                        freePlan: {
                            included: number;
                            used: number;
                            remaining: number;
                        } | null;
                    };
                };
            };
            /** @description No valid API key or session: the text Forbidden */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "text/plain": "Forbidden";
                };
            };
            /** @description Unexpected failure; the body carries the request id to find it in the logs */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    incrementAgentQueries: {
        parameters: {
            query?: never;
            header?: {
                /** @description A retried request with the same key is charged once and answered the same */
                "idempotency-key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @enum {string} */
                    provider: "azure" | "azure-2" | "openai" | "gemini" | "deepseek" | "bedrock";
                    modelName: string;
                    /** @default 0 */
                    inputTokens?: number;
                    /** @default 0 */
                    outputTokens?: number;
                    /** @default 1 */
                    coefficient?: number;
                    /** @default agent_run */
                    feature?: string;
                    agentId?: string;
                    metadata?: {
                        [key: string]: unknown;
                    };
                };
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        success: boolean;
                        organizationId: string;
                        eventId: string;
                        credits: {
                            charged: number;
                            requested: number;
                        };
                        model: {
                            provider: string;
                            modelName: string;
                        };
                        tokens: {
                            inputTokens: number;
                            outputTokens: number;
                        };
                    };
                };
            };
            /** @description Invalid request: a parameter or a field of the body is missing, malformed or invalid */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No valid API key or session */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Usage limit: the organization cannot run now (type USAGE_LIMIT) */
            402: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The caller's role or key scopes do not allow query, or the key may not use this agent */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The Idempotency-Key was already used with a different body */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is larger than this endpoint accepts */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body's content type is not one this endpoint reads */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unexpected failure; the body carries the request id to find it in the logs */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listAnnotations: {
        parameters: {
            query?: {
                agentId?: string;
                /** @description good or bad, in any case */
                sentiment?: string;
                conversationId?: string;
                messageId?: string;
                status?: string;
                /** @description The id of the last annotation of the previous page */
                cursor?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        id: string;
                        messageId: string;
                        conversationId: string;
                        agentId: string;
                        organizationId: string;
                        comment: string;
                        sentiment: string;
                        status: string;
                        createdById: string | null;
                        createdAt: string;
                        updatedAt: string;
                        createdBy: {
                            email: string | null;
                        } | null;
                        tags: {
                            tag: {
                                id: string;
                                name: string;
                            };
                        }[];
                    }[];
                };
            };
            /** @description Invalid request: a parameter or a field of the body is missing, malformed or invalid */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Credentials were sent but are not a valid API key or session; or no key was sent and agentId or messageId is not of a public agent, or a filter names an agent or message of another organization */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The caller's role or key scopes do not allow annotations:read, or the key may not use this agent */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unexpected failure; the body carries the request id to find it in the logs */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    upsertAnnotation: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description The agent message to annotate; one annotation per message */
                    messageId: string;
                    /** @enum {string} */
                    sentiment: "good" | "bad";
                    comment: string;
                    /** @description Replaces all tags of the annotation; omitted, null or empty removes them all */
                    tagIds?: string[] | null;
                };
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        id: string;
                        messageId: string;
                        conversationId: string;
                        agentId: string;
                        organizationId: string;
                        comment: string;
                        sentiment: string;
                        status: string;
                        createdById: string | null;
                        createdAt: string;
                        updatedAt: string;
                        createdBy: {
                            email: string | null;
                        } | null;
                        tags: {
                            tag: {
                                id: string;
                                name: string;
                            };
                        }[];
                    };
                };
            };
            /** @description Invalid body, an empty comment, or a message that is not from an agent */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Credentials were sent but are not a valid API key or session; or no key was sent and the message is not of a public agent, or the message is of another organization */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The caller's role or key scopes do not allow annotations:write, or the key may not use this agent */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No message with this messageId */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is larger than this endpoint accepts */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body's content type is not one this endpoint reads */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many requests from this address; retry later */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unexpected failure; the body carries the request id to find it in the logs */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getAnnotation: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        id: string;
                        messageId: string;
                        conversationId: string;
                        agentId: string;
                        organizationId: string;
                        comment: string;
                        sentiment: string;
                        status: string;
                        createdById: string | null;
                        createdAt: string;
                        updatedAt: string;
                        createdBy: {
                            email: string | null;
                        } | null;
                        tags: {
                            tag: {
                                id: string;
                                name: string;
                            };
                        }[];
                        message: {
                            id: string;
                            content: string;
                            /** @enum {string} */
                            from: "human" | "agent";
                            createdAt: string;
                            agent: {
                                id: string;
                                name: string;
                                iconUrl: string | null;
                            } | null;
                            contact: {
                                id: string;
                                phoneNumber: string | null;
                                email: string | null;
                            } | null;
                            annotation: {
                                id: string;
                                sentiment: string;
                            } | null;
                        };
                        conversation: {
                            id: string;
                            agentId: string;
                            visitorId: string;
                            channel: string;
                            status: string;
                            createdAt: string;
                            updatedAt: string;
                            contact: {
                                id: string;
                                phoneNumber: string | null;
                                email: string | null;
                            } | null;
                            /** @description Oldest first */
                            messages: {
                                id: string;
                                content: string;
                                /** @enum {string} */
                                from: "human" | "agent";
                                createdAt: string;
                                agent: {
                                    id: string;
                                    name: string;
                                    iconUrl: string | null;
                                } | null;
                                contact: {
                                    id: string;
                                    phoneNumber: string | null;
                                    email: string | null;
                                } | null;
                                annotation: {
                                    id: string;
                                    sentiment: string;
                                } | null;
                            }[];
                        };
                    };
                };
            };
            /** @description Invalid request: a parameter or a field of the body is missing, malformed or invalid */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No valid API key or session; or the annotation belongs to another organization */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The caller's role or key scopes do not allow annotations:read, or the key may not use this agent */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No annotation with this id */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unexpected failure; the body carries the request id to find it in the logs */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    deleteAnnotation: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {boolean} */
                        success: true;
                    };
                };
            };
            /** @description Invalid request: a parameter or a field of the body is missing, malformed or invalid */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No valid API key or session; or the annotation belongs to another organization */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The caller's role or key scopes do not allow annotations:write, or the key may not use this agent */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No annotation with this id */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unexpected failure; the body carries the request id to find it in the logs */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    updateAnnotationStatus: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    status: string;
                };
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        id: string;
                        messageId: string;
                        conversationId: string;
                        agentId: string;
                        organizationId: string;
                        comment: string;
                        sentiment: string;
                        status: string;
                        createdById: string | null;
                        createdAt: string;
                        updatedAt: string;
                        createdBy: {
                            email: string | null;
                        } | null;
                        tags: {
                            tag: {
                                id: string;
                                name: string;
                            };
                        }[];
                    };
                };
            };
            /** @description Invalid request: a parameter or a field of the body is missing, malformed or invalid */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No valid API key or session; or the annotation belongs to another organization */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The caller's role or key scopes do not allow annotations:write, or the key may not use this agent */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No annotation with this id */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is larger than this endpoint accepts */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body's content type is not one this endpoint reads */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unexpected failure; the body carries the request id to find it in the logs */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getAnnotationStatuses: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        statuses: string[];
                    };
                };
            };
            /** @description No valid API key or session */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The caller's role or key scopes do not allow annotations:read, or the key may not use this agent */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unexpected failure; the body carries the request id to find it in the logs */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    setAnnotationStatuses: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description Accepted by PATCH /api/annotations/{id}; must include "pending" */
                    statuses: string[];
                };
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        statuses: string[];
                    };
                };
            };
            /** @description Invalid request: a parameter or a field of the body is missing, malformed or invalid */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No valid API key or session */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The caller's role or key scopes do not allow annotations:write, or the key may not use this agent */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is larger than this endpoint accepts */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body's content type is not one this endpoint reads */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unexpected failure; the body carries the request id to find it in the logs */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listAnnotationTags: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        id: string;
                        name: string;
                        createdAt: string;
                    }[];
                };
            };
            /** @description No valid API key or session */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The caller's role or key scopes do not allow annotations:read, or the key may not use this agent */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unexpected failure; the body carries the request id to find it in the logs */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    createAnnotationTag: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    name: string;
                };
            };
        };
        responses: {
            /** @description Default Response */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        id: string;
                        name: string;
                        createdAt: string;
                    };
                };
            };
            /** @description Invalid request: a parameter or a field of the body is missing, malformed or invalid */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No valid API key or session */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The caller's role or key scopes do not allow annotations:write, or the key may not use this agent */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is larger than this endpoint accepts */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body's content type is not one this endpoint reads */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unexpected failure; the body carries the request id to find it in the logs */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listDatastores: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        id: string;
                        name: string;
                        description: string;
                        type: string;
                        /** @enum {string} */
                        visibility: "private" | "public";
                        embeddingModel: string;
                        dimensions: number;
                        createdAt: string;
                        updatedAt: string;
                    }[];
                };
            };
            /** @description No valid API key or session */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The caller's role or key scopes do not allow knowledge:read, or the key may not use this agent */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unexpected failure; the body carries the request id to find it in the logs */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    createDatastore: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    name: string;
                    description?: string;
                    /** @description pgvector (qdrant is accepted as an alias) */
                    type?: string;
                    /** @enum {string} */
                    visibility?: "private" | "public";
                    /** @description Extension: provider:model of the embedder; changing it re-embeds every datasource */
                    embeddingModel?: string;
                    dimensions?: number;
                };
            };
        };
        responses: {
            /** @description Default Response */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        id: string;
                        name: string;
                        description: string;
                        type: string;
                        /** @enum {string} */
                        visibility: "private" | "public";
                        embeddingModel: string;
                        dimensions: number;
                        createdAt: string;
                        updatedAt: string;
                    };
                };
            };
            /** @description Invalid request: a parameter or a field of the body is missing, malformed or invalid */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No valid API key or session */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The caller's role or key scopes do not allow knowledge:write, or the key may not use this agent */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is larger than this endpoint accepts */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body's content type is not one this endpoint reads */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unexpected failure; the body carries the request id to find it in the logs */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getDatastore: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        id: string;
                        name: string;
                        description: string;
                        type: string;
                        /** @enum {string} */
                        visibility: "private" | "public";
                        embeddingModel: string;
                        dimensions: number;
                        createdAt: string;
                        updatedAt: string;
                    };
                };
            };
            /** @description Invalid request: a parameter or a field of the body is missing, malformed or invalid */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No valid API key or session */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The caller's role or key scopes do not allow knowledge:read, or the key may not use this agent */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found in the caller's organization */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unexpected failure; the body carries the request id to find it in the logs */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    deleteDatastore: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        id: string;
                        name: string;
                        description: string;
                        type: string;
                        /** @enum {string} */
                        visibility: "private" | "public";
                        embeddingModel: string;
                        dimensions: number;
                        createdAt: string;
                        updatedAt: string;
                    };
                };
            };
            /** @description Invalid request: a parameter or a field of the body is missing, malformed or invalid */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No valid API key or session */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The caller's role or key scopes do not allow knowledge:write, or the key may not use this agent */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found in the caller's organization */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unexpected failure; the body carries the request id to find it in the logs */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    updateDatastore: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    name?: string;
                    description?: string;
                    /** @description pgvector (qdrant is accepted as an alias) */
                    type?: string;
                    /** @enum {string} */
                    visibility?: "private" | "public";
                    /** @description Extension: provider:model of the embedder; changing it re-embeds every datasource */
                    embeddingModel?: string;
                    dimensions?: number;
                };
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        id: string;
                        name: string;
                        description: string;
                        type: string;
                        /** @enum {string} */
                        visibility: "private" | "public";
                    };
                };
            };
            /** @description Invalid request: a parameter or a field of the body is missing, malformed or invalid */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No valid API key or session */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The caller's role or key scopes do not allow knowledge:write, or the key may not use this agent */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found in the caller's organization */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is larger than this endpoint accepts */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body's content type is not one this endpoint reads */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unexpected failure; the body carries the request id to find it in the logs */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    queryDatastore: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    query: string;
                    /** @default 5 */
                    topK?: number;
                    filters?: {
                        custom_ids?: string[];
                        datasource_ids?: string[];
                    };
                    /**
                     * @description Extension: vector-only or full-text-only ranking instead of the default hybrid
                     * @enum {string}
                     */
                    mode?: "hybrid" | "vector" | "text";
                };
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        text: string;
                        /** @description 0..1: reciprocal-rank fusion normalised by its best possible value */
                        score: number;
                        source: string;
                        datasource_id: string;
                        datasource_name: string;
                        custom_id?: string;
                        page?: number;
                        chunk_id: string;
                    }[];
                };
            };
            /** @description Invalid request: a parameter or a field of the body is missing, malformed or invalid */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Credentials were sent but are not a valid API key or session; or no key was sent and the datastore is private */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The caller's role or key scopes do not allow knowledge:read, or the key may not use this agent */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No datastore with this id that the caller may read */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is larger than this endpoint accepts */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body's content type is not one this endpoint reads */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unexpected failure; the body carries the request id to find it in the logs */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The datastore's embedding model answered with an error */
            502: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The datastore's embedding model is not available */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getDatasource: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        id: string;
                        datastoreId: string;
                        type: string;
                        name: string;
                        groupId: string | null;
                        /** @enum {string} */
                        status: "unsynched" | "pending" | "running" | "synched" | "error" | "usage_limit_reached";
                        errorMessage: string | null;
                        config: {
                            [key: string]: unknown;
                        };
                        customId: string | null;
                        chunkCount: number;
                        tokenCount: number;
                        sizeBytes: number;
                        /** @description When the last successful sync ended */
                        lastSynch: string | null;
                        syncSchedule: ("hourly" | "daily" | "weekly") | null;
                        /** @description When the scheduled re-sync is next due */
                        nextSyncAt: string | null;
                        createdAt: string;
                        updatedAt: string;
                    };
                };
            };
            /** @description Invalid request: a parameter or a field of the body is missing, malformed or invalid */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No valid API key or session */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The caller's role or key scopes do not allow knowledge:read, or the key may not use this agent */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found in the caller's organization */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unexpected failure; the body carries the request id to find it in the logs */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    deleteDatasource: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        id: string;
                        datastoreId: string;
                        type: string;
                        name: string;
                        groupId: string | null;
                        /** @enum {string} */
                        status: "unsynched" | "pending" | "running" | "synched" | "error" | "usage_limit_reached";
                        errorMessage: string | null;
                        config: {
                            [key: string]: unknown;
                        };
                        customId: string | null;
                        chunkCount: number;
                        tokenCount: number;
                        sizeBytes: number;
                        /** @description When the last successful sync ended */
                        lastSynch: string | null;
                        syncSchedule: ("hourly" | "daily" | "weekly") | null;
                        /** @description When the scheduled re-sync is next due */
                        nextSyncAt: string | null;
                        createdAt: string;
                        updatedAt: string;
                    };
                };
            };
            /** @description Invalid request: a parameter or a field of the body is missing, malformed or invalid */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No valid API key or session */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The caller's role or key scopes do not allow knowledge:write, or the key may not use this agent */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found in the caller's organization */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unexpected failure; the body carries the request id to find it in the logs */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    updateDatasource: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description Re-sync on a schedule (web_page and web_site only; a site's pages follow it); null: only when asked */
                    syncSchedule: ("hourly" | "daily" | "weekly") | null;
                };
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        id: string;
                        datastoreId: string;
                        type: string;
                        name: string;
                        groupId: string | null;
                        /** @enum {string} */
                        status: "unsynched" | "pending" | "running" | "synched" | "error" | "usage_limit_reached";
                        errorMessage: string | null;
                        config: {
                            [key: string]: unknown;
                        };
                        customId: string | null;
                        chunkCount: number;
                        tokenCount: number;
                        sizeBytes: number;
                        /** @description When the last successful sync ended */
                        lastSynch: string | null;
                        syncSchedule: ("hourly" | "daily" | "weekly") | null;
                        /** @description When the scheduled re-sync is next due */
                        nextSyncAt: string | null;
                        createdAt: string;
                        updatedAt: string;
                    };
                };
            };
            /** @description A bad syncSchedule, or a datasource that takes none (file, text, a web_site's page) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No valid API key or session */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The caller's role or key scopes do not allow knowledge:write, or the key may not use this agent */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found in the caller's organization */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is larger than this endpoint accepts */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body's content type is not one this endpoint reads */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unexpected failure; the body carries the request id to find it in the logs */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    syncDatasource: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        id: string;
                        datastoreId: string;
                        type: string;
                        name: string;
                        groupId: string | null;
                        /** @enum {string} */
                        status: "unsynched" | "pending" | "running" | "synched" | "error" | "usage_limit_reached";
                        errorMessage: string | null;
                        config: {
                            [key: string]: unknown;
                        };
                        customId: string | null;
                        chunkCount: number;
                        tokenCount: number;
                        sizeBytes: number;
                        /** @description When the last successful sync ended */
                        lastSynch: string | null;
                        syncSchedule: ("hourly" | "daily" | "weekly") | null;
                        /** @description When the scheduled re-sync is next due */
                        nextSyncAt: string | null;
                        createdAt: string;
                        updatedAt: string;
                    };
                };
            };
            /** @description Invalid request: a parameter or a field of the body is missing, malformed or invalid */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No valid API key or session */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The caller's role or key scopes do not allow knowledge:write, or the key may not use this agent */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found in the caller's organization */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unexpected failure; the body carries the request id to find it in the logs */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listDatasources: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        id: string;
                        datastoreId: string;
                        type: string;
                        name: string;
                        groupId: string | null;
                        /** @enum {string} */
                        status: "unsynched" | "pending" | "running" | "synched" | "error" | "usage_limit_reached";
                        errorMessage: string | null;
                        config: {
                            [key: string]: unknown;
                        };
                        customId: string | null;
                        chunkCount: number;
                        tokenCount: number;
                        sizeBytes: number;
                        /** @description When the last successful sync ended */
                        lastSynch: string | null;
                        syncSchedule: ("hourly" | "daily" | "weekly") | null;
                        /** @description When the scheduled re-sync is next due */
                        nextSyncAt: string | null;
                        createdAt: string;
                        updatedAt: string;
                    }[];
                };
            };
            /** @description Invalid request: a parameter or a field of the body is missing, malformed or invalid */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No valid API key or session */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The caller's role or key scopes do not allow knowledge:read, or the key may not use this agent */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found in the caller's organization */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unexpected failure; the body carries the request id to find it in the logs */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    updateDatasourceText: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                datastoreId: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    id: string;
                    text: string;
                    name?: string;
                    metadata?: {
                        [key: string]: unknown;
                    } | null;
                };
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        id: string;
                    };
                };
            };
            /** @description Invalid request: a parameter or a field of the body is missing, malformed or invalid */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No valid API key or session */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The caller's role or key scopes do not allow knowledge:write, or the key may not use this agent */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No datasource with this id in the datastore */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The text is larger than UPLOAD_MAX_BYTES */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body's content type is not one this endpoint reads */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unexpected failure; the body carries the request id to find it in the logs */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listAgents: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        id: string;
                        name: string;
                        description: string;
                        /** @enum {string} */
                        modelName: "gpt_4o" | "gpt_4o_mini" | "gpt_41" | "gpt_41_mini" | "gpt_41_nano" | "claude_3_7_sonnet" | "claude_4_sonnet" | "gemini_2_5_flash" | "gemini_2_5_pro" | "grok_3" | "grok_3_beta" | "grok_3_fast_beta" | "grok_3_mini_beta" | "grok_3_mini_fast_beta" | "sonar_pro" | "sonar" | "llama_3_3_70b" | "llama_4_maverick_17b" | "model_route";
                        temperature: number;
                        /** @enum {string} */
                        visibility: "public" | "private";
                        systemPrompt: string;
                        userPrompt: string;
                        handle: string | null;
                        iconUrl: string | null;
                        useSuperRetrieval: boolean;
                        useFollowUp: boolean;
                        useConversationalMode: boolean;
                        /** @enum {string} */
                        promptType: "raw" | "customer_support";
                        promptTemplate: string;
                        retrievalEvaluationConfig: {
                            [key: string]: unknown;
                        };
                        followUpConfig: {
                            [key: string]: unknown;
                        };
                        tools: {
                            id: string;
                            type: string;
                            config?: {
                                [key: string]: unknown;
                            };
                            datastoreId?: string;
                            formId?: string;
                            serviceProviderId?: string;
                        }[];
                        allowedOrigins: string[];
                        unavailableMessage: string | null;
                        /** @description Extension: the number of the agent's current version; each change of an answer-affecting field makes the next (GET /api/agents/{id}/versions) */
                        version: number;
                        createdAt: string;
                        updatedAt: string;
                    }[];
                };
            };
            /** @description No valid API key or session */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The caller's role or key scopes do not allow agents:read, or the key may not use this agent */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unexpected failure; the body carries the request id to find it in the logs */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    createAgent: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    name: string;
                    description?: string;
                    /** @enum {string} */
                    modelName?: "gpt_4o" | "gpt_4o_mini" | "gpt_41" | "gpt_41_mini" | "gpt_41_nano" | "claude_3_7_sonnet" | "claude_4_sonnet" | "gemini_2_5_flash" | "gemini_2_5_pro" | "grok_3" | "grok_3_beta" | "grok_3_fast_beta" | "grok_3_mini_beta" | "grok_3_mini_fast_beta" | "sonar_pro" | "sonar" | "llama_3_3_70b" | "llama_4_maverick_17b" | "model_route";
                    temperature?: number;
                    /** @enum {string} */
                    visibility?: "public" | "private";
                    systemPrompt?: string;
                    userPrompt?: string;
                    handle?: string | null;
                    iconUrl?: string | null;
                    useSuperRetrieval?: boolean;
                    useFollowUp?: boolean;
                    useConversationalMode?: boolean;
                    /** @enum {string} */
                    promptType?: "raw" | "customer_support";
                    promptTemplate?: string;
                    retrievalEvaluationConfig?: ({
                        evaluatorPrompt?: string;
                        generateQueryPrompt?: string;
                        /** @enum {string} */
                        evaluatorModelName?: "gpt_4o" | "gpt_4o_mini" | "gpt_41" | "gpt_41_mini" | "gpt_41_nano" | "claude_3_7_sonnet" | "claude_4_sonnet" | "gemini_2_5_flash" | "gemini_2_5_pro" | "grok_3" | "grok_3_beta" | "grok_3_fast_beta" | "grok_3_mini_beta" | "grok_3_mini_fast_beta" | "sonar_pro" | "sonar" | "llama_3_3_70b" | "llama_4_maverick_17b" | "model_route";
                        retrievalRounds?: number;
                        evaluationThreshold?: number;
                        additionalConfig?: {
                            topP?: number;
                            topK?: number;
                            presencePenalty?: number;
                            frequencyPenalty?: number;
                            seed?: number;
                            stopSequences?: string[];
                            providerOptions?: {
                                [key: string]: {
                                    [key: string]: unknown;
                                };
                            };
                        } & {
                            [key: string]: unknown;
                        };
                        /** @enum {string} */
                        retrievalModelName?: "gpt_4o" | "gpt_4o_mini" | "gpt_41" | "gpt_41_mini" | "gpt_41_nano" | "claude_3_7_sonnet" | "claude_4_sonnet" | "gemini_2_5_flash" | "gemini_2_5_pro" | "grok_3" | "grok_3_beta" | "grok_3_fast_beta" | "grok_3_mini_beta" | "grok_3_mini_fast_beta" | "sonar_pro" | "sonar" | "llama_3_3_70b" | "llama_4_maverick_17b" | "model_route";
                        /** @enum {string} */
                        generationModelName?: "gpt_4o" | "gpt_4o_mini" | "gpt_41" | "gpt_41_mini" | "gpt_41_nano" | "claude_3_7_sonnet" | "claude_4_sonnet" | "gemini_2_5_flash" | "gemini_2_5_pro" | "grok_3" | "grok_3_beta" | "grok_3_fast_beta" | "grok_3_mini_beta" | "grok_3_mini_fast_beta" | "sonar_pro" | "sonar" | "llama_3_3_70b" | "llama_4_maverick_17b" | "model_route";
                        fallbackModels?: ("gpt_4o" | "gpt_4o_mini" | "gpt_41" | "gpt_41_mini" | "gpt_41_nano" | "claude_3_7_sonnet" | "claude_4_sonnet" | "gemini_2_5_flash" | "gemini_2_5_pro" | "grok_3" | "grok_3_beta" | "grok_3_fast_beta" | "grok_3_mini_beta" | "grok_3_mini_fast_beta" | "sonar_pro" | "sonar" | "llama_3_3_70b" | "llama_4_maverick_17b" | "model_route")[];
                        modelTemperatures?: {
                            [key: string]: number;
                        };
                        modelMaxTokens?: {
                            [key: string]: number;
                        };
                        enableModelComparison?: boolean;
                        comparisonModels?: ("gpt_4o" | "gpt_4o_mini" | "gpt_41" | "gpt_41_mini" | "gpt_41_nano" | "claude_3_7_sonnet" | "claude_4_sonnet" | "gemini_2_5_flash" | "gemini_2_5_pro" | "grok_3" | "grok_3_beta" | "grok_3_fast_beta" | "grok_3_mini_beta" | "grok_3_mini_fast_beta" | "sonar_pro" | "sonar" | "llama_3_3_70b" | "llama_4_maverick_17b" | "model_route")[];
                    } & {
                        [key: string]: unknown;
                    }) | null;
                    followUpConfig?: ({
                        prompt?: string;
                        count?: number;
                        followUpDelayHours?: number;
                        config?: {
                            [key: string]: unknown;
                        };
                    } & {
                        [key: string]: unknown;
                    }) | null;
                    tools?: {
                        id?: string;
                        /** @description datastore, or any other tool type (stored as given) */
                        type: string;
                        config?: {
                            [key: string]: unknown;
                        };
                        datastoreId?: string;
                        formId?: string;
                        serviceProviderId?: string;
                    }[];
                    /** @description Shorthand: one datastore tool per id (replaces the agent's datastore tools) */
                    datastoreIds?: string[];
                    /** @description Extension: origins whose pages may use the public chat of this (public) agent; empty: any */
                    allowedOrigins?: string[];
                    /** @description Extension: sent on messaging channels when no answer can be given (out of credits, the model failed); null: nothing is sent */
                    unavailableMessage?: string | null;
                };
            };
        };
        responses: {
            /** @description Default Response */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        id: string;
                        name: string;
                        description: string;
                        /** @enum {string} */
                        modelName: "gpt_4o" | "gpt_4o_mini" | "gpt_41" | "gpt_41_mini" | "gpt_41_nano" | "claude_3_7_sonnet" | "claude_4_sonnet" | "gemini_2_5_flash" | "gemini_2_5_pro" | "grok_3" | "grok_3_beta" | "grok_3_fast_beta" | "grok_3_mini_beta" | "grok_3_mini_fast_beta" | "sonar_pro" | "sonar" | "llama_3_3_70b" | "llama_4_maverick_17b" | "model_route";
                        temperature: number;
                        /** @enum {string} */
                        visibility: "public" | "private";
                        systemPrompt: string;
                        userPrompt: string;
                        handle: string | null;
                        iconUrl: string | null;
                        useSuperRetrieval: boolean;
                        useFollowUp: boolean;
                        useConversationalMode: boolean;
                        /** @enum {string} */
                        promptType: "raw" | "customer_support";
                        promptTemplate: string;
                        retrievalEvaluationConfig: {
                            [key: string]: unknown;
                        };
                        followUpConfig: {
                            [key: string]: unknown;
                        };
                        tools: {
                            id: string;
                            type: string;
                            config?: {
                                [key: string]: unknown;
                            };
                            datastoreId?: string;
                            formId?: string;
                            serviceProviderId?: string;
                        }[];
                        allowedOrigins: string[];
                        unavailableMessage: string | null;
                        /** @description Extension: the number of the agent's current version; each change of an answer-affecting field makes the next (GET /api/agents/{id}/versions) */
                        version: number;
                        createdAt: string;
                        updatedAt: string;
                    };
                };
            };
            /** @description Invalid request: a parameter or a field of the body is missing, malformed or invalid */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No valid API key or session */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The caller's role or key scopes do not allow agents:write, or the key may not use this agent */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is larger than this endpoint accepts */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body's content type is not one this endpoint reads */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unexpected failure; the body carries the request id to find it in the logs */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getAgent: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        id: string;
                        name: string;
                        description: string;
                        /** @enum {string} */
                        modelName: "gpt_4o" | "gpt_4o_mini" | "gpt_41" | "gpt_41_mini" | "gpt_41_nano" | "claude_3_7_sonnet" | "claude_4_sonnet" | "gemini_2_5_flash" | "gemini_2_5_pro" | "grok_3" | "grok_3_beta" | "grok_3_fast_beta" | "grok_3_mini_beta" | "grok_3_mini_fast_beta" | "sonar_pro" | "sonar" | "llama_3_3_70b" | "llama_4_maverick_17b" | "model_route";
                        temperature: number;
                        /** @enum {string} */
                        visibility: "public" | "private";
                        systemPrompt: string;
                        userPrompt: string;
                        handle: string | null;
                        iconUrl: string | null;
                        useSuperRetrieval: boolean;
                        useFollowUp: boolean;
                        useConversationalMode: boolean;
                        /** @enum {string} */
                        promptType: "raw" | "customer_support";
                        promptTemplate: string;
                        retrievalEvaluationConfig: {
                            [key: string]: unknown;
                        };
                        followUpConfig: {
                            [key: string]: unknown;
                        };
                        tools: {
                            id: string;
                            type: string;
                            config?: {
                                [key: string]: unknown;
                            };
                            datastoreId?: string;
                            formId?: string;
                            serviceProviderId?: string;
                        }[];
                        allowedOrigins: string[];
                        unavailableMessage: string | null;
                        /** @description Extension: the number of the agent's current version; each change of an answer-affecting field makes the next (GET /api/agents/{id}/versions) */
                        version: number;
                        createdAt: string;
                        updatedAt: string;
                    };
                };
            };
            /** @description Invalid request: a parameter or a field of the body is missing, malformed or invalid */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No valid API key or session */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The caller's role or key scopes do not allow agents:read, or the key may not use this agent */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found in the caller's organization */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unexpected failure; the body carries the request id to find it in the logs */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    deleteAgent: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        id: string;
                        name: string;
                        description: string;
                        /** @enum {string} */
                        modelName: "gpt_4o" | "gpt_4o_mini" | "gpt_41" | "gpt_41_mini" | "gpt_41_nano" | "claude_3_7_sonnet" | "claude_4_sonnet" | "gemini_2_5_flash" | "gemini_2_5_pro" | "grok_3" | "grok_3_beta" | "grok_3_fast_beta" | "grok_3_mini_beta" | "grok_3_mini_fast_beta" | "sonar_pro" | "sonar" | "llama_3_3_70b" | "llama_4_maverick_17b" | "model_route";
                        temperature: number;
                        /** @enum {string} */
                        visibility: "public" | "private";
                        systemPrompt: string;
                        userPrompt: string;
                        handle: string | null;
                        iconUrl: string | null;
                        useSuperRetrieval: boolean;
                        useFollowUp: boolean;
                        useConversationalMode: boolean;
                        /** @enum {string} */
                        promptType: "raw" | "customer_support";
                        promptTemplate: string;
                        retrievalEvaluationConfig: {
                            [key: string]: unknown;
                        };
                        followUpConfig: {
                            [key: string]: unknown;
                        };
                        tools: {
                            id: string;
                            type: string;
                            config?: {
                                [key: string]: unknown;
                            };
                            datastoreId?: string;
                            formId?: string;
                            serviceProviderId?: string;
                        }[];
                        allowedOrigins: string[];
                        unavailableMessage: string | null;
                        /** @description Extension: the number of the agent's current version; each change of an answer-affecting field makes the next (GET /api/agents/{id}/versions) */
                        version: number;
                        createdAt: string;
                        updatedAt: string;
                    };
                };
            };
            /** @description Invalid request: a parameter or a field of the body is missing, malformed or invalid */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No valid API key or session */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The caller's role or key scopes do not allow agents:write, or the key may not use this agent */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found in the caller's organization */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unexpected failure; the body carries the request id to find it in the logs */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    updateAgent: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    name?: string;
                    description?: string;
                    /** @enum {string} */
                    modelName?: "gpt_4o" | "gpt_4o_mini" | "gpt_41" | "gpt_41_mini" | "gpt_41_nano" | "claude_3_7_sonnet" | "claude_4_sonnet" | "gemini_2_5_flash" | "gemini_2_5_pro" | "grok_3" | "grok_3_beta" | "grok_3_fast_beta" | "grok_3_mini_beta" | "grok_3_mini_fast_beta" | "sonar_pro" | "sonar" | "llama_3_3_70b" | "llama_4_maverick_17b" | "model_route";
                    temperature?: number;
                    /** @enum {string} */
                    visibility?: "public" | "private";
                    systemPrompt?: string;
                    userPrompt?: string;
                    handle?: string | null;
                    iconUrl?: string | null;
                    useSuperRetrieval?: boolean;
                    useFollowUp?: boolean;
                    useConversationalMode?: boolean;
                    /** @enum {string} */
                    promptType?: "raw" | "customer_support";
                    promptTemplate?: string;
                    retrievalEvaluationConfig?: ({
                        evaluatorPrompt?: string;
                        generateQueryPrompt?: string;
                        /** @enum {string} */
                        evaluatorModelName?: "gpt_4o" | "gpt_4o_mini" | "gpt_41" | "gpt_41_mini" | "gpt_41_nano" | "claude_3_7_sonnet" | "claude_4_sonnet" | "gemini_2_5_flash" | "gemini_2_5_pro" | "grok_3" | "grok_3_beta" | "grok_3_fast_beta" | "grok_3_mini_beta" | "grok_3_mini_fast_beta" | "sonar_pro" | "sonar" | "llama_3_3_70b" | "llama_4_maverick_17b" | "model_route";
                        retrievalRounds?: number;
                        evaluationThreshold?: number;
                        additionalConfig?: {
                            topP?: number;
                            topK?: number;
                            presencePenalty?: number;
                            frequencyPenalty?: number;
                            seed?: number;
                            stopSequences?: string[];
                            providerOptions?: {
                                [key: string]: {
                                    [key: string]: unknown;
                                };
                            };
                        } & {
                            [key: string]: unknown;
                        };
                        /** @enum {string} */
                        retrievalModelName?: "gpt_4o" | "gpt_4o_mini" | "gpt_41" | "gpt_41_mini" | "gpt_41_nano" | "claude_3_7_sonnet" | "claude_4_sonnet" | "gemini_2_5_flash" | "gemini_2_5_pro" | "grok_3" | "grok_3_beta" | "grok_3_fast_beta" | "grok_3_mini_beta" | "grok_3_mini_fast_beta" | "sonar_pro" | "sonar" | "llama_3_3_70b" | "llama_4_maverick_17b" | "model_route";
                        /** @enum {string} */
                        generationModelName?: "gpt_4o" | "gpt_4o_mini" | "gpt_41" | "gpt_41_mini" | "gpt_41_nano" | "claude_3_7_sonnet" | "claude_4_sonnet" | "gemini_2_5_flash" | "gemini_2_5_pro" | "grok_3" | "grok_3_beta" | "grok_3_fast_beta" | "grok_3_mini_beta" | "grok_3_mini_fast_beta" | "sonar_pro" | "sonar" | "llama_3_3_70b" | "llama_4_maverick_17b" | "model_route";
                        fallbackModels?: ("gpt_4o" | "gpt_4o_mini" | "gpt_41" | "gpt_41_mini" | "gpt_41_nano" | "claude_3_7_sonnet" | "claude_4_sonnet" | "gemini_2_5_flash" | "gemini_2_5_pro" | "grok_3" | "grok_3_beta" | "grok_3_fast_beta" | "grok_3_mini_beta" | "grok_3_mini_fast_beta" | "sonar_pro" | "sonar" | "llama_3_3_70b" | "llama_4_maverick_17b" | "model_route")[];
                        modelTemperatures?: {
                            [key: string]: number;
                        };
                        modelMaxTokens?: {
                            [key: string]: number;
                        };
                        enableModelComparison?: boolean;
                        comparisonModels?: ("gpt_4o" | "gpt_4o_mini" | "gpt_41" | "gpt_41_mini" | "gpt_41_nano" | "claude_3_7_sonnet" | "claude_4_sonnet" | "gemini_2_5_flash" | "gemini_2_5_pro" | "grok_3" | "grok_3_beta" | "grok_3_fast_beta" | "grok_3_mini_beta" | "grok_3_mini_fast_beta" | "sonar_pro" | "sonar" | "llama_3_3_70b" | "llama_4_maverick_17b" | "model_route")[];
                    } & {
                        [key: string]: unknown;
                    }) | null;
                    followUpConfig?: ({
                        prompt?: string;
                        count?: number;
                        followUpDelayHours?: number;
                        config?: {
                            [key: string]: unknown;
                        };
                    } & {
                        [key: string]: unknown;
                    }) | null;
                    tools?: {
                        id?: string;
                        /** @description datastore, or any other tool type (stored as given) */
                        type: string;
                        config?: {
                            [key: string]: unknown;
                        };
                        datastoreId?: string;
                        formId?: string;
                        serviceProviderId?: string;
                    }[];
                    /** @description Shorthand: one datastore tool per id (replaces the agent's datastore tools) */
                    datastoreIds?: string[];
                    /** @description Extension: origins whose pages may use the public chat of this (public) agent; empty: any */
                    allowedOrigins?: string[];
                    /** @description Extension: sent on messaging channels when no answer can be given (out of credits, the model failed); null: nothing is sent */
                    unavailableMessage?: string | null;
                };
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        id: string;
                        name: string;
                        description: string;
                        /** @enum {string} */
                        modelName: "gpt_4o" | "gpt_4o_mini" | "gpt_41" | "gpt_41_mini" | "gpt_41_nano" | "claude_3_7_sonnet" | "claude_4_sonnet" | "gemini_2_5_flash" | "gemini_2_5_pro" | "grok_3" | "grok_3_beta" | "grok_3_fast_beta" | "grok_3_mini_beta" | "grok_3_mini_fast_beta" | "sonar_pro" | "sonar" | "llama_3_3_70b" | "llama_4_maverick_17b" | "model_route";
                        temperature: number;
                        /** @enum {string} */
                        visibility: "public" | "private";
                        systemPrompt: string;
                        userPrompt: string;
                        handle: string | null;
                        iconUrl: string | null;
                        useSuperRetrieval: boolean;
                        useFollowUp: boolean;
                        useConversationalMode: boolean;
                        /** @enum {string} */
                        promptType: "raw" | "customer_support";
                        promptTemplate: string;
                        retrievalEvaluationConfig: {
                            [key: string]: unknown;
                        };
                        followUpConfig: {
                            [key: string]: unknown;
                        };
                        tools: {
                            id: string;
                            type: string;
                            config?: {
                                [key: string]: unknown;
                            };
                            datastoreId?: string;
                            formId?: string;
                            serviceProviderId?: string;
                        }[];
                        allowedOrigins: string[];
                        unavailableMessage: string | null;
                        /** @description Extension: the number of the agent's current version; each change of an answer-affecting field makes the next (GET /api/agents/{id}/versions) */
                        version: number;
                        createdAt: string;
                        updatedAt: string;
                    };
                };
            };
            /** @description Invalid request: a parameter or a field of the body is missing, malformed or invalid */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No valid API key or session */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The caller's role or key scopes do not allow agents:write, or the key may not use this agent */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found in the caller's organization */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is larger than this endpoint accepts */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body's content type is not one this endpoint reads */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unexpected failure; the body carries the request id to find it in the logs */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listAgentVersions: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        versions: {
                            version: number;
                            /** @description Who made it: a signed-in user, or an API key; null for the version 1 of an agent made before versions existed */
                            author: {
                                /** @enum {string} */
                                type: "user" | "key";
                                id: string;
                            } | null;
                            createdAt: string;
                            /** @description The answer-affecting fields, as the agent shows them */
                            fields: {
                                temperature: number;
                                systemPrompt: string;
                                userPrompt: string;
                                /** @enum {string} */
                                promptType: "raw" | "customer_support";
                                promptTemplate: string;
                                tools: {
                                    id: string;
                                    type: string;
                                    config?: {
                                        [key: string]: unknown;
                                    };
                                    datastoreId?: string;
                                    formId?: string;
                                    serviceProviderId?: string;
                                }[];
                                useSuperRetrieval: boolean;
                                retrievalEvaluationConfig: {
                                    [key: string]: unknown;
                                };
                                /** @description The agent model name (docs/models.md) the version was made with */
                                modelName: string;
                            };
                        }[];
                    };
                };
            };
            /** @description Invalid request: a parameter or a field of the body is missing, malformed or invalid */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No valid API key or session */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The caller's role or key scopes do not allow agents:read, or the key may not use this agent */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found in the caller's organization */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unexpected failure; the body carries the request id to find it in the logs */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getAgentVersion: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
                version: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        version: number;
                        /** @description Who made it: a signed-in user, or an API key; null for the version 1 of an agent made before versions existed */
                        author: {
                            /** @enum {string} */
                            type: "user" | "key";
                            id: string;
                        } | null;
                        createdAt: string;
                        /** @description The answer-affecting fields, as the agent shows them */
                        fields: {
                            temperature: number;
                            systemPrompt: string;
                            userPrompt: string;
                            /** @enum {string} */
                            promptType: "raw" | "customer_support";
                            promptTemplate: string;
                            tools: {
                                id: string;
                                type: string;
                                config?: {
                                    [key: string]: unknown;
                                };
                                datastoreId?: string;
                                formId?: string;
                                serviceProviderId?: string;
                            }[];
                            useSuperRetrieval: boolean;
                            retrievalEvaluationConfig: {
                                [key: string]: unknown;
                            };
                            /** @description The agent model name (docs/models.md) the version was made with */
                            modelName: string;
                        };
                    };
                };
            };
            /** @description Invalid request: a parameter or a field of the body is missing, malformed or invalid */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No valid API key or session */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The caller's role or key scopes do not allow agents:read, or the key may not use this agent */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found in the caller's organization */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unexpected failure; the body carries the request id to find it in the logs */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    restoreAgentVersion: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
                version: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        id: string;
                        name: string;
                        description: string;
                        /** @enum {string} */
                        modelName: "gpt_4o" | "gpt_4o_mini" | "gpt_41" | "gpt_41_mini" | "gpt_41_nano" | "claude_3_7_sonnet" | "claude_4_sonnet" | "gemini_2_5_flash" | "gemini_2_5_pro" | "grok_3" | "grok_3_beta" | "grok_3_fast_beta" | "grok_3_mini_beta" | "grok_3_mini_fast_beta" | "sonar_pro" | "sonar" | "llama_3_3_70b" | "llama_4_maverick_17b" | "model_route";
                        temperature: number;
                        /** @enum {string} */
                        visibility: "public" | "private";
                        systemPrompt: string;
                        userPrompt: string;
                        handle: string | null;
                        iconUrl: string | null;
                        useSuperRetrieval: boolean;
                        useFollowUp: boolean;
                        useConversationalMode: boolean;
                        /** @enum {string} */
                        promptType: "raw" | "customer_support";
                        promptTemplate: string;
                        retrievalEvaluationConfig: {
                            [key: string]: unknown;
                        };
                        followUpConfig: {
                            [key: string]: unknown;
                        };
                        tools: {
                            id: string;
                            type: string;
                            config?: {
                                [key: string]: unknown;
                            };
                            datastoreId?: string;
                            formId?: string;
                            serviceProviderId?: string;
                        }[];
                        allowedOrigins: string[];
                        unavailableMessage: string | null;
                        /** @description Extension: the number of the agent's current version; each change of an answer-affecting field makes the next (GET /api/agents/{id}/versions) */
                        version: number;
                        createdAt: string;
                        updatedAt: string;
                    };
                };
            };
            /** @description Invalid request: a parameter or a field of the body is missing, malformed or invalid */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No valid API key or session */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The caller's role or key scopes do not allow agents:write, or the key may not use this agent */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found in the caller's organization */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unexpected failure; the body carries the request id to find it in the logs */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    queryAgent: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description The user message */
                    query: string;
                    /** @default false */
                    streaming?: boolean;
                    conversationId?: string;
                    visitorId?: string;
                    /** @enum {string} */
                    channel?: "api" | "dashboard" | "website" | "form" | "whatsapp" | "telegram" | "slack" | "meta" | "crisp" | "zapier" | "mail" | "mercadolibre" | "agent_builder" | "chatwoot" | "crmchatsappai";
                    context?: string;
                    systemPrompt?: string;
                    /**
                     * @description Overrides the agent's prompt type for this request (raw: system prompt as written)
                     * @enum {string}
                     */
                    promptType?: "raw" | "customer_support";
                    webhookUrl?: string;
                    attachments?: {
                        /** Format: uri */
                        url: string;
                    }[];
                    /** @description CRM contact; an existing contact with the same email, phone number or userId is reused */
                    contact?: {
                        /** Format: email */
                        email?: string;
                        phoneNumber?: string;
                        firstName?: string;
                        lastName?: string;
                        userId?: string;
                    };
                };
            };
        };
        responses: {
            /** @description The answer as JSON, or as Server-Sent Events. With `streaming: true`, a text/event-stream: zero or more `event: answer` frames whose data is a fragment of the answer (in order, the fragments make the answer), one `event: endpoint_response` frame whose data is the JSON of the non-streaming answer, then a frame with data `[DONE]`. A failure after the stream started is a frame with data `[ERROR] <message>`. Lines starting with `:` are keep-alive comments; data spanning several lines is sent as one `data:` line per line. Errors found before the stream starts are answered with their status and the JSON error body. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        answer: string;
                        sources: {
                            source: string;
                            chunk: string;
                        }[];
                        messageId: string;
                        conversationId: string;
                        visitorId: string;
                        request_human: boolean;
                        status: string;
                        usage: {
                            completionTokens: number;
                            promptTokens: number;
                            totalTokens: number;
                            cost: number;
                        };
                        approvals: unknown[];
                        /** @description Extension (useSuperRetrieval agents): the model that answered */
                        model?: string;
                        /** @description Extension (enableModelComparison): the comparison models' answers */
                        comparisons?: {
                            model: string;
                            answer?: string;
                            usage?: {
                                completionTokens: number;
                                promptTokens: number;
                                totalTokens: number;
                                cost: number;
                            };
                            error?: string;
                        }[];
                    } | {
                        /** @enum {string} */
                        status: "queued";
                        conversationId: string;
                        visitorId: string;
                        inputMessageId: string;
                        message: string;
                        webhookUrl: string;
                    };
                    "text/event-stream": string;
                };
            };
            /** @description Invalid request: a parameter or a field of the body is missing, malformed or invalid */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No valid API key or session */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Usage limit: the organization has no credits left, or its plan or payment blocks it */
            402: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No agent with this id in the organization */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is larger than this endpoint accepts */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body's content type is not one this endpoint reads */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The message could not be processed (the model provider failed) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The embedding model of a datastore of the agent answered with an error */
            502: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The embedding model of a datastore of the agent is not available */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    postAgentMessage: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description The agent message text */
                    query: string;
                    /** @default false */
                    streaming?: boolean;
                    conversationId?: string;
                    visitorId?: string;
                    /** @enum {string} */
                    channel?: "api" | "dashboard" | "website" | "form" | "whatsapp" | "telegram" | "slack" | "meta" | "crisp" | "zapier" | "mail" | "mercadolibre" | "agent_builder" | "chatwoot" | "crmchatsappai";
                    channelExternalId?: string;
                    /** @default false */
                    isDraft?: boolean;
                    contactId?: string;
                    /** @description CRM contact; an existing contact with the same email, phone number or userId is reused */
                    contact?: {
                        /** Format: email */
                        email?: string;
                        phoneNumber?: string;
                        firstName?: string;
                        lastName?: string;
                        userId?: string;
                    };
                    metadata?: {
                        contextDataAgents?: string;
                        /**
                         * @description Overrides the top-level channel
                         * @enum {string}
                         */
                        channel?: "api" | "dashboard" | "website" | "form" | "whatsapp" | "telegram" | "slack" | "meta" | "crisp" | "zapier" | "mail" | "mercadolibre" | "agent_builder" | "chatwoot" | "crmchatsappai";
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
        };
        responses: {
            /** @description The answer as JSON, or as Server-Sent Events. With `streaming: true`, a text/event-stream: zero or more `event: answer` frames whose data is a fragment of the answer (in order, the fragments make the answer), one `event: endpoint_response` frame whose data is the JSON of the non-streaming answer, then a frame with data `[DONE]`. A failure after the stream started is a frame with data `[ERROR] <message>`. Lines starting with `:` are keep-alive comments; data spanning several lines is sent as one `data:` line per line. Errors found before the stream starts are answered with their status and the JSON error body. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        messageId: string;
                        conversationId: string;
                        visitorId: string;
                        status: string;
                    };
                    "text/event-stream": string;
                };
            };
            /** @description Invalid request: a parameter or a field of the body is missing, malformed or invalid */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Credentials were sent but are not a valid API key or session; or a draft, a contact or a private agent needs an API key of the agent's organization */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The caller's role or key scopes do not allow query, or the key may not use this agent */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No agent with this id */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is larger than this endpoint accepts */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body's content type is not one this endpoint reads */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Without an API key: too many messages from this address or this visitorId this minute, or too many conversations started with this agent this hour (Retry-After) */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unexpected failure; the body carries the request id to find it in the logs */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    exportConversations: {
        parameters: {
            query?: {
                /** @description ISO 8601 date or date-time (UTC without an offset), years 1970 to 9999 */
                from?: string;
                /** @description Inclusive; a date without a time includes that whole day */
                to?: string;
                /** @description Comma-separated conversation ids */
                conversationId?: string;
                include?: "all" | "human" | "agent";
                status?: "all" | "RESOLVED" | "UNRESOLVED" | "HUMAN_REQUESTED";
                channel?: "all" | "website" | "whatsapp" | "telegram" | "slack" | "dashboard" | "meta" | "mercadolibre" | "chatwoot" | "crmchatsappai";
                limit?: number;
                /** @description true limits the export to 100 messages */
                preview?: "true" | "false";
                orderBy?: "asc" | "desc";
                /** @description Case-insensitive text search */
                search?: string;
            };
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The text/csv document */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "text/csv": string;
                };
            };
            /** @description Invalid query parameters (a bad date, from after to, a search over 500 characters) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No valid API key or session */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The caller's role or key scopes do not allow conversations:read, or the key may not use this agent */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No agent with this id in the organization */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The export failed */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listConversations: {
        parameters: {
            query?: {
                /** @description Only this agent's conversations */
                agentId?: string;
                /** @description Only the conversations in this status */
                status?: "UNRESOLVED" | "RESOLVED" | "HUMAN_REQUESTED";
                /** @description true: only the conversations the AI answers; false: only those a person handles */
                aiEnabled?: "true" | "false";
                /** @description Only the conversations of this channel */
                channel?: "api" | "dashboard" | "website" | "form" | "whatsapp" | "telegram" | "slack" | "meta" | "crisp" | "zapier" | "mail" | "mercadolibre" | "agent_builder" | "chatwoot" | "crmchatsappai";
                /** @description Only the conversations assigned to this member (a user id); `none`: only those nobody is assigned to */
                assigneeId?: string;
                /** @description Only the conversations where this text appears, whatever its case: in a message (drafts aside), or in the contact's name, e-mail or phone number. `%` and `_` are plain characters; an empty or blank q filters nothing */
                q?: string;
                /** @description createdAt: the newest conversations first; lastActivity: the conversation with the latest message or change of state (status, aiEnabled, assignee) first, by updatedAt */
                sort?: "createdAt" | "lastActivity";
                /** @description Conversations per page */
                limit?: number;
                /** @description The nextCursor of the previous page. It holds a place in the order: it needs the same sort (400 otherwise); with other filters the page starts after that place */
                cursor?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: {
                            /** @description The conversationId of the query endpoints: unique per agent */
                            id: string;
                            agentId: string;
                            visitorId: string;
                            channel: string;
                            channelExternalId: string | null;
                            /** @enum {string} */
                            status: "UNRESOLVED" | "RESOLVED" | "HUMAN_REQUESTED";
                            /** @description False while a person handles the conversation */
                            aiEnabled: boolean;
                            /** @description The member handling the conversation */
                            assignee: {
                                id: string;
                                email: string | null;
                                name: string | null;
                            } | null;
                            contact: {
                                id: string;
                                email: string | null;
                                phoneNumber: string | null;
                                firstName: string | null;
                                lastName: string | null;
                                userId: string | null;
                            } | null;
                            metadata: {
                                [key: string]: unknown;
                            };
                            createdAt: string;
                            updatedAt: string;
                            /** @description The last message sent in the conversation (drafts aside); null when none was */
                            lastMessage: {
                                /** @enum {string} */
                                from: "human" | "agent";
                                /** @description Its first 280 characters */
                                text: string;
                                createdAt: string;
                            } | null;
                        }[];
                        nextCursor: string | null;
                    };
                };
            };
            /** @description Invalid request: a parameter or a field of the body is missing, malformed or invalid */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No valid API key or session */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The caller's role or key scopes do not allow conversations:read, or the key may not use this agent */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unexpected failure; the body carries the request id to find it in the logs */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getConversation: {
        parameters: {
            query?: {
                /** @description The conversation's agent: required when several agents use this id */
                agentId?: string;
            };
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description The conversationId of the query endpoints: unique per agent */
                        id: string;
                        agentId: string;
                        visitorId: string;
                        channel: string;
                        channelExternalId: string | null;
                        /** @enum {string} */
                        status: "UNRESOLVED" | "RESOLVED" | "HUMAN_REQUESTED";
                        /** @description False while a person handles the conversation */
                        aiEnabled: boolean;
                        /** @description The member handling the conversation */
                        assignee: {
                            id: string;
                            email: string | null;
                            name: string | null;
                        } | null;
                        contact: {
                            id: string;
                            email: string | null;
                            phoneNumber: string | null;
                            firstName: string | null;
                            lastName: string | null;
                            userId: string | null;
                        } | null;
                        metadata: {
                            [key: string]: unknown;
                        };
                        createdAt: string;
                        updatedAt: string;
                        messages: {
                            id: string;
                            /** @enum {string} */
                            from: "human" | "agent";
                            text: string;
                            sources: ({
                                source: string;
                                chunk: string;
                            } & {
                                [key: string]: unknown;
                            })[];
                            usage: {
                                completionTokens: number;
                                promptTokens: number;
                                totalTokens: number;
                                cost: number;
                            } | null;
                            attachments: {
                                url: string;
                            }[];
                            metadata: {
                                [key: string]: unknown;
                            };
                            isDraft: boolean;
                            agentId: string | null;
                            /** @description Extension: the agent's version (GET /api/agents/{id}/versions) whose fields wrote this AI answer; null for other messages */
                            agentVersion: number | null;
                            createdAt: string;
                            /** @description An operator's reply: who wrote it (a member, or the key's name) */
                            user?: {
                                id: string;
                                email: string | null;
                                name: string | null;
                            };
                            /** @description Messages sent through a channel: what the platform did with them */
                            delivery?: {
                                /** @enum {string} */
                                status: "queued" | "sent" | "delivered" | "read" | "failed";
                                platformMessageId: string | null;
                                error: string | null;
                            };
                        }[];
                    };
                };
            };
            /** @description Invalid request: a parameter or a field of the body is missing, malformed or invalid */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No valid API key or session */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The caller's role or key scopes do not allow conversations:read, or the key may not use this agent */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found in the caller's organization */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unexpected failure; the body carries the request id to find it in the logs */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    deleteConversation: {
        parameters: {
            query?: {
                /** @description The conversation's agent: required when several agents use this id */
                agentId?: string;
            };
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {boolean} */
                        success: true;
                    };
                };
            };
            /** @description Invalid request: a parameter or a field of the body is missing, malformed or invalid */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No valid API key or session */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The caller's role or key scopes do not allow conversations:write, or the key may not use this agent */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No conversation with this id in the caller's organization */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unexpected failure; the body carries the request id to find it in the logs */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    updateConversation: {
        parameters: {
            query?: {
                /** @description The conversation's agent: required when several agents use this id */
                agentId?: string;
            };
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @enum {string} */
                    status?: "UNRESOLVED" | "RESOLVED" | "HUMAN_REQUESTED";
                    aiEnabled?: boolean;
                    /** @description A member of the organization; null unassigns */
                    assigneeId?: string | null;
                };
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description The conversationId of the query endpoints: unique per agent */
                        id: string;
                        agentId: string;
                        visitorId: string;
                        channel: string;
                        channelExternalId: string | null;
                        /** @enum {string} */
                        status: "UNRESOLVED" | "RESOLVED" | "HUMAN_REQUESTED";
                        /** @description False while a person handles the conversation */
                        aiEnabled: boolean;
                        /** @description The member handling the conversation */
                        assignee: {
                            id: string;
                            email: string | null;
                            name: string | null;
                        } | null;
                        contact: {
                            id: string;
                            email: string | null;
                            phoneNumber: string | null;
                            firstName: string | null;
                            lastName: string | null;
                            userId: string | null;
                        } | null;
                        metadata: {
                            [key: string]: unknown;
                        };
                        createdAt: string;
                        updatedAt: string;
                    };
                };
            };
            /** @description Invalid request: a parameter or a field of the body is missing, malformed or invalid */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No valid API key or session */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The caller's role or key scopes do not allow conversations:write, or the key may not use this agent */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found in the caller's organization */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is larger than this endpoint accepts */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body's content type is not one this endpoint reads */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unexpected failure; the body carries the request id to find it in the logs */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    deleteContact: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {boolean} */
                        success: true;
                    };
                };
            };
            /** @description Invalid request: a parameter or a field of the body is missing, malformed or invalid */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No valid API key or session */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The caller's role or key scopes do not allow conversations:write, or the key may not use this agent */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No contact with this id in the caller's organization */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unexpected failure; the body carries the request id to find it in the logs */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    streamEvents: {
        parameters: {
            query?: {
                /** @description Resume after this event, as Last-Event-ID (which wins when both are sent) */
                lastEventId?: string;
            };
            header?: {
                /** @description Resume after this event (sent by EventSource when it reconnects) */
                "last-event-id"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The text/event-stream document */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "text/event-stream": string;
                };
            };
            /** @description Invalid request: a parameter or a field of the body is missing, malformed or invalid */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No valid API key or session */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The caller's role or key scopes do not allow conversations:read, or the key may not use this agent */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unexpected failure; the body carries the request id to find it in the logs */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    createDatasource: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "multipart/form-data": {
                    /** @enum {string} */
                    type: "file";
                    datastoreId: string;
                    fileName?: string;
                    custom_id?: string;
                    /**
                     * Format: binary
                     * @description The document to index
                     */
                    file: string;
                };
                "application/json": {
                    datastoreId: string;
                    /** @enum {string} */
                    type: "web_page" | "web_site";
                    name?: string;
                    /** @description Extension in the JSON form */
                    custom_id?: string;
                    /** @description Re-sync on a schedule (web_page and web_site only; a site's pages follow it); null: only when asked */
                    syncSchedule?: ("hourly" | "daily" | "weekly") | null;
                    config: {
                        source_url?: string;
                        sitemap?: string;
                    };
                };
            };
        };
        responses: {
            /** @description Default Response */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        id: string;
                        datastoreId: string;
                        type: string;
                        name: string;
                        groupId: string | null;
                        /** @enum {string} */
                        status: "unsynched" | "pending" | "running" | "synched" | "error" | "usage_limit_reached";
                        errorMessage: string | null;
                        config: {
                            [key: string]: unknown;
                        };
                        customId: string | null;
                        chunkCount: number;
                        tokenCount: number;
                        sizeBytes: number;
                        /** @description When the last successful sync ended */
                        lastSynch: string | null;
                        syncSchedule: ("hourly" | "daily" | "weekly") | null;
                        /** @description When the scheduled re-sync is next due */
                        nextSyncAt: string | null;
                        createdAt: string;
                        updatedAt: string;
                    };
                };
            };
            /** @description Invalid request: a parameter or a field of the body is missing, malformed or invalid */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No valid API key or session */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The caller's role or key scopes do not allow knowledge:write, or the key may not use this agent */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No datastore with this datastoreId in the organization */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The file is larger than UPLOAD_MAX_BYTES */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body's content type is not one this endpoint reads */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unexpected failure; the body carries the request id to find it in the logs */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    transcribeAudio: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "multipart/form-data": {
                    /**
                     * Format: binary
                     * @description The audio: audio/wav, audio/webm or audio/ogg (Opus)
                     */
                    file: string;
                    /** @description Id of a public agent */
                    agentId: string;
                };
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        text: string;
                    };
                };
            };
            /** @description No file, a file that is not audio/wav, audio/webm or Ogg Opus, or a malformed form */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description agentId is missing, unknown, or not the id of a public agent */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Usage limit: the agent's organization cannot pay for this audio */
            402: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The audio file is larger than TRANSCRIBE_MAX_BYTES */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body's content type is not one this endpoint reads */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many requests from this address; retry later */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Transcription failed, or speech-to-text is not configured */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getPublicAgent: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                agentId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        id: string;
                        name: string;
                        description: string;
                        iconUrl: string | null;
                    };
                };
            };
            /** @description Invalid request: a parameter or a field of the body is missing, malformed or invalid */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The request's Origin is not in the agent's allowedOrigins */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No public agent with this id (a private agent answers the same) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unexpected failure; the body carries the request id to find it in the logs */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    publicChat: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                agentId: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description The visitor's question, at most PUBLIC_CHAT_MAX_QUESTION_CHARS characters (default 2000) */
                    query: string;
                    /** @description The browser's own random id for this visitor, kept across page loads */
                    visitorId: string;
                    /** @description Continue this conversation: only one this visitor started here */
                    conversationId?: string;
                    /** @default false */
                    streaming?: boolean;
                };
            };
        };
        responses: {
            /** @description The answer as JSON, or as Server-Sent Events. With `streaming: true`, a text/event-stream: zero or more `event: answer` frames whose data is a fragment of the answer (in order, the fragments make the answer), one `event: endpoint_response` frame whose data is the JSON of the non-streaming answer, then a frame with data `[DONE]`. A failure after the stream started is a frame with data `[ERROR] <message>`. Lines starting with `:` are keep-alive comments; data spanning several lines is sent as one `data:` line per line. Errors found before the stream starts are answered with their status and the JSON error body. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        answer: string;
                        sources: {
                            source: string;
                            chunk: string;
                        }[];
                        messageId: string;
                        conversationId: string;
                        visitorId: string;
                        request_human: boolean;
                        status: string;
                    };
                    "text/event-stream": string;
                };
            };
            /** @description Invalid body: an unknown field, a question too long or empty, a bad visitorId */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Usage limit: the agent's organization has no credits left, or its plan blocks it */
            402: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The request's Origin is not in the agent's allowedOrigins */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No public agent with this id (a private agent answers the same); or conversationId is not a conversation this visitor started here (type CONVERSATION_NOT_FOUND) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is larger than this endpoint accepts */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body's content type is not one this endpoint reads */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many messages from this visitor or this address (Retry-After) */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The message could not be processed (the model provider failed) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The embedding model of a datastore of the agent answered with an error */
            502: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The embedding model of a datastore of the agent is not available */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getPublicConversation: {
        parameters: {
            query: {
                /** @description The browser's own random id for this visitor, kept across page loads */
                visitorId: string;
            };
            header?: never;
            path: {
                agentId: string;
                conversationId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        conversationId: string;
                        messages: {
                            id: string;
                            /** @enum {string} */
                            from: "human" | "agent";
                            text: string;
                            sources: {
                                source: string;
                                chunk: string;
                            }[];
                            createdAt: string;
                        }[];
                    };
                };
            };
            /** @description Invalid request: a parameter or a field of the body is missing, malformed or invalid */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The request's Origin is not in the agent's allowedOrigins */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No public agent with this id (a private agent answers the same); or the conversation was not started here by this visitorId (type CONVERSATION_NOT_FOUND) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unexpected failure; the body carries the request id to find it in the logs */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    streamPublicConversationEvents: {
        parameters: {
            query: {
                /** @description The browser's own random id for this visitor, kept across page loads */
                visitorId: string;
                /** @description Resume after this event, as Last-Event-ID (which wins when both are sent) */
                lastEventId?: string;
            };
            header?: {
                /** @description Resume after this event (sent by EventSource when it reconnects) */
                "last-event-id"?: string;
            };
            path: {
                agentId: string;
                conversationId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The text/event-stream document */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "text/event-stream": string;
                };
            };
            /** @description Invalid request: a parameter or a field of the body is missing, malformed or invalid */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The request's Origin is not in the agent's allowedOrigins */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No public agent with this id (a private agent answers the same); or the conversation was not started here by this visitorId (type CONVERSATION_NOT_FOUND) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unexpected failure; the body carries the request id to find it in the logs */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    annotatePublicAnswer: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                agentId: string;
                conversationId: string;
                messageId: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description The browser's own random id for this visitor, kept across page loads */
                    visitorId: string;
                    /** @enum {string} */
                    sentiment: "good" | "bad";
                    /** @description What the visitor wrote; without it the annotation says which button was used */
                    comment?: string;
                };
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        id: string;
                        messageId: string;
                        conversationId: string;
                        sentiment: string;
                        comment: string;
                        createdAt: string;
                        updatedAt: string;
                    };
                };
            };
            /** @description Invalid body: an unknown field, a bad visitorId or sentiment */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The request's Origin is not in the agent's allowedOrigins */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No public agent with this id (a private agent answers the same); or the conversation is not this visitor's (type CONVERSATION_NOT_FOUND); or the message is not an answer in it */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is larger than this endpoint accepts */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body's content type is not one this endpoint reads */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many requests from this visitor or this address (Retry-After) */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unexpected failure; the body carries the request id to find it in the logs */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    transcribePublicAudio: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                agentId: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "multipart/form-data": {
                    /**
                     * Format: binary
                     * @description The audio: audio/wav, audio/webm or audio/ogg (Opus)
                     */
                    file: string;
                };
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        text: string;
                    };
                };
            };
            /** @description No file, a file that is not audio/wav, audio/webm or Ogg Opus, or a malformed form */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Usage limit: the agent's organization cannot pay for this audio */
            402: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The request's Origin is not in the agent's allowedOrigins */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No public agent with this id (a private agent answers the same) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The audio file is larger than TRANSCRIBE_MAX_BYTES */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body's content type is not one this endpoint reads */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many requests from this address (Retry-After) */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Transcription failed, or speech-to-text is not configured */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listWebhookDeliveries: {
        parameters: {
            query?: {
                /** @description The conversation's agent: required when several agents use this id */
                agentId?: string;
            };
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: {
                            /** @description The X-Service-Delivery header, the same on every attempt */
                            id: string;
                            event: string;
                            url: string;
                            /**
                             * @description The payload's status
                             * @enum {string}
                             */
                            status: "success" | "error";
                            /** @enum {string} */
                            state: "pending" | "sending" | "retrying" | "delivered" | "failed";
                            attemptCount: number;
                            nextAttemptAt: string | null;
                            lastError: string | null;
                            deliveredAt: string | null;
                            createdAt: string;
                            /** @description The JSON body as sent */
                            payload: unknown;
                            attempts: {
                                attempt: number;
                                /** @enum {string} */
                                outcome: "delivered" | "failed";
                                responseStatus: number | null;
                                responseSnippet: string | null;
                                error: string | null;
                                durationMs: number;
                                startedAt: string;
                            }[];
                        }[];
                    };
                };
            };
            /** @description Invalid request: a parameter or a field of the body is missing, malformed or invalid */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No valid API key or session */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The caller's role or key scopes do not allow conversations:read, or the key may not use this agent */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found in the caller's organization */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unexpected failure; the body carries the request id to find it in the logs */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    queryFollowUp: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description Reads the last 24 messages of this conversation of the agent */
                    conversationId?: string;
                    /** @description The conversation inline, oldest first (instead of conversationId) */
                    messages?: {
                        /** @enum {string} */
                        from: "human" | "agent";
                        text: string;
                    }[];
                    /** @description Follow-up instructions replacing the agent's saved follow-up prompt, this request only */
                    prompt?: string;
                    /**
                     * @description true skips classification; filter is null
                     * @default false
                     */
                    skipFilter?: boolean;
                    /**
                     * @description Store the message as an agent message (dashboard, website, form or api conversations)
                     * @default false
                     */
                    saveToConversation?: boolean;
                    /**
                     * @description Only false is accepted
                     * @default false
                     */
                    streaming?: boolean;
                };
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        answer: string;
                        filter: {
                            /** @enum {string} */
                            verdict: "follow_up_conversation" | "permit" | "skip";
                            wouldSend: boolean;
                        } | null;
                        prompt: string;
                        /** @enum {string} */
                        promptSource: "request" | "agent";
                        conversationId: string | null;
                        messageId: string | null;
                        model: string;
                        usage: {
                            inputTokens: number;
                            outputTokens: number;
                        };
                    };
                };
            };
            /** @description Invalid request: a parameter or a field of the body is missing, malformed or invalid */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The agent belongs to another organization */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Usage limit: the organization has no credits left (type USAGE_LIMIT) */
            402: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No valid API key or session */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such agent (NOT_FOUND), or no such conversation of it (CONVERSATION_NOT_FOUND) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is larger than this endpoint accepts */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body's content type is not one this endpoint reads */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The model returned an empty response; the message gives the finish reason */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    replyToConversation: {
        parameters: {
            query?: {
                /** @description The conversation's agent: required when several agents use this id */
                agentId?: string;
            };
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    text: string;
                };
            };
        };
        responses: {
            /** @description Default Response */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        id: string;
                        /** @enum {string} */
                        from: "human" | "agent";
                        text: string;
                        sources: ({
                            source: string;
                            chunk: string;
                        } & {
                            [key: string]: unknown;
                        })[];
                        usage: {
                            completionTokens: number;
                            promptTokens: number;
                            totalTokens: number;
                            cost: number;
                        } | null;
                        attachments: {
                            url: string;
                        }[];
                        metadata: {
                            [key: string]: unknown;
                        };
                        isDraft: boolean;
                        agentId: string | null;
                        /** @description Extension: the agent's version (GET /api/agents/{id}/versions) whose fields wrote this AI answer; null for other messages */
                        agentVersion: number | null;
                        createdAt: string;
                        /** @description An operator's reply: who wrote it (a member, or the key's name) */
                        user?: {
                            id: string;
                            email: string | null;
                            name: string | null;
                        };
                        /** @description Messages sent through a channel: what the platform did with them */
                        delivery?: {
                            /** @enum {string} */
                            status: "queued" | "sent" | "delivered" | "read" | "failed";
                            platformMessageId: string | null;
                            error: string | null;
                        };
                    };
                };
            };
            /** @description Invalid request: a parameter or a field of the body is missing, malformed or invalid */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No valid API key or session */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The caller's role or key scopes do not allow conversations:write, or the key may not use this agent */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found in the caller's organization */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description WhatsApp: the customer's last message is more than 24 hours old */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is larger than this endpoint accepts */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body's content type is not one this endpoint reads */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unexpected failure; the body carries the request id to find it in the logs */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listEventSubscriptions: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: {
                            id: string;
                            url: string;
                            events: ("conversation.human_requested" | "conversation.resolved" | "message.created" | "lead.created")[];
                            createdAt: string;
                        }[];
                    };
                };
            };
            /** @description No valid API key or session */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The caller's role or key scopes do not allow settings:write, or the key may not use this agent */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unexpected failure; the body carries the request id to find it in the logs */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    createEventSubscription: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /**
                     * Format: uri
                     * @description Where the events are POSTed: a public http(s) address
                     */
                    url: string;
                    /** @description The events to send; lead.created only for instance administrators */
                    events: ("conversation.human_requested" | "conversation.resolved" | "message.created" | "lead.created")[];
                };
            };
        };
        responses: {
            /** @description Default Response */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        id: string;
                        url: string;
                        events: ("conversation.human_requested" | "conversation.resolved" | "message.created" | "lead.created")[];
                        createdAt: string;
                    };
                };
            };
            /** @description Invalid request: a parameter or a field of the body is missing, malformed or invalid */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No valid API key or session */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The caller's role or key scopes do not allow settings:write, or the key may not use this agent */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is larger than this endpoint accepts */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body's content type is not one this endpoint reads */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unexpected failure; the body carries the request id to find it in the logs */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getEventSubscription: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        id: string;
                        url: string;
                        events: ("conversation.human_requested" | "conversation.resolved" | "message.created" | "lead.created")[];
                        createdAt: string;
                        recentDeliveries: {
                            /** @description Its X-Service-Delivery header, the same on every attempt */
                            id: string;
                            event: string;
                            /** @enum {string} */
                            state: "pending" | "sending" | "retrying" | "delivered" | "failed";
                            attempts: number;
                            lastError: string | null;
                            createdAt: string;
                            deliveredAt: string | null;
                        }[];
                    };
                };
            };
            /** @description Invalid request: a parameter or a field of the body is missing, malformed or invalid */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No valid API key or session */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The caller's role or key scopes do not allow settings:write, or the key may not use this agent */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found in the caller's organization */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unexpected failure; the body carries the request id to find it in the logs */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    deleteEventSubscription: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Deleted */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Invalid request: a parameter or a field of the body is missing, malformed or invalid */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No valid API key or session */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The caller's role or key scopes do not allow settings:write, or the key may not use this agent */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found in the caller's organization */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unexpected failure; the body carries the request id to find it in the logs */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listEvalSets: {
        parameters: {
            query?: {
                agentId?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: {
                            id: string;
                            name: string;
                            agentId: string;
                            caseCount: number;
                            createdAt: string;
                            updatedAt: string;
                        }[];
                    };
                };
            };
            /** @description Invalid request: a parameter or a field of the body is missing, malformed or invalid */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No valid API key or session */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The caller's role or key scopes do not allow agents:read, or the key may not use this agent */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unexpected failure; the body carries the request id to find it in the logs */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    createEvalSet: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    name: string;
                    /** @description The agent whose answers the set checks */
                    agentId: string;
                };
            };
        };
        responses: {
            /** @description Default Response */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        id: string;
                        name: string;
                        agentId: string;
                        caseCount: number;
                        createdAt: string;
                        updatedAt: string;
                    };
                };
            };
            /** @description Invalid request: a parameter or a field of the body is missing, malformed or invalid */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No valid API key or session */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The caller's role or key scopes do not allow agents:write, or the key may not use this agent */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description the agent is not one of the organization's */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is larger than this endpoint accepts */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body's content type is not one this endpoint reads */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unexpected failure; the body carries the request id to find it in the logs */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getEvalSet: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        id: string;
                        name: string;
                        agentId: string;
                        caseCount: number;
                        createdAt: string;
                        updatedAt: string;
                    };
                };
            };
            /** @description Invalid request: a parameter or a field of the body is missing, malformed or invalid */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No valid API key or session */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The caller's role or key scopes do not allow agents:read, or the key may not use this agent */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found in the caller's organization */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unexpected failure; the body carries the request id to find it in the logs */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    deleteEvalSet: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Deleted */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Invalid request: a parameter or a field of the body is missing, malformed or invalid */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No valid API key or session */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The caller's role or key scopes do not allow agents:write, or the key may not use this agent */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found in the caller's organization */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unexpected failure; the body carries the request id to find it in the logs */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listEvalCases: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: {
                            id: string;
                            evalSetId: string;
                            question: string;
                            history: {
                                /** @enum {string} */
                                from: "human" | "agent";
                                text: string;
                            }[];
                            expectedAnswer: string | null;
                            mustInclude: string[];
                            mustNotInclude: string[];
                            expectedSources: string[];
                            /** @description The annotation it was imported from */
                            annotationId: string | null;
                            createdAt: string;
                        }[];
                    };
                };
            };
            /** @description Invalid request: a parameter or a field of the body is missing, malformed or invalid */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No valid API key or session */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The caller's role or key scopes do not allow agents:read, or the key may not use this agent */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found in the caller's organization */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unexpected failure; the body carries the request id to find it in the logs */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    createEvalCase: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description The customer's message to answer */
                    question: string;
                    /**
                     * @description The conversation before the question, oldest first
                     * @default []
                     */
                    history?: {
                        /** @enum {string} */
                        from: "human" | "agent";
                        text: string;
                    }[];
                    /** @description What a good answer says: judged by the run's judgeModel */
                    expectedAnswer?: string;
                    /**
                     * @description Phrases the answer must contain (ignoring case)
                     * @default []
                     */
                    mustInclude?: string[];
                    /**
                     * @description Phrases the answer must not contain (ignoring case)
                     * @default []
                     */
                    mustNotInclude?: string[];
                    /**
                     * @description Sources (a datasource's file name or URL, as the answer's sources name them) the answer must cite
                     * @default []
                     */
                    expectedSources?: string[];
                };
            };
        };
        responses: {
            /** @description Default Response */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        id: string;
                        evalSetId: string;
                        question: string;
                        history: {
                            /** @enum {string} */
                            from: "human" | "agent";
                            text: string;
                        }[];
                        expectedAnswer: string | null;
                        mustInclude: string[];
                        mustNotInclude: string[];
                        expectedSources: string[];
                        /** @description The annotation it was imported from */
                        annotationId: string | null;
                        createdAt: string;
                    };
                };
            };
            /** @description Invalid request: a parameter or a field of the body is missing, malformed or invalid */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No valid API key or session */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The caller's role or key scopes do not allow agents:write, or the key may not use this agent */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found in the caller's organization */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description the set already holds 1,000 cases */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is larger than this endpoint accepts */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body's content type is not one this endpoint reads */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unexpected failure; the body carries the request id to find it in the logs */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    deleteEvalCase: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
                caseId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Deleted */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Invalid request: a parameter or a field of the body is missing, malformed or invalid */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No valid API key or session */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The caller's role or key scopes do not allow agents:write, or the key may not use this agent */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found in the caller's organization */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unexpected failure; the body carries the request id to find it in the logs */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    importEvalCases: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @enum {string} */
                    from: "annotations";
                    /** @enum {string} */
                    sentiment?: "good" | "bad";
                    status?: string;
                    /** @description Annotations with any of these tags */
                    tagIds?: string[];
                };
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        imported: number;
                        skipped: number;
                        data: {
                            id: string;
                            evalSetId: string;
                            question: string;
                            history: {
                                /** @enum {string} */
                                from: "human" | "agent";
                                text: string;
                            }[];
                            expectedAnswer: string | null;
                            mustInclude: string[];
                            mustNotInclude: string[];
                            expectedSources: string[];
                            /** @description The annotation it was imported from */
                            annotationId: string | null;
                            createdAt: string;
                        }[];
                    };
                };
            };
            /** @description Invalid request: a parameter or a field of the body is missing, malformed or invalid */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No valid API key or session */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The caller's role or key scopes do not allow agents:write, or the key may not use this agent */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found in the caller's organization */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is larger than this endpoint accepts */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body's content type is not one this endpoint reads */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unexpected failure; the body carries the request id to find it in the logs */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listEvalRuns: {
        parameters: {
            query?: {
                evalSetId?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: {
                            id: string;
                            evalSetId: string;
                            agentId: string;
                            agentVersion: number | null;
                            overrides: {
                                [key: string]: unknown;
                            };
                            judgeModel: string | null;
                            /** @enum {string} */
                            status: "queued" | "running" | "completed" | "failed";
                            /** @description Why a failed run stopped */
                            error: string | null;
                            createdAt: string;
                            startedAt: string | null;
                            finishedAt: string | null;
                            summary: {
                                cases: number;
                                /** @description Cases answered and checked so far: the run's progress */
                                done: number;
                                passed: number;
                                failed: number;
                                /** @description Passed cases of all the run's cases, 0 to 1 */
                                passRate: number;
                                /** @description Expected sources the answers cited, of all expected, 0 to 1; null when none */
                                sourceHitRate: number | null;
                                p50LatencyMs: number | null;
                                credits: number;
                            };
                        }[];
                    };
                };
            };
            /** @description Invalid request: a parameter or a field of the body is missing, malformed or invalid */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No valid API key or session */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The caller's role or key scopes do not allow agents:read, or the key may not use this agent */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unexpected failure; the body carries the request id to find it in the logs */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    startEvalRun: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    evalSetId: string;
                    /** @description The agent version to replay; the agent as it is by default */
                    agentVersion?: number;
                    overrides?: {
                        systemPrompt?: string;
                        /** @enum {string} */
                        modelName?: "gpt_4o" | "gpt_4o_mini" | "gpt_41" | "gpt_41_mini" | "gpt_41_nano" | "claude_3_7_sonnet" | "claude_4_sonnet" | "gemini_2_5_flash" | "gemini_2_5_pro" | "grok_3" | "grok_3_beta" | "grok_3_fast_beta" | "grok_3_mini_beta" | "grok_3_mini_fast_beta" | "sonar_pro" | "sonar" | "llama_3_3_70b" | "llama_4_maverick_17b" | "model_route";
                        temperature?: number;
                        retrievalEvaluationConfig?: {
                            evaluatorPrompt?: string;
                            generateQueryPrompt?: string;
                            /** @enum {string} */
                            evaluatorModelName?: "gpt_4o" | "gpt_4o_mini" | "gpt_41" | "gpt_41_mini" | "gpt_41_nano" | "claude_3_7_sonnet" | "claude_4_sonnet" | "gemini_2_5_flash" | "gemini_2_5_pro" | "grok_3" | "grok_3_beta" | "grok_3_fast_beta" | "grok_3_mini_beta" | "grok_3_mini_fast_beta" | "sonar_pro" | "sonar" | "llama_3_3_70b" | "llama_4_maverick_17b" | "model_route";
                            retrievalRounds?: number;
                            evaluationThreshold?: number;
                            additionalConfig?: {
                                topP?: number;
                                topK?: number;
                                presencePenalty?: number;
                                frequencyPenalty?: number;
                                seed?: number;
                                stopSequences?: string[];
                                providerOptions?: {
                                    [key: string]: {
                                        [key: string]: unknown;
                                    };
                                };
                            } & {
                                [key: string]: unknown;
                            };
                            /** @enum {string} */
                            retrievalModelName?: "gpt_4o" | "gpt_4o_mini" | "gpt_41" | "gpt_41_mini" | "gpt_41_nano" | "claude_3_7_sonnet" | "claude_4_sonnet" | "gemini_2_5_flash" | "gemini_2_5_pro" | "grok_3" | "grok_3_beta" | "grok_3_fast_beta" | "grok_3_mini_beta" | "grok_3_mini_fast_beta" | "sonar_pro" | "sonar" | "llama_3_3_70b" | "llama_4_maverick_17b" | "model_route";
                            /** @enum {string} */
                            generationModelName?: "gpt_4o" | "gpt_4o_mini" | "gpt_41" | "gpt_41_mini" | "gpt_41_nano" | "claude_3_7_sonnet" | "claude_4_sonnet" | "gemini_2_5_flash" | "gemini_2_5_pro" | "grok_3" | "grok_3_beta" | "grok_3_fast_beta" | "grok_3_mini_beta" | "grok_3_mini_fast_beta" | "sonar_pro" | "sonar" | "llama_3_3_70b" | "llama_4_maverick_17b" | "model_route";
                            fallbackModels?: ("gpt_4o" | "gpt_4o_mini" | "gpt_41" | "gpt_41_mini" | "gpt_41_nano" | "claude_3_7_sonnet" | "claude_4_sonnet" | "gemini_2_5_flash" | "gemini_2_5_pro" | "grok_3" | "grok_3_beta" | "grok_3_fast_beta" | "grok_3_mini_beta" | "grok_3_mini_fast_beta" | "sonar_pro" | "sonar" | "llama_3_3_70b" | "llama_4_maverick_17b" | "model_route")[];
                            modelTemperatures?: {
                                [key: string]: number;
                            };
                            modelMaxTokens?: {
                                [key: string]: number;
                            };
                            enableModelComparison?: boolean;
                            comparisonModels?: ("gpt_4o" | "gpt_4o_mini" | "gpt_41" | "gpt_41_mini" | "gpt_41_nano" | "claude_3_7_sonnet" | "claude_4_sonnet" | "gemini_2_5_flash" | "gemini_2_5_pro" | "grok_3" | "grok_3_beta" | "grok_3_fast_beta" | "grok_3_mini_beta" | "grok_3_mini_fast_beta" | "sonar_pro" | "sonar" | "llama_3_3_70b" | "llama_4_maverick_17b" | "model_route")[];
                        } & {
                            [key: string]: unknown;
                        };
                    };
                    /**
                     * @description The model that scores answers against expectedAnswer
                     * @enum {string}
                     */
                    judgeModel?: "gpt_4o" | "gpt_4o_mini" | "gpt_41" | "gpt_41_mini" | "gpt_41_nano" | "claude_3_7_sonnet" | "claude_4_sonnet" | "gemini_2_5_flash" | "gemini_2_5_pro" | "grok_3" | "grok_3_beta" | "grok_3_fast_beta" | "grok_3_mini_beta" | "grok_3_mini_fast_beta" | "sonar_pro" | "sonar" | "llama_3_3_70b" | "llama_4_maverick_17b" | "model_route";
                };
            };
        };
        responses: {
            /** @description Default Response */
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        id: string;
                        /** @enum {string} */
                        status: "queued";
                        /** @description Cases the run will replay */
                        cases: number;
                    };
                };
            };
            /** @description the set has no cases, the version does not exist, or a model is unknown */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No valid API key or session */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The caller's role or key scopes do not allow query, or the key may not use this agent */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description the eval set is not one of the organization's */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is larger than this endpoint accepts */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body's content type is not one this endpoint reads */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unexpected failure; the body carries the request id to find it in the logs */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getEvalRun: {
        parameters: {
            query?: {
                /** @description false leaves the results out: polling for progress reads the summary only */
                results?: "true" | "false";
            };
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        id: string;
                        evalSetId: string;
                        agentId: string;
                        agentVersion: number | null;
                        overrides: {
                            [key: string]: unknown;
                        };
                        judgeModel: string | null;
                        /** @enum {string} */
                        status: "queued" | "running" | "completed" | "failed";
                        /** @description Why a failed run stopped */
                        error: string | null;
                        createdAt: string;
                        startedAt: string | null;
                        finishedAt: string | null;
                        summary: {
                            cases: number;
                            /** @description Cases answered and checked so far: the run's progress */
                            done: number;
                            passed: number;
                            failed: number;
                            /** @description Passed cases of all the run's cases, 0 to 1 */
                            passRate: number;
                            /** @description Expected sources the answers cited, of all expected, 0 to 1; null when none */
                            sourceHitRate: number | null;
                            p50LatencyMs: number | null;
                            credits: number;
                        };
                        results: {
                            caseId: string;
                            question: string;
                            answer: string | null;
                            sources: {
                                source: string;
                                chunk: string;
                            }[];
                            passed: boolean;
                            checks: {
                                name: string;
                                passed: boolean;
                                detail: string;
                            }[];
                            judge: {
                                score: number;
                                reasoning: string;
                            } | null;
                            latencyMs: number | null;
                            credits: number;
                        }[];
                    };
                };
            };
            /** @description Invalid request: a parameter or a field of the body is missing, malformed or invalid */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No valid API key or session */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The caller's role or key scopes do not allow agents:read, or the key may not use this agent */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found in the caller's organization */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unexpected failure; the body carries the request id to find it in the logs */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    compareEvalRuns: {
        parameters: {
            query: {
                /** @description The run to compare with */
                baseline: string;
            };
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        runId: string;
                        baselineRunId: string;
                        /** @enum {string} */
                        status: "queued" | "running" | "completed" | "failed";
                        /** @enum {string} */
                        baselineStatus: "queued" | "running" | "completed" | "failed";
                        passRate: number;
                        baselinePassRate: number;
                        fixed: number;
                        regressed: number;
                        unchanged: number;
                        added: number;
                        removed: number;
                        cases: {
                            caseId: string;
                            question: string;
                            baselinePassed: boolean | null;
                            passed: boolean | null;
                            /** @enum {string} */
                            change: "fixed" | "regressed" | "unchanged" | "added" | "removed";
                        }[];
                    };
                };
            };
            /** @description the baseline is a run of another eval set */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No valid API key or session */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The caller's role or key scopes do not allow agents:read, or the key may not use this agent */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found in the caller's organization */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unexpected failure; the body carries the request id to find it in the logs */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listChannels: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                agentId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: {
                            id: string;
                            agentId: string;
                            /** @enum {string} */
                            type: "telegram" | "whatsapp" | "slack" | "meta" | "chatwoot" | "mail";
                            name: string;
                            enabled: boolean;
                            /** @enum {string} */
                            status: "active" | "error";
                            /** @description Where the platform sends events: PUBLIC_URL/channels/{type}/{id} */
                            webhookUrl: string;
                            /** @description The settings; credentials masked as "••••" and their last 4 characters */
                            config: {
                                [key: string]: string | {
                                    [key: string]: string;
                                };
                            };
                            /** @description Mail only, in the answer to creating the channel: the bearer token of webhookUrl, never shown again */
                            inboundToken?: string;
                            /** @description What the platform said when it last refused us */
                            lastError: string | null;
                            /** @description When the platform last reached this channel */
                            lastEventAt: string | null;
                            createdAt: string;
                            updatedAt: string;
                        }[];
                    };
                };
            };
            /** @description Invalid request: a parameter or a field of the body is missing, malformed or invalid */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No valid API key or session */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The caller's role or key scopes do not allow channels:read, or the key may not use this agent */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found in the caller's organization */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unexpected failure; the body carries the request id to find it in the logs */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    createChannel: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                agentId: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @enum {string} */
                    type: "telegram" | "whatsapp" | "slack" | "meta" | "chatwoot" | "mail";
                    name?: string;
                    /** @description The platform's settings (docs/channels.md); credentials are write-only */
                    config: {
                        [key: string]: unknown;
                    };
                };
            };
        };
        responses: {
            /** @description Default Response */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        id: string;
                        agentId: string;
                        /** @enum {string} */
                        type: "telegram" | "whatsapp" | "slack" | "meta" | "chatwoot" | "mail";
                        name: string;
                        enabled: boolean;
                        /** @enum {string} */
                        status: "active" | "error";
                        /** @description Where the platform sends events: PUBLIC_URL/channels/{type}/{id} */
                        webhookUrl: string;
                        /** @description The settings; credentials masked as "••••" and their last 4 characters */
                        config: {
                            [key: string]: string | {
                                [key: string]: string;
                            };
                        };
                        /** @description Mail only, in the answer to creating the channel: the bearer token of webhookUrl, never shown again */
                        inboundToken?: string;
                        /** @description What the platform said when it last refused us */
                        lastError: string | null;
                        /** @description When the platform last reached this channel */
                        lastEventAt: string | null;
                        createdAt: string;
                        updatedAt: string;
                    };
                };
            };
            /** @description Invalid request: a parameter or a field of the body is missing, malformed or invalid */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No valid API key or session */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The caller's role or key scopes do not allow channels:write, or the key may not use this agent */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found in the caller's organization */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is larger than this endpoint accepts */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body's content type is not one this endpoint reads */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unexpected failure; the body carries the request id to find it in the logs */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getChannel: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        id: string;
                        agentId: string;
                        /** @enum {string} */
                        type: "telegram" | "whatsapp" | "slack" | "meta" | "chatwoot" | "mail";
                        name: string;
                        enabled: boolean;
                        /** @enum {string} */
                        status: "active" | "error";
                        /** @description Where the platform sends events: PUBLIC_URL/channels/{type}/{id} */
                        webhookUrl: string;
                        /** @description The settings; credentials masked as "••••" and their last 4 characters */
                        config: {
                            [key: string]: string | {
                                [key: string]: string;
                            };
                        };
                        /** @description Mail only, in the answer to creating the channel: the bearer token of webhookUrl, never shown again */
                        inboundToken?: string;
                        /** @description What the platform said when it last refused us */
                        lastError: string | null;
                        /** @description When the platform last reached this channel */
                        lastEventAt: string | null;
                        createdAt: string;
                        updatedAt: string;
                    };
                };
            };
            /** @description Invalid request: a parameter or a field of the body is missing, malformed or invalid */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No valid API key or session */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The caller's role or key scopes do not allow channels:read, or the key may not use this agent */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found in the caller's organization */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unexpected failure; the body carries the request id to find it in the logs */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    deleteChannel: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Deleted */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Invalid request: a parameter or a field of the body is missing, malformed or invalid */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No valid API key or session */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The caller's role or key scopes do not allow channels:write, or the key may not use this agent */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found in the caller's organization */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unexpected failure; the body carries the request id to find it in the logs */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    updateChannel: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    name?: string;
                    enabled?: boolean;
                    config?: {
                        [key: string]: unknown;
                    };
                };
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        id: string;
                        agentId: string;
                        /** @enum {string} */
                        type: "telegram" | "whatsapp" | "slack" | "meta" | "chatwoot" | "mail";
                        name: string;
                        enabled: boolean;
                        /** @enum {string} */
                        status: "active" | "error";
                        /** @description Where the platform sends events: PUBLIC_URL/channels/{type}/{id} */
                        webhookUrl: string;
                        /** @description The settings; credentials masked as "••••" and their last 4 characters */
                        config: {
                            [key: string]: string | {
                                [key: string]: string;
                            };
                        };
                        /** @description Mail only, in the answer to creating the channel: the bearer token of webhookUrl, never shown again */
                        inboundToken?: string;
                        /** @description What the platform said when it last refused us */
                        lastError: string | null;
                        /** @description When the platform last reached this channel */
                        lastEventAt: string | null;
                        createdAt: string;
                        updatedAt: string;
                    };
                };
            };
            /** @description Invalid request: a parameter or a field of the body is missing, malformed or invalid */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No valid API key or session */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The caller's role or key scopes do not allow channels:write, or the key may not use this agent */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found in the caller's organization */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is larger than this endpoint accepts */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body's content type is not one this endpoint reads */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unexpected failure; the body carries the request id to find it in the logs */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    verifyChannelWebhook: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                type: "telegram" | "whatsapp" | "slack" | "meta" | "chatwoot" | "mail";
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description hub.challenge, as text, when the verify token matches */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": string;
                };
            };
            /** @description Invalid request: a parameter or a field of the body is missing, malformed or invalid */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found in the caller's organization */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unexpected failure; the body carries the request id to find it in the logs */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    receiveChannelEvent: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                type: "telegram" | "whatsapp" | "slack" | "meta" | "chatwoot" | "mail";
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description {"ok":true} once stored, or the handshake answer (Slack: {challenge}) */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": string;
                };
            };
            /** @description Invalid request: a parameter or a field of the body is missing, malformed or invalid */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found in the caller's organization */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unexpected failure; the body carries the request id to find it in the logs */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listModels: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        object: "list";
                        data: {
                            /** @description The agent's id */
                            id: string;
                            /** @enum {string} */
                            object: "model";
                            /** @description When the agent was created, in unix seconds */
                            created: number;
                            /** @description The organization's id */
                            owned_by: string;
                        }[];
                    };
                };
            };
            /** @description No valid API key or session; or No valid API key (code invalid_api_key) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OpenAIError"];
                };
            };
            /** @description The caller's role or key scopes do not allow query, or the key may not use this agent */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OpenAIError"];
                };
            };
            /** @description Unexpected failure; the body carries the request id to find it in the logs */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OpenAIError"];
                };
            };
        };
    };
    getModel: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description An agent id, or an agent's handle */
                model: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description The agent's id */
                        id: string;
                        /** @enum {string} */
                        object: "model";
                        /** @description When the agent was created, in unix seconds */
                        created: number;
                        /** @description The organization's id */
                        owned_by: string;
                    };
                };
            };
            /** @description Invalid request: a parameter or a field of the body is missing, malformed or invalid */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OpenAIError"];
                };
            };
            /** @description No valid API key or session; or No valid API key (code invalid_api_key) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OpenAIError"];
                };
            };
            /** @description The caller's role or key scopes do not allow query, or the key may not use this agent */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OpenAIError"];
                };
            };
            /** @description No agent with this id or handle in the organization (code model_not_found) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OpenAIError"];
                };
            };
            /** @description Unexpected failure; the body carries the request id to find it in the logs */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OpenAIError"];
                };
            };
        };
    };
    createChatCompletion: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description The id of an agent of the organization, or its handle */
                    model: string;
                    messages: {
                        /** @enum {string} */
                        role: "system" | "developer" | "user" | "assistant";
                        content: string | {
                            /** @enum {string} */
                            type: "text";
                            text: string;
                        }[];
                        name?: string;
                    }[];
                    stream?: boolean | null;
                    stream_options?: {
                        include_usage?: boolean | null;
                    } | null;
                    temperature?: number | null;
                    max_tokens?: number | null;
                    max_completion_tokens?: number | null;
                    n?: 1 | null;
                    /** @description Stored as the conversation's visitorId */
                    user?: string;
                    metadata?: ({
                        /** @description Continues this conversation of the agent (created with this id when unknown) */
                        conversation_id?: string;
                    } & {
                        [key: string]: string;
                    }) | null;
                };
            };
        };
        responses: {
            /** @description The answer as JSON, or as Server-Sent Events. With `stream: true`, a text/event-stream of `data:` frames: chat.completion.chunk objects (the first with delta.role, then content deltas, the last with finish_reason and the `agentdesk` field; with stream_options.include_usage a last chunk with usage and no choices), then `data: [DONE]`. A failure after the headers is a `data: {"error": …}` frame. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        id: string;
                        /** @enum {string} */
                        object: "chat.completion";
                        created: number;
                        model: string;
                        system_fingerprint: null;
                        choices: {
                            index: number;
                            message: {
                                /** @enum {string} */
                                role: "assistant";
                                content: string;
                                refusal: null;
                            };
                            logprobs: null;
                            /** @enum {string} */
                            finish_reason: "stop";
                        }[];
                        usage: {
                            prompt_tokens: number;
                            completion_tokens: number;
                            total_tokens: number;
                        };
                        /** @description agentdesk's extension: what POST /api/agents/{id}/query answers besides the text */
                        agentdesk: {
                            sources: {
                                source: string;
                                chunk: string;
                            }[];
                            conversationId: string;
                            messageId: string;
                            visitorId: string;
                            requestHuman: boolean;
                            /** @description The conversation's status: UNRESOLVED, RESOLVED, HUMAN_REQUESTED */
                            status: string;
                            /** @description Credits charged for the answer */
                            cost: number;
                        };
                    };
                    "text/event-stream": string;
                };
            };
            /** @description Invalid request: a parameter or a field of the body is missing, malformed or invalid */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OpenAIError"];
                };
            };
            /** @description No valid API key or session; or No valid API key (code invalid_api_key) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OpenAIError"];
                };
            };
            /** @description The organization has no credits left, or its plan or payment blocks it (insufficient_quota) */
            402: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OpenAIError"];
                };
            };
            /** @description The caller's role or key scopes do not allow query, or the key may not use this agent */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OpenAIError"];
                };
            };
            /** @description No agent with this id or handle in the organization (code model_not_found) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OpenAIError"];
                };
            };
            /** @description The body is larger than this endpoint accepts */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OpenAIError"];
                };
            };
            /** @description The body's content type is not one this endpoint reads */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OpenAIError"];
                };
            };
            /** @description The model provider failed (server_error) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OpenAIError"];
                };
            };
            /** @description The embedding model of a datastore of the agent answered with an error */
            502: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OpenAIError"];
                };
            };
            /** @description The embedding model of a datastore of the agent is not available */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OpenAIError"];
                };
            };
        };
    };
    createResponse: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description The id of an agent of the organization, or its handle */
                    model: string;
                    input: string | {
                        /** @enum {string} */
                        type?: "message";
                        /** @enum {string} */
                        role: "system" | "developer" | "user" | "assistant";
                        content: string | {
                            /** @enum {string} */
                            type: "input_text" | "output_text" | "text";
                            text: string;
                        }[];
                    }[];
                    instructions?: string | null;
                    previous_response_id?: string | null;
                    stream?: boolean | null;
                    temperature?: number | null;
                    max_output_tokens?: number | null;
                    /** @description Stored as the conversation's visitorId */
                    user?: string;
                    metadata?: ({
                        /** @description Continues this conversation of the agent (created with this id when unknown) */
                        conversation_id?: string;
                    } & {
                        [key: string]: string;
                    }) | null;
                };
            };
        };
        responses: {
            /** @description The answer as JSON, or as Server-Sent Events. With `stream: true`, a text/event-stream of typed events (`event: <type>`, data the JSON with `type` and `sequence_number`): response.created, response.in_progress, response.output_item.added, response.content_part.added, response.output_text.delta…, response.output_text.annotation.added…, response.output_text.done, response.content_part.done, response.output_item.done, response.completed. A failure after the headers is an `error` event. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description resp_<messageId>: continue with previous_response_id */
                        id: string;
                        /** @enum {string} */
                        object: "response";
                        created_at: number;
                        /** @enum {string} */
                        status: "in_progress" | "completed" | "failed";
                        model: string;
                        output: {
                            /** @enum {string} */
                            type: "message";
                            id: string;
                            /** @enum {string} */
                            status: "in_progress" | "completed";
                            /** @enum {string} */
                            role: "assistant";
                            content: {
                                /** @enum {string} */
                                type: "output_text";
                                text: string;
                                annotations: ({
                                    /** @enum {string} */
                                    type: "url_citation";
                                    url: string;
                                    title: string;
                                    start_index: number;
                                    end_index: number;
                                } | {
                                    /** @enum {string} */
                                    type: "file_citation";
                                    /** @description The datasource's id */
                                    file_id: string;
                                    /** @description The datasource's name */
                                    filename: string;
                                    index: number;
                                    start_index: number;
                                    end_index: number;
                                })[];
                            }[];
                        }[];
                        usage: {
                            input_tokens: number;
                            input_tokens_details: {
                                cached_tokens: number;
                            };
                            output_tokens: number;
                            output_tokens_details: {
                                reasoning_tokens: number;
                            };
                            total_tokens: number;
                        } | null;
                        instructions: string | null;
                        previous_response_id: string | null;
                        metadata: {
                            [key: string]: string;
                        };
                        temperature: number | null;
                        max_output_tokens: number | null;
                        top_p: null;
                        parallel_tool_calls: boolean;
                        /** @enum {string} */
                        tool_choice: "none";
                        tools: unknown[];
                        error: null;
                        incomplete_details: null;
                        /** @description agentdesk's extension: what POST /api/agents/{id}/query answers besides the text */
                        agentdesk?: {
                            sources: {
                                source: string;
                                chunk: string;
                            }[];
                            conversationId: string;
                            messageId: string;
                            visitorId: string;
                            requestHuman: boolean;
                            /** @description The conversation's status: UNRESOLVED, RESOLVED, HUMAN_REQUESTED */
                            status: string;
                            /** @description Credits charged for the answer */
                            cost: number;
                        };
                    };
                    "text/event-stream": string;
                };
            };
            /** @description Invalid request: a parameter or a field of the body is missing, malformed or invalid */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OpenAIError"];
                };
            };
            /** @description No valid API key or session; or No valid API key (code invalid_api_key) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OpenAIError"];
                };
            };
            /** @description The organization has no credits left, or its plan or payment blocks it (insufficient_quota) */
            402: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OpenAIError"];
                };
            };
            /** @description The caller's role or key scopes do not allow query, or the key may not use this agent */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OpenAIError"];
                };
            };
            /** @description No agent with this id or handle in the organization (code model_not_found); or previous_response_id is not a response of this agent (code previous_response_not_found) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OpenAIError"];
                };
            };
            /** @description The body is larger than this endpoint accepts */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OpenAIError"];
                };
            };
            /** @description The body's content type is not one this endpoint reads */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OpenAIError"];
                };
            };
            /** @description The model provider failed (server_error) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OpenAIError"];
                };
            };
            /** @description The embedding model of a datastore of the agent answered with an error */
            502: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OpenAIError"];
                };
            };
            /** @description The embedding model of a datastore of the agent is not available */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OpenAIError"];
                };
            };
        };
    };
    mcp: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": ({
                    /** @enum {string} */
                    jsonrpc: "2.0";
                    /** @description Absent on notifications */
                    id?: string | number;
                    /** @description initialize, tools/list, tools/call, ping, notifications/initialized … */
                    method?: string;
                    params?: {
                        [key: string]: unknown;
                    };
                } & {
                    [key: string]: unknown;
                }) | ({
                    /** @enum {string} */
                    jsonrpc: "2.0";
                    /** @description Absent on notifications */
                    id?: string | number;
                    /** @description initialize, tools/list, tools/call, ping, notifications/initialized … */
                    method?: string;
                    params?: {
                        [key: string]: unknown;
                    };
                } & {
                    [key: string]: unknown;
                })[];
            };
        };
        responses: {
            /** @description The JSON-RPC response; a tool's failure is a result with isError: true */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        jsonrpc: "2.0";
                        id: (string | number) | null;
                        result?: {
                            [key: string]: unknown;
                        };
                        error?: {
                            code: number;
                            message: string;
                        } & {
                            [key: string]: unknown;
                        };
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Invalid request: a parameter or a field of the body is missing, malformed or invalid */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No valid API key or session */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The caller's role or key scopes do not allow query, or the key may not use this agent */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is larger than this endpoint accepts */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body's content type is not one this endpoint reads */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unexpected failure; the body carries the request id to find it in the logs */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listOrganizations: {
        parameters: {
            query?: {
                limit?: number;
                /** @description nextCursor of the previous page */
                cursor?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: {
                            id: string;
                            name: string;
                            /** @enum {string} */
                            billingModel: "credits" | "legacy";
                            plan: string;
                            /** @enum {string} */
                            subscriptionStatus: "active" | "past_due" | "none";
                            queryLimit: number | null;
                            conversationRetentionDays: number | null;
                            createdAt: string;
                        }[];
                        nextCursor: string | null;
                    };
                };
            };
            /** @description Invalid query parameters (a bad limit or cursor) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No valid admin token or instance administrator's session */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Signed in, but not an instance administrator */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unexpected failure; the body carries the request id to find it in the logs */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    createOrganization: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    name: string;
                    /** Format: email */
                    ownerEmail?: string;
                    /** @enum {string} */
                    billingModel?: "credits" | "legacy";
                    plan?: string;
                };
            };
        };
        responses: {
            /** @description Default Response */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description The key itself, shown only here */
                        apiKey: string;
                        apiKeyId: string;
                        organization: {
                            id: string;
                            name: string;
                        };
                        user: {
                            id: string;
                            email: string | null;
                        };
                    };
                };
            };
            /** @description Invalid request: a parameter or a field of the body is missing, malformed or invalid */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No valid admin token or instance administrator's session */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Signed in, but not an instance administrator */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is larger than this endpoint accepts */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body's content type is not one this endpoint reads */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unexpected failure; the body carries the request id to find it in the logs */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listApiKeys: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: {
                            id: string;
                            name: string;
                            /** @description The key's first characters, to recognise it; never the key */
                            keyPrefix: string;
                            createdAt: string;
                            /** @description To the minute */
                            lastUsedAt: string | null;
                            revokedAt: string | null;
                        }[];
                    };
                };
            };
            /** @description Invalid request: a parameter or a field of the body is missing, malformed or invalid */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No valid admin token or instance administrator's session */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Signed in, but not an instance administrator */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No organization with this id */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unexpected failure; the body carries the request id to find it in the logs */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    issueApiKey: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    name?: string;
                } | null;
            };
        };
        responses: {
            /** @description Default Response */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description The key itself, shown only here */
                        apiKey: string;
                        apiKeyId: string;
                    };
                };
            };
            /** @description Invalid request: a parameter or a field of the body is missing, malformed or invalid */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No valid admin token or instance administrator's session */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Signed in, but not an instance administrator */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No organization with this id */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is larger than this endpoint accepts */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body's content type is not one this endpoint reads */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unexpected failure; the body carries the request id to find it in the logs */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listLeads: {
        parameters: {
            query?: {
                /** @description Leads created at or after this date or date-time */
                since?: string;
                /** @description Leads created before this date-time; a date includes that whole day */
                until?: string;
                /** @description Exactly this source */
                source?: string;
                /** @description This email, ignoring case */
                email?: string;
                limit?: number;
                /** @description nextCursor of the previous page */
                cursor?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: {
                            id: string;
                            name: string;
                            email: string;
                            phone: string | null;
                            source: string | null;
                            postSlug: string | null;
                            company: string | null;
                            industry: string | null;
                            companySize: string | null;
                            area: string | null;
                            hoursPerWeek: string | null;
                            aiToday: string | null;
                            score: number | null;
                            levelLabel: string | null;
                            recommendedAgent: string | null;
                            /** @description Keyed hash of the client IP; the address itself is never stored */
                            ipHash: string | null;
                            userAgent: string | null;
                            createdAt: string;
                        }[];
                        nextCursor: string | null;
                    };
                };
            };
            /** @description Invalid query parameters (a bad date or cursor, since not before until) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No valid admin token or instance administrator's session */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Signed in, but not an instance administrator */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unexpected failure; the body carries the request id to find it in the logs */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    exportLeads: {
        parameters: {
            query?: {
                /** @description Leads created at or after this date or date-time */
                since?: string;
                /** @description Leads created before this date-time; a date includes that whole day */
                until?: string;
                /** @description Exactly this source */
                source?: string;
                /** @description This email, ignoring case */
                email?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The text/csv document */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "text/csv": string;
                };
            };
            /** @description Invalid query parameters (a bad date or cursor, since not before until) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No valid admin token or instance administrator's session */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Signed in, but not an instance administrator */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The export failed */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    deleteLead: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Deleted */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Invalid request: a parameter or a field of the body is missing, malformed or invalid */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No valid admin token or instance administrator's session */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Signed in, but not an instance administrator */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No lead with this id */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unexpected failure; the body carries the request id to find it in the logs */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    revokeApiKey: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
                keyId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Revoked */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Invalid request: a parameter or a field of the body is missing, malformed or invalid */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No valid admin token or instance administrator's session */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Signed in, but not an instance administrator */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No API key with this id in the organization */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unexpected failure; the body carries the request id to find it in the logs */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    grantCredits: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    amount: number;
                    /**
                     * Format: date-time
                     * @description ISO 8601 date-time with an offset, years 1970 to 9999
                     */
                    expiresAt?: string;
                };
            };
        };
        responses: {
            /** @description Default Response */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        creditBucket: {
                            id: string;
                            organizationId: string;
                            amount: number;
                            remaining: number;
                            expiresAt: string | null;
                            createdAt: string;
                        };
                    };
                };
            };
            /** @description Invalid request: a parameter or a field of the body is missing, malformed or invalid */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No valid admin token or instance administrator's session */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Signed in, but not an instance administrator */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No organization with this id */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is larger than this endpoint accepts */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body's content type is not one this endpoint reads */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unexpected failure; the body carries the request id to find it in the logs */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    updateBilling: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @enum {string} */
                    billingModel?: "credits" | "legacy";
                    plan?: string;
                    /** @enum {string} */
                    subscriptionStatus?: "active" | "past_due" | "none";
                    queryLimit?: number | null;
                };
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        organization: {
                            id: string;
                            name: string;
                            /** @enum {string} */
                            billingModel: "credits" | "legacy";
                            plan: string;
                            /** @enum {string} */
                            subscriptionStatus: "active" | "past_due" | "none";
                            queryLimit: number | null;
                            conversationRetentionDays: number | null;
                        };
                    };
                };
            };
            /** @description Invalid request: a parameter or a field of the body is missing, malformed or invalid */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No valid admin token or instance administrator's session */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Signed in, but not an instance administrator */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No organization with this id */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is larger than this endpoint accepts */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body's content type is not one this endpoint reads */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unexpected failure; the body carries the request id to find it in the logs */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    updateOrganization: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description Conversations idle (no new message) longer than this many days are erased by the daily sweep; null keeps them forever */
                    conversationRetentionDays: number | null;
                };
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        organization: {
                            id: string;
                            name: string;
                            conversationRetentionDays: number | null;
                        };
                    };
                };
            };
            /** @description Invalid request: a parameter or a field of the body is missing, malformed or invalid */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No valid admin token or instance administrator's session */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Signed in, but not an instance administrator */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No organization with this id */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is larger than this endpoint accepts */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body's content type is not one this endpoint reads */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unexpected failure; the body carries the request id to find it in the logs */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    runRetention: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description Organizations with a retention setting */
                        organizations: number;
                        conversationsDeleted: number;
                    };
                };
            };
            /** @description No valid admin token or instance administrator's session */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Signed in, but not an instance administrator */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unexpected failure; the body carries the request id to find it in the logs */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
}
