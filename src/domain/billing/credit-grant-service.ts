import { newId } from "../../lib/ids.ts";
import type { OrganizationService } from "../organizations/organization-service.ts";
import type { CreditBucketRepo } from "./credit-bucket-repo.ts";
import { creditsToMicro, microToCredits } from "./credits.ts";

export function createCreditGrantService(deps: {
  creditBuckets: CreditBucketRepo;
  organizations: Pick<OrganizationService, "requireOrganization">;
}) {
  return {
    /** Adds a bucket of credits to an organization, optionally expiring. */
    async grant(organizationId: string, input: { amount: number; expiresAt?: Date | undefined }) {
      await deps.organizations.requireOrganization(organizationId);
      const micro = creditsToMicro(input.amount);
      const bucket = await deps.creditBuckets.insert({
        id: newId(),
        organizationId,
        grantedMicro: micro,
        remainingMicro: micro,
        expiresAt: input.expiresAt ?? null,
      });
      return {
        id: bucket.id,
        organizationId,
        amount: microToCredits(bucket.grantedMicro),
        remaining: microToCredits(bucket.remainingMicro),
        expiresAt: bucket.expiresAt?.toISOString() ?? null,
        createdAt: bucket.createdAt.toISOString(),
      };
    },
  };
}

export type CreditGrantService = ReturnType<typeof createCreditGrantService>;
