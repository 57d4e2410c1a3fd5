-- Conversations from before conversation ids were scoped to their organization and agent keep the
-- id their clients know as their API id. Conversation ids were then unique across organizations,
-- so they are unique within each (organization, agent) as the new index requires, and consumption
-- events already carry them.
UPDATE "conversations" SET "external_id" = "id" WHERE "external_id" IS NULL;
