import { Route, Routes } from "react-router";
import { PageHeader } from "../../ui/forms.tsx";
import { ConversationPage } from "./ConversationPage.tsx";
import { InboxPage } from "./InboxPage.tsx";

/** /console/conversations: the inbox, and one conversation at /conversations/{id}?agentId=. */
export default function ConversationsArea() {
  return (
    <Routes>
      <Route index element={<InboxPage />} />
      <Route path=":conversationId" element={<ConversationPage />} />
      <Route
        path="*"
        element={
          <PageHeader
            title="Page not found"
            description="There is no conversations page at this address."
          />
        }
      />
    </Routes>
  );
}
