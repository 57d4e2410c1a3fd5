/**
 * agentdesk's chat widget: `<script src="https://host/widget.js" data-agent-id="ID" defer>`.
 * Everything it fetches comes from the origin of its own script; its DOM lives in an open shadow
 * root. `data-mode="page"` (GET /chat/{agentId}) fills the page instead of floating.
 */
import { type Api, ApiError, createApi, type Source, type StoredMessage } from "./api.ts";
import { renderMarkdown } from "./markdown.ts";
import { type Strings, stringsFor } from "./strings.ts";
import { stylesheet } from "./styles.ts";

const CHAT_ICON =
  "M4 4h16a2 2 0 0 1 2 2v10a2 2 0 0 1-2 2H8l-4 4V6a2 2 0 0 1 2-2zm3 6v2h2v-2zm4 0v2h2v-2zm4 0v2h2v-2z";
const MIC_ICON =
  "M12 15a3 3 0 0 0 3-3V6a3 3 0 0 0-6 0v6a3 3 0 0 0 3 3zm5-3a5 5 0 0 1-10 0H5a7 7 0 0 0 6 6.9V22h2v-3.1a7 7 0 0 0 6-6.9z";

type Options = {
  agentId: string;
  base: string;
  page: boolean;
  left: boolean;
  color: string;
  /** The agent's first message (not stored); empty for none. */
  greeting: string;
  strings: Strings;
};

function el<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  props: Partial<Record<string, string>> = {},
  ...children: Array<Node | string>
): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(props)) {
    if (value !== undefined) node.setAttribute(name, value);
  }
  node.append(...children);
  return node;
}

function icon(path: string): SVGSVGElement {
  const svg = document.createElementNS("http://www.w3.org/2000/svg", "svg");
  svg.setAttribute("viewBox", "0 0 24 24");
  svg.setAttribute("aria-hidden", "true");
  const shape = document.createElementNS("http://www.w3.org/2000/svg", "path");
  shape.setAttribute("d", path);
  svg.append(shape);
  return svg;
}

type Sentiment = "good" | "bad";

/**
 * A visitor id of 32 hex characters, the current conversation and the visitor's ratings, kept
 * per agent in this site's localStorage.
 */
function storage(agentId: string) {
  const key = (name: string) => `agentdesk:${agentId}:${name}`;
  const read = (name: string) => {
    try {
      return localStorage.getItem(key(name));
    } catch {
      return null;
    }
  };
  const write = (name: string, value: string | null) => {
    try {
      if (value === null) localStorage.removeItem(key(name));
      else localStorage.setItem(key(name), value);
    } catch {
      // Storage disabled: the conversation lasts as long as the page.
    }
  };
  let visitorId = read("visitor");
  if (!visitorId || !/^[A-Za-z0-9_-]{8,64}$/.test(visitorId)) {
    const bytes = crypto.getRandomValues(new Uint8Array(16));
    visitorId = Array.from(bytes, (byte) => byte.toString(16).padStart(2, "0")).join("");
    write("visitor", visitorId);
  }
  return {
    visitorId,
    conversationId: () => read("conversation") ?? undefined,
    setConversationId: (id: string | null) => write("conversation", id),
    /** The rating given to an answer: the public conversation read does not return it. */
    rating: (messageId: string): Sentiment | null => {
      const rating = read(`rating:${messageId}`);
      return rating === "good" || rating === "bad" ? rating : null;
    },
    setRating: (messageId: string, sentiment: Sentiment) => write(`rating:${messageId}`, sentiment),
  };
}

function sourceList(sources: Source[], strings: Strings): HTMLElement | null {
  const names = [...new Set(sources.map((source) => source.source).filter(Boolean))];
  if (names.length === 0) return null;
  return el(
    "ul",
    { class: "sources", "aria-label": strings.sources },
    ...names.map((name) =>
      el(
        "li",
        {},
        /^https?:\/\//i.test(name)
          ? el("a", { href: name, target: "_blank", rel: "noopener noreferrer" }, name)
          : name,
      ),
    ),
  );
}

