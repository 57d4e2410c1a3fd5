import { Suspense } from "react";
import { BrowserRouter, Navigate, Route, Routes, useLocation } from "react-router";
import { basePath } from "../api/client.ts";
import { PageHeader } from "../ui/forms.tsx";
import { ErrorNotice, Loading } from "../ui/states.tsx";
import { AcceptInvitation, AREAS, ResetPassword, Setup, SignIn } from "./areas.tsx";
import { Layout } from "./Layout.tsx";
import { SessionProvider, sessionOf, useSessionQuery } from "./session.tsx";

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
          <Route path="sign-in" element={<SignIn.Page />} />
          <Route path="setup" element={<Setup.Page />} />
          <Route path="accept-invitation" element={<AcceptInvitation.Page />} />
          <Route path="reset-password" element={<ResetPassword.Page />} />
          <Route element={<SignedIn />}>
            <Route index element={<Navigate to="/agents" replace />} />
            <Route path="agents/*" element={<AREAS.agents.Page />} />
            <Route path="knowledge/*" element={<AREAS.knowledge.Page />} />
            <Route path="conversations/*" element={<AREAS.conversations.Page />} />
            <Route path="annotations/*" element={<AREAS.annotations.Page />} />
            <Route path="usage/*" element={<AREAS.usage.Page />} />
            <Route path="leads/*" element={<AREAS.leads.Page />} />
            <Route path="settings/*" element={<AREAS.settings.Page />} />
            <Route path="*" element={<NotFound />} />
          </Route>
        </Routes>
      </Suspense>
    </BrowserRouter>
  );
}
