import { extname } from "node:path";
import { fileURLToPath } from "node:url";
import {
  MessageChannel,
  type MessagePort,
  receiveMessageOnPort,
  Worker,
  workerData,
} from "node:worker_threads";
import type { Logger } from "./logger.ts";

/**
 * How a pool's tasks fail when the pool ends them, and how an error thrown in a thread is
 * rebuilt on this side (only its name and message cross the boundary).
 */
type ThreadPoolFailures = {
  outOfMemory(maxMemoryMb: number): Error;
  outOfTime(timeoutMs: number): Error;
  /** The thread stopped of itself (a crash of the library it runs). */
  stopped(): Error;
  /** A task given to, or still waiting in, a pool that was closed. */
  closed(): Error;
  fromThread(error: { name: string; message: string }): Error;
};

type ThreadPoolSettings = {
  /** The thread's module (`threadEntry`); it calls `answerTasks`. */
  entry: URL;
  /** Threads working side by side; further tasks wait for one. */
  threads: number;
  /** The heap of one thread (V8's old generation), in MB: a task that needs more is ended. */
  maxMemoryMb: number;
  /** How long an idle thread is kept for the next task before it is stopped (default 30 s). */
  idleMs?: number;
  failures: ThreadPoolFailures;
  /** What one task is called in the pool's warnings: "a document parse". */
  taskName: string;
  logger?: Logger | undefined;
};

/**
 * Runs tasks in worker threads, away from the service's heap and event loop. A thread has a hard
 * heap limit (`resourceLimits`) and each task a wall-clock limit, enforced by terminating the
 * thread: a task that exhausts either fails with the pool's error and the service goes on.
 * Threads are reused from one task to the next, and stopped when idle.
 */
export type ThreadPool<Task> = {
  run<Value>(
    task: Task,
    options: {
      timeoutMs: number;
      signal?: AbortSignal | undefined;
      /** Buffers moved to the thread rather than copied; unusable here afterwards. */
      transfer?: ArrayBuffer[];
    },
  ): Promise<Value>;
  /**
   * Starts every thread now, ahead of its first task: a thread loads its module first (a
   * library can take a second), and tasks arriving meanwhile would wait for that.
   */
  warm(): void;
  /** Stops every thread; tasks still waiting or running are refused. */
  close(): Promise<void>;
};

/** One message to a thread: a task and the number its answer carries back. */
type TaskRequest<Task> = { id: number; task: Task };

/** A thread's answer; an error crosses the thread boundary as its name and message. */
type TaskResponse =
  | { id: number; ok: true; value: unknown }
  | { id: number; ok: false; error: { name: string; message: string } };

type Job<Task> = {
  id: number;
  task: Task;
  timeoutMs: number;
  transfer: ArrayBuffer[];
  resolve(value: unknown): void;
  reject(error: unknown): void;
};

type Thread<Task> = {
  worker: Worker;
  /** This side of the channel to the thread: tasks go out and answers come back on it. */
  port: MessagePort;
  job: Job<Task> | null;
  /** Ends the running job at its time limit. */
  deadline: NodeJS.Timeout | undefined;
  /** Stops the thread once it has been idle for `idleMs`. */
  idleTimer: NodeJS.Timeout | undefined;
  /** Why the thread died, when it died of itself (its heap limit, a crash). */
  death: (Error & { code?: string }) | undefined;
  /** Set when the pool ended the thread: its exit is expected. */
  ended: boolean;
};

const DEFAULT_IDLE_MS = 30_000;

/**
 * The module `name` beside the caller's file (`import.meta.url`), with the caller's own
 * extension: `.ts` from the sources, `.js` once compiled.
 */
export function threadEntry(callerUrl: string, name: string): URL {
  return new URL(`./${name}${extname(fileURLToPath(callerUrl))}`, callerUrl);
}

/** A copy of exactly the bytes of the view (which may share a pooled buffer), to be moved. */
export function ownBytes(bytes: Uint8Array): Uint8Array {
  return Uint8Array.prototype.slice.call(bytes);
}

