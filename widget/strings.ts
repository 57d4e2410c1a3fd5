/** The widget's built-in strings, chosen with `data-lang` (English when absent or unknown). */
export type Strings = {
  openChat: string;
  closeChat: string;
  message: string;
  /** The message box's placeholder. */
  placeholder: string;
  /** The agent's first message when the page sets no data-greeting. */
  greeting: string;
  send: string;
  record: string;
  stopRecording: string;
  helpful: string;
  notHelpful: string;
  thanks: string;
  sources: string;
  unavailable: string;
  tooMany: string;
  failed: string;
  micFailed: string;
  transcribing: string;
  you: string;
  /** Shown when a person takes the conversation over; `{name}` is theirs. */
  joined: string;
};

const en: Strings = {
  openChat: "Open chat",
  closeChat: "Close chat",
  message: "Message",
  placeholder: "Type your question…",
  greeting: "Hello! How can I help you?",
  send: "Send",
  record: "Record voice message",
  stopRecording: "Stop recording",
  helpful: "Helpful",
  notHelpful: "Not helpful",
  thanks: "Thank you for your feedback",
  sources: "Sources",
  unavailable: "This chat is not available.",
  tooMany: "Too many messages. Please wait a moment and try again.",
  failed: "The message could not be sent. Please try again.",
  micFailed: "The voice message could not be recorded or transcribed.",
  transcribing: "Transcribing…",
  you: "You",
  joined: "{name} joined the conversation",
};

const fr: Strings = {
  openChat: "Ouvrir la discussion",
  closeChat: "Fermer la discussion",
  message: "Message",
  placeholder: "Écrivez votre question…",
  greeting: "Bonjour\u00a0! Comment puis-je vous aider\u00a0?",
  send: "Envoyer",
  record: "Enregistrer un message vocal",
  stopRecording: "Arrêter l'enregistrement",
  helpful: "Utile",
  notHelpful: "Pas utile",
  thanks: "Merci pour votre avis",
  sources: "Sources",
  unavailable: "Cette discussion n'est pas disponible.",
  tooMany: "Trop de messages. Patientez un instant puis réessayez.",
  failed: "Le message n'a pas pu être envoyé. Réessayez.",
  micFailed: "Le message vocal n'a pas pu être enregistré ou transcrit.",
  transcribing: "Transcription…",
  you: "Vous",
  joined: "{name} a rejoint la discussion",
};

export function stringsFor(lang: string | undefined): Strings {
  return lang?.toLowerCase().startsWith("fr") ? fr : en;
}
