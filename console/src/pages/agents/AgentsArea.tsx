import { Navigate, Route, Routes } from "react-router";
import { Empty } from "../../ui/states.tsx";
import { AgentFrame } from "./AgentFrame.tsx";
import { AgentListPage } from "./AgentListPage.tsx";
import { AgentSettingsPage, NewAgentPage } from "./AgentSettingsPage.tsx";
import { ChannelsPage } from "./ChannelsPage.tsx";
import { EmbedPage } from "./EmbedPage.tsx";
import { PlaygroundPage } from "./PlaygroundPage.tsx";
import { VersionsPage } from "./VersionsPage.tsx";

function NoSuchPage() {
  return (
    <Empty title="Page not found">
      <p>The agent has no page at this address. Choose one above.</p>
    </Empty>
  );
}

/** /console/agents/*: the list, a new agent, and each agent's pages. */
export default function AgentsArea() {
  return (
    <Routes>
      <Route index element={<AgentListPage />} />
      <Route path="new" element={<NewAgentPage />} />
      <Route path=":agentId" element={<AgentFrame />}>
        <Route index element={<Navigate to="settings" replace />} />
        <Route path="settings" element={<AgentSettingsPage />} />
        <Route path="playground" element={<PlaygroundPage />} />
        <Route path="embed" element={<EmbedPage />} />
        <Route path="channels" element={<ChannelsPage />} />
        <Route path="versions" element={<VersionsPage />} />
        <Route path="*" element={<NoSuchPage />} />
      </Route>
    </Routes>
  );
}
