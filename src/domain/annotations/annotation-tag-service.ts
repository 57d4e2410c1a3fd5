import { invalid } from "../../lib/errors.ts";
import { newId } from "../../lib/ids.ts";
import type { Caller } from "../caller.ts";
import type { AnnotationTagRepo, AnnotationTagRow } from "./annotation-tag-repo.ts";

export type AnnotationTagView = { id: string; name: string; createdAt: string };

const toTagView = (row: AnnotationTagRow): AnnotationTagView => ({
  id: row.id,
  name: row.name,
  createdAt: row.createdAt.toISOString(),
});

/** Annotation tags (extension): an organization's vocabulary, names unique in any case. */
export function createAnnotationTagService(deps: { tags: AnnotationTagRepo }) {
  return {
    async create(caller: Caller, name: string): Promise<AnnotationTagView> {
      const trimmed = name.trim();
      const row = await deps.tags.insert({
        id: newId(),
        organizationId: caller.organizationId,
        name: trimmed,
      });
      if (!row) {
        throw invalid(`A tag named "${trimmed}" already exists`, [
          { path: "body.name", message: "already used by another tag" },
        ]);
      }
      return toTagView(row);
    },

    async list(caller: Caller): Promise<AnnotationTagView[]> {
      return (await deps.tags.list(caller.organizationId)).map(toTagView);
    },
  };
}

export type AnnotationTagService = ReturnType<typeof createAnnotationTagService>;
