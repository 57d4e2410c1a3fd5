import { invalid } from "../../lib/errors.ts";
import type { Caller } from "../caller.ts";
import type { AnnotationSettingsRepo } from "./annotation-settings-repo.ts";

/** Every annotation starts here, so an organization can never stop accepting it. */
const INITIAL_STATUS = "pending";

/** The statuses an organization's reviewers may move annotations to (extension). */
export function createAnnotationStatusService(deps: { settings: AnnotationSettingsRepo }) {
  return {
    async get(caller: Caller) {
      return { statuses: await deps.settings.findStatuses(caller.organizationId) };
    },

    /** Replaces the accepted statuses; existing annotations keep theirs. */
    async set(caller: Caller, statuses: string[]) {
      const unique = [...new Set(statuses)];
      if (!unique.includes(INITIAL_STATUS)) {
        throw invalid(`statuses must include "${INITIAL_STATUS}", the status of new annotations`, [
          { path: "body.statuses", message: `must include ${INITIAL_STATUS}` },
        ]);
      }
      await deps.settings.saveStatuses(caller.organizationId, unique);
      return { statuses: unique };
    },
  };
}

export type AnnotationStatusService = ReturnType<typeof createAnnotationStatusService>;
