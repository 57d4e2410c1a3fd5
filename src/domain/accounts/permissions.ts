/**
 * What a route needs, declared next to its `auth` as `config.permission`, and who has it: the
 * four roles of an organization's members and the scopes of API keys (DESIGN.md §10).
 */

export const ROLES = ["owner", "admin", "member", "viewer"] as const;
export type Role = (typeof ROLES)[number];

/** The scopes a key may be given; a key made without scopes has every permission. */
export const KEY_SCOPES = [
  "agents:read",
  "agents:write",
  "query",
  "knowledge:read",
  "knowledge:write",
  "conversations:read",
  "conversations:write",
  "annotations",
  "usage:read",
  "channels:write",
] as const;
export type KeyScope = (typeof KEY_SCOPES)[number];

const READ = [
  "agents:read",
  "knowledge:read",
  "conversations:read",
  "annotations:read",
  "usage:read",
  "members:read",
  "channels:read",
] as const;
const WORK = [
  "agents:write",
  "query",
  "knowledge:write",
  "conversations:write",
  "annotations:write",
] as const;
const MANAGE = [
  "channels:write",
  "members:write",
  "keys:write",
  "audit:read",
  "settings:write",
] as const;

/**
 * The permissions routes declare. `identity` is anyone signed in or keyed (who am I); the
 * `members`, `keys`, `audit` and `settings` ones belong to roles only, never to a scoped key.
 */
export type Permission =
  | (typeof READ)[number]
  | (typeof WORK)[number]
  | (typeof MANAGE)[number]
  | "billing:write"
  | "identity";

const VIEWER: ReadonlySet<Permission> = new Set<Permission>(["identity", ...READ]);
const MEMBER = new Set<Permission>([...VIEWER, ...WORK]);
const ADMIN = new Set<Permission>([...MEMBER, ...MANAGE]);
const OWNER = new Set<Permission>([...ADMIN, "billing:write"]);

const ROLE_PERMISSIONS: Record<Role, ReadonlySet<Permission>> = {
  owner: OWNER,
  admin: ADMIN,
  member: MEMBER,
  viewer: VIEWER,
};

/**
 * What one scope grants: itself, both halves of `annotations`, and reading channels to those
 * who manage them or read the agents they belong to.
 */
function scopeGrants(scope: KeyScope, permission: Permission): boolean {
  if (scope === "annotations") {
    return permission === "annotations:read" || permission === "annotations:write";
  }
  if (permission === "channels:read") return scope === "channels:write" || scope === "agents:read";
  return scope === permission;
}

/** Whether a key with these scopes (null: a full-access key) may use the permission. */
export function keyMay(scopes: readonly KeyScope[] | null, permission: Permission): boolean {
  if (permission === "identity" || scopes === null) return true;
  return scopes.some((scope) => scopeGrants(scope, permission));
}

export function roleMay(role: Role, permission: Permission): boolean {
  return ROLE_PERMISSIONS[role].has(permission);
}
