import { PageHeader } from "../../ui/forms.tsx";

export default function ConversationsArea() {
  return <PageHeader title="Conversations" />;
}
