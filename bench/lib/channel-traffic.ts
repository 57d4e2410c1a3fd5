import type { RecordedRequest } from "../../test/fakes/openai-server.ts";
import type { PlatformCall } from "../../test/fakes/platform-api.ts";
import type { BenchMessage, SentAnswer } from "./channel-platforms.ts";
import type { OpenLoopResult } from "./open-loop.ts";

/** One platform update of the run: whose chat, and which of that chat's messages it is. */
export type PlannedUpdate = { chatId: number; sequence: number; body: string };

/** Chats whose bursts interleave: a chat's next message comes this many updates later. */
const INTERLEAVED_CHATS = 10;
const FIRST_CHAT_ID = 100_000;

/**
 * `total` text updates over `chats` private chats: each chat writes `burst` messages in a row,
 * INTERLEAVED_CHATS updates apart (50 ms at 200/s, so one batch when the delay is longer), and
 * comes back after every other chat has had its burst. Each text carries its number in its chat.
 */
export function planUpdates(
  total: number,
  chats: number,
  burst: number,
  body: (message: BenchMessage) => string,
): PlannedUpdate[] {
  const planned: PlannedUpdate[] = [];
  const date = new Date();
  const sent = new Map<number, number>();
  for (let round = 0; planned.length < total; round += 1) {
    for (let group = 0; group < chats && planned.length < total; group += INTERLEAVED_CHATS) {
      const members = Math.min(INTERLEAVED_CHATS, chats - group);
      for (let message = 0; message < burst; message += 1) {
        for (let member = 0; member < members && planned.length < total; member += 1) {
          const chatId = FIRST_CHAT_ID + group + member;
          const sequence = sent.get(chatId) ?? 0;
          sent.set(chatId, sequence + 1);
          const text = `Question ${sequence} of round ${round} [#${sequence}]`;
          const updateId = planned.length + 1;
          planned.push({ chatId, sequence, body: body({ updateId, chatId, text, date }) });
        }
      }
    }
  }
  return planned;
}

/** The last user message of a chat completion request, as text. */
function lastUserText(request: RecordedRequest): string {
  const messages = (request.body?.messages ?? []) as Array<{ role: string; content: unknown }>;
  const content = messages.findLast((message) => message.role === "user")?.content;
  if (typeof content === "string") return content;
  if (Array.isArray(content)) {
    return content.map((part: { text?: string }) => part.text ?? "").join("\n");
  }
  return "";
}

/** The fake model's answer: the numbers of the messages it was asked to answer, in their order. */
export function echoSequences(request: RecordedRequest): { text: string } {
  const sequences = [...lastUserText(request).matchAll(/\[#(\d+)\]/g)].map((match) => match[1]);
  return { text: `Answered ${sequences.join(",")}` };
}

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;

export type ChannelFigures = ReturnType<typeof analyse>;

/** What every chat was answered, in the order the fake platform received the answers. */
export function answersByChat(
  sends: PlatformCall[],
  read: (call: PlatformCall) => SentAnswer,
): Map<number, Array<{ sequences: number[]; at: number }>> {
  const byChat = new Map<number, Array<{ sequences: number[]; at: number }>>();
  for (const call of sends) {
    const { chatId, text } = read(call);
    const sequences = (/^Answered ([\d,]*)$/.exec(text)?.[1] ?? "")
      .split(",")
      .filter(Boolean)
      .map(Number);
    byChat.set(chatId, [...(byChat.get(chatId) ?? []), { sequences, at: call.at }]);
  }
  return byChat;
}

/**
 * The run's figures: acknowledgements (every copy), answers, the time from a batch's last message
 * acknowledged to its answer sent, and per chat the messages answered twice, never, or out of order.
 */
export function analyse(input: {
  planned: PlannedUpdate[];
  copies: number;
  load: OpenLoopResult;
  sends: PlatformCall[];
  read: (call: PlatformCall) => SentAnswer;
  modelCalls: number;
  /** Updates at the start left out of `ackP99AfterWarmUp`. */
  warmUpUpdates: number;
}) {
  const { planned, copies, load } = input;
  const acks = Array.from(load.latencies).sort((a, b) => a - b);
  const acksAfterWarmUp = Array.from(load.latencies.subarray(input.warmUpUpdates * copies)).sort(
    (a, b) => a - b,
  );
  const ackErrors = Array.from(load.statuses).filter((status) => status !== 200).length;
  // A message counts as received at its first 200, whichever process gave it.
  const indexOf = new Map<string, number>();
  const receivedAt = planned.map((update, index) => {
    indexOf.set(`${update.chatId}:${update.sequence}`, index);
    let first = Number.POSITIVE_INFINITY;
    for (let copy = 0; copy < copies; copy += 1) {
      const slot = index * copies + copy;
      if (load.statuses[slot] === 200) first = Math.min(first, load.answeredAt[slot]!);
    }
    return first;
  });
  const expected = new Map<number, number>();
  for (const update of planned) expected.set(update.chatId, (expected.get(update.chatId) ?? 0) + 1);

  const byChat = answersByChat(input.sends, input.read);
  let duplicates = 0;
  let missing = 0;
  let orderViolations = 0;
  let chatsOutOfOrder = 0;
  const inboundToSend: number[] = [];
  for (const [chatId, count] of expected) {
    const answers = byChat.get(chatId) ?? [];
    const seen = new Set<number>();
    let previous = -1;
    let violations = 0;
    for (const answer of answers) {
      for (const sequence of answer.sequences) {
        if (seen.has(sequence)) duplicates += 1;
        if (sequence <= previous) violations += 1;
        seen.add(sequence);
        previous = sequence;
      }
      const last = Math.max(...answer.sequences);
      const acked = receivedAt[indexOf.get(`${chatId}:${last}`) ?? -1];
      if (acked !== undefined && Number.isFinite(acked)) inboundToSend.push(answer.at - acked);
    }
    for (let sequence = 0; sequence < count; sequence += 1) if (!seen.has(sequence)) missing += 1;
    orderViolations += violations;
    if (violations > 0) chatsOutOfOrder += 1;
  }
  inboundToSend.sort((a, b) => a - b);
  const lastSend = Math.max(...input.sends.map((call) => call.at));
  return {
    requests: acks.length,
    ackP50: percentile(acks, 50),
    ackP95: percentile(acks, 95),
    ackP99: percentile(acks, 99),
    ackMax: acks.at(-1) ?? 0,
    ackP99AfterWarmUp: percentile(acksAfterWarmUp, 99),
    ackErrors,
    senderLagMax: load.maxLagMs,
    answers: input.sends.length,
    modelCalls: input.modelCalls,
    messagesPerAnswer: planned.length / Math.max(1, input.sends.length),
    answersPerSecond: input.sends.length / ((lastSend - load.startedAt) / 1000),
    drainSeconds: (lastSend - load.startedAt) / 1000,
    inboundToSendP50: percentile(inboundToSend, 50),
    inboundToSendP99: percentile(inboundToSend, 99),
    duplicates,
    missing,
    orderViolations,
    chatsOutOfOrder,
  };
}
