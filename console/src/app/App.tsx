import { lazy, Suspense } from "react";
import { BrowserRouter, Navigate, Route, Routes, useLocation } from "react-router";
import { basePath } from "../api/client.ts";
import { PageHeader } from "../ui/forms.tsx";
import { ErrorNotice, Loading } from "../ui/states.tsx";
import { Layout } from "./Layout.tsx";
import { SessionProvider, sessionOf, useSessionQuery } from "./session.tsx";

// Each area is its own chunk, loaded when first opened: the first page loads only its code.
const SignInPage = lazy(() => import("../pages/auth/SignInPage.tsx"));
const SetupPage = lazy(() => import("../pages/auth/SetupPage.tsx"));
const AcceptInvitationPage = lazy(() => import("../pages/auth/AcceptInvitationPage.tsx"));
const ResetPasswordPage = lazy(() => import("../pages/auth/ResetPasswordPage.tsx"));
const AgentsArea = lazy(() => import("../pages/agents/AgentsArea.tsx"));
const KnowledgeArea = lazy(() => import("../pages/knowledge/KnowledgeArea.tsx"));
const ConversationsArea = lazy(() => import("../pages/conversations/ConversationsArea.tsx"));
const AnnotationsArea = lazy(() => import("../pages/annotations/AnnotationsArea.tsx"));
const UsageArea = lazy(() => import("../pages/usage/UsageArea.tsx"));
const LeadsArea = lazy(() => import("../pages/leads/LeadsArea.tsx"));
const SettingsArea = lazy(() => import("../pages/settings/SettingsArea.tsx"));

/** Pages for signed-in people: without a session, the sign-in page (and back here after). */
function SignedIn() {
  const query = useSessionQuery();
  const location = useLocation();
  if (query.isPending) return <Loading />;
  if (query.isError) {
    return (
      <main id="main" className="auth">
        <ErrorNotice error={query.error} retry={() => query.refetch()} />
      </main>
    );
  }
  if (!query.data) return <Navigate to="/sign-in" replace state={{ from: location.pathname }} />;
  const session = sessionOf(query.data);
  if (!session) {
    return (
      <main id="main" className="auth">
        <div className="auth-card">
          <h1>No organization yet</h1>
          <p>
            You are signed in as {query.data.user.email}, but you belong to no organization. Ask an
            owner or admin of one for an invitation.
          </p>
        </div>
      </main>
    );
  }
  return (
    <SessionProvider session={session}>
      <Layout session={session} />
    </SessionProvider>
  );
}

function NotFound() {
  return (
    <PageHeader
      title="Page not found"
      description="There is no console page at this address. Choose a page in the navigation."
    />
  );
}

export function App() {
  return (
    <BrowserRouter basename={`${basePath}/console`}>
      <Suspense fallback={<Loading />}>
        <Routes>
          <Route path="sign-in" element={<SignInPage />} />
          <Route path="setup" element={<SetupPage />} />
          <Route path="accept-invitation" element={<AcceptInvitationPage />} />
          <Route path="reset-password" element={<ResetPasswordPage />} />
          <Route element={<SignedIn />}>
            <Route index element={<Navigate to="/agents" replace />} />
            <Route path="agents/*" element={<AgentsArea />} />
            <Route path="knowledge/*" element={<KnowledgeArea />} />
            <Route path="conversations/*" element={<ConversationsArea />} />
            <Route path="annotations/*" element={<AnnotationsArea />} />
            <Route path="usage/*" element={<UsageArea />} />
            <Route path="leads/*" element={<LeadsArea />} />
            <Route path="settings/*" element={<SettingsArea />} />
            <Route path="*" element={<NotFound />} />
          </Route>
        </Routes>
      </Suspense>
    </BrowserRouter>
  );
}