/** What a pool's thread is started with: its end of the channel its tasks come by. */
type ThreadData = { tasks: MessagePort };

// Compiled, the entry is a .js file the thread runs as it is. From the TypeScript sources (tsx,
// `npm run dev`, the tests) a thread does not inherit the parent's loader, so it registers tsx's.
function startWorker(entry: URL, maxMemoryMb: number, tasks: MessagePort): Worker {
  const data: ThreadData = { tasks };
  const options = {
    resourceLimits: { maxOldGenerationSizeMb: maxMemoryMb },
    workerData: data,
    transferList: [tasks],
  };
  if (extname(fileURLToPath(entry)) !== ".ts") return new Worker(entry, options);
  const bootstrap = `import("tsx/esm/api").then(({ register }) => { register(); return import(${JSON.stringify(entry.href)}); })`;
  return new Worker(bootstrap, { ...options, eval: true });
}

/** Every open pool's way to take the answers its threads have posted (`takeThreadAnswers`). */
const answerTakers = new Set<() => void>();

/**
 * Takes, now, the answers that threads have posted and hands them to their tasks' callers, instead
 * of waiting for the event loop to deliver them. The embedded database calls it between two
 * statements (db/background-work.ts): a turn of the event loop can chain statements for tens of
 * milliseconds, and a request waiting on a thread, such as a mail's acknowledgement, would wait
 * for the whole turn although its answer came long before.
 */
export function takeThreadAnswers(): void {
  for (const take of answerTakers) take();
}

