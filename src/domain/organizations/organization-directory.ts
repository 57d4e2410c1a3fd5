import { decodePageCursor, pageOf } from "../../lib/page-cursor.ts";
import type { OrganizationDirectoryRepo } from "./organization-directory-repo.ts";
import type { OrganizationService } from "./organization-service.ts";

const iso = (date: Date | null) => date?.toISOString() ?? null;

/** Lists organizations and their API keys for the operator, so a lost id can be found again. */
export function createOrganizationDirectory(deps: {
  directory: OrganizationDirectoryRepo;
  organizations: Pick<OrganizationService, "requireOrganization">;
}) {
  return {
    /** Newest first; `nextCursor` is null on the last page. */
    async listOrganizations(page: { cursor?: string | undefined; limit: number }) {
      const before = page.cursor ? decodePageCursor(page.cursor) : null;
      const rows = await deps.directory.listOrganizations(before, page.limit + 1);
      const { rows: kept, nextCursor } = pageOf(rows, page.limit);
      return {
        data: kept.map(({ cursorAt: _cursorAt, createdAt, ...organization }) => ({
          ...organization,
          createdAt: createdAt.toISOString(),
        })),
        nextCursor,
      };
    },

    /** Every key of the organization, newest first, with its prefix but never its hash. */
    async listApiKeys(organizationId: string) {
      await deps.organizations.requireOrganization(organizationId);
      const rows = await deps.directory.listApiKeys(organizationId);
      return rows.map((key) => ({
        ...key,
        createdAt: key.createdAt.toISOString(),
        lastUsedAt: iso(key.lastUsedAt),
        revokedAt: iso(key.revokedAt),
      }));
    },
  };
}

export type OrganizationDirectory = ReturnType<typeof createOrganizationDirectory>;
