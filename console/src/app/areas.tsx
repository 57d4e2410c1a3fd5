import { type ComponentType, use } from "react";
import { basePath } from "../api/client.ts";

type Module = { default: ComponentType };

/** A page's code, in a chunk of its own: loaded on first need, or ahead of it (`preload`). */
type Chunk = { preload(): Promise<ComponentType>; loaded(): ComponentType | null };

function chunk(load: () => Promise<Module>): Chunk {
  let loaded: ComponentType | null = null;
  let loading: Promise<ComponentType> | null = null;
  return {
    preload() {
      loading ??= load().then((module) => {
        loaded = module.default;
        return loaded;
      });
      return loading;
    },
    loaded: () => loaded,
  };
}

/**
 * Draws a chunk's page, suspending only while its code is still on the way. React.lazy suspends
 * on every first render, even when the chunk is already here, and React holds back what a
 * suspended page reveals for up to 300 ms: the page opened first would wait that long before
 * asking for its data.
 */
export function ChunkPage({ chunk: page }: { chunk: Chunk }) {
  const Component = page.loaded() ?? use(page.preload());
  return <Component />;
}

export const SignIn = chunk(() => import("../pages/auth/SignInPage.tsx"));
export const Setup = chunk(() => import("../pages/auth/SetupPage.tsx"));
export const AcceptInvitation = chunk(() => import("../pages/auth/AcceptInvitationPage.tsx"));
export const ResetPassword = chunk(() => import("../pages/auth/ResetPasswordPage.tsx"));

/** The navigation's areas, by the first segment of their path under /console. */
export const AREAS = {
  agents: chunk(() => import("../pages/agents/AgentsArea.tsx")),
  knowledge: chunk(() => import("../pages/knowledge/KnowledgeArea.tsx")),
  conversations: chunk(() => import("../pages/conversations/ConversationsArea.tsx")),
  annotations: chunk(() => import("../pages/annotations/AnnotationsArea.tsx")),
  usage: chunk(() => import("../pages/usage/UsageArea.tsx")),
  leads: chunk(() => import("../pages/leads/LeadsArea.tsx")),
  settings: chunk(() => import("../pages/settings/SettingsArea.tsx")),
} as const;

const PUBLIC_PAGES = {
  "sign-in": SignIn,
  setup: Setup,
  "accept-invitation": AcceptInvitation,
  "reset-password": ResetPassword,
} as const;

/**
 * Starts loading the code of the page the address names, while the session is being read: both
 * arrive together instead of one after the other.
 */
export function preloadPageOf(pathname: string): void {
  const segment = pathname.slice(`${basePath}/console/`.length).split("/")[0] || "agents";
  const page =
    AREAS[segment as keyof typeof AREAS] ?? PUBLIC_PAGES[segment as keyof typeof PUBLIC_PAGES];
  void page?.preload();
}
