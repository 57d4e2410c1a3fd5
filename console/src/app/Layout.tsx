import { useMutation } from "@tanstack/react-query";
import { Suspense } from "react";
import { NavLink, Outlet, useNavigate } from "react-router";
import { api, unwrap } from "../api/client.ts";
import { ErrorNotice, Loading } from "../ui/states.tsx";
import { AREAS } from "./areas.tsx";
import { type Session, useForgetSession, useRefreshSession } from "./session.tsx";

const NAVIGATION = [
  { area: "agents", label: "Agents" },
  { area: "knowledge", label: "Knowledge" },
  { area: "conversations", label: "Conversations" },
  { area: "annotations", label: "Annotations" },
  { area: "usage", label: "Usage" },
  { area: "leads", label: "Leads" },
  { area: "settings", label: "Settings" },
] as const;

function OrganizationSwitcher({ session }: { session: Session }) {
  const refresh = useRefreshSession();
  const navigate = useNavigate();
  const switching = useMutation({
    mutationFn: (activeOrganizationId: string) =>
      unwrap(api.PATCH("/api/auth/session", { body: { activeOrganizationId } })),
    onSuccess: async () => {
      await refresh();
      navigate("/agents");
    },
  });
  const { organizations } = session.view;
  if (organizations.length < 2) {
    return <p className="organization-name">{session.organizationName}</p>;
  }
  return (
    <div className="organization-switcher">
      <label htmlFor="organization">Organization</label>
      <select
        id="organization"
        value={session.organizationId}
        disabled={switching.isPending}
        onChange={(event) => switching.mutate(event.target.value)}
      >
        {organizations.map((organization) => (
          <option key={organization.id} value={organization.id}>
            {organization.name} ({organization.role})
          </option>
        ))}
      </select>
      {switching.isError && <ErrorNotice error={switching.error} />}
    </div>
  );
}

/** The frame of every signed-in page: who and where you are, the navigation, the page. */
export function Layout({ session }: { session: Session }) {
  const forget = useForgetSession();
  const navigate = useNavigate();
  const signOut = useMutation({
    mutationFn: () => unwrap(api.POST("/api/auth/logout")),
    onSuccess: () => {
      forget();
      navigate("/sign-in");
    },
  });
  const { user } = session.view;
  return (
    <div className="shell">
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      <header className="topbar">
        <span className="brand">agentdesk</span>
        <OrganizationSwitcher session={session} />
        <div className="account">
          <span className="account-name">
            {user.name ?? user.email} · <span className="role">{session.role}</span>
          </span>
          <button
            type="button"
            className="button button-quiet"
            disabled={signOut.isPending}
            onClick={() => signOut.mutate()}
          >
            Sign out
          </button>
        </div>
      </header>
      <nav className="sidebar" aria-label="Main">
        <ul>
          {NAVIGATION.map((item) => (
            <li key={item.area}>
              {/* The area's code starts loading when the pointer or the focus reaches its link. */}
              <NavLink
                to={`/${item.area}`}
                onPointerEnter={() => void AREAS[item.area].preload()}
                onFocus={() => void AREAS[item.area].preload()}
              >
                {item.label}
              </NavLink>
            </li>
          ))}
        </ul>
      </nav>
      <main id="main" className="content" tabIndex={-1}>
        <Suspense fallback={<Loading />}>
          <Outlet />
        </Suspense>
      </main>
    </div>
  );
}
