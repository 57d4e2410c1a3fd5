import { Suspense } from "react";
import { BrowserRouter, Navigate, Route, Routes, useLocation } from "react-router";
import { basePath } from "../api/client.ts";
import { PageHeader } from "../ui/forms.tsx";
import { ErrorNotice, Loading } from "../ui/states.tsx";
import { AcceptInvitation, AREAS, ChunkPage, ResetPassword, Setup, SignIn } from "./areas.tsx";
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
          <Route path="sign-in" element={<ChunkPage chunk={SignIn} />} />
          <Route path="setup" element={<ChunkPage chunk={Setup} />} />
          <Route path="accept-invitation" element={<ChunkPage chunk={AcceptInvitation} />} />
          <Route path="reset-password" element={<ChunkPage chunk={ResetPassword} />} />
          <Route element={<SignedIn />}>
            <Route index element={<Navigate to="/agents" replace />} />
            <Route path="agents/*" element={<ChunkPage chunk={AREAS.agents} />} />
            <Route path="knowledge/*" element={<ChunkPage chunk={AREAS.knowledge} />} />
            <Route path="conversations/*" element={<ChunkPage chunk={AREAS.conversations} />} />
            <Route path="annotations/*" element={<ChunkPage chunk={AREAS.annotations} />} />
            <Route path="usage/*" element={<ChunkPage chunk={AREAS.usage} />} />
            <Route path="leads/*" element={<ChunkPage chunk={AREAS.leads} />} />
            <Route path="settings/*" element={<ChunkPage chunk={AREAS.settings} />} />
            <Route path="*" element={<NotFound />} />
          </Route>
        </Routes>
      </Suspense>
    </BrowserRouter>
  );
}
