import type { Db } from "../../db/client.ts";
import { createAnnotationConversationRepo } from "./annotation-conversation-repo.ts";
import { createAnnotationRepo } from "./annotation-repo.ts";
import { createAnnotationService } from "./annotation-service.ts";
import { createAnnotationSettingsRepo } from "./annotation-settings-repo.ts";
import { createAnnotationStatusService } from "./annotation-status-service.ts";
import { createAnnotationTagRepo } from "./annotation-tag-repo.ts";
import { createAnnotationTagService } from "./annotation-tag-service.ts";

/** The annotation module wired to its repositories: annotations, tags, accepted statuses. */
export function createAnnotationModule(db: Db) {
  const tags = createAnnotationTagRepo(db);
  const settings = createAnnotationSettingsRepo(db);
  return {
    annotations: createAnnotationService({
      db,
      annotations: createAnnotationRepo(db),
      conversations: createAnnotationConversationRepo(db),
      tags,
      settings,
    }),
    annotationTags: createAnnotationTagService({ tags }),
    annotationStatuses: createAnnotationStatusService({ settings }),
  };
}
