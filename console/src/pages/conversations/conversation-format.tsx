import type { Contact, ConversationStatus, Person } from "./conversations-api.ts";
import type { Channel } from "./inbox-filters.ts";

export const STATUS_LABELS: Record<ConversationStatus, string> = {
  UNRESOLVED: "Unresolved",
  HUMAN_REQUESTED: "Human requested",
  RESOLVED: "Resolved",
};

const STATUS_BADGES: Record<ConversationStatus, string> = {
  UNRESOLVED: "badge badge-info",
  HUMAN_REQUESTED: "badge badge-warn",
  RESOLVED: "badge badge-ok",
};

/** The status as a word with its colour (never the colour alone). */
export function StatusBadge({ status }: { status: ConversationStatus }) {
  return <span className={STATUS_BADGES[status]}>{STATUS_LABELS[status]}</span>;
}

export function AiBadge({ aiEnabled }: { aiEnabled: boolean }) {
  return aiEnabled ? (
    <span className="badge badge-ok">AI on</span>
  ) : (
    <span className="badge badge-warn">AI off</span>
  );
}

/** The platforms' own names for the API's channel values (every one: the type says so). */
const CHANNEL_LABELS: Record<Channel, string> = {
  api: "API",
  dashboard: "Dashboard",
  website: "Website",
  form: "Form",
  whatsapp: "WhatsApp",
  telegram: "Telegram",
  slack: "Slack",
  meta: "Messenger / Instagram",
  crisp: "Crisp",
  zapier: "Zapier",
  mail: "E-mail",
  mercadolibre: "Mercado Libre",
  agent_builder: "Agent builder",
  chatwoot: "Chatwoot",
  crmchatsappai: "CRM chat",
};

export const CHANNELS = Object.keys(CHANNEL_LABELS) as Channel[];

export const channelLabel = (channel: string) => CHANNEL_LABELS[channel as Channel] ?? channel;

/** A contact's name, or else how to reach them, or null when the API knows nothing of them. */
function contactName(contact: Contact | null): string | null {
  if (!contact) return null;
  const name = [contact.firstName, contact.lastName].filter(Boolean).join(" ").trim();
  return name || contact.email || contact.phoneNumber || contact.userId || null;
}

/** Who the customer is, for a heading or a row: the contact, else the visitor's id. */
export const customerLabel = (contact: Contact | null, visitorId: string) =>
  contactName(contact) ??
  `Visitor ${visitorId.length > 12 ? `${visitorId.slice(0, 12)}…` : visitorId}`;

export const personLabel = (person: Person) => person.name || person.email || "A member";
