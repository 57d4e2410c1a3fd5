import { useQuery, useQueryClient } from "@tanstack/react-query";
import { createContext, type ReactNode, useContext } from "react";
import { type ApiData, ApiError, api, unwrap } from "../api/client.ts";

export type SessionView = ApiData<"/api/auth/session", "get">;
export type Role = SessionView["organizations"][number]["role"];

export const SESSION_KEY = ["session"] as const;

/** The signed-in user (null when nobody is), loaded once and refreshed after sign-in and out. */
export function useSessionQuery() {
  return useQuery({
    queryKey: SESSION_KEY,
    queryFn: async () => {
      try {
        return await unwrap(api.GET("/api/auth/session"));
      } catch (error) {
        if (error instanceof ApiError && error.status === 401) return null;
        throw error;
      }
    },
    staleTime: 60_000,
  });
}

export type Session = {
  view: SessionView;
  organizationId: string;
  organizationName: string;
  role: Role;
  /** member, admin and owner: agents, knowledge, conversations, replies, annotations. */
  canWrite: boolean;
  /** admin and owner: members, keys, channels, settings. */
  canAdmin: boolean;
};

const SessionContext = createContext<Session | null>(null);

export function SessionProvider({ session, children }: { session: Session; children: ReactNode }) {
  return <SessionContext.Provider value={session}>{children}</SessionContext.Provider>;
}

/** The session of a signed-in page (the layout renders pages only with one). */
export function useSession(): Session {
  const session = useContext(SessionContext);
  if (!session) throw new Error("useSession outside a signed-in page");
  return session;
}

/** The session with the organization the user works in (their active one, or the first). */
export function sessionOf(view: SessionView): Session | null {
  const active =
    view.organizations.find((organization) => organization.id === view.activeOrganizationId) ??
    view.organizations[0];
  if (!active) return null;
  return {
    view,
    organizationId: active.id,
    organizationName: active.name,
    role: active.role,
    canWrite: active.role !== "viewer",
    canAdmin: active.role === "owner" || active.role === "admin",
  };
}

/**
 * After signing in or switching organization: every cached answer belonged to the old session
 * or organization, so it is dropped and the session read again.
 */
export function useRefreshSession() {
  const queryClient = useQueryClient();
  return async () => {
    queryClient.removeQueries({ predicate: (query) => query.queryKey[0] !== SESSION_KEY[0] });
    await queryClient.refetchQueries({ queryKey: SESSION_KEY });
  };
}

/** After signing out: nothing cached is kept. */
export function useForgetSession() {
  const queryClient = useQueryClient();
  return () => {
    queryClient.removeQueries({ predicate: (query) => query.queryKey[0] !== SESSION_KEY[0] });
    queryClient.setQueryData(SESSION_KEY, null);
  };
}
