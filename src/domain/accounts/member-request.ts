import { z } from "zod";
import { ROLES } from "./permissions.ts";

/** The role a member is given: by an invitation, a role change, or `agentdesk user create`. */
export const role = z.enum(ROLES);