function mount(options: Options): void {
  const { strings } = options;
  const api: Api = createApi(options.base, options.agentId);
  const store = storage(options.agentId);

  const host = el("div", { "data-agentdesk-widget": "" });
  document.body.append(host);
  const root = host.attachShadow({ mode: "open" });
  const sheet = new CSSStyleSheet();
  sheet.replaceSync(stylesheet(options));
  root.adoptedStyleSheets = [sheet];

  const title = el("h2", { id: "title" }, "\u00a0");
  const close = el(
    "button",
    { type: "button", class: "close", "aria-label": strings.closeChat },
    "×",
  );
  const log = el("div", { class: "log", role: "log", "aria-live": "polite", tabindex: "0" });
  const error = el("p", { class: "error", role: "alert", hidden: "" });
  const textarea = el("textarea", {
    "aria-label": strings.message,
    placeholder: strings.placeholder,
    rows: "1",
  });
  const mic = el(
    "button",
    { type: "button", class: "mic", "aria-label": strings.record, "aria-pressed": "false" },
    icon(MIC_ICON),
  );
  const send = el("button", { type: "submit", class: "send" }, strings.send);
  const form = el("form", {}, textarea, mic, send);
  const panel = el(
    "div",
    {
      class: "panel",
      role: options.page ? "main" : "dialog",
      "aria-labelledby": "title",
      id: "panel",
    },
    el("header", {}, title, ...(options.page ? [] : [close])),
    log,
    error,
    form,
  );
  const launcher = el(
    "button",
    {
      type: "button",
      class: "launcher",
      "aria-label": strings.openChat,
      "aria-expanded": "false",
      "aria-controls": "panel",
    },
    icon(CHAT_ICON),
  );
  if (options.page) root.append(panel);
  else {
    panel.hidden = true;
    root.append(launcher, panel);
  }

  let available = true;
  let busy = false;
  const showError = (message: string | null) => {
    error.textContent = message ?? "";
    error.hidden = message === null;
  };
  const messageFor = (failure: unknown) => {
    const status = failure instanceof ApiError ? failure.status : 0;
    if (status === 404 || status === 403 || status === 401 || status === 402) {
      return strings.unavailable;
    }
    return status === 429 ? strings.tooMany : strings.failed;
  };
  const refreshControls = () => {
    send.disabled = !available || busy;
    mic.disabled = !available;
    textarea.disabled = !available;
  };
  const scrollDown = () => {
    log.scrollTop = log.scrollHeight;
  };

  /** The visitor's words as typed; the agent's (AI or person) through the markdown subset. */
  function addMessage(from: "human" | "agent", text: string) {
    const body =
      from === "human"
        ? el("p", { class: "text" }, text)
        : el("div", { class: "text md" }, renderMarkdown(text));
    const message = el(
      "div",
      { class: `msg ${from}` },
      ...(from === "human" ? [el("span", { class: "sr" }, `${strings.you}: `)] : []),
      body,
    );
    log.append(message);
    scrollDown();
    return { message, body };
  }

  function finishAnswer(
    message: HTMLElement,
    answer: { messageId: string; conversationId: string },
    sources: Source[],
  ) {
    const list = sourceList(sources, strings);
    if (list) message.append(list);
    const rated = store.rating(answer.messageId);
    const choose = (button: HTMLButtonElement) => {
      button.setAttribute("aria-pressed", "true");
      button.title = strings.thanks;
    };
    const rate = (sentiment: Sentiment, label: string) => {
      const button = el("button", { type: "button", "aria-pressed": "false" }, label);
      // Rated before (this visit or an earlier one): shown as chosen, not to be sent again.
      button.disabled = rated !== null;
      if (rated === sentiment) choose(button);
      button.addEventListener("click", async () => {
        for (const other of feedback.querySelectorAll("button")) other.disabled = true;
        try {
          await api.annotate({ ...answer, visitorId: store.visitorId }, sentiment, label);
          store.setRating(answer.messageId, sentiment);
          choose(button);
        } catch (failure) {
          for (const other of feedback.querySelectorAll("button")) other.disabled = false;
          showError(messageFor(failure));
        }
      });
      return button;
    };
    const feedback = el(
      "div",
      { class: "feedback" },
      rate("good", strings.helpful),
      rate("bad", strings.notHelpful),
    );
    message.append(feedback);
    scrollDown();
  }

  /** Messages on screen, by id: a live event never shows one twice. */
  const shown = new Set<string>();
  let followed: string | null = null;
  let joined = false;

  function addNotice(text: string) {
    log.append(el("p", { class: "notice" }, text));
    scrollDown();
  }

  /** Shows operators' replies in this conversation as they are sent. */
  function follow(conversationId: string) {
    if (followed === conversationId) return;
    followed = conversationId;
    api.follow(conversationId, store.visitorId, (live) => {
      // The visitor's own messages and the AI's answers come through ask().
      if (live.from !== "agent" || !live.operator || shown.has(live.id)) return;
      shown.add(live.id);
      if (!joined) {
        joined = true;
        addNotice(strings.joined.replace("{name}", live.operator.name));
      }
      addMessage("agent", live.text);
    });
  }

  function render(conversationId: string, messages: StoredMessage[]) {
    for (const stored of messages) {
      shown.add(stored.id);
      const { message } = addMessage(stored.from, stored.text);
      if (stored.from === "agent") {
        finishAnswer(message, { messageId: stored.id, conversationId }, stored.sources ?? []);
      }
    }
  }

  async function ask() {
    const query = textarea.value.trim();
    if (!query || busy || !available) return;
    busy = true;
    refreshControls();
    showError(null);
    textarea.value = "";
    const question = addMessage("human", query).message;
    const { message, body } = addMessage("agent", "");
    message.setAttribute("aria-busy", "true");
    // The markdown is rendered again from the whole text at most once a frame: a fragment can
    // end inside `**` or a link, which the next one closes.
    let streamed = "";
    let frame = 0;
    const show = (text: string) => {
      cancelAnimationFrame(frame);
      body.replaceChildren(renderMarkdown(text));
      scrollDown();
    };
    try {
      const conversationId = store.conversationId();
      const answer = await api.ask(
        { query, visitorId: store.visitorId, ...(conversationId ? { conversationId } : {}) },
        (fragment) => {
          streamed += fragment;
          cancelAnimationFrame(frame);
          frame = requestAnimationFrame(() => show(streamed));
        },
      );
      store.setConversationId(answer.conversationId);
      follow(answer.conversationId);
      if (answer.answer === "") {
        // A person handles the conversation: their reply comes live, not from the AI.
        message.remove();
      } else {
        show(answer.answer);
        shown.add(answer.messageId);
        finishAnswer(message, answer, answer.sources ?? []);
      }
    } catch (failure) {
      // Not answered: the question goes back into the box, to send again.
      message.remove();
      question.remove();
      if (!textarea.value) textarea.value = query;
      showError(messageFor(failure));
    } finally {
      cancelAnimationFrame(frame);
      message.removeAttribute("aria-busy");
      busy = false;
      refreshControls();
    }
  }

  form.addEventListener("submit", (event) => {
    event.preventDefault();
    void ask();
  });
  textarea.addEventListener("keydown", (event) => {
    if (event.key === "Enter" && !event.shiftKey && !event.isComposing) {
      event.preventDefault();
      void ask();
    }
  });

  // Voice: MediaRecorder (webm) → POST …/transcribe-audio → the transcript into the textarea.
  let recorder: MediaRecorder | null = null;
  mic.addEventListener("click", async () => {
    if (recorder) {
      recorder.stop();
      return;
    }
    showError(null);
    try {
      const stream = await navigator.mediaDevices.getUserMedia({ audio: true });
      const chunks: Blob[] = [];
      const active = new MediaRecorder(stream, { mimeType: "audio/webm" });
      recorder = active;
      active.addEventListener("dataavailable", (event) => chunks.push(event.data));
      active.addEventListener("stop", async () => {
        for (const track of stream.getTracks()) track.stop();
        recorder = null;
        mic.setAttribute("aria-pressed", "false");
        mic.setAttribute("aria-label", strings.record);
        mic.disabled = true;
        textarea.placeholder = strings.transcribing;
        try {
          const { text } = await api.transcribe(new Blob(chunks, { type: "audio/webm" }));
          textarea.value = [textarea.value.trim(), text.trim()].filter(Boolean).join(" ");
        } catch {
          showError(strings.micFailed);
        } finally {
          textarea.placeholder = strings.placeholder;
          refreshControls();
          textarea.focus();
        }
      });
      active.start();
      mic.setAttribute("aria-pressed", "true");
      mic.setAttribute("aria-label", strings.stopRecording);
    } catch {
      recorder = null;
      showError(strings.micFailed);
    }
  });

  const open = () => {
    panel.hidden = false;
    launcher.setAttribute("aria-expanded", "true");
    (textarea.disabled ? close : textarea).focus();
    scrollDown();
  };
  const shut = () => {
    panel.hidden = true;
    launcher.setAttribute("aria-expanded", "false");
    launcher.focus();
  };
  launcher.addEventListener("click", () => (panel.hidden ? open() : shut()));
  close.addEventListener("click", shut);
  panel.addEventListener("keydown", (event) => {
    if (event.key === "Escape" && !options.page) {
      event.preventDefault();
      shut();
    }
  });

  if (options.greeting) addMessage("agent", options.greeting);
  refreshControls();
  api.profile().then(
    async (profile) => {
      title.textContent = profile.name;
      const conversationId = store.conversationId();
      if (!conversationId) return;
      try {
        render(conversationId, (await api.conversation(conversationId, store.visitorId)).messages);
        follow(conversationId);
      } catch (failure) {
        // Gone (erased, or another visitor's): start a new one.
        if (failure instanceof ApiError && failure.status === 404) store.setConversationId(null);
      }
    },
    () => {
      // Private or unknown (404), or this page's origin is refused (403: the browser sees a
      // CORS failure); either way this chat is not for this page.
      available = false;
      refreshControls();
      showError(strings.unavailable);
    },
  );
  if (options.page) textarea.focus();
}

function start(): void {
  const script = document.currentScript as HTMLScriptElement | null;
  const agentId = script?.dataset.agentId;
  if (!script || !agentId) {
    console.error("agentdesk widget: the script tag needs data-agent-id");
    return;
  }
  const data = script.dataset;
  const strings = stringsFor(data.lang ?? document.documentElement.lang);
  const options: Options = {
    agentId,
    base: new URL(script.src, location.href).origin,
    page: data.mode === "page",
    left: data.position === "left",
    color: /^[#\w(),.%\s-]{1,40}$/.test(data.color ?? "") ? (data.color as string) : "#2557d6",
    // Without data-greeting, the built-in one; data-greeting="" shows none.
    greeting: data.greeting ?? strings.greeting,
    strings,
  };
  if (document.body) mount(options);
  else document.addEventListener("DOMContentLoaded", () => mount(options), { once: true });
}

start();
