import { PageHeader } from "../../ui/forms.tsx";

export default function SettingsArea() {
  return <PageHeader title="Settings" />;
}