export function createThreadPool<Task>(settings: ThreadPoolSettings): ThreadPool<Task> {
  const { failures, logger } = settings;
  const idleMs = settings.idleMs ?? DEFAULT_IDLE_MS;
  const idle: Thread<Task>[] = [];
  const busy = new Set<Thread<Task>>();
  const queue: Job<Task>[] = [];
  let nextId = 1;
  let closed = false;

  function spawn(): Thread<Task> {
    const { port1, port2 } = new MessageChannel();
    const thread: Thread<Task> = {
      worker: startWorker(settings.entry, settings.maxMemoryMb, port2),
      port: port1,
      job: null,
      deadline: undefined,
      idleTimer: undefined,
      death: undefined,
      ended: false,
    };
    thread.port.on("message", (response: TaskResponse) => finish(thread, response));
    // Only a busy thread keeps the process alive (`assign`, `rest`): the worker, not its port.
    thread.port.unref();
    thread.worker.on("error", (error) => {
      thread.death = error;
    });
    thread.worker.on("exit", () => died(thread));
    return thread;
  }

  function dispatch() {
    while (queue.length > 0 && !closed) {
      const thread =
        idle.pop() ?? (busy.size + idle.length < settings.threads ? spawn() : undefined);
      if (!thread) return;
      assign(thread, queue.shift()!);
    }
  }

  function assign(thread: Thread<Task>, job: Job<Task>) {
    clearTimeout(thread.idleTimer);
    thread.job = job;
    busy.add(thread);
    thread.worker.ref();
    thread.deadline = setTimeout(() => {
      logger?.warn({ timeoutMs: job.timeoutMs }, `${settings.taskName} ran out of time`);
      end(thread, failures.outOfTime(job.timeoutMs));
    }, job.timeoutMs);
    const request: TaskRequest<Task> = { id: job.id, task: job.task };
    thread.port.postMessage(request, job.transfer);
  }

  /** A thread waiting for its next task, stopped if none comes within `idleMs`. */
  function rest(thread: Thread<Task>) {
    idle.push(thread);
    thread.worker.unref();
    thread.idleTimer = setTimeout(() => end(thread, null), idleMs);
    thread.idleTimer.unref();
  }

  /** Hands the running job's answer back and returns the thread to the idle ones. */
  function finish(thread: Thread<Task>, response: TaskResponse) {
    const job = thread.job;
    if (!job || response.id !== job.id) return;
    clearTimeout(thread.deadline);
    thread.job = null;
    busy.delete(thread);
    rest(thread);
    if (response.ok) job.resolve(response.value);
    else job.reject(failures.fromThread(response.error));
    dispatch();
  }

  /** Terminates a thread; its running job, if any, fails with `error`. */
  function end(thread: Thread<Task>, error: unknown) {
    if (thread.ended) return;
    thread.ended = true;
    clearTimeout(thread.deadline);
    clearTimeout(thread.idleTimer);
    busy.delete(thread);
    const index = idle.indexOf(thread);
    if (index >= 0) idle.splice(index, 1);
    const job = thread.job;
    thread.job = null;
    thread.port.close();
    void thread.worker.terminate();
    if (job) job.reject(error);
    dispatch();
  }

  /** A thread that exited on its own: out of heap, or a crash of what it runs. */
  function died(thread: Thread<Task>) {
    if (thread.ended) return;
    const outOfHeap = thread.death?.code === "ERR_WORKER_OUT_OF_MEMORY";
    if (thread.job) {
      logger?.warn(
        { maxMemoryMb: settings.maxMemoryMb, reason: thread.death?.message },
        outOfHeap ? `${settings.taskName} ran out of memory` : "a worker thread stopped",
      );
    }
    end(thread, outOfHeap ? failures.outOfMemory(settings.maxMemoryMb) : failures.stopped());
  }

  /** The answers already posted by busy threads (`takeThreadAnswers`). */
  function takeAnswers() {
    if (busy.size === 0) return;
    for (const thread of [...busy]) {
      const posted = receiveMessageOnPort(thread.port);
      if (posted) finish(thread, posted.message as TaskResponse);
    }
  }
  answerTakers.add(takeAnswers);

  return {
    run<Value>(
      task: Task,
      options: { timeoutMs: number; signal?: AbortSignal | undefined; transfer?: ArrayBuffer[] },
    ) {
      const { signal } = options;
      return new Promise<Value>((resolve, reject) => {
        if (closed) return reject(failures.closed());
        if (signal?.aborted) return reject(signal.reason);
        const job: Job<Task> = {
          id: nextId++,
          task,
          timeoutMs: options.timeoutMs,
          transfer: options.transfer ?? [],
          resolve: (value) => {
            signal?.removeEventListener("abort", abort);
            resolve(value as Value);
          },
          reject: (error) => {
            signal?.removeEventListener("abort", abort);
            reject(error);
          },
        };
        function abort() {
          const waiting = queue.indexOf(job);
          if (waiting >= 0) {
            queue.splice(waiting, 1);
            job.reject(signal?.reason);
            return;
          }
          const thread = [...busy].find((candidate) => candidate.job === job);
          if (thread) end(thread, signal?.reason);
        }
        signal?.addEventListener("abort", abort, { once: true });
        queue.push(job);
        dispatch();
      });
    },
    warm() {
      while (!closed && busy.size + idle.length < settings.threads) rest(spawn());
    },
    async close() {
      closed = true;
      answerTakers.delete(takeAnswers);
      for (const job of queue.splice(0)) job.reject(failures.closed());
      const threads = [...busy, ...idle];
      for (const thread of threads) end(thread, failures.closed());
      await Promise.all(threads.map((thread) => thread.worker.terminate()));
    },
  };
}

/**
 * The thread's side (its entry module calls it once): reads one task at a time, runs it, and
 * posts its result or its error back.
 */
export function answerTasks<Task>(run: (task: Task) => Promise<unknown> | unknown): void {
  const port = (workerData as ThreadData | null)?.tasks;
  if (!port) throw new Error("A thread pool's entry runs as a worker thread (createThreadPool)");
  port.on("message", async ({ id, task }: TaskRequest<Task>) => {
    let response: TaskResponse;
    try {
      response = { id, ok: true, value: await run(task) };
    } catch (error) {
      const { name, message } =
        error instanceof Error ? error : { name: "Error", message: String(error) };
      response = { id, ok: false, error: { name, message } };
    }
    port.postMessage(response);
  });
}
